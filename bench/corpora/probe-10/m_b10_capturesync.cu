// PLANTED(BUGGY): capture-unsafe-call line 15
// Driver-API capture of a reduction pipeline; BUGGY: a debug sync inside the capture.
#include <cuda.h>

CUresult build_graph(CUfunction reduce, CUfunction finish, CUdeviceptr in, CUdeviceptr out, int n, CUgraphExec *exec_out) {
  CUstream s;
  CUgraph g = NULL;
  CUresult r = cuStreamCreate(&s, CU_STREAM_NON_BLOCKING);
  if (r != CUDA_SUCCESS) return r;
  r = cuStreamBeginCapture(s, CU_STREAM_CAPTURE_MODE_GLOBAL);
  if (r != CUDA_SUCCESS) { cuStreamDestroy(s); return r; }
  void *a1[] = {&in, &out, &n};
  cuLaunchKernel(reduce, (n + 255) / 256, 1, 1, 256, 1, 1, 0, s, a1, NULL);
#ifdef BUGGY
  cuStreamSynchronize(s); /*BUGLINE*/
#endif
  void *a2[] = {&out};
  cuLaunchKernel(finish, 1, 1, 1, 32, 1, 1, 0, s, a2, NULL);
  r = cuStreamEndCapture(s, &g);
  if (r == CUDA_SUCCESS) {
    r = cuGraphInstantiate(exec_out, g, 0);
    cuGraphDestroy(g);
  }
  cuStreamDestroy(s);
  return r;
}

int main(void) {
  CUdevice dev; CUcontext ctx; CUmodule m; CUfunction f1, f2; CUdeviceptr in, out; CUgraphExec ge;
  if (cuInit(0) || cuDeviceGet(&dev, 0) || cuDevicePrimaryCtxRetain(&ctx, dev)) return 1;
  int rc = 1;
  cuCtxSetCurrent(ctx);
  if (cuModuleLoad(&m, "reduce.cubin") == CUDA_SUCCESS) {
    if (!cuModuleGetFunction(&f1, m, "reduce") && !cuModuleGetFunction(&f2, m, "finish") &&
        !cuMemAlloc(&in, 1 << 20)) {
      if (!cuMemAlloc(&out, 4096)) {
        if (build_graph(f1, f2, in, out, 1 << 18, &ge) == CUDA_SUCCESS) {
          rc = cuGraphLaunch(ge, 0) || cuCtxSynchronize();
          cuGraphExecDestroy(ge);
        }
        cuMemFree(out);
      }
      cuMemFree(in);
    }
    cuModuleUnload(m);
  }
  cuDevicePrimaryCtxRelease(dev);
  return rc;
}
