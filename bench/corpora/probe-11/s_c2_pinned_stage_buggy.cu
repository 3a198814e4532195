#define BUGGY
// PLANTED: cudagraph-mismatched-dealloc line 83
// Checkpoint writer of a training job: tensors are staged through pinned host
// memory so the device-to-host copy can overlap the previous file write.
#include <cuda_runtime.h>
#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <string>
#include <vector>

#define CKPT_CHECK(call)                                                       \
  do {                                                                         \
    cudaError_t e__ = (call);                                                  \
    if (e__ != cudaSuccess) {                                                  \
      std::fprintf(stderr, "[ckpt] %s: %s\n", #call, cudaGetErrorString(e__)); \
      return false;                                                            \
    }                                                                          \
  } while (0)

struct TensorView {
  std::string name;
  const void *device_ptr;
  size_t numel;
  int dtype_bytes;
};

// Allocates a pinned staging area big enough for `count` elements of T.
template <typename T>
T *alloc_staging(size_t count, bool write_combined) {
  T *p = nullptr;
  unsigned flags = write_combined ? cudaHostAllocWriteCombined : cudaHostAllocDefault;
  if (cudaHostAlloc(reinterpret_cast<void **>(&p), count * sizeof(T), flags) !=
      cudaSuccess)
    return nullptr;
  return p;
}

template <typename T>
bool copy_to_host(T *dst, const void *src, size_t count, cudaStream_t s) {
  CKPT_CHECK(cudaMemcpyAsync(dst, src, count * sizeof(T),
                             cudaMemcpyDeviceToHost, s));
  return true;
}

static bool write_record(std::FILE *f, const TensorView &t, const void *bytes) {
  uint32_t name_len = static_cast<uint32_t>(t.name.size());
  uint64_t nbytes = static_cast<uint64_t>(t.numel) * t.dtype_bytes;
  if (std::fwrite(&name_len, sizeof name_len, 1, f) != 1) return false;
  if (std::fwrite(t.name.data(), 1, name_len, f) != name_len) return false;
  if (std::fwrite(&nbytes, sizeof nbytes, 1, f) != 1) return false;
  return std::fwrite(bytes, 1, nbytes, f) == nbytes;
}

bool save_checkpoint(const std::vector<TensorView> &tensors, const char *path,
                     cudaStream_t stream) {
  size_t max_bytes = 0;
  for (const auto &t : tensors)
    max_bytes = std::max(max_bytes, t.numel * (size_t)t.dtype_bytes);
  if (max_bytes == 0) return true;

  std::FILE *f = std::fopen(path, "wb");
  if (!f) return false;

  uint8_t *stage = alloc_staging<uint8_t>(max_bytes, /*write_combined=*/false);
  if (!stage) {
    std::fclose(f);
    return false;
  }

  bool ok = true;
  for (const auto &t : tensors) {
    size_t nbytes = t.numel * (size_t)t.dtype_bytes;
    if (!copy_to_host<uint8_t>(stage, t.device_ptr, nbytes, stream) ||
        cudaStreamSynchronize(stream) != cudaSuccess ||
        !write_record(f, t, stage)) {
      ok = false;
      break;
    }
  }

#ifdef BUGGY
  cudaFree(stage);  // EXPECT: cudagraph-mismatched-dealloc
#else
  cudaFreeHost(stage);
#endif
  if (std::fclose(f) != 0) ok = false;
  return ok;
}
