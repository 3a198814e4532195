// Allocation helper with a memory-kind enum: switch picks the allocator and
// a matching switch picks the release; conditions written in De Morgan form.
#include <cuda_runtime.h>
#include <cstdio>
#include <cstdlib>

enum class MemKind { Device, Pinned, Managed, Host };

struct Buffer {
  void *ptr = nullptr;
  size_t bytes = 0;
  MemKind kind = MemKind::Host;
};

static cudaError_t buffer_alloc(Buffer *b, size_t bytes, MemKind kind) {
  cudaError_t st = cudaSuccess;
  void *p = nullptr;
  switch (kind) {
    case MemKind::Device: st = cudaMalloc(&p, bytes); break;
    case MemKind::Pinned: st = cudaMallocHost(&p, bytes); break;
    case MemKind::Managed: st = cudaMallocManaged(&p, bytes, cudaMemAttachGlobal); break;
    case MemKind::Host:
      p = std::malloc(bytes);
      st = p ? cudaSuccess : cudaErrorMemoryAllocation;
      break;
  }
  if (!(st != cudaSuccess)) {
    b->ptr = p;
    b->bytes = bytes;
    b->kind = kind;
  }
  return st;
}

static void buffer_free(Buffer *b) {
  if (!b->ptr) return;
  switch (b->kind) {
    case MemKind::Device:
    case MemKind::Managed: cudaFree(b->ptr); break;
    case MemKind::Pinned: cudaFreeHost(b->ptr); break;
    case MemKind::Host: std::free(b->ptr); break;
  }
  b->ptr = nullptr;
  b->bytes = 0;
}

__global__ void touch(char *p, size_t n) {
  size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x;
  if (i < n) p[i] = 1;
}

int main(int argc, char **argv) {
  const bool use_managed = argc > 1 && argv[1][0] == 'm';
  const bool want_pinned = !(argc > 2) || argv[2][0] != 'n';
  Buffer dev, host, staging;
  const size_t n = 1 << 20;
  if (buffer_alloc(&dev, n, use_managed ? MemKind::Managed : MemKind::Device) != cudaSuccess) return 1;
  if (buffer_alloc(&host, n, want_pinned ? MemKind::Pinned : MemKind::Host) != cudaSuccess) {
    buffer_free(&dev);
    return 1;
  }
  touch<<<(n + 255) / 256, 256>>>(static_cast<char *>(dev.ptr), n);
  cudaMemcpy(host.ptr, dev.ptr, n, cudaMemcpyDeviceToHost);
  // Optional staging buffer; released only if it was allocated.
  const bool have_staging = !(!want_pinned || use_managed) &&
                            buffer_alloc(&staging, n, MemKind::Pinned) == cudaSuccess;
  if (have_staging) {
    cudaMemcpy(staging.ptr, host.ptr, n, cudaMemcpyHostToHost);
    buffer_free(&staging);
  }
  std::printf("first=%d\n", static_cast<char *>(host.ptr)[0]);
  buffer_free(&host);
  buffer_free(&dev);
  return 0;
}
