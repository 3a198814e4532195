// Graph-owned resources through user objects: the host buffer a host node
// reads is tied to the graph with cudaUserObjectCreate and handed to the graph
// with cudaGraphUserObjectMove; the graph releases it when the last exec and
// the graph are destroyed.
#include <cuda_runtime.h>
#include <cstdlib>
#include <cstring>
#include <cstdio>

struct HostParams {
  float *values;
  int n;
  float sum;
};

static void CUDART_CB destroy_params(void *p) {
  HostParams *hp = static_cast<HostParams *>(p);
  free(hp->values);
  free(hp);
}

static void CUDART_CB reduce_on_host(void *p) {
  HostParams *hp = static_cast<HostParams *>(p);
  float s = 0;
  for (int i = 0; i < hp->n; ++i) s += hp->values[i];
  hp->sum = s;
}

__global__ void produce(float *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = 1.0f;
}

static cudaError_t build_graph(cudaStream_t stream, float *d, float *pinned, int n, cudaGraphExec_t *out) {
  HostParams *hp = static_cast<HostParams *>(malloc(sizeof(HostParams)));
  if (!hp) return cudaErrorMemoryAllocation;
  hp->values = static_cast<float *>(calloc(n, sizeof(float)));
  if (!hp->values) {
    free(hp);
    return cudaErrorMemoryAllocation;
  }
  hp->n = n;
  hp->sum = 0;

  cudaUserObject_t obj;
  cudaError_t st = cudaUserObjectCreate(&obj, hp, destroy_params, 1, cudaUserObjectNoDestructorSync);
  if (st != cudaSuccess) {
    destroy_params(hp);
    return st;
  }

  cudaGraph_t graph;
  st = cudaStreamBeginCapture(stream, cudaStreamCaptureModeThreadLocal);
  if (st != cudaSuccess) {
    cudaUserObjectRelease(obj, 1);
    return st;
  }
  produce<<<(n + 255) / 256, 256, 0, stream>>>(d, n);
  cudaMemcpyAsync(pinned, d, n * sizeof(float), cudaMemcpyDeviceToHost, stream);
  cudaLaunchHostFunc(stream, reduce_on_host, hp);
  st = cudaStreamEndCapture(stream, &graph);
  if (st != cudaSuccess) {
    cudaUserObjectRelease(obj, 1);
    return st;
  }
  // The graph takes over our reference: no release by us after this.
  st = cudaGraphRetainUserObject(graph, obj, 1, cudaGraphUserObjectMove);
  if (st != cudaSuccess) {
    cudaUserObjectRelease(obj, 1);
    cudaGraphDestroy(graph);
    return st;
  }
  st = cudaGraphInstantiate(out, graph, 0);
  cudaGraphDestroy(graph);
  return st;
}

int main() {
  const int n = 4096;
  cudaStream_t stream;
  if (cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking) != cudaSuccess) return 1;
  float *d = nullptr, *pinned = nullptr;
  cudaGraphExec_t exec = nullptr;
  int rc = 1;
  if (cudaMalloc(&d, n * sizeof(float)) != cudaSuccess) goto done;
  if (cudaMallocHost(&pinned, n * sizeof(float)) != cudaSuccess) goto done;
  if (build_graph(stream, d, pinned, n, &exec) != cudaSuccess) goto done;
  for (int it = 0; it < 3; ++it) cudaGraphLaunch(exec, stream);
  if (cudaStreamSynchronize(stream) == cudaSuccess) rc = 0;
done:
  if (exec) cudaGraphExecDestroy(exec);
  cudaFreeHost(pinned);
  cudaFree(d);
  cudaStreamDestroy(stream);
  return rc;
}
