// Data loader: plain C host memory next to CUDA memory — malloc buffers that
// get pinned with cudaHostRegister, new[] scratch, cudaHostAlloc staging,
// managed memory for labels.
#include <cuda_runtime.h>
#include <cstdio>
#include <cstdlib>
#include <cstring>

__global__ void normalize(unsigned char *img, float *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = img[i] / 255.f;
}

struct Batch {
  unsigned char *raw;      // malloc + cudaHostRegister
  float *staging;          // cudaHostAlloc
  int *labels;             // cudaMallocManaged
  float *dev_out;          // cudaMalloc
  int n;
  bool registered;
};

static bool batch_init(Batch *b, int n) {
  std::memset(b, 0, sizeof(*b));
  b->n = n;
  b->raw = static_cast<unsigned char *>(std::malloc(n));
  if (!b->raw) return false;
  if (cudaHostRegister(b->raw, n, cudaHostRegisterDefault) == cudaSuccess) b->registered = true;
  if (cudaHostAlloc(reinterpret_cast<void **>(&b->staging), n * sizeof(float), cudaHostAllocPortable) != cudaSuccess)
    return false;
  if (cudaMallocManaged(&b->labels, 64 * sizeof(int)) != cudaSuccess) return false;
  if (cudaMalloc(&b->dev_out, n * sizeof(float)) != cudaSuccess) return false;
  return true;
}

static void batch_free(Batch *b) {
  if (b->dev_out) cudaFree(b->dev_out);
  if (b->labels) cudaFree(b->labels);
  if (b->staging) cudaFreeHost(b->staging);
  if (b->raw) {
    if (b->registered) cudaHostUnregister(b->raw);
    std::free(b->raw);
  }
  std::memset(b, 0, sizeof(*b));
}

int main() {
  const int n = 224 * 224 * 3;
  Batch b;
  if (!batch_init(&b, n)) {
    batch_free(&b);
    return 1;
  }
  unsigned char *d_img = nullptr;
  if (cudaMalloc(&d_img, n) != cudaSuccess) {
    batch_free(&b);
    return 1;
  }
  float *hist = new float[256]();
  for (int i = 0; i < n; ++i) b.raw[i] = static_cast<unsigned char>(i & 0xff);
  for (int i = 0; i < 64; ++i) b.labels[i] = i % 10;
  cudaMemcpy(d_img, b.raw, n, cudaMemcpyHostToDevice);
  normalize<<<(n + 255) / 256, 256>>>(d_img, b.dev_out, n);
  cudaMemcpy(b.staging, b.dev_out, n * sizeof(float), cudaMemcpyDeviceToHost);
  for (int i = 0; i < n; ++i) hist[static_cast<int>(b.staging[i] * 255.f) & 0xff] += 1.f;
  std::printf("hist[7]=%f label0=%d\n", hist[7], b.labels[0]);
  delete[] hist;
  cudaFree(d_img);
  batch_free(&b);

  char *scratch = static_cast<char *>(std::calloc(1024, 1));
  if (scratch != nullptr) {
    if (cudaHostRegister(scratch, 1024, cudaHostRegisterPortable) == cudaSuccess) {
      cudaMemcpy(scratch, "registered", 11, cudaMemcpyHostToHost);
      cudaHostUnregister(scratch);
    }
    std::free(scratch);
  }
  return 0;
}
