// PLANTED: cudagraph-handle-leak line 55
// Embedding-table lookup service: a request batch is gathered from a large
// table in device memory, copied back via pinned memory and returned.
#include <cuda_runtime.h>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <functional>
#include <sstream>
#include <stdexcept>
#include <vector>

class CudaError : public std::runtime_error {
 public:
  CudaError(cudaError_t e, const char *what, const char *file, int line)
      : std::runtime_error(format(e, what, file, line)), code(e) {}
  cudaError_t code;

 private:
  static std::string format(cudaError_t e, const char *what, const char *file, int line) {
    std::ostringstream os;
    os << file << ":" << line << ": " << what << " -> " << cudaGetErrorString(e);
    return os.str();
  }
};

#define THROW_ON_CUDA_ERROR(expr)                                              \
  do {                                                                         \
    cudaError_t e__ = (expr);                                                  \
    if (e__ != cudaSuccess) throw CudaError(e__, #expr, __FILE__, __LINE__);   \
  } while (0)

__global__ void gather_rows(const float *table, const int64_t *ids, float *out,
                            int n_ids, int dim) {
  int r = blockIdx.x;
  if (r >= n_ids) return;
  const float *src = table + ids[r] * (int64_t)dim;
  for (int d = threadIdx.x; d < dim; d += blockDim.x) out[(size_t)r * dim + d] = src[d];
}

class EmbeddingService {
 public:
  EmbeddingService(const float *d_table, int64_t rows, int dim, cudaStream_t s)
      : table_(d_table), rows_(rows), dim_(dim), stream_(s) {}

  std::vector<float> lookup(const std::vector<int64_t> &ids) {
    for (int64_t id : ids)
      if (id < 0 || id >= rows_) throw std::out_of_range("embedding id");
    const int n = static_cast<int>(ids.size());
    const size_t out_bytes = (size_t)n * dim_ * sizeof(float);

    int64_t *d_ids = nullptr;
    float *d_out = nullptr;
    float *h_out = nullptr;
    THROW_ON_CUDA_ERROR(cudaMalloc(&d_ids, n * sizeof(int64_t)));  // PLANTED (buggy variant): cudagraph-handle-leak
#ifdef BUGGY
    THROW_ON_CUDA_ERROR(cudaMalloc(&d_out, out_bytes));
    THROW_ON_CUDA_ERROR(cudaMallocHost(&h_out, out_bytes));
#else
    std::function<void()> cleanup = [&] {
      if (h_out) cudaFreeHost(h_out);
      if (d_out) cudaFree(d_out);
      cudaFree(d_ids);
    };
    cudaError_t st = cudaMalloc(&d_out, out_bytes);
    if (st == cudaSuccess) st = cudaMallocHost(&h_out, out_bytes);
    if (st != cudaSuccess) {
      cleanup();
      throw CudaError(st, "workspace allocation", __FILE__, __LINE__);
    }
#endif
    std::vector<float> result((size_t)n * dim_);
    cudaError_t rc = cudaMemcpyAsync(d_ids, ids.data(), n * sizeof(int64_t),
                                     cudaMemcpyHostToDevice, stream_);
    if (rc == cudaSuccess) {
      gather_rows<<<n, 128, 0, stream_>>>(table_, d_ids, d_out, n, dim_);
      rc = cudaGetLastError();
    }
    if (rc == cudaSuccess)
      rc = cudaMemcpyAsync(h_out, d_out, out_bytes, cudaMemcpyDeviceToHost, stream_);
    if (rc == cudaSuccess) rc = cudaStreamSynchronize(stream_);
    if (rc == cudaSuccess) std::memcpy(result.data(), h_out, out_bytes);

    cudaFreeHost(h_out);
    cudaFree(d_out);
    cudaFree(d_ids);
    if (rc != cudaSuccess) throw CudaError(rc, "lookup", __FILE__, __LINE__);
    return result;
  }

 private:
  const float *table_;
  int64_t rows_;
  int dim_;
  cudaStream_t stream_;
};

size_t serve_batch(EmbeddingService &svc, const std::vector<int64_t> &ids) {
  try {
    return svc.lookup(ids).size();
  } catch (const CudaError &e) {
    std::fprintf(stderr, "lookup failed (%d): %s\n", (int)e.code, e.what());
    return 0;
  }
}
