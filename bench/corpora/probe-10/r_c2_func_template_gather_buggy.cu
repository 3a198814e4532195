#define BUGGY
// PLANTED: cudagraph-handle-leak line 33
// Row gather for embedding lookups / MoE token permutation. The index list arrives on
// the host; it is staged to the device, the gather runs into a scratch buffer and the
// result is copied into the (possibly aliasing) destination.
#include <cuda_fp16.h>
#include <cuda_runtime.h>
#include <cstdint>
#include <vector>

namespace ops {

constexpr int kMaxCols = 16384;

template <typename T>
__global__ void gather_rows_kernel(const T* src, const int32_t* idx, T* dst, int rows, int cols) {
  int r = blockIdx.x;
  if (r >= rows) return;
  const T* s = src + static_cast<int64_t>(idx[r]) * cols;
  T* d = dst + static_cast<int64_t>(r) * cols;
  for (int c = threadIdx.x; c < cols; c += blockDim.x) d[c] = s[c];
}

template <typename T>
cudaError_t gather_rows(const T* src, const std::vector<int32_t>& host_idx, T* dst, int cols,
                        cudaStream_t stream) {
  const int rows = static_cast<int>(host_idx.size());
  if (rows == 0) return cudaSuccess;
#ifndef BUGGY
  if (cols <= 0 || cols > kMaxCols) return cudaErrorInvalidValue;
#endif
  const size_t bytes = static_cast<size_t>(rows) * cols * sizeof(T);
  T* scratch = nullptr;
  cudaError_t st = cudaMalloc(&scratch, bytes + rows * sizeof(int32_t));  // EXPECT: cudagraph-handle-leak
  if (st != cudaSuccess) return st;
#ifdef BUGGY
  if (cols <= 0 || cols > kMaxCols) return cudaErrorInvalidValue;
#endif
  int32_t* d_idx = reinterpret_cast<int32_t*>(reinterpret_cast<char*>(scratch) + bytes);
  st = cudaMemcpyAsync(d_idx, host_idx.data(), rows * sizeof(int32_t), cudaMemcpyHostToDevice,
                       stream);
  if (st == cudaSuccess) {
    int threads = cols < 256 ? 32 * ((cols + 31) / 32) : 256;
    gather_rows_kernel<T><<<rows, threads, 0, stream>>>(src, d_idx, scratch, rows, cols);
    st = cudaGetLastError();
  }
  if (st == cudaSuccess)
    st = cudaMemcpyAsync(dst, scratch, bytes, cudaMemcpyDeviceToDevice, stream);
  if (st == cudaSuccess) st = cudaStreamSynchronize(stream);
  cudaFree(scratch);
  return st;
}

template cudaError_t gather_rows<float>(const float*, const std::vector<int32_t>&, float*, int,
                                        cudaStream_t);
template cudaError_t gather_rows<__half>(const __half*, const std::vector<int32_t>&, __half*,
                                         int, cudaStream_t);

// MoE token permutation: rows of the hidden states are reordered by expert.
cudaError_t permute_tokens_by_expert(const float* hidden, const std::vector<int32_t>& expert_of,
                                     int num_experts, int hidden_dim, float* permuted,
                                     cudaStream_t stream) {
  std::vector<int32_t> order;
  order.reserve(expert_of.size());
  for (int e = 0; e < num_experts; ++e)
    for (size_t t = 0; t < expert_of.size(); ++t)
      if (expert_of[t] == e) order.push_back(static_cast<int32_t>(t));
  return gather_rows<float>(hidden, order, permuted, hidden_dim, stream);
}

}  // namespace ops
