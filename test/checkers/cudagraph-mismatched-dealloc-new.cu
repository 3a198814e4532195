// RUN: %check_cudagraph_tidy %s cudagraph-mismatched-dealloc %t
// Which new and delete expressions are the API model's `new`/`delete` pseudo
// entries: only those calling the global replaceable operators (issue 36).
#include <cuda_runtime.h>
#include <cstddef>
#include <new>

// Placement new allocates nothing: what it returns is the buffer's, whatever
// made that.
void not_ours_placement(float *d_buf) {
  float *placed = new (d_buf) float(1.f);
  cudaFree(placed);
}

// A class's own operator new/delete is a pool whose rules the model does not
// know.
struct OwnPool {
  static void *operator new(size_t n);
  static void operator delete(void *p);
  int x;
};
void not_ours_class_new(size_t n) {
  OwnPool *p = new OwnPool;
  cudaFree(p);
  OwnPool *q;
  cudaMalloc(&q, sizeof(OwnPool));
  delete q;
}

// The global operators, also the nothrow and aligned forms, are the model's.
struct alignas(64) Wide {
  float v[16];
};
void bug_nothrow_new(size_t n) {
  float *h = new (std::nothrow) float[n];
  cudaFree(h);
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: host array memory allocated by 'new[]' is released by 'cudaFree'; release it with delete[] [cudagraph-mismatched-dealloc]
}
void bug_aligned_new() {
  Wide *w = new Wide;
  cudaFreeHost(w);
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: host memory allocated by 'new' is released by 'cudaFreeHost'; release it with delete [cudagraph-mismatched-dealloc]
}
void bug_delete_managed(size_t n) {
  Wide *m_bad;
  if (cudaMallocManaged(&m_bad, sizeof(Wide)) != cudaSuccess)
    return;
  delete m_bad;
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: managed memory 'm_bad' allocated by 'cudaMallocManaged' is released by 'delete'; release it with cudaFree [cudagraph-mismatched-dealloc]
}
