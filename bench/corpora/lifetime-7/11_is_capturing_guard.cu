// Library code that must not instantiate while the caller's stream is being
// captured (nested capture), so it checks cudaStreamIsCapturing first.
#include <cuda_runtime.h>

__global__ void normKernel(float *x, int n) {}

void launchPlain(float *x, int n, cudaStream_t s) { normKernel<<<1, 256, 0, s>>>(x, n); }

// Correct: when capturing, the kernel is enqueued into the caller's capture;
// otherwise a private graph is instantiated, launched and destroyed.
cudaError_t layerNorm(float *x, int n, cudaStream_t s) {
  cudaStreamCaptureStatus st = cudaStreamCaptureStatusNone;
  cudaError_t e = cudaStreamIsCapturing(s, &st);
  if (e != cudaSuccess)
    return e;
  if (st == cudaStreamCaptureStatusActive) {
    launchPlain(x, n, s);
    return cudaGetLastError();
  }
  if (st == cudaStreamCaptureStatusInvalidated)
    return cudaErrorStreamCaptureInvalidated;

  cudaGraph_t g;
  cudaStreamBeginCapture(s, cudaStreamCaptureModeThreadLocal);
  launchPlain(x, n, s);
  e = cudaStreamEndCapture(s, &g);
  if (e != cudaSuccess)
    return e;
  cudaGraphExec_t exec;
  e = cudaGraphInstantiate(&exec, g, 0);
  cudaGraphDestroy(g);
  if (e != cudaSuccess)
    return e;
  e = cudaGraphLaunch(exec, s);
  cudaGraphExecDestroy(exec);
  return e;
}

// Buggy: after instantiating, the code re-checks capture status (someone may
// have started a capture on another thread) and bails out without cleanup.
cudaError_t layerNormRacy(float *x, int n, cudaStream_t s, cudaGraph_t g) {
  cudaGraphExec_t exec;
  cudaError_t e = cudaGraphInstantiate(&exec, g, 0); // EXPECT: cudagraph-unpaired-instantiate
  if (e != cudaSuccess)
    return e;
  cudaStreamCaptureStatus st;
  cudaStreamIsCapturing(s, &st);
  if (st != cudaStreamCaptureStatusNone)
    return cudaErrorStreamCaptureUnsupported;
  e = cudaGraphLaunch(exec, s);
  cudaGraphExecDestroy(exec);
  return e;
}

// Correct: cached exec kept in a function-local static (a global).
cudaError_t cachedNorm(float *x, int n, cudaStream_t s) {
  static cudaGraphExec_t cached = nullptr;
  cudaStreamCaptureStatus st;
  cudaStreamIsCapturing(s, &st);
  if (st != cudaStreamCaptureStatusNone) {
    launchPlain(x, n, s);
    return cudaSuccess;
  }
  if (!cached) {
    cudaGraph_t g;
    cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal);
    launchPlain(x, n, s);
    cudaStreamEndCapture(s, &g);
    cudaGraphInstantiate(&cached, g, 0);
    cudaGraphDestroy(g);
  }
  return cudaGraphLaunch(cached, s);
}
