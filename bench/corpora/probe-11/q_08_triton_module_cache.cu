// Triton/JAX-style launcher: cubin images loaded with cuModuleLoadData into a
// per-(device, kernel) cache; the function handle is borrowed from the module;
// modules unloaded at shutdown; a failed lookup unloads the fresh module.
#include <cuda.h>
#include <cuda_runtime.h>
#include <map>
#include <string>
#include <tuple>
#include <mutex>
#include <cstdio>

#define CU_RETURN(x)                          \
  do {                                        \
    CUresult r_ = (x);                        \
    if (r_ != CUDA_SUCCESS) return r_;        \
  } while (0)

struct CachedKernel {
  CUmodule module;
  CUfunction function;
  int shared_mem;
};

class KernelCache {
 public:
  ~KernelCache() { clear(); }

  CUresult get(int device, const std::string &name, const void *image, int shared, CUfunction *out) {
    std::lock_guard<std::mutex> g(mu_);
    auto key = std::make_tuple(device, name);
    auto it = cache_.find(key);
    if (it != cache_.end()) {
      *out = it->second.function;
      return CUDA_SUCCESS;
    }
    CUmodule mod;
    CU_RETURN(cuModuleLoadData(&mod, image));
    CUfunction fn;
    CUresult r = cuModuleGetFunction(&fn, mod, name.c_str());
    if (r != CUDA_SUCCESS) {
      cuModuleUnload(mod);
      return r;
    }
    if (shared > 49152) {
      r = cuFuncSetAttribute(fn, CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES, shared);
      if (r != CUDA_SUCCESS) {
        cuModuleUnload(mod);
        return r;
      }
    }
    cache_.emplace(key, CachedKernel{mod, fn, shared});
    *out = fn;
    return CUDA_SUCCESS;
  }

  void clear() {
    std::lock_guard<std::mutex> g(mu_);
    for (auto &kv : cache_) cuModuleUnload(kv.second.module);
    cache_.clear();
  }

 private:
  std::mutex mu_;
  std::map<std::tuple<int, std::string>, CachedKernel> cache_;
};

static KernelCache &kernel_cache() {
  static KernelCache c;
  return c;
}

CUresult launch(int device, const std::string &name, const void *image, int gridX, int numWarps,
                int shared, CUstream stream, void **params) {
  CUfunction fn;
  CU_RETURN(kernel_cache().get(device, name, image, shared, &fn));
  if (gridX <= 0) return CUDA_SUCCESS;
  return cuLaunchKernel(fn, gridX, 1, 1, 32 * numWarps, 1, 1, shared, stream, params, nullptr);
}

// One-shot loader used by a test harness: load, run, unload.
CUresult run_once(const void *image, const char *name, CUdeviceptr arg, CUstream stream) {
  CUmodule mod = nullptr;
  CUfunction fn = nullptr;
  CUresult r = cuModuleLoadData(&mod, image);
  if (r != CUDA_SUCCESS) return r;
  r = cuModuleGetFunction(&fn, mod, name);
  if (r == CUDA_SUCCESS) {
    void *params[] = {&arg};
    r = cuLaunchKernel(fn, 1, 1, 1, 32, 1, 1, 0, stream, params, nullptr);
    if (r == CUDA_SUCCESS) r = cuStreamSynchronize(stream);
  }
  CUresult r2 = cuModuleUnload(mod);
  return r != CUDA_SUCCESS ? r : r2;
}

int main(int argc, char **argv) {
  if (cuInit(0) != CUDA_SUCCESS) return 1;
  CUdevice dev;
  CUcontext ctx;
  if (cuDeviceGet(&dev, 0) != CUDA_SUCCESS) return 1;
  if (cuDevicePrimaryCtxRetain(&ctx, dev) != CUDA_SUCCESS) return 1;
  cuCtxSetCurrent(ctx);
  CUstream stream;
  if (cuStreamCreate(&stream, CU_STREAM_NON_BLOCKING) != CUDA_SUCCESS) {
    cuDevicePrimaryCtxRelease(dev);
    return 1;
  }
  CUdeviceptr buf;
  if (cuMemAlloc(&buf, 4096) == CUDA_SUCCESS) {
    static const char image[] = "// placeholder PTX";
    void *params[] = {&buf};
    launch(0, "kernel", image, 4, 4, 0, stream, params);
    run_once(image, "kernel", buf, stream);
    cuStreamSynchronize(stream);
    cuMemFree(buf);
  }
  kernel_cache().clear();
  cuStreamDestroy(stream);
  cuDevicePrimaryCtxRelease(dev);
  return argc > 1 && argv[1][0] == 'x';
}
