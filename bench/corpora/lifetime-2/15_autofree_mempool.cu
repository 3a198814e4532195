// Graphs with stream-ordered allocations: AutoFreeOnLaunch and device launch flags.
#include <cuda_runtime.h>

__global__ void scratch_kernel(float* tmp, const float* in, float* out, int n) {}

static cudaGraph_t capture_with_alloc(cudaStream_t s, const float* in, float* out, int n) {
  cudaGraph_t g;
  cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal);
  float* tmp = nullptr;
  cudaMallocAsync(&tmp, n * sizeof(float), s);
  scratch_kernel<<<(n + 255) / 256, 256, 0, s>>>(tmp, in, out, n);
  cudaFreeAsync(tmp, s);
  cudaStreamEndCapture(s, &g);
  return g;
}

// Correct: auto-free exec launched repeatedly and destroyed.
void run_autofree(cudaStream_t s, const float* in, float* out, int n, int reps) {
  cudaGraph_t g = capture_with_alloc(s, in, out, n);
  cudaGraphExec_t e;
  cudaGraphInstantiateWithFlags(&e, g, cudaGraphInstantiateFlagAutoFreeOnLaunch);
  cudaGraphDestroy(g);
  for (int i = 0; i < reps; ++i) cudaGraphLaunch(e, s);
  cudaStreamSynchronize(s);
  cudaGraphExecDestroy(e);
}

// Buggy: AutoFreeOnLaunch does not free the exec itself.
void run_autofree_leaky(cudaStream_t s, const float* in, float* out, int n) {
  cudaGraph_t g = capture_with_alloc(s, in, out, n);
  cudaGraphExec_t e;
  cudaGraphInstantiateWithFlags(&e, g, cudaGraphInstantiateFlagAutoFreeOnLaunch);  // EXPECT: cudagraph-unpaired-instantiate
  cudaGraphDestroy(g);
  cudaGraphLaunch(e, s);
  cudaStreamSynchronize(s);
}

// Buggy: a graph with an alloc node is instantiated a second time while the first exec lives.
void double_instantiate_alloc_graph(cudaStream_t s, const float* in, float* out, int n) {
  cudaGraph_t g = capture_with_alloc(s, in, out, n);
  cudaGraphExec_t e;
  cudaGraphInstantiateWithFlags(&e, g, cudaGraphInstantiateFlagAutoFreeOnLaunch);
  cudaGraphLaunch(e, s);
  cudaGraphInstantiateWithFlags(&e, g, cudaGraphInstantiateFlagAutoFreeOnLaunch);  // EXPECT: cudagraph-unpaired-instantiate
  cudaGraphLaunch(e, s);
  cudaGraphExecDestroy(e);
  cudaGraphDestroy(g);
}

// Correct: device-launchable exec stored in a global for a persistent scheduler kernel.
cudaGraphExec_t g_device_exec = nullptr;

cudaError_t prepare_device_graph(cudaStream_t s, const float* in, float* out, int n) {
  cudaGraph_t g = capture_with_alloc(s, in, out, n);
  cudaError_t err = cudaGraphInstantiateWithFlags(&g_device_exec, g, cudaGraphInstantiateFlagDeviceLaunch);
  cudaGraphDestroy(g);
  if (err != cudaSuccess) return err;
  return cudaGraphUpload(g_device_exec, s);
}

// Correct: flags chosen at run time; exec destroyed on both outcomes.
cudaError_t run_maybe_autofree(cudaStream_t s, cudaGraph_t g, bool autofree) {
  unsigned long long flags = autofree ? cudaGraphInstantiateFlagAutoFreeOnLaunch : 0;
  cudaGraphExec_t e;
  cudaError_t err = cudaGraphInstantiateWithFlags(&e, g, flags);
  if (err != cudaSuccess) return err;
  err = cudaGraphLaunch(e, s);
  cudaGraphExecDestroy(e);
  return err;
}
