// PLANTED(BUGGY): handle-leak line 12
// Driver-API device query helper; BUGGY: primary context retained and not released when module load fails.
#include <cuda.h>
#include <stdio.h>

int probe_device(int ordinal, const char *cubin, int *regs_out) {
  CUdevice dev;
  CUcontext ctx;
  CUmodule mod;
  CUfunction fn;
  if (cuDeviceGet(&dev, ordinal) != CUDA_SUCCESS) return -1;
  if (cuDevicePrimaryCtxRetain(&ctx, dev) != CUDA_SUCCESS) /*BUGLINE*/ return -1;
  if (cuCtxPushCurrent(ctx) != CUDA_SUCCESS) { cuDevicePrimaryCtxRelease(dev); return -1; }
  if (cuModuleLoad(&mod, cubin) != CUDA_SUCCESS) {
    cuCtxPopCurrent(NULL);
#ifndef BUGGY
    cuDevicePrimaryCtxRelease(dev);
#endif
    return -1;
  }
  int rc = -1;
  if (cuModuleGetFunction(&fn, mod, "kernel") == CUDA_SUCCESS &&
      cuFuncGetAttribute(regs_out, CU_FUNC_ATTRIBUTE_NUM_REGS, fn) == CUDA_SUCCESS)
    rc = 0;
  cuModuleUnload(mod);
  cuCtxPopCurrent(NULL);
  cuDevicePrimaryCtxRelease(dev);
  return rc;
}

int main(int argc, char **argv) {
  if (cuInit(0) != CUDA_SUCCESS) return 1;
  int n = 0; cuDeviceGetCount(&n);
  for (int d = 0; d < n; ++d) {
    int regs = 0;
    if (probe_device(d, argc > 1 ? argv[1] : "k.cubin", &regs) == 0) printf("dev %d: %d regs\n", d, regs);
  }
  return 0;
}
