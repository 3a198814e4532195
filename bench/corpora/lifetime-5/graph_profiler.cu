// Micro-profiler for CUDA graph overheads: instantiate cost, launch latency
// and upload cost as a function of graph size. Graphs are instantiated many
// times in loops, so every iteration must release what it created.
#include <cuda_runtime.h>
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <numeric>
#include <vector>

namespace gprof {

__global__ void noop() {}

struct Sample {
  int nodes;
  double inst_us;
  double launch_us;
  double upload_us;
};

static cudaGraph_t make_chain(int nodes) {
  cudaGraph_t g = nullptr;
  cudaGraphCreate(&g, 0);
  cudaKernelNodeParams kp = {};
  kp.func = reinterpret_cast<void*>(noop);
  kp.gridDim = dim3(1);
  kp.blockDim = dim3(32);
  cudaGraphNode_t prev = nullptr;
  for (int i = 0; i < nodes; ++i) {
    cudaGraphNode_t n;
    cudaGraphAddKernelNode(&n, g, prev ? &prev : nullptr, prev ? 1 : 0, &kp);
    prev = n;
  }
  return g;
}

// Instantiates through an out-parameter and reports the host time taken.
static cudaError_t instantiate_timed(cudaGraphExec_t* out, cudaGraph_t g, double* us) {
  auto t0 = std::chrono::steady_clock::now();
  cudaError_t err = cudaGraphInstantiate(out, g, 0);
  auto t1 = std::chrono::steady_clock::now();
  *us = std::chrono::duration<double, std::micro>(t1 - t0).count();
  return err;
}

static double median(std::vector<double> v) {
  if (v.empty()) return 0.0;
  std::sort(v.begin(), v.end());
  return v[v.size() / 2];
}

// Instantiate cost: N instantiations of the same graph, each destroyed.
double measure_instantiate(int nodes, int reps) {
  cudaGraph_t g = make_chain(nodes);
  std::vector<double> t;
  for (int r = 0; r < reps; ++r) {
    cudaGraphExec_t e = nullptr;
    double us = 0;
    if (instantiate_timed(&e, g, &us) != cudaSuccess) break;
    t.push_back(us);
    cudaGraphExecDestroy(e);
  }
  cudaGraphDestroy(g);
  return median(t);
}

// Launch latency: one exec launched many times.
double measure_launch(int nodes, int reps, cudaStream_t s) {
  cudaGraph_t g = make_chain(nodes);
  cudaGraphExec_t e = nullptr;
  double ignored;
  cudaError_t err = instantiate_timed(&e, g, &ignored);
  cudaGraphDestroy(g);
  if (err != cudaSuccess) return -1.0;
  cudaGraphLaunch(e, s);  // warm
  cudaStreamSynchronize(s);
  std::vector<double> t;
  for (int r = 0; r < reps; ++r) {
    auto t0 = std::chrono::steady_clock::now();
    cudaGraphLaunch(e, s);
    cudaStreamSynchronize(s);
    auto t1 = std::chrono::steady_clock::now();
    t.push_back(std::chrono::duration<double, std::micro>(t1 - t0).count());
  }
  cudaGraphExecDestroy(e);
  return median(t);
}

// Upload cost: each repetition re-instantiates into the same handle.
double measure_upload(int nodes, int reps, cudaStream_t s) {
  cudaGraph_t g = make_chain(nodes);
  cudaGraphExec_t e = nullptr;
  std::vector<double> t;
  for (int r = 0; r < reps; ++r) {
    if (cudaGraphInstantiate(&e, g, 0) != cudaSuccess) break;  // EXPECT: cudagraph-unpaired-instantiate
    auto t0 = std::chrono::steady_clock::now();
    cudaGraphUpload(e, s);
    cudaStreamSynchronize(s);
    auto t1 = std::chrono::steady_clock::now();
    t.push_back(std::chrono::duration<double, std::micro>(t1 - t0).count());
  }
  if (e) cudaGraphExecDestroy(e);
  cudaGraphDestroy(g);
  return median(t);
}

// First-launch penalty: fresh exec each time, timed first launch.
double measure_first_launch(int nodes, int reps, cudaStream_t s) {
  cudaGraph_t g = make_chain(nodes);
  std::vector<double> t;
  for (int r = 0; r < reps; ++r) {
    cudaGraphExec_t e = nullptr;
    double us;
    if (instantiate_timed(&e, g, &us) != cudaSuccess) continue;  // EXPECT: cudagraph-unpaired-instantiate
    auto t0 = std::chrono::steady_clock::now();
    if (cudaGraphLaunch(e, s) != cudaSuccess) continue;
    cudaStreamSynchronize(s);
    auto t1 = std::chrono::steady_clock::now();
    t.push_back(std::chrono::duration<double, std::micro>(t1 - t0).count());
    cudaGraphExecDestroy(e);
  }
  cudaGraphDestroy(g);
  return median(t);
}

// Instantiate cost with the device-launch flag; destroyed right away.
bool supports_device_launch(int nodes) {
  cudaGraph_t g = make_chain(nodes);
  cudaGraphExec_t e = nullptr;
  cudaError_t err = cudaGraphInstantiate(&e, g, cudaGraphInstantiateFlagDeviceLaunch);
  if (err == cudaSuccess) cudaGraphExecDestroy(e);
  cudaGraphDestroy(g);
  return err == cudaSuccess;
}

// Keeps the largest exec of the sweep alive for an external trace dump.
cudaGraphExec_t g_trace_exec = nullptr;

std::vector<Sample> sweep(cudaStream_t s, const std::vector<int>& sizes, int reps) {
  std::vector<Sample> out;
  for (int n : sizes) {
    Sample smp{};
    smp.nodes = n;
    smp.inst_us = measure_instantiate(n, reps);
    smp.launch_us = measure_launch(n, reps, s);
    smp.upload_us = measure_upload(n, reps, s);
    out.push_back(smp);
  }
  if (!sizes.empty()) {
    cudaGraph_t g = make_chain(*std::max_element(sizes.begin(), sizes.end()));
    if (g_trace_exec) cudaGraphExecDestroy(g_trace_exec);
    cudaGraphInstantiate(&g_trace_exec, g, 0);
    cudaGraphDestroy(g);
  }
  return out;
}

}  // namespace gprof

int profiler_main() {
  cudaStream_t s;
  cudaStreamCreate(&s);
  std::vector<int> sizes = {1, 4, 16, 64, 256, 1024};
  auto res = gprof::sweep(s, sizes, 50);
  for (auto& r : res)
    std::printf("%5d nodes: inst %.1f us, launch %.1f us, upload %.1f us\n", r.nodes, r.inst_us, r.launch_us, r.upload_us);
  std::printf("first launch (64): %.1f us\n", gprof::measure_first_launch(64, 10, s));
  std::printf("device launch: %s\n", gprof::supports_device_launch(8) ? "yes" : "no");
  if (gprof::g_trace_exec) cudaGraphExecDestroy(gprof::g_trace_exec);
  cudaStreamDestroy(s);
  return 0;
}
