// RUN: %check_cudagraph_tidy %s cudagraph-handle-leak %t -check-suffixes=LEAK
// RUN: %check_cudagraph_tidy %s cudagraph-mismatched-dealloc %t -check-suffixes=MISMATCH
//
// A helper that returns a struct by value whose members it allocated
// (`Blk b; cudaMallocHost(&b.p, n); return b;`): the caller's variable it
// initialises holds them, member by member, and a call with a constant for
// the parameter the helper branches on knows which family (issue 36).
// What the struct is handed on to (an unknown function, a container, a
// copy, the caller's caller) keeps it; nothing is reported there.
#include <cuda_runtime.h>
#include <vector>

struct Blk {
  void *p = nullptr;
  size_t n = 0;
  bool pinned = false;
};
Blk get(size_t n, bool pinned, cudaStream_t s) {
  Blk b;
  b.n = n;
  b.pinned = pinned;
  if (pinned)
    cudaMallocHost(&b.p, n);
  else
    cudaMallocAsync(&b.p, n, s);
  return b;
}
void put(const Blk &b, cudaStream_t s) {
  if (b.pinned)
    cudaFreeHost(b.p);
  else
    cudaFreeAsync(b.p, s);
}
void putDevice(const Blk &b, cudaStream_t s) { cudaFreeAsync(b.p, s); }

void leaks(cudaStream_t s, size_t n) {
  Blk h = get(n, true, s);
  // CHECK-MESSAGES-LEAK: :[[@LINE-1]]:11: warning: pinned host memory 'h.p' created by 'get' is not released on every path; call cudaFreeHost or hand it to an owner [cudagraph-handle-leak]
  cudaMemsetAsync(h.p, 0, n, s);
}
void assignedLeaks(cudaStream_t s, size_t n) {
  Blk h;
  h = get(n, true, s);
  // CHECK-MESSAGES-LEAK: :[[@LINE-1]]:7: warning: pinned host memory 'h.p' created by 'get' is not released on every path; call cudaFreeHost or hand it to an owner [cudagraph-handle-leak]
  cudaMemsetAsync(h.p, 0, n, s);
}
void resultDropped(cudaStream_t s, size_t n) {
  get(n, true, s);
  // CHECK-MESSAGES-LEAK: :[[@LINE-1]]:3: warning: pinned host memory created by 'get' is not released on every path; call cudaFreeHost or hand it to an owner [cudagraph-handle-leak]
}
void wrongFamily(cudaStream_t s, size_t n) {
  Blk d = get(n, false, s);
  Blk h = get(n, true, s);
  putDevice(d, s);
  putDevice(h, s);
  // CHECK-MESSAGES-MISMATCH: :[[@LINE-1]]:3: warning: pinned host memory 'h.p' allocated by 'get' is released by 'putDevice'; release it with cudaFreeHost [cudagraph-mismatched-dealloc]
}

// Silent: released by the dispatcher, or handed on.
void roundtrip(cudaStream_t s, size_t n) {
  Blk h = get(n, true, s);
  Blk d = get(n, false, s);
  cudaMemcpyAsync(d.p, h.p, n, cudaMemcpyHostToDevice, s);
  put(d, s);
  put(h, s);
}
void assignedReleased(cudaStream_t s, size_t n) {
  Blk h;
  h = get(n, false, s);
  put(h, s);
}
void memberOfResult(cudaStream_t s, size_t n) {
  void *p = get(n, true, s).p;
  cudaFreeHost(p);
}
void sink(Blk b);
std::vector<Blk> pool;
void handedOn(cudaStream_t s, size_t n) {
  sink(get(n, false, s));
  pool.push_back(get(n, true, s));
}
Blk kept(cudaStream_t s, size_t n) {
  Blk h = get(n, false, s);
  return h;
}
void copied(cudaStream_t s, size_t n) {
  Blk h = get(n, false, s);
  Blk c = h;
  put(c, s);
}
Blk make(size_t n, cudaStream_t s) { return get(n, true, s); }
void throughFactory(cudaStream_t s, size_t n) {
  Blk h = make(n, s);
  put(h, s);
}
