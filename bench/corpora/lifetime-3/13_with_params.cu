// cudaGraphInstantiateWithParams with params.result_out checks.
// CORRECT: failure results mean no exec; success paths destroy it.
#include <cuda_runtime.h>
#include <cstdio>

static const char *why(cudaGraphInstantiateResult r) {
  switch (r) {
  case cudaGraphInstantiateSuccess: return "ok";
  case cudaGraphInstantiateInvalidStructure: return "invalid structure";
  case cudaGraphInstantiateNodeOperationNotSupported: return "node op not supported";
  case cudaGraphInstantiateMultipleDevicesNotSupported: return "multi-device";
  default: return "error";
  }
}

int upload_and_run(cudaGraph_t g, cudaStream_t s) {
  cudaGraphInstantiateParams params = {};
  params.flags = cudaGraphInstantiateFlagUpload;
  params.uploadStream = s;
  cudaGraphExec_t e = nullptr;
  cudaError_t st = cudaGraphInstantiateWithParams(&e, g, &params);
  if (st != cudaSuccess) {
    std::fprintf(stderr, "instantiate failed (%s): %s\n", cudaGetErrorString(st), why(params.result_out));
    return 1;
  }
  if (params.result_out != cudaGraphInstantiateSuccess) {
    std::fprintf(stderr, "instantiate result: %s\n", why(params.result_out));
    return 2;
  }
  cudaGraphLaunch(e, s);
  st = cudaStreamSynchronize(s);
  cudaGraphExecDestroy(e);
  return st == cudaSuccess ? 0 : 3;
}

int device_launch(cudaGraph_t g, cudaStream_t s, cudaGraphExec_t *out) {
  cudaGraphInstantiateParams params{};
  params.flags = cudaGraphInstantiateFlagDeviceLaunch;
  if (cudaGraphInstantiateWithParams(out, g, &params) != cudaSuccess ||
      params.result_out != cudaGraphInstantiateSuccess)
    return -1;
  return cudaGraphUpload(*out, s) == cudaSuccess ? 0 : -2;  // caller owns *out
}

int main() {
  cudaGraph_t g;
  cudaGraphCreate(&g, 0);
  cudaStream_t s;
  cudaStreamCreate(&s);
  int rc = upload_and_run(g, s);
  cudaGraphExec_t dev = nullptr;
  if (device_launch(g, s, &dev) == 0 || dev) {
    if (dev) cudaGraphExecDestroy(dev);
  }
  cudaGraphDestroy(g);
  cudaStreamDestroy(s);
  return rc;
}
