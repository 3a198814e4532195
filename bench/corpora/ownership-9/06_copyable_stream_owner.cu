// Stream wrappers handed to worker functions. CudaStream has a releasing
// destructor and the implicit copy constructor, and submit_chunk takes it by
// value: the copy's destructor destroys the stream the caller still owns, and
// the caller's destructor destroys it again. PinnedStream deletes copy and is
// passed by reference.
#include <cuda_runtime.h>
#include <cstddef>

__global__ void axpy(float a, const float *x, float *y, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) y[i] += a * x[i];
}

class CudaStream {
 public:
  CudaStream() { cudaStreamCreateWithFlags(&s_, cudaStreamNonBlocking); }
  ~CudaStream() {
    if (s_) cudaStreamDestroy(s_); // EXPECT: cudagraph-use-after-dealloc
  }
  cudaStream_t get() const { return s_; }

 private:
  cudaStream_t s_ = nullptr;
};

static void submit_chunk(CudaStream stream, const float *x, float *y, int n) {
  axpy<<<(n + 255) / 256, 256, 0, stream.get()>>>(2.f, x, y, n);
}

void process(const float *x, float *y, int n, int chunk) {
  CudaStream stream;
  for (int off = 0; off < n; off += chunk) {
    int len = n - off < chunk ? n - off : chunk;
    submit_chunk(stream, x + off, y + off, len);
  }
  cudaStreamSynchronize(stream.get());
}

class PinnedStream {
 public:
  PinnedStream() { cudaStreamCreateWithFlags(&s_, cudaStreamNonBlocking); }
  ~PinnedStream() {
    if (s_) cudaStreamDestroy(s_);
  }
  PinnedStream(const PinnedStream &) = delete;
  PinnedStream &operator=(const PinnedStream &) = delete;
  cudaStream_t get() const { return s_; }

 private:
  cudaStream_t s_ = nullptr;
};

static void submit_chunk_ref(const PinnedStream &stream, const float *x, float *y, int n) {
  axpy<<<(n + 255) / 256, 256, 0, stream.get()>>>(2.f, x, y, n);
}

void process_fixed(const float *x, float *y, int n, int chunk) {
  PinnedStream stream;
  for (int off = 0; off < n; off += chunk) {
    int len = n - off < chunk ? n - off : chunk;
    submit_chunk_ref(stream, x + off, y + off, len);
  }
  cudaStreamSynchronize(stream.get());
}
