// Multi-threaded capture: each worker thread owns a stream and captures with
// cudaStreamCaptureModeThreadLocal so captures do not interfere.
#include <cuda_runtime.h>
#include <thread>
#include <vector>

__global__ void shardKernel(float *shard, int n) {}

// Correct: each worker instantiates, replays and destroys its own exec.
void runShards(std::vector<float *> &shards, int n, int replays) {
  std::vector<std::thread> workers;
  for (size_t i = 0; i < shards.size(); ++i) {
    workers.emplace_back([&, i] {
      cudaStream_t s;
      cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking);
      cudaStreamBeginCapture(s, cudaStreamCaptureModeThreadLocal);
      shardKernel<<<(n + 255) / 256, 256, 0, s>>>(shards[i], n);
      cudaGraph_t g;
      cudaStreamEndCapture(s, &g);
      cudaGraphExec_t exec;
      if (cudaGraphInstantiate(&exec, g, 0) == cudaSuccess) {
        for (int r = 0; r < replays; ++r)
          cudaGraphLaunch(exec, s);
        cudaStreamSynchronize(s);
        cudaGraphExecDestroy(exec);
      }
      cudaGraphDestroy(g);
      cudaStreamDestroy(s);
    });
  }
  for (auto &t : workers) t.join();
}

// Correct: the execs are published into per-thread slots owned by the caller.
void buildShardExecs(std::vector<float *> &shards, int n,
                     std::vector<cudaGraphExec_t> &slots) {
  slots.assign(shards.size(), nullptr);
  std::vector<std::thread> workers;
  for (size_t i = 0; i < shards.size(); ++i) {
    workers.emplace_back([&slots, &shards, n, i] {
      cudaStream_t s;
      cudaStreamCreate(&s);
      cudaStreamBeginCapture(s, cudaStreamCaptureModeThreadLocal);
      shardKernel<<<1, 256, 0, s>>>(shards[i], n);
      cudaGraph_t g;
      cudaStreamEndCapture(s, &g);
      cudaGraphInstantiate(&slots[i], g, 0);
      cudaGraphDestroy(g);
      cudaStreamDestroy(s);
    });
  }
  for (auto &t : workers) t.join();
}

// Buggy: the worker lambda bails out on an error from the first replay and
// leaks the exec it just created.
void runShardsBuggy(std::vector<float *> &shards, int n) {
  std::vector<std::thread> workers;
  for (size_t i = 0; i < shards.size(); ++i) {
    workers.emplace_back([&shards, n, i] {
      cudaStream_t s;
      cudaStreamCreate(&s);
      cudaStreamBeginCapture(s, cudaStreamCaptureModeThreadLocal);
      shardKernel<<<1, 256, 0, s>>>(shards[i], n);
      cudaGraph_t g;
      cudaStreamEndCapture(s, &g);
      cudaGraphExec_t exec;
      cudaGraphInstantiate(&exec, g, 0); // EXPECT: cudagraph-unpaired-instantiate
      cudaGraphDestroy(g);
      if (cudaGraphLaunch(exec, s) != cudaSuccess) {
        cudaStreamDestroy(s);
        return;
      }
      cudaStreamSynchronize(s);
      cudaGraphExecDestroy(exec);
      cudaStreamDestroy(s);
    });
  }
  for (auto &t : workers) t.join();
}

// Correct: exec created on the main thread, captured by a lambda that is
// handed to std::thread (escapes), destroyed after join.
void launchFromWorker(cudaGraph_t g, cudaStream_t s) {
  cudaGraphExec_t exec;
  if (cudaGraphInstantiate(&exec, g, 0) != cudaSuccess)
    return;
  std::thread t([exec, s] { cudaGraphLaunch(exec, s); });
  t.join();
  cudaGraphExecDestroy(exec);
}
