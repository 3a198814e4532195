/* JIT kernel runner on the driver API: context, module from PTX image,
 * device memory; C-style goto unwinding with one label per stage. */
#include <cuda.h>
#include <stdio.h>
#include <string.h>

static const char kPtx[] =
    ".version 7.0\n.target sm_70\n.address_size 64\n"
    ".visible .entry noop() { ret; }\n";

#define DRV(call, label)                                              \
  do {                                                                \
    CUresult r_ = (call);                                             \
    if (r_ != CUDA_SUCCESS) {                                         \
      const char *msg_ = NULL;                                        \
      cuGetErrorString(r_, &msg_);                                    \
      fprintf(stderr, "%s failed: %s\n", #call, msg_ ? msg_ : "?");   \
      goto label;                                                     \
    }                                                                 \
  } while (0)

static int run_jit(int ordinal, size_t bytes) {
  int rc = 1;
  CUdevice dev;
  CUcontext ctx = NULL;
  CUmodule mod = NULL;
  CUfunction fn;
  CUdeviceptr dbuf = 0;
  CUstream stream = NULL;

  DRV(cuDeviceGet(&dev, ordinal), out);
  DRV(cuCtxCreate(&ctx, NULL, 0, dev), out);
  DRV(cuModuleLoadData(&mod, kPtx), out_ctx);
  DRV(cuModuleGetFunction(&fn, mod, "noop"), out_mod);
  DRV(cuStreamCreate(&stream, CU_STREAM_NON_BLOCKING), out_mod);
  DRV(cuMemAlloc(&dbuf, bytes), out_stream);
  DRV(cuMemsetD8Async(dbuf, 0, bytes, stream), out_mem);
  DRV(cuLaunchKernel(fn, 1, 1, 1, 32, 1, 1, 0, stream, NULL, NULL), out_mem);
  DRV(cuStreamSynchronize(stream), out_mem);
  rc = 0;

out_mem:
  cuMemFree(dbuf);
out_stream:
  cuStreamDestroy(stream);
out_mod:
  cuModuleUnload(mod);
out_ctx:
  cuCtxDestroy(ctx);
out:
  return rc;
}

static int query_all(void) {
  int count = 0;
  if (cuDeviceGetCount(&count) != CUDA_SUCCESS) return -1;
  for (int i = 0; i < count; ++i) {
    CUdevice d;
    CUcontext primary;
    if (cuDeviceGet(&d, i) != CUDA_SUCCESS) continue;
    if (cuDevicePrimaryCtxRetain(&primary, d) != CUDA_SUCCESS) continue;
    cuCtxPushCurrent(primary);
    size_t free_b = 0, total_b = 0;
    cuMemGetInfo(&free_b, &total_b);
    printf("dev %d: %zu/%zu free\n", i, free_b, total_b);
    CUcontext popped;
    cuCtxPopCurrent(&popped);
    cuDevicePrimaryCtxRelease(d);
  }
  return count;
}

int main(void) {
  if (cuInit(0) != CUDA_SUCCESS) return 1;
  if (query_all() <= 0) return 0;
  return run_jit(0, 1 << 20);
}
