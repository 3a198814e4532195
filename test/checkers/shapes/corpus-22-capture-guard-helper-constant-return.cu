// RUN: %cudagraph_tidy --format=text-plain --result-cache=off --quiet %s -- %cuda_args 2>&1 | FileCheck %s --check-prefix=CLEAN --allow-empty
// RUN: not %cudagraph_tidy --format=text-plain --result-cache=off --quiet %s -- %cuda_args -DBUGGY 2>&1 | FileCheck %s --check-prefix=BUGGY
// CLEAN-NOT: warning:
// BUGGY: warning: {{.*}} [cudagraph-capture-unsafe-call]
// Reduction corpus/22-capture-guard-helper-constant-return.cu of ../shared/shapes/2026-12-04 (issues 35, 36).
// Class: a helper that asks whether its stream captures is a capture guard only if *every*
// return compares the queried status; a conservative `if (query fails) return true;`
// (a constant with the same polarity) makes the helper opaque, so the guarded sync is
// reported inside the capture.
// Clean: the debug sync is skipped while capturing; reported (FP). Without the failure
//   return the helper is recognised and the clean version is silent.
// Buggy twin (-DBUGGY): the helper's test is inverted (syncs exactly while capturing); must report.
#include <cuda_runtime.h>
__global__ void k(float* x) { x[threadIdx.x] += 1.f; }
static bool capturing(cudaStream_t s) {
  cudaStreamCaptureStatus st = cudaStreamCaptureStatusNone;
  if (cudaStreamIsCapturing(s, &st) != cudaSuccess) return true;  // be conservative
#ifndef BUGGY
  return st != cudaStreamCaptureStatusNone;
#else
  return st == cudaStreamCaptureStatusNone;
#endif
}
cudaError_t forward(float* d, int layers, cudaStream_t s, bool record, bool debug, cudaGraph_t* out) {
  if (record) {
    cudaError_t e = cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal);
    if (e != cudaSuccess) return e;
  }
  for (int l = 0; l < layers; ++l) {
    k<<<1, 32, 0, s>>>(d);
    if (debug && !capturing(s)) cudaStreamSynchronize(s);
  }
  if (record) return cudaStreamEndCapture(s, out);
  return cudaGetLastError();
}
