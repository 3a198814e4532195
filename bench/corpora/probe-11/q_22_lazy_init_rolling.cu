// Lazy initialisation guarded by a separate flag member, called every step;
// rolling (rotate-and-free) buffers; an engine whose copy stream is the
// compute stream when the caller gives only one.
#include <cuda_runtime.h>
#include <cstdio>

__global__ void blend(const float *prev, float *cur, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) cur[i] = prev ? 0.5f * (prev[i] + cur[i]) : cur[i];
}

class Decoder {
 public:
  Decoder(int n) : n_(n) {}
  ~Decoder() {
    if (initialized_) {
      cudaEventDestroy(done_);
      cudaFree(scratch_);
      cudaStreamDestroy(stream_);
    }
  }
  Decoder(const Decoder &) = delete;
  Decoder &operator=(const Decoder &) = delete;

  bool ensure_initialized() {
    if (initialized_) return true;
    if (cudaStreamCreateWithFlags(&stream_, cudaStreamNonBlocking) != cudaSuccess) return false;
    if (cudaMalloc(&scratch_, n_ * sizeof(float)) != cudaSuccess) {
      cudaStreamDestroy(stream_);
      return false;
    }
    if (cudaEventCreateWithFlags(&done_, cudaEventDisableTiming) != cudaSuccess) {
      cudaFree(scratch_);
      cudaStreamDestroy(stream_);
      return false;
    }
    initialized_ = true;
    return true;
  }

  bool step(int t) {
    if (!ensure_initialized()) return false;
    cudaMemsetAsync(scratch_, t & 0xff, n_ * sizeof(float), stream_);
    cudaEventRecord(done_, stream_);
    return cudaEventSynchronize(done_) == cudaSuccess;
  }

 private:
  int n_;
  bool initialized_ = false;
  cudaStream_t stream_ = nullptr;
  float *scratch_ = nullptr;
  cudaEvent_t done_ = nullptr;
};

// Each frame gets a fresh buffer; the previous frame's buffer is freed once
// the new frame has consumed it.
static int rolling(int frames, int n, cudaStream_t s) {
  float *prev = nullptr;
  for (int f = 0; f < frames; ++f) {
    float *cur = nullptr;
    if (cudaMalloc(&cur, n * sizeof(float)) != cudaSuccess) {
      cudaFree(prev);
      return 1;
    }
    cudaMemsetAsync(cur, 0, n * sizeof(float), s);
    blend<<<(n + 255) / 256, 256, 0, s>>>(prev, cur, n);
    cudaStreamSynchronize(s);
    cudaFree(prev);
    prev = cur;
  }
  cudaFree(prev);
  return 0;
}

class Uploader {
 public:
  // With one stream, uploads and compute share it.
  explicit Uploader(cudaStream_t s) : compute_(s), copy_(s) {}
  Uploader(cudaStream_t compute, cudaStream_t copy) : compute_(compute), copy_(copy) {}

  int upload_and_run(const float *host, int n) {
    float *d = nullptr;
    if (cudaMallocAsync(&d, n * sizeof(float), compute_) != cudaSuccess) return 1;
    if (copy_ != compute_) {
      cudaEvent_t ev;
      cudaEventCreateWithFlags(&ev, cudaEventDisableTiming);
      cudaEventRecord(ev, compute_);
      cudaStreamWaitEvent(copy_, ev, 0);
      cudaEventDestroy(ev);
    }
    cudaMemcpyAsync(d, host, n * sizeof(float), cudaMemcpyHostToDevice, copy_);
    if (copy_ != compute_) {
      cudaEvent_t ev;
      cudaEventCreateWithFlags(&ev, cudaEventDisableTiming);
      cudaEventRecord(ev, copy_);
      cudaStreamWaitEvent(compute_, ev, 0);
      cudaEventDestroy(ev);
    }
    blend<<<(n + 255) / 256, 256, 0, compute_>>>(nullptr, d, n);
    cudaFreeAsync(d, compute_);
    return cudaStreamSynchronize(compute_) == cudaSuccess ? 0 : 1;
  }

 private:
  cudaStream_t compute_;
  cudaStream_t copy_;
};

int main() {
  Decoder dec(4096);
  for (int t = 0; t < 16; ++t)
    if (!dec.step(t)) return 1;
  cudaStream_t s;
  if (cudaStreamCreate(&s) != cudaSuccess) return 1;
  int rc = rolling(8, 1024, s);
  float host[256] = {};
  Uploader up(s);
  rc |= up.upload_and_run(host, 256);
  cudaStreamDestroy(s);
  return rc;
}
