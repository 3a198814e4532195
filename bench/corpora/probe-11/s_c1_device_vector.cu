// PLANTED: cudagraph-handle-leak line 55
// Minimal growable device array used by a sparse-matrix assembly code (CSR
// row pointers / column indices / values live in three of these).
#include <cuda_runtime.h>
#include <algorithm>
#include <cstddef>
#include <cstdio>
#include <stdexcept>
#include <utility>

#define SPX_CUDA_CALL(x)                                                       \
  do {                                                                         \
    cudaError_t rc_ = (x);                                                     \
    if (rc_ != cudaSuccess)                                                    \
      throw std::runtime_error(cudaGetErrorString(rc_));                       \
  } while (0)

namespace spx {

template <typename T>
class DeviceArray {
 public:
  DeviceArray() = default;
  explicit DeviceArray(size_t n) { reserve(n); size_ = n; }
  ~DeviceArray() { cudaFree(data_); }

  DeviceArray(const DeviceArray &) = delete;
  DeviceArray &operator=(const DeviceArray &) = delete;
  DeviceArray(DeviceArray &&o) noexcept
      : data_(std::exchange(o.data_, nullptr)),
        size_(std::exchange(o.size_, 0)),
        cap_(std::exchange(o.cap_, 0)) {}

  void reserve(size_t n) {
    if (n <= cap_) return;
    T *fresh = nullptr;
    SPX_CUDA_CALL(cudaMalloc(&fresh, n * sizeof(T)));
    if (size_ > 0) {
      cudaError_t st = cudaMemcpy(fresh, data_, size_ * sizeof(T),
                                  cudaMemcpyDeviceToDevice);
      if (st != cudaSuccess) {
        cudaFree(fresh);
        throw std::runtime_error(cudaGetErrorString(st));
      }
    }
    cudaFree(data_);
    data_ = fresh;
    cap_ = n;
  }

  // Discards the contents and makes room for exactly n elements.
  void assign_uninitialized(size_t n) {
    if (n > cap_) {
#ifdef BUGGY
      SPX_CUDA_CALL(cudaMalloc(&data_, n * sizeof(T)));  // PLANTED (buggy variant): cudagraph-handle-leak
#else
      cudaFree(data_);
      data_ = nullptr;
      cap_ = 0;
      size_ = 0;
      SPX_CUDA_CALL(cudaMalloc(&data_, n * sizeof(T)));
#endif
      cap_ = n;
    }
    size_ = n;
  }

  void upload(const T *host, size_t n) {
    assign_uninitialized(n);
    SPX_CUDA_CALL(cudaMemcpy(data_, host, n * sizeof(T), cudaMemcpyHostToDevice));
  }

  T *data() { return data_; }
  const T *data() const { return data_; }
  size_t size() const { return size_; }

 private:
  T *data_ = nullptr;
  size_t size_ = 0;
  size_t cap_ = 0;
};

}  // namespace spx

__global__ void spmv_csr(const int *rowptr, const int *cols, const double *vals,
                         const double *x, double *y, int nrows) {
  int r = blockIdx.x * blockDim.x + threadIdx.x;
  if (r >= nrows) return;
  double acc = 0;
  for (int k = rowptr[r]; k < rowptr[r + 1]; ++k) acc += vals[k] * x[cols[k]];
  y[r] = acc;
}

struct CsrMatrix {
  spx::DeviceArray<int> rowptr, cols;
  spx::DeviceArray<double> vals;
  int nrows = 0;
};

void assemble(CsrMatrix &A, const int *h_rowptr, const int *h_cols,
              const double *h_vals, int nrows, int nnz) {
  A.nrows = nrows;
  A.rowptr.upload(h_rowptr, nrows + 1);
  A.cols.upload(h_cols, nnz);
  A.vals.upload(h_vals, nnz);
}

void multiply(const CsrMatrix &A, const double *x, double *y, cudaStream_t s) {
  int block = 128;
  spmv_csr<<<(A.nrows + block - 1) / block, block, 0, s>>>(
      A.rowptr.data(), A.cols.data(), A.vals.data(), x, y, A.nrows);
  SPX_CUDA_CALL(cudaGetLastError());
}
