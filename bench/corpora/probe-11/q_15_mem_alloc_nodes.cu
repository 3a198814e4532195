// Graph memory nodes built explicitly: alloc node -> kernel -> free node in
// one graph; and a second graph whose allocation outlives the launch and is
// freed by the caller with cudaFreeAsync after each launch.
#include <cuda_runtime.h>
#include <cstdio>

__global__ void init(float *p, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) p[i] = float(i);
}
__global__ void reduce_into(const float *p, float *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) atomicAdd(out, p[i]);
}

static cudaError_t add_kernel(cudaGraph_t g, cudaGraphNode_t *node, const cudaGraphNode_t *deps, size_t ndeps,
                              void *fn, int n, void **args) {
  cudaKernelNodeParams kp = {};
  kp.func = fn;
  kp.gridDim = dim3((n + 255) / 256);
  kp.blockDim = dim3(256);
  kp.kernelParams = args;
  return cudaGraphAddKernelNode(node, g, deps, ndeps, &kp);
}

// Graph A: self-contained scratch (alloc and free nodes in the same graph).
static cudaError_t build_scratch_graph(int device, int n, float *out, cudaGraphExec_t *exec_out) {
  cudaGraph_t g;
  cudaError_t st = cudaGraphCreate(&g, 0);
  if (st != cudaSuccess) return st;
  cudaMemAllocNodeParams ap = {};
  ap.poolProps.allocType = cudaMemAllocationTypePinned;
  ap.poolProps.location.type = cudaMemLocationTypeDevice;
  ap.poolProps.location.id = device;
  ap.bytesize = n * sizeof(float);
  cudaGraphNode_t alloc, k1, k2, fr;
  float *scratch = nullptr;
  do {
    if ((st = cudaGraphAddMemAllocNode(&alloc, g, nullptr, 0, &ap)) != cudaSuccess) break;
    scratch = static_cast<float *>(ap.dptr);
    void *a1[] = {&scratch, &n};
    if ((st = add_kernel(g, &k1, &alloc, 1, (void *)init, n, a1)) != cudaSuccess) break;
    void *a2[] = {&scratch, &out, &n};
    if ((st = add_kernel(g, &k2, &k1, 1, (void *)reduce_into, n, a2)) != cudaSuccess) break;
    if ((st = cudaGraphAddMemFreeNode(&fr, g, &k2, 1, scratch)) != cudaSuccess) break;
    st = cudaGraphInstantiate(exec_out, g, 0);
  } while (0);
  cudaGraphDestroy(g);
  return st;
}

int main() {
  const int n = 1 << 14;
  int device = 0;
  cudaStream_t s;
  float *out = nullptr;
  cudaGraphExec_t execA = nullptr, execB = nullptr;
  cudaGraph_t gB = nullptr;
  float *tmp = nullptr;
  cudaError_t st;
  if (cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking) != cudaSuccess) return 1;
  st = cudaMalloc(&out, sizeof(float));
  if (st != cudaSuccess) goto end;
  st = build_scratch_graph(device, n, out, &execA);
  if (st != cudaSuccess) goto end;
  for (int i = 0; i < 4; ++i) {
    cudaMemsetAsync(out, 0, sizeof(float), s);
    cudaGraphLaunch(execA, s);
  }

  // Graph B: captured allocation that the caller frees after each launch.
  st = cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal);
  if (st != cudaSuccess) goto end;
  cudaMallocAsync(&tmp, n * sizeof(float), s);
  init<<<(n + 255) / 256, 256, 0, s>>>(tmp, n);
  reduce_into<<<(n + 255) / 256, 256, 0, s>>>(tmp, out, n);
  st = cudaStreamEndCapture(s, &gB);
  if (st != cudaSuccess) goto end;
  st = cudaGraphInstantiate(&execB, gB, 0);
  if (st != cudaSuccess) goto end;
  for (int i = 0; i < 3; ++i) {
    cudaGraphLaunch(execB, s);
    cudaFreeAsync(tmp, s);
  }
  st = cudaStreamSynchronize(s);
end:
  if (execB) cudaGraphExecDestroy(execB);
  if (gB) cudaGraphDestroy(gB);
  if (execA) cudaGraphExecDestroy(execA);
  cudaFree(out);
  cudaStreamDestroy(s);
  return st == cudaSuccess ? 0 : 1;
}
