// RUN: %check_cudagraph_tidy %s cudagraph-shared-index-overflow %t
//
// Block shapes carried in a launch-configuration struct whose sizes are
// arrays (`config.blockSize[0] = 256`), the struct given by const reference
// to a variadic launch wrapper that builds its dim3s from the elements and
// calls cudaLaunchKernel (the way GROMACS launches all its kernels). Each
// kernel below overflows a 64-element array under a 256-thread block and is
// correct under a 64-thread one.
#include <cuda_runtime.h>
#include <array>
#include <cstddef>

struct LaunchConfig {
  size_t gridSize[3] = {1, 1, 1};
  size_t blockSize[3] = {1, 1, 1};
  size_t sharedMemorySize = 0;
};

template <typename... Args>
std::array<void *, sizeof...(Args)> packArguments(void (*)(Args...), const LaunchConfig &,
                                                  const Args *...args) {
  return {const_cast<void *>(static_cast<const void *>(args))...};
}

template <typename... Args>
void launchKernel(void (*kernel)(Args...), const LaunchConfig &config, cudaStream_t stream,
                  const std::array<void *, sizeof...(Args)> &args) {
  dim3 blockSize(config.blockSize[0], config.blockSize[1], config.blockSize[2]);
  dim3 gridSize(config.gridSize[0], config.gridSize[1], config.gridSize[2]);
  cudaLaunchKernel(reinterpret_cast<void *>(kernel), gridSize, blockSize,
                   const_cast<void **>(args.data()), config.sharedMemorySize, stream);
}

// 1. Elements assigned one by one; the unassigned ones keep the in-class
//    default (blockSize[1], blockSize[2] = 1).
__global__ void packBuffer(const float *in, float *out, int n) {
  __shared__ float s[64];
  s[threadIdx.x] = in[blockIdx.x * blockDim.x + threadIdx.x];
  // CHECK-NOTES: :[[@LINE-1]]:3: warning: __shared__ array 's' is indexed out of bounds: the index reaches 255 but the array has 64 elements [cudagraph-shared-index-overflow]
  // CHECK-NOTES: :{{[0-9]+}}:{{[0-9]+}}: note: with block (256,1,1) from this launch, threads 64-255 (192 threads) go out of bounds
  __syncthreads();
  out[blockIdx.x] = s[0];
}
void launchPack(const float *in, float *out, int n, cudaStream_t stream) {
  LaunchConfig config;
  config.blockSize[0] = 256;
  config.gridSize[0] = (n + 255) / 256;
  const auto args = packArguments(packBuffer, config, &in, &out, &n);
  launchKernel(packBuffer, config, stream, args);
}

// The twin: the same struct and wrapper with 64 threads.
__global__ void unpackBuffer(const float *in, float *out, int n) {
  __shared__ float s[64];
  s[threadIdx.x] = in[blockIdx.x * blockDim.x + threadIdx.x];
  __syncthreads();
  out[blockIdx.x] = s[0];
}
void launchUnpack(const float *in, float *out, int n, cudaStream_t stream) {
  LaunchConfig config;
  config.blockSize[0] = 64;
  config.blockSize[1] = 1;
  config.blockSize[2] = 1;
  config.gridSize[0] = (n + 63) / 64;
  const auto args = packArguments(unpackBuffer, config, &in, &out, &n);
  launchKernel(unpackBuffer, config, stream, args);
}

// 2. Two dimensions: (32, 8) threads index a 64-element array with
//    threadIdx.y * 32 + threadIdx.x.
__global__ void tileKernel(float *out) {
  __shared__ float s[64];
  s[threadIdx.y * 32 + threadIdx.x] = 0.f;
  // CHECK-NOTES: :[[@LINE-1]]:3: warning: __shared__ array 's' is indexed out of bounds: the index reaches 255 but the array has 64 elements [cudagraph-shared-index-overflow]
  // CHECK-NOTES: :{{[0-9]+}}:{{[0-9]+}}: note: with block (32,8,1) from this launch, threads 64-255 (192 threads) go out of bounds
  __syncthreads();
  out[threadIdx.x] = s[threadIdx.x];
}
void launchTile(float *out, cudaStream_t stream) {
  LaunchConfig config;
  config.blockSize[0] = 32;
  config.blockSize[1] = 8;
  const auto args = packArguments(tileKernel, config, &out);
  launchKernel(tileKernel, config, stream, args);
}

// 3. The kernel returned by a selector: every kernel it may return gets the
//    launch's shape.
template <bool Accumulate> __global__ void reduceKernel(const float *in, float *out) {
  __shared__ float s[64];
  s[threadIdx.x] = in[threadIdx.x];
  // CHECK-NOTES: :[[@LINE-1]]:3: warning: __shared__ array 's' is indexed out of bounds: the index reaches 255 but the array has 64 elements [cudagraph-shared-index-overflow]
  // CHECK-NOTES: :{{[0-9]+}}:{{[0-9]+}}: note: in reduceKernel<true> with block (256,1,1) from this launch, threads 64-255 (192 threads) go out of bounds
  // CHECK-NOTES: :[[@LINE-3]]:3: note: also at this access: in reduceKernel<false> (index 255)
  __syncthreads();
  out[threadIdx.x] = Accumulate ? out[threadIdx.x] + s[0] : s[0];
}
using ReduceFn = void (*)(const float *, float *);
ReduceFn selectReduceKernel(bool accumulate) {
  ReduceFn kernel;
  if (accumulate)
    kernel = reduceKernel<true>;
  else
    kernel = reduceKernel<false>;
  return kernel;
}
void launchReduce(const float *in, float *out, bool accumulate, cudaStream_t stream) {
  LaunchConfig config;
  config.blockSize[0] = 256;
  auto kernelPtr = selectReduceKernel(accumulate);
  const auto args = packArguments(kernelPtr, config, &in, &out);
  launchKernel(kernelPtr, config, stream, args);
}

// 4. A size written through a computed index is not a known shape: no
//    launch-derived verdict, and the kernel is judged as one without a
//    launch (it declares its bound: 64 threads, correct).
__global__ void __launch_bounds__(64) copyKernel(const float *in, float *out) {
  __shared__ float s[64];
  s[threadIdx.x] = in[threadIdx.x];
  __syncthreads();
  out[threadIdx.x] = s[63 - threadIdx.x];
}
void launchCopy(const float *in, float *out, const size_t *dims, cudaStream_t stream) {
  LaunchConfig config;
  config.blockSize[0] = 256;
  for (int d = 0; d < 3; ++d)
    config.blockSize[d] = dims[d];
  const auto args = packArguments(copyKernel, config, &in, &out);
  launchKernel(copyKernel, config, stream, args);
}

// 5. The configuration kept in a private member, filled by the constructor,
//    the launch in a method (GROMACS's listed-forces and halo classes).
__global__ void bondedKernel(const float *in, float *out) {
  __shared__ float s[64];
  s[threadIdx.x] = in[threadIdx.x];
  // CHECK-NOTES: :[[@LINE-1]]:3: warning: __shared__ array 's' is indexed out of bounds: the index reaches 127 but the array has 64 elements [cudagraph-shared-index-overflow]
  // CHECK-NOTES: :{{[0-9]+}}:{{[0-9]+}}: note: with block (128,1,1) from this launch, threads 64-127 (64 threads) go out of bounds
  __syncthreads();
  out[threadIdx.x] = s[0];
}
class BondedForces {
public:
  explicit BondedForces(int n) {
    kernelLaunchConfig_.blockSize[0] = 128;
    kernelLaunchConfig_.gridSize[0] = (n + 127) / 128;
  }
  void launch(const float *in, float *out, cudaStream_t stream) {
    const auto args = packArguments(bondedKernel, kernelLaunchConfig_, &in, &out);
    launchKernel(bondedKernel, kernelLaunchConfig_, stream, args);
  }

private:
  LaunchConfig kernelLaunchConfig_;
};

// The twin: 64 threads, and a kernel pointer kept in a member.
__global__ void haloKernel(const float *in, float *out) {
  __shared__ float s[64];
  s[threadIdx.x] = in[threadIdx.x];
  __syncthreads();
  out[threadIdx.x] = s[63 - threadIdx.x];
}
class HaloExchange {
public:
  HaloExchange() : kernel_(haloKernel) { config_.blockSize[0] = 64; }
  void launch(const float *in, float *out, cudaStream_t stream) {
    const auto args = packArguments(kernel_, config_, &in, &out);
    launchKernel(kernel_, config_, stream, args);
  }

private:
  void (*kernel_)(const float *, float *);
  LaunchConfig config_;
};

// 6. A member that another method resizes at run time is not a known shape;
//    neither is a public one (code outside the class may write it).
__global__ void __launch_bounds__(64) resizedKernel(const float *in, float *out) {
  __shared__ float s[64];
  s[threadIdx.x] = in[threadIdx.x];
  __syncthreads();
  out[threadIdx.x] = s[63 - threadIdx.x];
}
class Resized {
public:
  Resized() { config_.blockSize[0] = 256; }
  void setThreads(size_t t) { config_.blockSize[0] = t; }
  void launch(const float *in, float *out, cudaStream_t stream) {
    const auto args = packArguments(resizedKernel, config_, &in, &out);
    launchKernel(resizedKernel, config_, stream, args);
  }

private:
  LaunchConfig config_;
};
struct PublicConfig {
  PublicConfig() { config.blockSize[0] = 256; }
  void launch(const float *in, float *out, cudaStream_t stream) {
    const auto args = packArguments(resizedKernel, config, &in, &out);
    launchKernel(resizedKernel, config, stream, args);
  }
  LaunchConfig config;
};
