#define BUGGY
// PLANTED: cudagraph-handle-leak line 48
// TVM-style CUDA device API: errors go through ICHECK, whose LogFatal temporary throws
// from its destructor.
#include <cuda_runtime.h>
#include <sstream>
#include <stdexcept>
#include <string>

namespace rt {

class InternalError : public std::runtime_error {
 public:
  explicit InternalError(const std::string& m) : std::runtime_error(m) {}
};

class LogFatal {
 public:
  LogFatal(const char* file, int line) { stream_ << "[" << file << ":" << line << "] "; }
  [[noreturn]] ~LogFatal() noexcept(false) { throw InternalError(stream_.str()); }
  std::ostringstream& stream() { return stream_; }

 private:
  std::ostringstream stream_;
};

#define ICHECK(x) \
  if (!(x)) ::rt::LogFatal(__FILE__, __LINE__).stream() << "Check failed: (" #x << ") "

#define CUDA_CALL(func)                                                   \
  {                                                                       \
    cudaError_t e = (func);                                               \
    ICHECK(e == cudaSuccess || e == cudaErrorCudartUnloading)             \
        << "CUDA: " << cudaGetErrorString(e);                             \
  }

struct CopyEngine {
  cudaStream_t stream = nullptr;
  cudaEvent_t done = nullptr;
  void* bounce = nullptr;
  size_t bounce_bytes = 0;
};

// Creates a dedicated copy engine for cross-device copies (used by the NDArray
// CopyFromTo path when peer access is unavailable).
CopyEngine* create_copy_engine(int device, size_t bounce_bytes) {
  CUDA_CALL(cudaSetDevice(device));
  cudaStream_t stream;
  CUDA_CALL(cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking));  // EXPECT: cudagraph-handle-leak
  cudaEvent_t done;
#ifdef BUGGY
  CUDA_CALL(cudaEventCreateWithFlags(&done, cudaEventDisableTiming));
#else
  cudaError_t st = cudaEventCreateWithFlags(&done, cudaEventDisableTiming);
  if (st != cudaSuccess) {
    cudaStreamDestroy(stream);
    CUDA_CALL(st);
  }
#endif
  void* bounce = nullptr;
  cudaError_t st_alloc = cudaMallocHost(&bounce, bounce_bytes);
  if (st_alloc != cudaSuccess) {
    cudaEventDestroy(done);
    cudaStreamDestroy(stream);
    CUDA_CALL(st_alloc);
  }
  CopyEngine* ce = new CopyEngine;
  ce->stream = stream;
  ce->done = done;
  ce->bounce = bounce;
  ce->bounce_bytes = bounce_bytes;
  return ce;
}

void destroy_copy_engine(CopyEngine* ce) {
  if (!ce) return;
  cudaStreamSynchronize(ce->stream);
  cudaFreeHost(ce->bounce);
  cudaEventDestroy(ce->done);
  cudaStreamDestroy(ce->stream);
  delete ce;
}

}  // namespace rt
