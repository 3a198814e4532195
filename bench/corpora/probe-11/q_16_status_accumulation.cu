// Status accumulation (`err = err ? err : call()`, `st |= ...`-free variant):
// every step runs only if the previous ones succeeded, and one cleanup block
// releases whatever was acquired (handles start at null).
#include <cuda_runtime.h>
#include <cstdio>

struct Buffers {
  float *d_in = nullptr;
  float *d_out = nullptr;
  float *h_stage = nullptr;
  cudaStream_t stream = nullptr;
  cudaEvent_t ev = nullptr;
};

__global__ void square(const float *in, float *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = in[i] * in[i];
}

static cudaError_t process(const float *host_in, float *host_out, int n) {
  float *d_in = nullptr, *d_out = nullptr, *h_stage = nullptr;
  cudaStream_t stream = nullptr;
  cudaEvent_t ev = nullptr;
  size_t bytes = size_t(n) * sizeof(float);
  cudaError_t err = cudaSuccess;

  err = err ? err : cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking);
  err = err ? err : cudaEventCreateWithFlags(&ev, cudaEventDisableTiming);
  err = err ? err : cudaMalloc(&d_in, bytes);
  err = err ? err : cudaMalloc(&d_out, bytes);
  err = err ? err : cudaMallocHost(&h_stage, bytes);
  if (!err) {
    for (int i = 0; i < n; ++i) h_stage[i] = host_in[i];
    err = cudaMemcpyAsync(d_in, h_stage, bytes, cudaMemcpyHostToDevice, stream);
  }
  if (!err) {
    square<<<(n + 255) / 256, 256, 0, stream>>>(d_in, d_out, n);
    err = cudaGetLastError();
  }
  err = err ? err : cudaMemcpyAsync(h_stage, d_out, bytes, cudaMemcpyDeviceToHost, stream);
  err = err ? err : cudaEventRecord(ev, stream);
  err = err ? err : cudaEventSynchronize(ev);
  if (!err)
    for (int i = 0; i < n; ++i) host_out[i] = h_stage[i];

  if (h_stage) cudaFreeHost(h_stage);
  if (d_out) cudaFree(d_out);
  if (d_in) cudaFree(d_in);
  if (ev) cudaEventDestroy(ev);
  if (stream) cudaStreamDestroy(stream);
  return err;
}

// Same accumulation into a struct, with a separate release function.
static cudaError_t buffers_create(Buffers *b, size_t bytes) {
  cudaError_t err = cudaSuccess;
  if (err == cudaSuccess) err = cudaStreamCreate(&b->stream);
  if (err == cudaSuccess) err = cudaEventCreate(&b->ev);
  if (err == cudaSuccess) err = cudaMalloc(&b->d_in, bytes);
  if (err == cudaSuccess) err = cudaMalloc(&b->d_out, bytes);
  if (err == cudaSuccess) err = cudaMallocHost(&b->h_stage, bytes);
  return err;
}

static void buffers_release(Buffers *b) {
  cudaFreeHost(b->h_stage);
  cudaFree(b->d_out);
  cudaFree(b->d_in);
  if (b->ev) cudaEventDestroy(b->ev);
  if (b->stream) cudaStreamDestroy(b->stream);
  *b = Buffers{};
}

static int run_struct(int n) {
  Buffers b;
  cudaError_t err = buffers_create(&b, n * sizeof(float));
  if (err == cudaSuccess) {
    square<<<(n + 255) / 256, 256, 0, b.stream>>>(b.d_in, b.d_out, n);
    err = cudaStreamSynchronize(b.stream);
  }
  buffers_release(&b);
  return err == cudaSuccess ? 0 : 1;
}

int main() {
  float in[256], out[256];
  for (int i = 0; i < 256; ++i) in[i] = float(i);
  cudaError_t err = process(in, out, 256);
  int rc = run_struct(1024);
  std::printf("%s %f\n", cudaGetErrorString(err), out[3]);
  return (err != cudaSuccess) | rc;
}
