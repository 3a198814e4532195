/* C-style library code with goto-based error handling. */
#include <cuda_runtime.h>
#include <stdio.h>
#include <stdlib.h>

__global__ void stencil5(const float* in, float* out, int nx, int ny) {}

typedef struct {
  int nx, ny;
  float* d_a;
  float* d_b;
  cudaStream_t stream;
} heat_ctx_t;

/* Correct: one exit label releases everything that was created. */
int heat_run(heat_ctx_t* ctx, int steps) {
  cudaGraph_t graph = NULL;
  cudaGraphExec_t exec = NULL;
  int rc = -1;
  int i;
  if (cudaStreamBeginCapture(ctx->stream, cudaStreamCaptureModeGlobal) != cudaSuccess) goto out;
  stencil5<<<dim3(ctx->nx / 16, ctx->ny / 16), dim3(16, 16), 0, ctx->stream>>>(ctx->d_a, ctx->d_b, ctx->nx, ctx->ny);
  stencil5<<<dim3(ctx->nx / 16, ctx->ny / 16), dim3(16, 16), 0, ctx->stream>>>(ctx->d_b, ctx->d_a, ctx->nx, ctx->ny);
  if (cudaStreamEndCapture(ctx->stream, &graph) != cudaSuccess) goto out;
  if (cudaGraphInstantiate(&exec, graph, 0) != cudaSuccess) goto out;
  for (i = 0; i < steps / 2; ++i) {
    if (cudaGraphLaunch(exec, ctx->stream) != cudaSuccess) goto out;
  }
  if (cudaStreamSynchronize(ctx->stream) != cudaSuccess) goto out;
  rc = 0;
out:
  if (exec) cudaGraphExecDestroy(exec);
  if (graph) cudaGraphDestroy(graph);
  return rc;
}

/* Buggy: the launch failure jumps past the exec cleanup. */
int heat_run_v2(heat_ctx_t* ctx, int steps) {
  cudaGraph_t graph = NULL;
  cudaGraphExec_t exec = NULL;
  int rc = -1;
  int i;
  if (cudaStreamBeginCapture(ctx->stream, cudaStreamCaptureModeGlobal) != cudaSuccess) goto fail_graph;
  stencil5<<<dim3(ctx->nx / 16, ctx->ny / 16), dim3(16, 16), 0, ctx->stream>>>(ctx->d_a, ctx->d_b, ctx->nx, ctx->ny);
  if (cudaStreamEndCapture(ctx->stream, &graph) != cudaSuccess) goto fail_graph;
  if (cudaGraphInstantiate(&exec, graph, 0) != cudaSuccess) goto fail_graph;  // EXPECT: cudagraph-unpaired-instantiate
  for (i = 0; i < steps; ++i) {
    if (cudaGraphLaunch(exec, ctx->stream) != cudaSuccess) goto fail_graph;
  }
  cudaStreamSynchronize(ctx->stream);
  rc = 0;
  cudaGraphExecDestroy(exec);
fail_graph:
  if (graph) cudaGraphDestroy(graph);
  return rc;
}

/* Correct: layered labels, each undoing exactly one acquisition. */
int heat_step_once(heat_ctx_t* ctx) {
  cudaGraph_t graph;
  cudaGraphExec_t exec;
  int rc = -1;
  if (cudaStreamBeginCapture(ctx->stream, cudaStreamCaptureModeGlobal) != cudaSuccess) return -1;
  stencil5<<<dim3(ctx->nx / 16, ctx->ny / 16), dim3(16, 16), 0, ctx->stream>>>(ctx->d_a, ctx->d_b, ctx->nx, ctx->ny);
  if (cudaStreamEndCapture(ctx->stream, &graph) != cudaSuccess) return -1;
  if (cudaGraphInstantiate(&exec, graph, 0) != cudaSuccess) goto err_graph;
  if (cudaGraphLaunch(exec, ctx->stream) != cudaSuccess) goto err_exec;
  if (cudaStreamSynchronize(ctx->stream) != cudaSuccess) goto err_exec;
  rc = 0;
err_exec:
  cudaGraphExecDestroy(exec);
err_graph:
  cudaGraphDestroy(graph);
  return rc;
}

/* Buggy: labels in the wrong order; the sync failure skips the exec destroy. */
int heat_step_once_v2(heat_ctx_t* ctx) {
  cudaGraph_t graph;
  cudaGraphExec_t exec;
  int rc = -1;
  if (cudaStreamBeginCapture(ctx->stream, cudaStreamCaptureModeGlobal) != cudaSuccess) return -1;
  stencil5<<<dim3(ctx->nx / 16, ctx->ny / 16), dim3(16, 16), 0, ctx->stream>>>(ctx->d_a, ctx->d_b, ctx->nx, ctx->ny);
  if (cudaStreamEndCapture(ctx->stream, &graph) != cudaSuccess) return -1;
  if (cudaGraphInstantiate(&exec, graph, 0) != cudaSuccess) goto err_graph;  // EXPECT: cudagraph-unpaired-instantiate
  if (cudaGraphLaunch(exec, ctx->stream) != cudaSuccess) goto err_exec;
  if (cudaStreamSynchronize(ctx->stream) != cudaSuccess) goto err_graph;
  rc = 0;
err_exec:
  cudaGraphExecDestroy(exec);
err_graph:
  cudaGraphDestroy(graph);
  return rc;
}
