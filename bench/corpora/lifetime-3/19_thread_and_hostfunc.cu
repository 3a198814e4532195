// Execs handed to std::thread workers and to cudaLaunchHostFunc callbacks.
// CORRECT: the worker destroys its exec; callbacks defer destruction to a
// retire queue that the owner drains (CUDA calls are illegal in host funcs).
#include <cuda_runtime.h>
#include <thread>
#include <mutex>
#include <vector>

static std::mutex g_retire_mu;
static std::vector<cudaGraphExec_t> g_retire;

static void CUDART_CB retire_cb(void *user) {
  std::lock_guard<std::mutex> lk(g_retire_mu);
  g_retire.push_back(static_cast<cudaGraphExec_t>(user));
}

void drain_retired() {
  std::vector<cudaGraphExec_t> v;
  {
    std::lock_guard<std::mutex> lk(g_retire_mu);
    v.swap(g_retire);
  }
  for (cudaGraphExec_t e : v) cudaGraphExecDestroy(e);
}

static void worker(cudaGraphExec_t e, int iters) {
  cudaStream_t s;
  cudaStreamCreate(&s);
  for (int i = 0; i < iters; ++i) cudaGraphLaunch(e, s);
  cudaStreamSynchronize(s);
  cudaGraphExecDestroy(e);
  cudaStreamDestroy(s);
}

int fan_out(cudaGraph_t g, int nthreads) {
  std::vector<std::thread> ts;
  for (int t = 0; t < nthreads; ++t) {
    cudaGraphExec_t e = nullptr;
    if (cudaGraphInstantiate(&e, g, 0) != cudaSuccess) break;
    ts.emplace_back(worker, e, 16);
  }
  for (auto &t : ts) t.join();
  return static_cast<int>(ts.size());
}

int fire_and_forget(cudaGraph_t g, cudaStream_t s) {
  cudaGraphExec_t e = nullptr;
  if (cudaGraphInstantiate(&e, g, 0) != cudaSuccess) return 1;
  cudaGraphLaunch(e, s);
  // The exec is retired once the stream passes this point.
  cudaLaunchHostFunc(s, retire_cb, static_cast<void *>(e));
  return 0;
}

int lambda_thread(cudaGraph_t g) {
  cudaGraphExec_t e;
  if (cudaGraphInstantiate(&e, g, 0) != cudaSuccess) return 1;
  std::thread th([e] {
    cudaStream_t s;
    cudaStreamCreate(&s);
    cudaGraphLaunch(e, s);
    cudaStreamSynchronize(s);
    cudaGraphExecDestroy(e);
    cudaStreamDestroy(s);
  });
  th.join();
  return 0;
}
