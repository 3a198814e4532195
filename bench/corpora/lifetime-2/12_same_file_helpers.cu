// Helpers defined in the same file (analysed) and external ones (escapes).
#include <cuda_runtime.h>
#include <cstdio>

// Declared only: implemented in another translation unit (e.g. a registry).
void graph_registry_adopt(const char* name, cudaGraphExec_t exec);
void telemetry_record(cudaGraphExec_t* exec_slot);

__global__ void rope(float* q, float* k, int n) {}

static void destroy_exec(cudaGraphExec_t e) {
  if (e) cudaGraphExecDestroy(e);
}

static void log_exec(const char* tag, cudaGraphExec_t e) {
  std::printf("[%s] exec=%p\n", tag, (void*)e);
}

static bool launch_and_sync(cudaGraphExec_t e, cudaStream_t s) {
  if (cudaGraphLaunch(e, s) != cudaSuccess) return false;
  return cudaStreamSynchronize(s) == cudaSuccess;
}

static void finish(cudaGraphExec_t e, cudaStream_t s) {
  cudaStreamSynchronize(s);
  destroy_exec(e);
}

// Correct: a same-file helper destroys the exec.
void rope_graph(cudaGraph_t g, cudaStream_t s) {
  cudaGraphExec_t e;
  cudaGraphInstantiate(&e, g, 0);
  launch_and_sync(e, s);
  destroy_exec(e);
}

// Correct: destroyed two helper levels down.
void rope_graph_nested(cudaGraph_t g, cudaStream_t s) {
  cudaGraphExec_t e;
  cudaGraphInstantiate(&e, g, 0);
  cudaGraphLaunch(e, s);
  finish(e, s);
}

// Not labelled (relabelled after the first run, see README): a real leak, but the
// helper passes the exec by value to printf, which the specification counts as an
// escape (not in the CUDA model, not defined in this file).
void rope_graph_logged(cudaGraph_t g, cudaStream_t s) {
  cudaGraphExec_t e;
  cudaGraphInstantiate(&e, g, 0);
  log_exec("rope", e);
  launch_and_sync(e, s);
}

// Correct: handed to an external registry (unknown function, by value).
void rope_graph_registered(cudaGraph_t g, cudaStream_t s) {
  cudaGraphExec_t e;
  if (cudaGraphInstantiate(&e, g, 0) != cudaSuccess) return;
  cudaGraphLaunch(e, s);
  graph_registry_adopt("rope", e);
}

// Correct: passed by address to an external function.
void rope_graph_telemetry(cudaGraph_t g) {
  cudaGraphExec_t e;
  if (cudaGraphInstantiate(&e, g, 0) != cudaSuccess) return;
  telemetry_record(&e);
}

// Buggy: the helper reports failure and the caller returns without cleanup.
bool rope_graph_checked(cudaGraph_t g, cudaStream_t s) {
  cudaGraphExec_t e;
  if (cudaGraphInstantiate(&e, g, 0) != cudaSuccess) return false;  // EXPECT: cudagraph-unpaired-instantiate
  if (!launch_and_sync(e, s)) return false;
  destroy_exec(e);
  return true;
}

// Correct: helper destroys on both branches.
bool rope_graph_checked_fixed(cudaGraph_t g, cudaStream_t s) {
  cudaGraphExec_t e;
  if (cudaGraphInstantiate(&e, g, 0) != cudaSuccess) return false;
  bool ok = launch_and_sync(e, s);
  destroy_exec(e);
  return ok;
}
