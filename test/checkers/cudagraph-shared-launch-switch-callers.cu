// RUN: %check_cudagraph_tidy %s cudagraph-shared-index-overflow %t
//
// Block sizes fixed by a `switch` two callers above the launch, the way
// ggml's mmvf.cu launches: `dim3 block_dims(best)` is made before
// `switch (best)`, each `case B:` calls a launcher template with the
// kernel instantiated for B, and that calls one variadic launch wrapper
// (`klaunch`, a single instantiation for every kernel of one signature)
// with the sizes in a struct built by a constructor. Under `case B:` the
// block is (B,1,1), whatever loop computed `best`.
#include <cuda_runtime.h>
#include <cstdint>

struct launch_params {
  dim3 block_nums;
  dim3 block_dims;
  cudaStream_t stream;
  launch_params(const dim3 &n, const dim3 &d, cudaStream_t s)
      : block_nums(n), block_dims(d), stream(s) {}
};

template <typename Kernel, typename... Args>
static inline void klaunch(Kernel kernel, const launch_params &lp, Args &&...args) {
  kernel<<<lp.block_nums, lp.block_dims, 0, lp.stream>>>(static_cast<Args &&>(args)...);
}

// Every instantiation has 64 elements: correct for blocks up to 64 threads.
template <int B>
__global__ void rows(float *out) {
  __shared__ float buf[64];
  buf[threadIdx.x] = out[threadIdx.x];
  // CHECK-NOTES: :[[@LINE-1]]:3: warning: __shared__ array 'buf' is indexed out of bounds: the index reaches 64 but the array has 64 elements [cudagraph-shared-index-overflow]
  // CHECK-NOTES: :[[@LINE-9]]:3: note: in rows<65> with block (65,1,1) from this launch, thread 64 goes out of bounds
  // CHECK-NOTES: :[[@LINE-3]]:3: note: also at this access: in rows<66> (index 65); in rows<70> (index 69)
  __syncthreads();
  out[threadIdx.x] = buf[63 - threadIdx.x % 64];
}

template <int B>
static void launch_rows(float *out, const dim3 &block_dims, const dim3 &block_nums,
                        cudaStream_t s) {
  const launch_params lp = {block_nums, block_dims, s};
  klaunch(rows<B>, lp, out);
}

#define ARM(B) case B: launch_rows<B>(out, block_dims, block_nums, s); break;

// 70 arms, so 70 calls of the one klaunch instantiation: the arms past the
// 64th (65, 66, 70) overflow and are reported with their own shape; the
// first 64 are the clean twins.
void rows_cuda(float *out, int64_t ncols, cudaStream_t s) {
  int64_t best = 1;
  for (int64_t b = 2; b <= 70; ++b)
    if (ncols % b == 0)
      best = b;
  const dim3 block_nums(ncols, 1, 1);
  const dim3 block_dims(best, 1, 1);
  switch (best) {
    ARM(1) ARM(2) ARM(3) ARM(4) ARM(5) ARM(6) ARM(7) ARM(8) ARM(9) ARM(10)
    ARM(11) ARM(12) ARM(13) ARM(14) ARM(15) ARM(16) ARM(17) ARM(18) ARM(19) ARM(20)
    ARM(21) ARM(22) ARM(23) ARM(24) ARM(25) ARM(26) ARM(27) ARM(28) ARM(29) ARM(30)
    ARM(31) ARM(32) ARM(33) ARM(34) ARM(35) ARM(36) ARM(37) ARM(38) ARM(39) ARM(40)
    ARM(41) ARM(42) ARM(43) ARM(44) ARM(45) ARM(46) ARM(47) ARM(48) ARM(49) ARM(50)
    ARM(51) ARM(52) ARM(53) ARM(54) ARM(55) ARM(56) ARM(57) ARM(58) ARM(59) ARM(60)
    ARM(61) ARM(62) ARM(63) ARM(64) ARM(65) ARM(66) ARM(70)
    default: break;
  }
}

// A launcher called from two arms of a switch on a value with two possible
// values, the sizes in an aggregate: each kernel gets its own arm's block
// only. Before the callers' arms were read, tile<32> was also judged under
// (64,1,1), and its two accesses were reported.
struct plain_params {
  dim3 block_nums;
  dim3 block_dims;
  cudaStream_t stream;
};

template <typename Kernel, typename... Args>
static inline void plain_launch(Kernel kernel, const plain_params &p, Args &&...args) {
  kernel<<<p.block_nums, p.block_dims, 0, p.stream>>>(static_cast<Args &&>(args)...);
}

template <int B>
__global__ void tile(float *out) {
  __shared__ float t[B];
  t[threadIdx.x] = 0.0f;
  __syncthreads();
  out[threadIdx.x] = t[B - 1 - threadIdx.x];
}

template <int B>
static void launch_tile(float *out, const dim3 &block_dims, const dim3 &block_nums,
                        cudaStream_t s) {
  const plain_params p = {block_nums, block_dims, s};
  plain_launch(tile<B>, p, out);
}

void tile_cuda(float *out, int n, cudaStream_t s) {
  int width = n > 100 ? 64 : 32;
  const dim3 block_nums(n, 1, 1);
  const dim3 block_dims(width, 1, 1);
  switch (width) {
  case 32:
    launch_tile<32>(out, block_dims, block_nums, s);
    break;
  case 64:
    launch_tile<64>(out, block_dims, block_nums, s);
    break;
  }
}
