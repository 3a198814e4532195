// PLANTED: none
// Driver API only: primary ctx, module, kernel node graph, status accumulation.
#include <cuda.h>
#include <stdio.h>

#define TRY(x) do { if (st == CUDA_SUCCESS) st = (x); } while (0)

int run_module(const char *path, int n) {
  CUresult st = CUDA_SUCCESS;
  CUdevice dev;
  CUcontext ctx = NULL;
  CUmodule mod = NULL;
  CUfunction fn;
  CUdeviceptr d = 0;
  CUstream s = NULL;
  CUgraph g = NULL;
  CUgraphExec ge = NULL;
  CUgraphNode node;
  int have_ctx = 0;

  TRY(cuInit(0));
  TRY(cuDeviceGet(&dev, 0));
  TRY(cuDevicePrimaryCtxRetain(&ctx, dev));
  if (st == CUDA_SUCCESS) have_ctx = 1;
  TRY(cuCtxSetCurrent(ctx));
  TRY(cuModuleLoad(&mod, path));
  TRY(cuModuleGetFunction(&fn, mod, "fill"));
  TRY(cuMemAlloc(&d, (size_t)n * 4));
  TRY(cuStreamCreate(&s, CU_STREAM_NON_BLOCKING));
  TRY(cuGraphCreate(&g, 0));
  if (st == CUDA_SUCCESS) {
    void *args[] = {&d, &n};
    CUDA_KERNEL_NODE_PARAMS p = {};
    p.func = fn; p.gridDimX = (n + 127) / 128; p.gridDimY = 1; p.gridDimZ = 1;
    p.blockDimX = 128; p.blockDimY = 1; p.blockDimZ = 1; p.kernelParams = args;
    st = cuGraphAddKernelNode(&node, g, NULL, 0, &p);
  }
  TRY(cuGraphInstantiate(&ge, g, 0));
  for (int i = 0; i < 4 && st == CUDA_SUCCESS; ++i) st = cuGraphLaunch(ge, s);
  TRY(cuStreamSynchronize(s));

  if (ge) cuGraphExecDestroy(ge);
  if (g) cuGraphDestroy(g);
  if (s) cuStreamDestroy(s);
  if (d) cuMemFree(d);
  if (mod) cuModuleUnload(mod);
  if (have_ctx) cuDevicePrimaryCtxRelease(dev);
  if (st != CUDA_SUCCESS) fprintf(stderr, "error %d\n", (int)st);
  return st == CUDA_SUCCESS ? 0 : 1;
}

int main(int argc, char **argv) { return run_module(argc > 1 ? argv[1] : "fill.cubin", 4096); }
