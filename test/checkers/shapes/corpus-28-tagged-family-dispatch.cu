// RUN: %cudagraph_tidy --format=text-plain --result-cache=off --quiet %s -- %cuda_args 2>&1 | FileCheck %s --check-prefix=CLEAN --allow-empty
// RUN: not %cudagraph_tidy --format=text-plain --result-cache=off --quiet %s -- %cuda_args -DBUGGY 2>&1 | FileCheck %s --check-prefix=BUGGY
// CLEAN-NOT: warning:
// BUGGY: :[[@LINE+36]]:3: warning: pinned host memory 'h.p' allocated by 'get' is released by 'put'; release it with cudaFreeHost [cudagraph-mismatched-dealloc]
// BUGGY: :[[@LINE+31]]:11: note: 'h.p' was allocated here by 'get'
// BUGGY-NOT: warning:
// Reduction corpus/28-tagged-family-dispatch.cu of ../shared/shapes/2026-12-04 (issues 35, 36).
// Class: a block struct whose pointer member is filled by two allocator families, with a tag
// field saying which (`pinned`), released by a dispatcher that tests the tag. The member's
// family is mixed, so the cross-function mismatch rule stays silent, and the tag is not tied
// to the allocation, so a dispatcher that sends pinned blocks to cudaFreeAsync is not reported.
// Clean: pinned -> cudaFreeHost, device -> cudaFreeAsync; silent.
// Buggy twin (-DBUGGY): only large device blocks go to cudaFree, everything else, pinned
//   blocks included, to cudaFreeAsync (cudaErrorInvalidValue, the block leaks); reported: the
//   struct get() returns by value carries its members' allocations to the caller, and the
//   call with a constant `pinned` gets get()'s summary specialised to it.
#include <cuda_runtime.h>
struct Blk { void* p = nullptr; size_t n = 0; bool pinned = false; };
Blk get(size_t n, bool pinned, cudaStream_t s) {
  Blk b;
  b.n = n;
  b.pinned = pinned;
  if (pinned) cudaMallocHost(&b.p, n);
  else cudaMallocAsync(&b.p, n, s);
  return b;
}
void put(const Blk& b, cudaStream_t s) {
#ifndef BUGGY
  if (b.pinned) cudaFreeHost(b.p);
#else
  if (!b.pinned && b.n >= (64u << 20)) cudaFree(b.p);
#endif
  else cudaFreeAsync(b.p, s);
}
void roundtrip(cudaStream_t s, size_t n) {
  Blk h = get(n, true, s);
  Blk d = get(n, false, s);
  cudaMemcpyAsync(d.p, h.p, n, cudaMemcpyHostToDevice, s);
  put(d, s);
  put(h, s);
}
