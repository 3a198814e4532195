// PLANTED: none
// Explicit graph building with mem-alloc/kernel/mem-free nodes; user buffer registered as pinned.
#include <cuda_runtime.h>
#include <vector>
#include <string.h>

__global__ void fill(float *p, int n, float v) { int i = blockIdx.x * blockDim.x + threadIdx.x; if (i < n) p[i] = v; }

int build_and_run(std::vector<float> &host) {
  int n = (int)host.size();
  size_t bytes = n * sizeof(float);
  if (cudaHostRegister(host.data(), bytes, cudaHostRegisterDefault) != cudaSuccess) return -1;
  cudaGraph_t g = NULL;
  cudaGraphExec_t ge = NULL;
  cudaStream_t s = NULL;
  int rc = -1;
  cudaGraphNode_t alloc, kern, copy, freen;
  cudaMemAllocNodeParams ap; memset(&ap, 0, sizeof ap);
  ap.poolProps.allocType = cudaMemAllocationTypePinned;
  ap.poolProps.location.type = cudaMemLocationTypeDevice;
  ap.poolProps.location.id = 0;
  ap.bytesize = bytes;
  if (cudaStreamCreate(&s) != cudaSuccess) goto unreg;
  if (cudaGraphCreate(&g, 0) != cudaSuccess) goto stream;
  if (cudaGraphAddMemAllocNode(&alloc, g, NULL, 0, &ap) != cudaSuccess) goto graph;
  {
    float *dptr = (float *)ap.dptr;
    float val = 3.0f;
    void *args[] = {&dptr, &n, &val};
    cudaKernelNodeParams kp; memset(&kp, 0, sizeof kp);
    kp.func = (void *)fill; kp.gridDim = dim3((n + 255) / 256); kp.blockDim = dim3(256); kp.kernelParams = args;
    if (cudaGraphAddKernelNode(&kern, g, &alloc, 1, &kp) != cudaSuccess) goto graph;
    if (cudaGraphAddMemcpyNode1D(&copy, g, &kern, 1, host.data(), dptr, bytes, cudaMemcpyDeviceToHost) != cudaSuccess) goto graph;
    if (cudaGraphAddMemFreeNode(&freen, g, &copy, 1, dptr) != cudaSuccess) goto graph;
  }
  if (cudaGraphInstantiate(&ge, g, 0) != cudaSuccess) goto graph;
  if (cudaGraphLaunch(ge, s) == cudaSuccess && cudaStreamSynchronize(s) == cudaSuccess) rc = 0;
  cudaGraphExecDestroy(ge);
graph:
  cudaGraphDestroy(g);
stream:
  cudaStreamDestroy(s);
unreg:
  cudaHostUnregister(host.data());
  return rc;
}

int main() {
  std::vector<float> h(1 << 16, 0.0f);
  return build_and_run(h) == 0 && h[0] == 3.0f ? 0 : 1;
}
