// RUN: %cudagraph_tidy --format=text-plain --result-cache=off --quiet %s -- %cuda_args 2>&1 | FileCheck %s --check-prefix=CLEAN --allow-empty
// RUN: not %cudagraph_tidy --format=text-plain --result-cache=off --quiet %s -- %cuda_args -DBUGGY 2>&1 | FileCheck %s --check-prefix=BUGGY
// CLEAN-NOT: warning:
// BUGGY: warning: __shared__ array 's' is indexed out of bounds: the index reaches 128 but the array has 128 elements [cudagraph-shared-index-overflow]
// Reduction corpus/29-shared-index-in-conditional-operator.cu of ../shared/shapes/2026-12-04 (issues 35, 36).
// Class: a __shared__ access in an arm of `?:` whose condition compares a global coordinate
// with a kernel parameter (`i + 1 < n ? s[t + 1] : 0.f`). For `if` such a guard holds in every
// interior block, so the overflow is definite; for `?:` an undecided condition marks both arms
// as guarded: "possible" at best, hidden by default.
// Clean: the neighbour past the tile is read from global memory; silent.
// Buggy twin (-DBUGGY): thread 127 reads s[128] in every interior block; reported, as the
//   same access written `if (i + 1 < n) nx = s[t + 1];` is: the arms of `?:` and the right
//   sides of `&&`/`||` are entered as an `if`'s arms (guard and narrowing).
#include <cuda_runtime.h>
#define B 128
__global__ void diff_next(const float* in, float* out, int n) {
  __shared__ float s[B];
  const int t = threadIdx.x;
  const int i = blockIdx.x * B + t;
  s[t] = i < n ? in[i] : 0.f;
  __syncthreads();
#ifndef BUGGY
  if (i < n) out[i] = (t + 1 < B ? s[t + 1] : (i + 1 < n ? in[i + 1] : 0.f)) - s[t];
#else
  if (i < n) out[i] = (i + 1 < n ? s[t + 1] : 0.f) - s[t];
#endif
}
void run(const float* in, float* out, int n, cudaStream_t st) {
  diff_next<<<(n + B - 1) / B, B, 0, st>>>(in, out, n);
}
