// Ground truth for the rules cudagraph-stream-order and
// cudagraph-capture-structure rely on beyond issue22.cu: the legacy default
// stream's implicit ordering of stream-ordered allocations (blocking vs
// non-blocking streams), and a wait inside one capture on an event recorded
// in another capture. argv[1] names the case; each prints "case|key=value".
#include <cuda_runtime.h>

#include <cstdio>
#include <cstring>
#include <string>

constexpr int N = 1024;
constexpr long long SPIN = 20 * 1000 * 1000; // ~10 ms on an H200

__global__ void spin(long long cycles) {
  long long t0 = clock64();
  while (clock64() - t0 < cycles) {}
}
__global__ void writeAll(int *p) {
  for (int i = threadIdx.x; i < N; i += blockDim.x) p[i] = i;
}
__global__ void step(int *p) {
  if (threadIdx.x == 0) p[0] += 1;
}

static const char *E(cudaError_t e) { return cudaGetErrorName(e); }

// Allocated on the legacy stream behind a slow kernel, written on `s`.
static void legacyAlloc(const char *name, unsigned flags) {
  cudaStream_t s;
  cudaStreamCreateWithFlags(&s, flags);
  spin<<<1, 1>>>(SPIN);
  int *p = nullptr;
  cudaError_t a = cudaMallocAsync(&p, N * sizeof(int), 0);
  writeAll<<<1, 128, 0, s>>>(p);
  cudaError_t l = cudaGetLastError();
  cudaError_t y = cudaDeviceSynchronize();
  cudaFreeAsync(p, 0);
  cudaDeviceSynchronize();
  printf("%s|alloc=%s launch=%s sync=%s\n", name, E(a), E(l), E(y));
  cudaStreamDestroy(s);
}

// Allocated on a blocking stream `a`, then a legacy-stream kernel, then
// work on another blocking stream `b`: ordered through the legacy stream.
static void throughLegacy(const char *name, bool legacyKernel) {
  cudaStream_t a, b;
  cudaStreamCreate(&a);
  cudaStreamCreate(&b);
  spin<<<1, 1, 0, a>>>(SPIN);
  int *p = nullptr;
  cudaMallocAsync(&p, N * sizeof(int), a);
  if (legacyKernel)
    spin<<<1, 1>>>(1);
  writeAll<<<1, 128, 0, b>>>(p);
  cudaError_t y = cudaDeviceSynchronize();
  cudaFreeAsync(p, a);
  cudaDeviceSynchronize();
  printf("%s|sync=%s\n", name, E(y));
  cudaStreamDestroy(a);
  cudaStreamDestroy(b);
}

// A wait inside the capture of s1 on an event recorded inside the capture of s2.
static void crossCapture(const char *name, bool sameCapture) {
  cudaStream_t s1, s2;
  cudaStreamCreateWithFlags(&s1, cudaStreamNonBlocking);
  cudaStreamCreateWithFlags(&s2, cudaStreamNonBlocking);
  cudaEvent_t e;
  cudaEventCreateWithFlags(&e, cudaEventDisableTiming);
  int *p = nullptr;
  cudaMalloc(&p, sizeof(int));
  cudaGraph_t g1 = nullptr, g2 = nullptr;
  cudaError_t b1 = cudaStreamBeginCapture(s1, cudaStreamCaptureModeRelaxed);
  cudaStream_t rec = sameCapture ? s1 : s2;
  cudaError_t b2 = sameCapture ? cudaSuccess : cudaStreamBeginCapture(s2, cudaStreamCaptureModeRelaxed);
  step<<<1, 1, 0, rec>>>(p);
  cudaError_t r = cudaEventRecord(e, rec);
  cudaError_t w = cudaStreamWaitEvent(s1, e, 0);
  step<<<1, 1, 0, s1>>>(p);
  cudaError_t e1 = cudaStreamEndCapture(s1, &g1);
  cudaError_t e2 = sameCapture ? cudaSuccess : cudaStreamEndCapture(s2, &g2);
  printf("%s|begin1=%s begin2=%s record=%s wait=%s end1=%s end2=%s graph1=%s\n", name, E(b1),
         E(b2), E(r), E(w), E(e1), E(e2), g1 ? "non-null" : "NULL");
  if (g1) cudaGraphDestroy(g1);
  if (g2) cudaGraphDestroy(g2);
  cudaFree(p);
  cudaEventDestroy(e);
  cudaStreamDestroy(s1);
  cudaStreamDestroy(s2);
}

int main(int argc, char **argv) {
  std::string c = argc > 1 ? argv[1] : "list";
  if (c == "legacy_alloc_blocking") legacyAlloc(c.c_str(), cudaStreamDefault);
  else if (c == "legacy_alloc_nonblocking") legacyAlloc(c.c_str(), cudaStreamNonBlocking);
  else if (c == "through_legacy") throughLegacy(c.c_str(), true);
  else if (c == "through_legacy_twin_none") throughLegacy(c.c_str(), false);
  else if (c == "cross_capture") crossCapture(c.c_str(), false);
  else if (c == "cross_capture_twin_same") crossCapture(c.c_str(), true);
  else
    printf("legacy_alloc_blocking legacy_alloc_nonblocking through_legacy "
           "through_legacy_twin_none cross_capture cross_capture_twin_same\n");
  return 0;
}
