// Event record / wait nodes joining two streams during capture (fork/join),
// with C-style goto cleanup.
#include <cuda_runtime.h>
#include <vector>

__global__ void producer(float *buf, int n) {}
__global__ void consumer(const float *buf, float *out, int n) {}

static std::vector<cudaGraphExec_t> g_pipelines;

// Correct: the exec is stored in a global container.
int buildPipeline(float *buf, float *out, int n) {
  int rc = -1;
  cudaStream_t main = nullptr, side = nullptr;
  cudaEvent_t fork = nullptr, join = nullptr;
  cudaGraph_t g = nullptr;
  cudaGraphExec_t exec = nullptr;
  if (cudaStreamCreate(&main) != cudaSuccess) goto out;
  if (cudaStreamCreate(&side) != cudaSuccess) goto out;
  cudaEventCreateWithFlags(&fork, cudaEventDisableTiming);
  cudaEventCreateWithFlags(&join, cudaEventDisableTiming);
  cudaStreamBeginCapture(main, cudaStreamCaptureModeGlobal);
  cudaEventRecord(fork, main);
  cudaStreamWaitEvent(side, fork, 0);
  producer<<<1, 256, 0, side>>>(buf, n);
  cudaEventRecord(join, side);
  cudaStreamWaitEvent(main, join, 0);
  consumer<<<1, 256, 0, main>>>(buf, out, n);
  if (cudaStreamEndCapture(main, &g) != cudaSuccess) goto out;
  if (cudaGraphInstantiate(&exec, g, 0) != cudaSuccess) goto out;
  g_pipelines.push_back(exec);
  rc = static_cast<int>(g_pipelines.size()) - 1;
out:
  if (g) cudaGraphDestroy(g);
  if (join) cudaEventDestroy(join);
  if (fork) cudaEventDestroy(fork);
  if (side) cudaStreamDestroy(side);
  if (main) cudaStreamDestroy(main);
  return rc;
}

// Buggy: explicit event nodes; the launch failure jumps to a label placed
// after the exec cleanup.
int explicitEventGraph(cudaEvent_t ev, cudaStream_t s) {
  int rc = 0;
  cudaGraph_t g;
  cudaGraphExec_t exec;
  cudaGraphNode_t rec, wait;
  cudaGraphCreate(&g, 0);
  cudaGraphAddEventRecordNode(&rec, g, nullptr, 0, ev);
  cudaGraphAddEventWaitNode(&wait, g, &rec, 1, ev);
  if (cudaGraphInstantiate(&exec, g, 0) != cudaSuccess) { // EXPECT: cudagraph-unpaired-instantiate
    rc = -1;
    goto free_graph;
  }
  if (cudaGraphLaunch(exec, s) != cudaSuccess) {
    rc = -2;
    goto free_graph;  // skips free_exec
  }
  cudaStreamSynchronize(s);
free_exec:
  cudaGraphExecDestroy(exec);
free_graph:
  cudaGraphDestroy(g);
  return rc;
}

// Correct: same shape with the labels in the right order.
int explicitEventGraphFixed(cudaEvent_t ev, cudaStream_t s) {
  int rc = 0;
  cudaGraph_t g;
  cudaGraphExec_t exec;
  cudaGraphNode_t rec, wait;
  cudaGraphCreate(&g, 0);
  cudaGraphAddEventRecordNode(&rec, g, nullptr, 0, ev);
  cudaGraphAddEventWaitNode(&wait, g, &rec, 1, ev);
  if (cudaGraphInstantiate(&exec, g, 0) != cudaSuccess) {
    rc = -1;
    goto free_graph;
  }
  if (cudaGraphLaunch(exec, s) != cudaSuccess) {
    rc = -2;
    goto free_exec;
  }
  cudaStreamSynchronize(s);
free_exec:
  cudaGraphExecDestroy(exec);
free_graph:
  cudaGraphDestroy(g);
  return rc;
}
