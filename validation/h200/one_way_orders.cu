// Ground truth for the stream checks' gaps (lib/Streams/PathGaps.cpp):
// work ordered, or a forked stream joined, on one way of a branch only. Each case is the shape of a lit
// case in test/checkers/cudagraph-stream-order.cu, with a slow kernel
// where the race needs the other stream still busy. argv[1] names the case;
// each prints "case|key=value". The buggy cases take the way that skips the
// ordering; their twins take the one that orders (or order on both ways).
#include <cuda_runtime.h>

#include <cstdio>
#include <string>
#include <vector>

constexpr int N = 1024;
constexpr long long SPIN = 20 * 1000 * 1000; // ~10 ms on an H200

__global__ void spin(long long cycles) {
  long long t0 = clock64();
  while (clock64() - t0 < cycles) {}
}
// Reads and writes p after a delay: still running when the host goes on.
__global__ void slowTouch(int *p, long long cycles) {
  long long t0 = clock64();
  while (clock64() - t0 < cycles) {}
  for (int i = threadIdx.x; i < N; i += blockDim.x) p[i] += 1;
}
__global__ void writeAll(int *p) {
  for (int i = threadIdx.x; i < N; i += blockDim.x) p[i] = i;
}

static const char *E(cudaError_t e) { return cudaGetErrorName(e); }

static cudaStream_t nonBlocking() {
  cudaStream_t s;
  cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking);
  return s;
}

// bug_wait_under_flag: allocated on `a` behind a slow kernel; `b` waits
// only when `overlap`; a kernel on `b` writes the memory.
static void waitUnderFlag(const char *name, bool overlap) {
  cudaStream_t a = nonBlocking(), b = nonBlocking();
  cudaEvent_t e;
  cudaEventCreateWithFlags(&e, cudaEventDisableTiming);
  spin<<<1, 1, 0, a>>>(SPIN);
  int *q = nullptr;
  cudaMallocAsync(&q, N * sizeof(int), a);
  if (overlap) {
    cudaEventRecord(e, a);
    cudaStreamWaitEvent(b, e, 0);
  }
  writeAll<<<1, 128, 0, b>>>(q);
  cudaError_t y = cudaStreamSynchronize(b);
  cudaFreeAsync(q, a);
  cudaDeviceSynchronize();
  printf("%s|sync=%s\n", name, E(y));
  cudaEventDestroy(e);
  cudaStreamDestroy(a);
  cudaStreamDestroy(b);
}

// bug_free_after_one_way_of_poll: `s` uses the memory in a slow kernel;
// the poll finds it not ready, and that way makes `p` wait, not `cs`,
// which frees it. The twin (`waitOnFree`) makes `cs` wait there.
static void freeAfterPoll(const char *name, bool waitOnFree) {
  cudaStream_t s = nonBlocking(), cs = nonBlocking(), p = nonBlocking();
  cudaEvent_t ready, done;
  cudaEventCreateWithFlags(&ready, cudaEventDisableTiming);
  cudaEventCreateWithFlags(&done, cudaEventDisableTiming);
  int *d_in = nullptr;
  cudaMallocAsync(&d_in, N * sizeof(int), cs);
  cudaEventRecord(ready, cs);
  cudaStreamWaitEvent(s, ready, 0);
  slowTouch<<<1, 128, 0, s>>>(d_in, SPIN);
  cudaEventRecord(done, s);
  const char *way = "done";
  if (cudaEventQuery(done) == cudaSuccess) {
    spin<<<1, 1, 0, p>>>(1);
  } else {
    way = "not-ready";
    cudaStreamWaitEvent(waitOnFree ? cs : p, done, 0);
  }
  cudaFreeAsync(d_in, cs);
  cudaError_t y = cudaDeviceSynchronize();
  printf("%s|way=%s sync=%s\n", name, way, E(y));
  cudaEventDestroy(ready);
  cudaEventDestroy(done);
  cudaStreamDestroy(s);
  cudaStreamDestroy(cs);
  cudaStreamDestroy(p);
}

// bug_free_after_pooling_events: handing events to a std::vector orders
// nothing; the twin records on `s` and makes `cs` wait before the free.
static void freeAfterPooling(const char *name, bool wait) {
  cudaStream_t s = nonBlocking(), cs = nonBlocking();
  cudaEvent_t ready;
  cudaEventCreateWithFlags(&ready, cudaEventDisableTiming);
  int *d_in = nullptr;
  cudaMallocAsync(&d_in, N * sizeof(int), cs);
  cudaEventRecord(ready, cs);
  cudaStreamWaitEvent(s, ready, 0);
  slowTouch<<<1, 128, 0, s>>>(d_in, SPIN);
  std::vector<cudaEvent_t> pool;
  for (int r = 0; r < 4; ++r) {
    cudaEvent_t pe = nullptr;
    cudaEventCreateWithFlags(&pe, cudaEventDisableTiming);
    pool.push_back(pe);
  }
  if (wait) {
    cudaEventRecord(pool.back(), s);
    cudaStreamWaitEvent(cs, pool.back(), 0);
  }
  cudaFreeAsync(d_in, cs);
  cudaError_t y = cudaDeviceSynchronize();
  for (cudaEvent_t pe : pool)
    cudaEventDestroy(pe);
  printf("%s|sync=%s\n", name, E(y));
  cudaEventDestroy(ready);
  cudaStreamDestroy(s);
  cudaStreamDestroy(cs);
}

// bug_join_skipped_on_last_step (cudagraph-capture-structure): forked
// under `overlap`, joined under `overlap && !last`.
static void joinSkipped(const char *name, bool last) {
  cudaStream_t s = nonBlocking(), side = nonBlocking();
  cudaEvent_t fork, join;
  cudaEventCreateWithFlags(&fork, cudaEventDisableTiming);
  cudaEventCreateWithFlags(&join, cudaEventDisableTiming);
  int *x = nullptr;
  cudaMalloc(&x, N * sizeof(int));
  bool overlap = true;
  cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal);
  if (overlap) {
    cudaEventRecord(fork, s);
    cudaStreamWaitEvent(side, fork, 0);
    writeAll<<<1, 128, 0, side>>>(x);
  }
  writeAll<<<1, 128, 0, s>>>(x);
  if (overlap && !last) {
    cudaEventRecord(join, side);
    cudaStreamWaitEvent(s, join, 0);
  }
  cudaGraph_t g = nullptr;
  cudaError_t end = cudaStreamEndCapture(s, &g);
  printf("%s|end=%s graph=%s\n", name, E(end), g ? "non-null" : "null");
  if (g)
    cudaGraphDestroy(g);
  cudaGetLastError();
  cudaFree(x);
  cudaEventDestroy(fork);
  cudaEventDestroy(join);
  cudaStreamDestroy(s);
  cudaStreamDestroy(side);
}

int main(int argc, char **argv) {
  std::string c = argc > 1 ? argv[1] : "list";
  if (c == "wait_under_flag_skipped") waitUnderFlag(c.c_str(), false);
  else if (c == "wait_under_flag_twin_taken") waitUnderFlag(c.c_str(), true);
  else if (c == "free_after_poll") freeAfterPoll(c.c_str(), false);
  else if (c == "free_after_poll_twin_waits") freeAfterPoll(c.c_str(), true);
  else if (c == "free_after_pooling") freeAfterPooling(c.c_str(), false);
  else if (c == "free_after_pooling_twin_waits") freeAfterPooling(c.c_str(), true);
  else if (c == "join_skipped_on_last_step") joinSkipped(c.c_str(), true);
  else if (c == "join_skipped_twin_not_last") joinSkipped(c.c_str(), false);
  else
    printf("wait_under_flag_skipped wait_under_flag_twin_taken free_after_poll "
           "free_after_poll_twin_waits free_after_pooling free_after_pooling_twin_waits "
           "join_skipped_on_last_step join_skipped_twin_not_last\n");
  return 0;
}
