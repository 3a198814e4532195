// RUN: %cudagraph_tidy --format=text-plain --result-cache=off --quiet %s -- %cuda_args 2>&1 | FileCheck %s --check-prefix=CLEAN --allow-empty
// RUN: not %cudagraph_tidy --format=text-plain --result-cache=off --quiet %s -- %cuda_args -DBUGGY 2>&1 | FileCheck %s --check-prefix=BUGGY
// CLEAN-NOT: warning:
// BUGGY: warning: __shared__ array 'shared' {{.*}} [cudagraph-shared-index-overflow]
// Reduction of a false alarm on real code (issue 35: llm.c llmc/layernorm.cuh,
// layernorm_backward_kernel10).
// FP: two scratch pointers carved out of dynamic shared memory after two C-float
// regions, each moved back by one warp's share (`dbias_tmp = shared + 2*rc - 32*4`):
// warp 0 never stores through them, so the launch saves that memory. The first
// carve was given the distance to the second (480 float4s) as its extent, and
// thread 511's 128-bit store at dbias_tmp + 4*511 was reported, although it ends
// where the second carve's stores begin and inside the launch's allocation. A carve
// of dynamic shared memory owns no region: the whole allocation bounds it.
// Clean: llm.c's layout and launch size, with C = 768 (GPT-2's channels) a template
// argument here so that the offsets and the launch's size are constants; silent.
// Buggy twin (-DBUGGY): the base pointers are no longer moved back but the launch
// still saves warp 0's share: the last warp's dweight_tmp stores leave the whole
// allocation; reported.
#include <cuda_runtime.h>
#define WARP_SIZE 32
#define CEIL_DIV(a, b) (((a) + (b) - 1) / (b))
struct f128 {
  static constexpr int size = 4;
  float v[4];
};
__device__ void store128(float *p, f128 x) { *reinterpret_cast<f128 *>(p) = x; }
__device__ f128 load128(const float *p) { return *reinterpret_cast<const f128 *>(p); }

template <int C>
__global__ void layernorm_backward_kernel10(float *dbias, float *dweight) {
  int BLOCK_SIZE = blockDim.x;
  int warpsInBlock = BLOCK_SIZE / WARP_SIZE;
  extern __shared__ float shared[];
  int warpId = threadIdx.x / WARP_SIZE;
  int rounded_C = CEIL_DIV(C, (32 * f128::size)) * (32 * f128::size);
  float *dbias_shared = shared;
  float *dweight_shared = shared + rounded_C;
#ifndef BUGGY
  // warp zero doesn't write to the _tmp_shared locations: no memory reserved
  float *dbias_tmp_shared = shared + 2 * rounded_C - WARP_SIZE * f128::size;
  float *dweight_tmp_shared =
      shared + 2 * rounded_C + f128::size * BLOCK_SIZE - 2 * WARP_SIZE * f128::size;
#else
  float *dbias_tmp_shared = shared + 2 * rounded_C;
  float *dweight_tmp_shared = shared + 2 * rounded_C + f128::size * BLOCK_SIZE - WARP_SIZE * f128::size;
#endif
  for (int i = threadIdx.x; i < rounded_C; i += BLOCK_SIZE) {
    dbias_shared[i] = 0.f;
    dweight_shared[i] = 0.f;
  }
  __syncthreads();
  f128 dbias_f = {}, dweight_f = {};
  if (warpId != 0) {
    store128(dbias_tmp_shared + threadIdx.x * f128::size, dbias_f);
    store128(dweight_tmp_shared + threadIdx.x * f128::size, dweight_f);
  }
  __syncthreads();
  if (warpId == 0) {
    for (int j = 1; j < warpsInBlock; j++) {
      f128 dbias_tmp = load128(dbias_tmp_shared + f128::size * (threadIdx.x + j * WARP_SIZE));
      f128 dweight_tmp = load128(dweight_tmp_shared + f128::size * (threadIdx.x + j * WARP_SIZE));
      for (int i = 0; i < f128::size; ++i) {
        dbias_f.v[i] += dbias_tmp.v[i];
        dweight_f.v[i] += dweight_tmp.v[i];
      }
    }
    dbias[threadIdx.x] = dbias_f.v[0];
    dweight[threadIdx.x] = dweight_f.v[0];
  }
}

template <int C>
void layernorm_backward(float *dbias, float *dweight, cudaStream_t stream) {
  const int block_size = 512;
  size_t rounded_C = CEIL_DIV(C, (32 * f128::size)) * (32 * f128::size);
  size_t shared_mem_size = (2 * rounded_C + 2 * (block_size - 32) * f128::size) * sizeof(float);
  layernorm_backward_kernel10<C><<<2, block_size, shared_mem_size, stream>>>(dbias, dweight);
}

void backward(float *dbias, float *dweight, cudaStream_t stream) {
  layernorm_backward<768>(dbias, dweight, stream);
}
