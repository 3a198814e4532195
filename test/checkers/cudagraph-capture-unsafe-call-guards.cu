// RUN: %check_cudagraph_tidy %s cudagraph-capture-unsafe-call %t
// RUN: %check_cudagraph_tidy %s cudagraph-capture-unsafe-call %t -check-suffixes=BUGGY -- -DBUGGY
//
// What a capture allows depends on its mode and on which stream a call
// names: a relaxed capture lets the host wait for another stream (measured,
// docs/capture-modes.md), and a helper that answers "capturing" when its
// query fails still answers it while the stream captures.
#include <cuda_runtime.h>

__global__ void scale(float *x, int n) {
  if ((int)threadIdx.x < n)
    x[threadIdx.x] *= 2.f;
}

// The prefetch stream's copy must be done before the graph first runs.
int build(float *d, const float *h, int n, cudaStream_t main_s, cudaStream_t prefetch,
          cudaGraph_t *out) {
  cudaMemcpyAsync(d, h, n * sizeof(float), cudaMemcpyHostToDevice, prefetch);
  if (cudaStreamBeginCapture(main_s, cudaStreamCaptureModeRelaxed) != cudaSuccess)
    return -1;
#ifndef BUGGY
  cudaStreamSynchronize(prefetch);
  if (cudaStreamQuery(prefetch) != cudaSuccess)
    cudaStreamSynchronize(prefetch);
#else
  cudaStreamSynchronize(main_s);
  // CHECK-MESSAGES-BUGGY: :[[@LINE-1]]:3: warning: 'cudaStreamSynchronize' is called while stream 'main_s' is capturing{{.*}} [cudagraph-capture-unsafe-call]
#endif
  scale<<<1, 128, 0, main_s>>>(d, n);
  return cudaStreamEndCapture(main_s, out) == cudaSuccess ? 0 : -1;
}

// Global mode forbids the wait on any stream.
int build_global(float *d, int n, cudaStream_t main_s, cudaStream_t other, cudaGraph_t *out) {
  if (cudaStreamBeginCapture(main_s, cudaStreamCaptureModeGlobal) != cudaSuccess)
    return -1;
#ifdef BUGGY
  cudaStreamSynchronize(other);
  // CHECK-MESSAGES-BUGGY: :[[@LINE-1]]:3: warning: 'cudaStreamSynchronize' is called while stream 'main_s' is capturing{{.*}} [cudagraph-capture-unsafe-call]
#endif
  scale<<<1, 128, 0, main_s>>>(d, n);
  return cudaStreamEndCapture(main_s, out) == cudaSuccess ? 0 : -1;
}

static bool in_capture(cudaStream_t s) {
  cudaStreamCaptureStatus status = cudaStreamCaptureStatusNone;
  if (cudaStreamIsCapturing(s, &status) != cudaSuccess)
    return true; // cannot tell: behave as if capturing
#ifndef BUGGY
  return status == cudaStreamCaptureStatusActive;
#else
  return status != cudaStreamCaptureStatusActive;
#endif
}

cudaError_t layers(float *d, int n, int depth, cudaStream_t s, bool graph, bool check,
                   cudaGraph_t *out) {
  if (graph && cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal) != cudaSuccess)
    return cudaErrorUnknown;
  for (int l = 0; l < depth; ++l) {
    scale<<<1, 128, 0, s>>>(d, n);
    if (check && !in_capture(s))
      cudaStreamSynchronize(s);
    // CHECK-MESSAGES-BUGGY: :[[@LINE-1]]:7: warning: 'cudaStreamSynchronize' is called while stream 's' is capturing{{.*}} [cudagraph-capture-unsafe-call]
  }
  if (graph)
    return cudaStreamEndCapture(s, out);
  return cudaGetLastError();
}

// A capture begun by a method on the member the object's constructor set
// from the caller's stream is a capture on that stream: the caller's guard
// asks about it by the stream's own name.
class CaptureOwner {
public:
  explicit CaptureOwner(cudaStream_t s) : s_(s) {}
  cudaError_t begin() { return cudaStreamBeginCapture(s_, cudaStreamCaptureModeGlobal); }
  cudaError_t end(cudaGraph_t *g) { return cudaStreamEndCapture(s_, g); }

private:
  cudaStream_t s_ = nullptr;
};

cudaError_t guarded_through_owner(float *d, int n, cudaStream_t s) {
  CaptureOwner r(s);
  if (r.begin() != cudaSuccess)
    return cudaErrorUnknown;
  scale<<<1, 128, 0, s>>>(d, n);
  cudaStreamCaptureStatus st = cudaStreamCaptureStatusNone;
#ifndef BUGGY
  if (cudaStreamIsCapturing(s, &st) == cudaSuccess && st == cudaStreamCaptureStatusNone)
    cudaStreamSynchronize(s);
#else
  if (cudaStreamIsCapturing(s, &st) == cudaSuccess && st != cudaStreamCaptureStatusNone)
    cudaStreamSynchronize(s);
  // CHECK-MESSAGES-BUGGY: :[[@LINE-1]]:5: warning: 'cudaStreamSynchronize' is called while stream 's' is capturing{{.*}} [cudagraph-capture-unsafe-call]
#endif
  cudaGraph_t g = nullptr;
  if (r.end(&g) != cudaSuccess)
    return cudaErrorUnknown;
  cudaGraphDestroy(g);
  return cudaSuccess;
}
