// Producer/consumer across streams with stream-ordered allocation:
// allocate on the producer, record+wait before the consumer uses it, and
// make the producer wait for the consumer before freeing.
#include <cuda_runtime.h>
#include <cstdio>

__global__ void embed(const int *tok, float *h, int n, int d) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n * d) h[i] = (float)tok[i / d] * 0.001f;
}
__global__ void head(const float *h, float *out, int n, int d) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    float s = 0.f;
    for (int k = 0; k < d; ++k) s += h[i * d + k];
    out[i] = s;
  }
}

struct Streams {
  cudaStream_t producer;
  cudaStream_t consumer;
  cudaEvent_t produced;
  cudaEvent_t consumed;
};

static cudaError_t make_streams(Streams *st) {
  cudaError_t e = cudaStreamCreateWithFlags(&st->producer, cudaStreamNonBlocking);
  if (e) return e;
  e = cudaStreamCreateWithFlags(&st->consumer, cudaStreamNonBlocking);
  if (e) { cudaStreamDestroy(st->producer); return e; }
  e = cudaEventCreateWithFlags(&st->produced, cudaEventDisableTiming);
  if (e) { cudaStreamDestroy(st->consumer); cudaStreamDestroy(st->producer); return e; }
  e = cudaEventCreateWithFlags(&st->consumed, cudaEventDisableTiming);
  if (e) {
    cudaEventDestroy(st->produced);
    cudaStreamDestroy(st->consumer);
    cudaStreamDestroy(st->producer);
  }
  return e;
}

int main() {
  Streams st;
  if (make_streams(&st) != cudaSuccess) return 1;
  const int n = 512, d = 256;
  int *tok = nullptr;
  float *out = nullptr;
  cudaMalloc(&tok, n * sizeof(int));
  cudaMalloc(&out, n * sizeof(float));
  cudaMemset(tok, 0, n * sizeof(int));

  for (int step = 0; step < 4; ++step) {
    float *hidden = nullptr;
    if (cudaMallocAsync(&hidden, sizeof(float) * n * d, st.producer) != cudaSuccess) break;
    embed<<<(n * d + 255) / 256, 256, 0, st.producer>>>(tok, hidden, n, d);
    cudaEventRecord(st.produced, st.producer);
    cudaStreamWaitEvent(st.consumer, st.produced, 0);
    head<<<(n + 127) / 128, 128, 0, st.consumer>>>(hidden, out, n, d);
    cudaEventRecord(st.consumed, st.consumer);
    cudaStreamWaitEvent(st.producer, st.consumed, 0);
    cudaFreeAsync(hidden, st.producer);
  }

  // Second pattern: allocate on the consumer directly after a host sync.
  float *scratch = nullptr;
  cudaStreamSynchronize(st.producer);
  if (cudaMallocAsync(&scratch, sizeof(float) * n, st.producer) == cudaSuccess) {
    cudaStreamSynchronize(st.producer);
    head<<<(n + 127) / 128, 128, 0, st.consumer>>>(scratch, out, n, 1);
    cudaStreamSynchronize(st.consumer);
    cudaFreeAsync(scratch, st.producer);
  }

  cudaStreamSynchronize(st.producer);
  cudaStreamSynchronize(st.consumer);
  cudaFree(out);
  cudaFree(tok);
  cudaEventDestroy(st.consumed);
  cudaEventDestroy(st.produced);
  cudaStreamDestroy(st.consumer);
  cudaStreamDestroy(st.producer);
  std::puts("ok");
  return 0;
}
