// RUN: %check_cudagraph_tidy %s cudagraph-shared-index-overflow %t
//
// Block shapes reach a kernel through every launch form of the translation
// unit. Each kernel below overflows a 64-element array under a 256-thread
// block (threads 64-255) and is correct under a 64-thread one; each positive
// launch form has a twin that launches the clean kernel the same way, or the
// same kernel with 64 threads.
#include <cuda.h>
#include <cuda_runtime.h>

// 1. A function-pointer variable chosen in a switch (cuda-samples
//    transpose): every kernel it may hold gets the launch's shape.
__global__ void fpA(float *g) {
  __shared__ float s[64];
  s[threadIdx.x] = g[threadIdx.x];
  // CHECK-NOTES: :[[@LINE-1]]:3: warning: __shared__ array 's' is indexed out of bounds: the index reaches 255 but the array has 64 elements [cudagraph-shared-index-overflow]
  // CHECK-NOTES: :{{[0-9]+}}:{{[0-9]+}}: note: with block (256,1,1) from this launch, threads 64-255 (192 threads) go out of bounds
}
__global__ void fpB(float *g) {
  __shared__ float s[256];
  s[threadIdx.x] = g[threadIdx.x];
}
void runPointer(float *g, int which) {
  void (*kernel)(float *);
  dim3 threads(256);
  for (int k = 0; k < 2; ++k) {
    switch (k) {
    case 0: kernel = &fpA; break;
    case 1: kernel = fpB; break;
    }
    kernel<<<1, threads>>>(g);
  }
}

// 1b. The kernel and its shape chosen together in a switch: each kernel
//     gets the shape of its own case, not every shape of the switch.
__global__ void swA(float *g) { // 32x8 = 256 threads: clean
  __shared__ float s[256];
  s[threadIdx.x + threadIdx.y * blockDim.x] = g[threadIdx.x];
}
__global__ void swB(float *g) { // 8x8 = 64 threads: clean
  __shared__ float s[64];
  s[threadIdx.x + threadIdx.y * blockDim.x] = g[threadIdx.x];
}
__global__ void swC(float *g) { // 8x8 into 32: threads 32-63 overflow
  __shared__ float s[32];
  s[threadIdx.x + threadIdx.y * blockDim.x] = g[threadIdx.x];
  // CHECK-NOTES: :[[@LINE-1]]:3: warning: __shared__ array 's' is indexed out of bounds: the index reaches 63 but the array has 32 elements [cudagraph-shared-index-overflow]
  // CHECK-NOTES: :{{[0-9]+}}:{{[0-9]+}}: note: with block (8,8,1) from this launch, threads 32-63 (32 threads) go out of bounds
}
void runSwitch(float *g, int which) {
  void (*k)(float *) = nullptr;
  dim3 threads;
  switch (which) {
  case 0:
    k = swA;
    threads = dim3(32, 8);
    break;
  case 1:
    k = swB;
    threads = dim3(8, 8);
    break;
  default:
    k = swC;
    threads = dim3(8, 8);
    break;
  }
  k<<<1, threads>>>(g);
}

// 2. A generic wrapper taking the kernel and the block size as parameters:
//    each call path gives its own kernel its own shape.
__global__ void wrapA(float *g) {
  __shared__ float s[64];
  s[threadIdx.x] = g[threadIdx.x];
  // CHECK-NOTES: :[[@LINE-1]]:3: warning: __shared__ array 's' is indexed out of bounds: the index reaches 127 but the array has 64 elements [cudagraph-shared-index-overflow]
  // CHECK-NOTES: :{{[0-9]+}}:{{[0-9]+}}: note: with block (128,1,1) from this launch, threads 64-127 (64 threads) go out of bounds
}
__global__ void wrapB(float *g) { // launched with 64 threads only: clean
  __shared__ float s[64];
  s[threadIdx.x] = g[threadIdx.x];
}
template <typename Kernel>
void launchWith(Kernel k, dim3 block, float *g) {
  k<<<1, block>>>(g);
}
void runWrappers(float *g) {
  launchWith(wrapA, dim3(128), g);
  launchWith(wrapB, dim3(64), g);
}

// 3. A template launcher whose shape is a template argument.
template <int Threads> __global__ void tmplKernel(float *g) {
  __shared__ float s[64];
  s[threadIdx.x] = g[threadIdx.x];
  // CHECK-NOTES: :[[@LINE-1]]:3: warning: __shared__ array 's' is indexed out of bounds: the index reaches 255 but the array has 64 elements [cudagraph-shared-index-overflow]
  // CHECK-NOTES: :{{[0-9]+}}:{{[0-9]+}}: note: in tmplKernel<256> with block (256,1,1) from this launch, threads 64-255 (192 threads) go out of bounds
}
template <int Threads> void launchTmpl(float *g) {
  constexpr int kThreads = Threads;
  tmplKernel<Threads><<<1, kThreads>>>(g);
}
void runTmpl(float *g) {
  launchTmpl<256>(g);
  launchTmpl<64>(g);
}

// 4. cudaLaunchKernel and cudaLaunchCooperativeKernel.
__global__ void rtA(float *g) {
  __shared__ float s[64];
  s[threadIdx.x] = g[threadIdx.x];
  // CHECK-NOTES: :[[@LINE-1]]:3: warning: __shared__ array 's' is indexed out of bounds: the index reaches 255 but the array has 64 elements [cudagraph-shared-index-overflow]
  // CHECK-NOTES: :{{[0-9]+}}:{{[0-9]+}}: note: with block (256,1,1) from this launch, threads 64-255 (192 threads) go out of bounds
}
__global__ void rtB(float *g) {
  __shared__ float s[64];
  s[threadIdx.x] = g[threadIdx.x];
}
void runRuntime(float *g) {
  void *args[] = {&g};
  cudaLaunchKernel((const void *)rtA, dim3(1), dim3(256), args, 0, 0);
  cudaLaunchCooperativeKernel((void *)&rtB, dim3(1), dim3(64), args, 0, 0);
}

// 5. cudaLaunchKernelEx with a cudaLaunchConfig_t filled field by field.
__global__ void exA(float *g) {
  __shared__ float s[64];
  s[threadIdx.x] = g[threadIdx.x];
  // CHECK-NOTES: :[[@LINE-1]]:3: warning: __shared__ array 's' is indexed out of bounds: the index reaches 255 but the array has 64 elements [cudagraph-shared-index-overflow]
  // CHECK-NOTES: :{{[0-9]+}}:{{[0-9]+}}: note: with block (256,1,1) from this launch, threads 64-255 (192 threads) go out of bounds
}
__global__ void exB(float *g) {
  __shared__ float s[64];
  s[threadIdx.x] = g[threadIdx.x];
}
void runEx(float *g) {
  cudaLaunchConfig_t cfg = {};
  cfg.gridDim = dim3(1);
  cfg.blockDim = dim3(256);
  cudaLaunchKernelEx(&cfg, exA, g);
  cudaLaunchConfig_t small = {dim3(1), dim3(64), 0, 0, nullptr, 0};
  cudaLaunchKernelEx(&small, exB, g);
}

// 6. The driver API: cuLaunchKernel with a CUfunction from
//    cudaGetFuncBySymbol or from cuModuleGetFunction by name.
extern "C" __global__ void drvA(float *g) {
  __shared__ float s[64];
  s[threadIdx.x] = g[threadIdx.x];
  // CHECK-NOTES: :[[@LINE-1]]:3: warning: __shared__ array 's' is indexed out of bounds: the index reaches 255 but the array has 64 elements [cudagraph-shared-index-overflow]
  // CHECK-NOTES: :{{[0-9]+}}:{{[0-9]+}}: note: with block (256,1,1) from this launch, threads 64-255 (192 threads) go out of bounds
}
extern "C" __global__ void drvB(float *g) {
  __shared__ float s[64];
  s[threadIdx.x] = g[threadIdx.x];
}
void runDriver(CUmodule mod, float *g) {
  void *args[] = {&g};
  CUfunction fa, fb;
  cuModuleGetFunction(&fa, mod, "drvA");
  cuLaunchKernel(fa, 1, 1, 1, 256, 1, 1, 0, 0, args, nullptr);
  cudaGetFuncBySymbol(&fb, (const void *)drvB);
  cuLaunchKernel(fb, 1, 1, 1, 64, 1, 1, 0, 0, args, nullptr);
}

// 7. A kernel node of a graph built by hand.
__global__ void nodeA(float *g) {
  __shared__ float s[64];
  s[threadIdx.x] = g[threadIdx.x];
  // CHECK-NOTES: :[[@LINE-1]]:3: warning: __shared__ array 's' is indexed out of bounds: the index reaches 255 but the array has 64 elements [cudagraph-shared-index-overflow]
  // CHECK-NOTES: :{{[0-9]+}}:{{[0-9]+}}: note: with block (256,1,1) from this launch, threads 64-255 (192 threads) go out of bounds
}
__global__ void nodeB(float *g) {
  __shared__ float s[64];
  s[threadIdx.x] = g[threadIdx.x];
}
void runNodes(cudaGraph_t graph, float *g) {
  void *args[] = {&g};
  cudaGraphNode_t n1, n2;
  cudaKernelNodeParams p = {};
  p.func = (void *)nodeA;
  p.gridDim = dim3(1);
  p.blockDim = dim3(256);
  p.kernelParams = args;
  cudaGraphAddKernelNode(&n1, graph, nullptr, 0, &p);
  cudaKernelNodeParams q = {};
  q.func = (void *)nodeB;
  q.blockDim = dim3(64, 1, 1);
  q.kernelParams = args;
  cudaGraphAddKernelNode(&n2, graph, nullptr, 0, &q);
}

// 8. A block size chosen at run time is not a verdict: no warning.
__global__ void runtimeSized(float *g) {
  __shared__ float s[64];
  s[threadIdx.x] = g[threadIdx.x];
}
void runRuntimeSized(float *g, int n) {
  int threads = 64;
  if (n > 64)
    threads = n;
  runtimeSized<<<1, threads>>>(g);
}

// 9. A launch under an `if` that cannot hold on the call path gives its
//    kernel nothing (cuda-samples matrixMul: `if (block_size == 16)` with
//    block_size 32).
template <int N> __global__ void tiles(float *g) {
  __shared__ float s[N];
  s[threadIdx.x] = g[threadIdx.x];
}
static void runTiles(float *g, int bs) {
  if (bs == 16)
    tiles<256><<<1, bs * bs>>>(g);
  else
    tiles<16><<<1, bs * bs>>>(g);
}
void runTilesMain(float *g) { runTiles(g, 16); }

// 10. A block size returned by a function of this file: its return
//     statements fold with its parameters bound to the call's arguments,
//     and `prop.warpSize` is 32 on every device (the API model's
//     "constantFields"). A function whose value depends on what it does
//     not fold gives nothing.
static int warpSizeOf(int device) {
  cudaDeviceProp prop;
  cudaGetDeviceProperties(&prop, device);
  return prop.warpSize;
}
static int warpsOf(int warps) { return warps * warpSizeOf(0); }
static int fromDevice(int device) {
  int threads = 0;
  cudaDeviceGetAttribute(&threads, cudaDevAttrMaxThreadsPerBlock, device);
  return threads;
}
__global__ void returned(float *g) {
  __shared__ float s[64];
  s[threadIdx.x] = g[threadIdx.x];
  // CHECK-NOTES: :[[@LINE-1]]:3: warning: __shared__ array 's' is indexed out of bounds: the index reaches 255 but the array has 64 elements [cudagraph-shared-index-overflow]
  // CHECK-NOTES: :{{[0-9]+}}:{{[0-9]+}}: note: with block (256,1,1) from this launch, threads 64-255 (192 threads) go out of bounds
}
__global__ void returnedFits(float *g) {
  __shared__ float s[64];
  s[threadIdx.x] = g[threadIdx.x];
}
__global__ void returnedUnknown(float *g) {
  __shared__ float s[64];
  s[threadIdx.x] = g[threadIdx.x];
}
void runReturned(float *g) {
  returned<<<1, warpsOf(8)>>>(g);
  returnedFits<<<1, warpsOf(2)>>>(g);
  returnedUnknown<<<1, fromDevice(0)>>>(g);
}
