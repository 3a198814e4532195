// C-style capture with goto cleanup. build_graph_buggy jumps to the cleanup label
// from inside the capture, and the label does not end the capture.
// build_graph ends it there.
#include <cuda_runtime.h>
#include <stddef.h>

__global__ void k1(float *x, int n) { int i = blockIdx.x * blockDim.x + threadIdx.x; if (i < n) x[i] = 0.f; }

int build_graph_buggy(float *d, const float *h_pinned, int n, cudaStream_t s, cudaGraphExec_t *out) {
  int rc = -1;
  cudaGraph_t g = NULL;
  if (cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal) != cudaSuccess) return -1; // EXPECT: cudagraph-capture-without-destroy
  k1<<<(n + 127) / 128, 128, 0, s>>>(d, n);
  if (cudaMemcpyAsync(d, h_pinned, n * sizeof(float), cudaMemcpyHostToDevice, s) != cudaSuccess)
    goto cleanup;
  if (cudaStreamEndCapture(s, &g) != cudaSuccess) goto cleanup;
  if (cudaGraphInstantiate(out, g, 0) != cudaSuccess) goto cleanup;
  rc = 0;
cleanup:
  if (g) cudaGraphDestroy(g);
  return rc;
}

int build_graph(float *d, const float *h_pinned, int n, cudaStream_t s, cudaGraphExec_t *out) {
  int rc = -1;
  int capturing = 0;
  cudaGraph_t g = NULL;
  if (cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal) != cudaSuccess) return -1;
  capturing = 1;
  k1<<<(n + 127) / 128, 128, 0, s>>>(d, n);
  if (cudaMemcpyAsync(d, h_pinned, n * sizeof(float), cudaMemcpyHostToDevice, s) != cudaSuccess)
    goto cleanup;
  capturing = 0;
  if (cudaStreamEndCapture(s, &g) != cudaSuccess) goto cleanup;
  if (cudaGraphInstantiate(out, g, 0) != cudaSuccess) goto cleanup;
  rc = 0;
cleanup:
  if (capturing) {
    cudaGraph_t junk = NULL;
    cudaStreamEndCapture(s, &junk);
    if (junk) cudaGraphDestroy(junk);
  }
  if (g) cudaGraphDestroy(g);
  return rc;
}
