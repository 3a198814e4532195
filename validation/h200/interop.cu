// Outside any capture: allocates with one API and releases with another
// (argv[1] names the pair; "list" prints them). Prints
//   pair|alloc result|release result|cudaDeviceSynchronize after|memory type
//   cudaPointerGetAttributes reports after the release
// Run it plainly and under compute-sanitizer to see whether the pair is legal.
#include <cuda.h>
#include <cuda_runtime.h>

#include <cstdio>
#include <cstring>
#include <functional>
#include <string>
#include <vector>

__global__ void touch(int *p) { p[threadIdx.x] += 1; }

constexpr size_t N = 1 << 20;

static std::string rtName(cudaError_t e) { return cudaGetErrorName(e); }
static std::string drName(CUresult r) {
  const char *n = nullptr;
  cuGetErrorName(r, &n);
  return std::string("CU:") + (n ? n : "?");
}

enum class Where { Device, Host };

struct Pair {
  const char *name;
  Where where;
  std::function<std::string(void **, cudaStream_t)> alloc;
  std::function<std::string(void *, cudaStream_t)> release;
};


static std::vector<Pair> pairs() {
  auto cudaMallocA = [](void **p, cudaStream_t) { return rtName(cudaMalloc(p, N)); };
  auto cudaMallocAsyncA = [](void **p, cudaStream_t s) {
    cudaError_t e = cudaMallocAsync(p, N, s);
    cudaStreamSynchronize(s);
    return rtName(e); };
  auto cudaMallocManagedA = [](void **p, cudaStream_t) { return rtName(cudaMallocManaged(p, N)); };
  auto cudaMallocHostA = [](void **p, cudaStream_t) { return rtName(cudaMallocHost(p, N)); };
  auto cudaHostAllocA = [](void **p, cudaStream_t) { return rtName(cudaHostAlloc(p, N, cudaHostAllocDefault)); };
  auto cuMemAllocA = [](void **p, cudaStream_t) { CUdeviceptr d = 0; CUresult r = cuMemAlloc(&d, N); *p = (void *)d; return drName(r); };
  auto cuMemAllocAsyncA = [](void **p, cudaStream_t s) {
    CUdeviceptr d = 0;
    CUresult r = cuMemAllocAsync(&d, N, CUstream(s));
    cudaStreamSynchronize(s);
    *p = (void *)d;
    return drName(r); };
  auto cuMemAllocManagedA = [](void **p, cudaStream_t) { CUdeviceptr d = 0; CUresult r = cuMemAllocManaged(&d, N, CU_MEM_ATTACH_GLOBAL); *p = (void *)d; return drName(r); };
  auto cuMemAllocHostA = [](void **p, cudaStream_t) { return drName(cuMemAllocHost(p, N)); };
  auto cuMemHostAllocA = [](void **p, cudaStream_t) { return drName(cuMemHostAlloc(p, N, 0)); };

  auto cudaFreeR = [](void *p, cudaStream_t) { return rtName(cudaFree(p)); };
  auto cudaFreeAsyncR = [](void *p, cudaStream_t s) { return rtName(cudaFreeAsync(p, s)); };
  auto cudaFreeHostR = [](void *p, cudaStream_t) { return rtName(cudaFreeHost(p)); };
  auto cuMemFreeR = [](void *p, cudaStream_t) { return drName(cuMemFree(CUdeviceptr(p))); };
  auto cuMemFreeAsyncR = [](void *p, cudaStream_t s) { return drName(cuMemFreeAsync(CUdeviceptr(p), CUstream(s))); };
  auto cuMemFreeHostR = [](void *p, cudaStream_t) { return drName(cuMemFreeHost(p)); };

  const Where D = Where::Device, H = Where::Host;
  return {
      // Same family, for reference.
      {"cudaMalloc>cudaFree", D, cudaMallocA, cudaFreeR},
      {"cudaMallocAsync>cudaFreeAsync", D, cudaMallocAsyncA, cudaFreeAsyncR},
      {"cuMemAlloc>cuMemFree", D, cuMemAllocA, cuMemFreeR},
      {"cudaMallocHost>cudaFreeHost", H, cudaMallocHostA, cudaFreeHostR},
      // Across the stream-ordered / plain divide.
      {"cudaMalloc>cudaFreeAsync", D, cudaMallocA, cudaFreeAsyncR},
      {"cudaMallocAsync>cudaFree", D, cudaMallocAsyncA, cudaFreeR},
      {"cuMemAlloc>cuMemFreeAsync", D, cuMemAllocA, cuMemFreeAsyncR},
      {"cudaMallocManaged>cudaFreeAsync", D, cudaMallocManagedA, cudaFreeAsyncR},
      // Across runtime / driver.
      {"cuMemAlloc>cudaFree", D, cuMemAllocA, cudaFreeR},
      {"cudaMalloc>cuMemFree", D, cudaMallocA, cuMemFreeR},
      {"cuMemAlloc>cudaFreeAsync", D, cuMemAllocA, cudaFreeAsyncR},
      {"cudaMalloc>cuMemFreeAsync", D, cudaMallocA, cuMemFreeAsyncR},
      {"cudaMallocAsync>cuMemFreeAsync", D, cudaMallocAsyncA, cuMemFreeAsyncR},
      {"cuMemAllocAsync>cudaFreeAsync", D, cuMemAllocAsyncA, cudaFreeAsyncR},
      {"cudaMallocAsync>cuMemFree", D, cudaMallocAsyncA, cuMemFreeR},
      {"cuMemAllocAsync>cudaFree", D, cuMemAllocAsyncA, cudaFreeR},
      {"cudaMallocManaged>cuMemFree", D, cudaMallocManagedA, cuMemFreeR},
      {"cuMemAllocManaged>cudaFree", D, cuMemAllocManagedA, cudaFreeR},
      {"cuMemAllocHost>cudaFreeHost", H, cuMemAllocHostA, cudaFreeHostR},
      {"cuMemHostAlloc>cudaFreeHost", H, cuMemHostAllocA, cudaFreeHostR},
      {"cudaMallocHost>cuMemFreeHost", H, cudaMallocHostA, cuMemFreeHostR},
      {"cudaHostAlloc>cuMemFreeHost", H, cudaHostAllocA, cuMemFreeHostR},
      // Host / device mix-ups (expected to fail).
      {"cudaMallocHost>cudaFree", H, cudaMallocHostA, cudaFreeR},
      {"cudaMalloc>cudaFreeHost", D, cudaMallocA, cudaFreeHostR},
      {"cuMemAllocHost>cuMemFree", H, cuMemAllocHostA, cuMemFreeR},
      {"cuMemAlloc>cuMemFreeHost", D, cuMemAllocA, cuMemFreeHostR},
      {"cudaMallocHost>cudaFreeAsync", H, cudaMallocHostA, cudaFreeAsyncR},
  };
}

static const char *typeName(const void *p) {
  cudaPointerAttributes a{};
  cudaError_t e = cudaPointerGetAttributes(&a, p);
  cudaGetLastError();
  if (e != cudaSuccess) return cudaGetErrorName(e);
  switch (a.type) {
    case cudaMemoryTypeUnregistered: return "unregistered";
    case cudaMemoryTypeHost: return "host";
    case cudaMemoryTypeDevice: return "device";
    case cudaMemoryTypeManaged: return "managed";
  }
  return "?";
}

int main(int argc, char **argv) {
  std::vector<Pair> all = pairs();
  if (argc < 2 || !strcmp(argv[1], "list")) {
    for (const Pair &p : all) printf("%s\n", p.name);
    return 0;
  }
  for (const Pair &p : all) {
    if (strcmp(p.name, argv[1])) continue;
    cudaSetDevice(0);
    cudaFree(nullptr);
    cudaStream_t s;
    cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking);
    void *ptr = nullptr;
    std::string a = p.alloc(&ptr, s);
    const char *before = typeName(ptr);
    if (p.where == Where::Device) {
      touch<<<1, 32, 0, s>>>(static_cast<int *>(ptr));
      cudaStreamSynchronize(s);
    } else {
      memset(ptr, 1, N);
    }
    std::string r = p.release(ptr, s);
    std::string sync = rtName(cudaDeviceSynchronize());
    printf("%s|%s|%s|%s|before=%s after=%s\n", p.name, a.c_str(), r.c_str(), sync.c_str(), before,
           typeName(ptr));
    cudaStreamDestroy(s);
    return 0;
  }
  fprintf(stderr, "unknown pair %s\n", argv[1]);
  return 2;
}
