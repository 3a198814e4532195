// Graph built with explicit node APIs (memset -> kernel -> memcpy), then
// instantiated with flags; graph and exec released via a small owner struct.
#include <cuda_runtime.h>
#include <cstdio>
#include <vector>

__global__ void accumulate(float *acc, const float *x, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) acc[i] += x[i];
}

struct GraphBundle {
  cudaGraph_t graph = nullptr;
  cudaGraphExec_t exec = nullptr;
  void destroy() {
    if (exec) { cudaGraphExecDestroy(exec); exec = nullptr; }
    if (graph) { cudaGraphDestroy(graph); graph = nullptr; }
  }
};

static cudaError_t build_graph(GraphBundle *gb, float *acc, float *x, float *host_out, int n) {
  cudaError_t st = cudaGraphCreate(&gb->graph, 0);
  if (st != cudaSuccess) return st;

  cudaGraphNode_t memset_node, kernel_node, copy_node;
  cudaMemsetParams mp = {};
  mp.dst = acc;
  mp.value = 0;
  mp.elementSize = sizeof(float);
  mp.width = n;
  mp.height = 1;
  st = cudaGraphAddMemsetNode(&memset_node, gb->graph, nullptr, 0, &mp);
  if (st != cudaSuccess) return st;

  void *args[] = {&acc, &x, &n};
  cudaKernelNodeParams kp = {};
  kp.func = reinterpret_cast<void *>(accumulate);
  kp.gridDim = dim3((n + 255) / 256);
  kp.blockDim = dim3(256);
  kp.kernelParams = args;
  st = cudaGraphAddKernelNode(&kernel_node, gb->graph, &memset_node, 1, &kp);
  if (st != cudaSuccess) return st;

  st = cudaGraphAddMemcpyNode1D(&copy_node, gb->graph, &kernel_node, 1, host_out, acc,
                                n * sizeof(float), cudaMemcpyDeviceToHost);
  if (st != cudaSuccess) return st;

  return cudaGraphInstantiateWithFlags(&gb->exec, gb->graph, cudaGraphInstantiateFlagAutoFreeOnLaunch);
}

int main() {
  const int n = 1 << 12;
  float *acc = nullptr, *x = nullptr, *host_out = nullptr;
  cudaStream_t s = nullptr;
  GraphBundle gb;
  int rc = 1;
  do {
    if (cudaStreamCreate(&s) != cudaSuccess) break;
    if (cudaMalloc(&acc, n * sizeof(float)) != cudaSuccess) break;
    if (cudaMalloc(&x, n * sizeof(float)) != cudaSuccess) break;
    if (cudaMallocHost(&host_out, n * sizeof(float)) != cudaSuccess) break;
    cudaMemset(x, 0, n * sizeof(float));
    if (build_graph(&gb, acc, x, host_out, n) != cudaSuccess) break;
    for (int i = 0; i < 5; ++i)
      if (cudaGraphLaunch(gb.exec, s) != cudaSuccess) break;
    if (cudaStreamSynchronize(s) != cudaSuccess) break;
    std::printf("out[0]=%f\n", host_out[0]);
    rc = 0;
  } while (false);
  gb.destroy();
  if (host_out) cudaFreeHost(host_out);
  if (x) cudaFree(x);
  if (acc) cudaFree(acc);
  if (s) cudaStreamDestroy(s);
  return rc;
}
