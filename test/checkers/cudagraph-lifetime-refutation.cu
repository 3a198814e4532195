// RUN: %check_cudagraph_tidy %s cudagraph-handle-leak %t
// RUN: %check_cudagraph_tidy %s cudagraph-unpaired-instantiate %t
// RUN: %check_cudagraph_tidy %s cudagraph-use-after-dealloc %t
// RUN: %check_cudagraph_tidy %s cudagraph-handle-leak %t -check-suffixes=LEAK -- -DBUGGY
// RUN: %check_cudagraph_tidy %s cudagraph-unpaired-instantiate %t -check-suffixes=EXEC -- -DBUGGY
// RUN: %check_cudagraph_tidy %s cudagraph-use-after-dealloc %t -check-suffixes=UAF -- -DBUGGY
// RUN: %check_cudagraph_tidy %s cudagraph-handle-leak %t -check-suffixes=MERGED -config="{CheckOptions: {RefuteWithSolver: 'false'}}"
//
// Every finding needs one path that makes it and that Z3 finds feasible
// (lib/Lifetime/Reports/Witness.cpp over lib/Values/PathFormula): relations between
// two values, bits of a flag word, counts computed from a condition, sums.
// The dataflow's value ranges decide none of these, so without the solver
// each clean function below gets a false warning. Each -DBUGGY twin tests
// something else on the way out, and its finding stays, with the notes of
// the path the solver accepted. With `RefuteWithSolver: false` the merged
// paths speak again (the MERGED lines).
#include <cuda_runtime.h>
#include <cstdio>
#include <vector>

#define CK(x)                                                                  \
  do {                                                                         \
    cudaError_t e_ = (x);                                                      \
    if (e_ != cudaSuccess)                                                     \
      fprintf(stderr, "%s\n", cudaGetErrorString(e_));                         \
  } while (0)

struct Shape {
  int rows;
  int cols;
};

// Acquired when rows < cols, released when cols > rows.
void transpose_staging(const Shape &s, size_t bytes) {
  void *staging = nullptr;
  if (s.rows < s.cols)
    CK(cudaMalloc(&staging, bytes));
  // CHECK-MESSAGES-MERGED: :[[@LINE-1]]:8: warning: device memory 'staging' created by 'cudaMalloc' is not released on every path; {{.*}} [cudagraph-handle-leak]
#ifdef BUGGY
  // CHECK-MESSAGES-LEAK: :[[@LINE-3]]:8: warning: device memory 'staging' created by 'cudaMalloc' is not released on every path; {{.*}} [cudagraph-handle-leak]
#endif
  printf("transposing %d x %d\n", s.rows, s.cols);
#ifndef BUGGY
  if (s.cols > s.rows)
    CK(cudaFree(staging));
#else
  if (s.cols > s.rows + 1)
    CK(cudaFree(staging));
#endif
}

// One bit of the flag word, read through a local and then directly.
enum : unsigned { kTrace = 1u, kTiming = 2u };
float timed_step(unsigned flags, cudaStream_t s) {
  cudaEvent_t start;
  unsigned timing = flags & kTiming;
  if (timing)
    cudaEventCreate(&start);
  // CHECK-MESSAGES-MERGED: :[[@LINE-1]]:5: warning: event 'start' created by 'cudaEventCreate' is not released on every path; {{.*}} [cudagraph-handle-leak]
#ifdef BUGGY
  // CHECK-MESSAGES-LEAK: :[[@LINE-3]]:5: warning: event 'start' created by 'cudaEventCreate' is not released on every path; {{.*}} [cudagraph-handle-leak]
#endif
  cudaStreamSynchronize(s);
#ifndef BUGGY
  if ((flags & kTiming) != 0)
    cudaEventDestroy(start);
#else
  if ((flags & kTrace) != 0)
    cudaEventDestroy(start);
#endif
  return 0.f;
}

// A count computed from the condition that guards the destroy.
void warmup(bool warm, cudaGraph_t g, cudaStream_t s) {
  cudaGraphExec_t exec;
  int launches = warm ? 2 : 0;
  if (launches > 0) {
    cudaGraphInstantiate(&exec, g, 0);
#ifdef BUGGY
    // CHECK-NOTES-EXEC: :[[@LINE-2]]:5: warning: graph exec 'exec' created by 'cudaGraphInstantiate' is not destroyed on every path; {{.*}} [cudagraph-unpaired-instantiate]
#endif
    cudaGraphLaunch(exec, s);
  }
#ifndef BUGGY
  if (warm)
    cudaGraphExecDestroy(exec);
#else
  if (warm && launches > 2)
    cudaGraphExecDestroy(exec);
  // The notes are those of the path the solver accepted: warm, two launches.
  // CHECK-NOTES-EXEC: :[[@LINE-3]]:7: note: assuming 'warm' is true
  // CHECK-NOTES-EXEC: :[[@LINE-4]]:15: note: assuming 'launches > 2' is false
#endif
}
// CHECK-NOTES-EXEC: :[[@LINE-1]]:1: note: 'exec' goes out of scope here without releasing the graph exec

// The sum of two sizes decides both the allocation and the free.
void scratch(int m, int n, cudaStream_t s) {
  float *d = nullptr;
  int total = m + n;
  if (total > 1024)
    cudaMallocAsync(&d, total * sizeof(float), s);
  // CHECK-MESSAGES-MERGED: :[[@LINE-1]]:5: warning: stream-ordered device memory 'd' created by 'cudaMallocAsync' is not released on every path; {{.*}} [cudagraph-handle-leak]
#ifdef BUGGY
  // CHECK-MESSAGES-LEAK: :[[@LINE-3]]:5: warning: stream-ordered device memory 'd' created by 'cudaMallocAsync' is not released on every path; {{.*}} [cudagraph-handle-leak]
#endif
  cudaStreamSynchronize(s);
#ifndef BUGGY
  if (m + n > 1024)
    cudaFreeAsync(d, s);
#else
  if (m > 1024)
    cudaFreeAsync(d, s);
#endif
}

// Released when one bound is reached, used only when the other is not.
void ping_pong(float *buf, int used, int capacity, cudaStream_t s) {
  if (used >= capacity)
    cudaFree(buf);
#ifndef BUGGY
  if (capacity > used)
    cudaMemsetAsync(buf, 0, used, s);
#else
  if (capacity >= used)
    cudaMemsetAsync(buf, 0, used, s);
  // CHECK-MESSAGES-UAF: :[[@LINE-1]]:5: warning: 'buf' is used by 'cudaMemsetAsync' after it was released (undefined behaviour) [cudagraph-use-after-dealloc]
#endif
}

// Released in the one iteration where the counter meets a bound the loop
// runs past: the search skips the iterations that change nothing
// (PathFormula::accelerate), and the counter only grows, so no later
// iteration meets the bound again. BUGGY: every iteration from the bound on
// releases.
struct Peers {
  float *relay;
  int *table;
};
void drop_peers(Peers *p, int ranks) {
  int slots = ranks + 2;
  for (int r = 0; r < slots; r++) {
#ifndef BUGGY
    if (r == ranks)
#else
    if (r >= ranks)
#endif
      cudaFree(p->relay);
  // CHECK-MESSAGES-UAF: :[[@LINE-1]]:7: warning: 'p->relay' is released again by 'cudaFree' (undefined behaviour) [cudagraph-use-after-dealloc]
    else if (r == slots - 1)
      cudaFreeHost(p->table);
  }
}

// The same with a counter that counts down.
void drain(cudaEvent_t *events, int n, int keep) {
  cudaEvent_t last = events[keep];
  for (int i = n - 1; i >= 0; --i) {
#ifndef BUGGY
    if (i == keep)
#else
    if (i <= keep)
#endif
      cudaEventDestroy(last);
  // CHECK-MESSAGES-UAF: :[[@LINE-1]]:7: warning: 'last' is released again by 'cudaEventDestroy' (undefined behaviour) [cudagraph-use-after-dealloc]
  }
}

// Allocated in the iteration for device 0, released in a clean-up loop that
// counts down by one and leaves below 0: it passes 0. The search skips the
// iterations that change nothing, but a unit-step counter may not be
// skipped past a value the loop tests it against (PathFormulaLoops.cpp).
// BUGGY: the clean-up loop stops at 1, so the buffer of device 0 leaks.
void per_device_staging(int devices) {
  float *staging = nullptr;
  for (int dev = 0; dev < devices; ++dev)
    if (dev == 0)
      cudaMallocHost(&staging, 256);
  // CHECK-MESSAGES-LEAK: :[[@LINE-1]]:7: warning: pinned host memory 'staging' created by 'cudaMallocHost' is not released on every path; {{.*}} [cudagraph-handle-leak]
  // CHECK-MESSAGES-MERGED: :[[@LINE-2]]:7: warning: pinned host memory 'staging' created by 'cudaMallocHost' is not released on every path; {{.*}} [cudagraph-handle-leak]
#ifndef BUGGY
  for (int dev = devices - 1; dev >= 0; dev -= 1)
#else
  for (int dev = devices - 1; dev > 0; dev -= 1)
#endif
    if (0 == dev)
      cudaFreeHost(staging);
}

// The count-up twin: released in the last iteration. BUGGY: the loop stops
// one short of it.
void release_in_last(int n) {
  if (n < 1)
    return;
  cudaStream_t s;
  cudaStreamCreate(&s);
  // CHECK-MESSAGES-LEAK: :[[@LINE-1]]:3: warning: stream 's' created by 'cudaStreamCreate' is not released on every path; {{.*}} [cudagraph-handle-leak]
  // CHECK-MESSAGES-MERGED: :[[@LINE-2]]:3: warning: stream 's' created by 'cudaStreamCreate' is not released on every path; {{.*}} [cudagraph-handle-leak]
#ifndef BUGGY
  for (int i = 0; i < n; i++)
#else
  for (int i = 0; i + 1 < n; i++)
#endif
    if (i == n - 1)
      cudaStreamDestroy(s);
}

// A range-based for's test is told by its range, not by the ':' it is
// written as.
int replay_steps(cudaGraph_t g, cudaStream_t s, const std::vector<int> &steps) {
  cudaGraphExec_t exec;
  if (cudaGraphInstantiate(&exec, g, 0) != cudaSuccess)
    return 1;
#ifdef BUGGY
  // CHECK-NOTES-EXEC: :[[@LINE-3]]:7: warning: graph exec 'exec' created by 'cudaGraphInstantiate' is not destroyed on every path; {{.*}} [cudagraph-unpaired-instantiate]
#endif
  for (int step : steps) {
#ifdef BUGGY
    if (step < 0)
      return 2;
    // CHECK-NOTES-EXEC: :[[@LINE-4]]:17: note: assuming 'steps' has another element
    // CHECK-NOTES-EXEC: :[[@LINE-3]]:9: note: assuming 'step < 0' is true
    // CHECK-NOTES-EXEC: :[[@LINE-3]]:7: note: 'exec' is not released when the function returns here
#else
    if (step < 0) {
      cudaGraphExecDestroy(exec);
      return 2;
    }
#endif
    cudaGraphLaunch(exec, s);
  }
  cudaGraphExecDestroy(exec);
  return 0;
}
