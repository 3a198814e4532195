// Ground truth for cudagraph-unpaired-instantiate: does an exec that is not
// destroyed really hold on to memory? Instantiates the same 8-kernel graph N
// times, first destroying each exec, then leaking each one (the loop the
// check reports), and prints the device memory in use (cudaMemGetInfo) and
// the process's resident host memory after each phase.
//   nvcc -O2 -arch=sm_90 exec_leak.cu -o exec_leak && ./exec_leak 2000
#include <cuda_runtime.h>
#include <cstdio>
#include <cstdlib>
#include <cstring>

__global__ void step(float *p, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    p[i] += 1.0f;
}

static size_t deviceUsed() {
  size_t freeB = 0, total = 0;
  cudaMemGetInfo(&freeB, &total);
  return total - freeB;
}

static long hostRssKiB() {
  FILE *f = fopen("/proc/self/status", "r");
  char line[256];
  long kib = -1;
  while (f && fgets(line, sizeof line, f))
    if (strncmp(line, "VmRSS:", 6) == 0)
      kib = atol(line + 6);
  if (f)
    fclose(f);
  return kib;
}

static void instantiateAndDestroy(cudaGraph_t g, cudaStream_t s) {
  cudaGraphExec_t x;
  if (cudaGraphInstantiate(&x, g, 0) != cudaSuccess)
    exit(1);
  cudaGraphLaunch(x, s);
  cudaGraphExecDestroy(x);
}

static void instantiateAndLeak(cudaGraph_t g, cudaStream_t s) {
  cudaGraphExec_t x;
  if (cudaGraphInstantiate(&x, g, 0) != cudaSuccess) // reported: never destroyed
    exit(1);
  cudaGraphLaunch(x, s);
}

int main(int argc, char **argv) {
  int n = argc > 1 ? atoi(argv[1]) : 2000;
  float *d = nullptr;
  cudaMalloc(&d, 1 << 20);
  cudaStream_t s;
  cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking);
  cudaGraph_t g;
  cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal);
  for (int j = 0; j < 8; ++j)
    step<<<64, 256, 0, s>>>(d, 1 << 18);
  cudaStreamEndCapture(s, &g);
  instantiateAndDestroy(g, s); // warm-up: module loading, pools
  cudaStreamSynchronize(s);

  size_t dev0 = deviceUsed();
  long host0 = hostRssKiB();
  for (int i = 0; i < n; ++i)
    instantiateAndDestroy(g, s);
  cudaStreamSynchronize(s);
  size_t dev1 = deviceUsed();
  long host1 = hostRssKiB();
  for (int i = 0; i < n; ++i)
    instantiateAndLeak(g, s);
  cudaStreamSynchronize(s);
  size_t dev2 = deviceUsed();
  long host2 = hostRssKiB();

  printf("execs per phase: %d\n", n);
  printf("destroyed: device +%.2f MiB, host RSS +%.2f MiB\n",
         (double)(dev1 - dev0) / (1 << 20), (host1 - host0) / 1024.0);
  printf("leaked:    device +%.2f MiB, host RSS +%.2f MiB  (%.1f KiB device, %.1f KiB host per exec)\n",
         (double)(dev2 - dev1) / (1 << 20), (host2 - host1) / 1024.0,
         (double)(dev2 - dev1) / 1024.0 / n, (double)(host2 - host1) / n);
  printf("last error: %s\n", cudaGetErrorString(cudaGetLastError()));
  return 0;
}
