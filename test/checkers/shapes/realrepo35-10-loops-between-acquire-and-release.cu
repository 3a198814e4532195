// RUN: %cudagraph_tidy --format=text-plain --result-cache=off --quiet %s -- %cuda_args 2>&1 | FileCheck %s --check-prefix=CLEAN --allow-empty
// RUN: not %cudagraph_tidy --format=text-plain --result-cache=off --quiet %s -- %cuda_args -DBUGGY 2>&1 | FileCheck %s --check-prefix=BUGGY
// CLEAN-NOT: warning:
// BUGGY: loops-between-acquire-and-release.cu:43:{{.*}} warning: pinned host memory 'ref' created by 'cudaMallocHost' is not released on every path
// BUGGY-NOT: warning:
// Reduction of the last false alarms on real code (issue 35, class 3; a multi-GPU Jacobi
// solver's main(), 280 lines): pinned memory allocated on the first device's iteration of
// the set-up loop and freed on the same device's iteration of a count-down clean-up loop.
// Between them: a solver loop with three inner loops, checked calls, branches on flags
// and a result check reading the buffer element by element through std::fabs.
// FP: the witness search forked on every branch and walked every loop around them; it ran
// out of its query budget, so the finding was kept unconfirmed. Now a branch whose ways
// meet again, and a whole loop entered from before it, are crossed in one step when no
// resource changes in them (MergedRegions.cpp); the success arm of a checked call costs
// no query; a local of the loop body is no pivot; and reading a number out of a buffer
// (std::fabs(ref[i])) no longer counts as handing the buffer on.
// Buggy twin (-DBUGGY): the clean-up loop stops before device 0, so 'ref' leaks.
#include <cuda_runtime.h>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <utility>

#define CK(call)                                                                 \
  do {                                                                           \
    cudaError_t e_ = (call);                                                     \
    if (e_ != cudaSuccess) {                                                     \
      fprintf(stderr, "%s\n", cudaGetErrorString(e_));                           \
      exit(1);                                                                   \
    }                                                                            \
  } while (0)
#define MAXD 8

int main(int argc, char **argv) {
  float *ref, *a[MAXD], *norm_h[MAXD];
  cudaStream_t s[MAXD];
  int chunk[MAXD];
  int n = 0;
  bool csv = argc > 2;
  CK(cudaGetDeviceCount(&n));
  for (int d = 0; d < n; ++d) {
    CK(cudaSetDevice(d));
    if (0 == d) CK(cudaMallocHost(&ref, 1024 * sizeof(float)));
    int low = 1022 / n;
    if (d < low) chunk[d] = low; else chunk[d] = low + 1;
    CK(cudaMalloc(a + d, 1024 * sizeof(float)));
    CK(cudaStreamCreate(s + d));
    CK(cudaMallocHost(norm_h + d, sizeof(float)));
    if (argc > 3) {
      int peer = 0;
      CK(cudaDeviceCanAccessPeer(&peer, d, (d + 1) % n));
      if (peer) CK(cudaDeviceEnablePeerAccess((d + 1) % n, 0));
    }
  }
  int iter = 0;
  float l2 = 1.f;
  bool calc = true;
  while (l2 > 1e-5f && iter < 100) {
    for (int d = 0; d < n; ++d) {
      CK(cudaSetDevice(d));
      calc = (iter % 10) == 0 || (!csv && (iter % 100) == 0);
      CK(cudaMemsetAsync(a[d], 0, 4 * chunk[d], s[d]));
      if (calc) CK(cudaMemcpyAsync(norm_h[d], a[d], 4, cudaMemcpyDeviceToHost, s[d]));
    }
    if (calc) {
      l2 = 0;
      for (int d = 0; d < n; ++d) {
        CK(cudaStreamSynchronize(s[d]));
        l2 += *norm_h[d];
      }
      if (!csv && (iter % 100) == 0) printf("%d %f\n", iter, l2);
    }
    for (int d = 0; d < n; ++d) std::swap(a[d], a[(d + 1) % n]);
    iter++;
  }
  bool correct = true;
  for (int i = 1; correct && i < 1023; ++i)
    if (std::fabs(ref[i] - ref[i - 1]) > 1e-3f) {
      fprintf(stderr, "mismatch at %d: %f\n", i, ref[i]);
      correct = false;
    }
#ifdef BUGGY
  for (int d = n - 1; d > 0; --d) {
#else
  for (int d = n - 1; d >= 0; --d) {
#endif
    CK(cudaSetDevice(d));
    CK(cudaStreamDestroy(s[d]));
    CK(cudaFreeHost(norm_h[d]));
    CK(cudaFree(a[d]));
    if (0 == d) CK(cudaFreeHost(ref));
  }
  return correct ? 0 : 1;
}
