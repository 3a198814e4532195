// Graph capture in a backend whose context struct owns the stream: the step
// function caches `cudaStream_t stream = ctx->stream` for launches and the end
// of capture, while begin/sync go through the context member. The capture is
// ended before the verification synchronisation.
#include <cuda_runtime.h>
#include <cstdio>

// The context owns: the stream, the captured graph (kept so it can be
// re-instantiated after a device reset), the exec, and two device buffers.
// ctx_free() releases all of them; null handles are skipped.

struct BackendCtx {
  int device;
  cudaStream_t stream;
  cudaGraph_t graph;
  cudaGraphExec_t exec;
  float *weights;
  float *act;
  int n;
};

__global__ void mlp(float *act, const float *w, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) act[i] = fmaxf(act[i] * w[i], 0.f);
}

static cudaError_t ctx_init(BackendCtx *ctx, int n) {
  ctx->n = n;
  ctx->graph = nullptr;
  ctx->exec = nullptr;
  ctx->weights = nullptr;
  ctx->act = nullptr;
  cudaError_t st = cudaStreamCreateWithFlags(&ctx->stream, cudaStreamNonBlocking);
  if (st != cudaSuccess) return st;
  st = cudaMalloc(&ctx->weights, n * sizeof(float));
  if (st == cudaSuccess) st = cudaMalloc(&ctx->act, n * sizeof(float));
  if (st != cudaSuccess) {
    cudaFree(ctx->weights);
    cudaStreamDestroy(ctx->stream);
    return st;
  }
  return cudaSuccess;
}

static void ctx_free(BackendCtx *ctx) {
  if (ctx->exec) cudaGraphExecDestroy(ctx->exec);
  if (ctx->graph) cudaGraphDestroy(ctx->graph);
  cudaFree(ctx->act);
  cudaFree(ctx->weights);
  cudaStreamDestroy(ctx->stream);
}

// Captures the forward pass once, then checks it by syncing the stream.
static cudaError_t capture_forward(BackendCtx *ctx, int layers) {
  cudaStream_t stream = ctx->stream;
  const int blocks = (ctx->n + 255) / 256;
  cudaError_t st = cudaStreamBeginCapture(ctx->stream, cudaStreamCaptureModeGlobal);
  if (st != cudaSuccess) return st;
  for (int l = 0; l < layers; ++l) mlp<<<blocks, 256, 0, stream>>>(ctx->act, ctx->weights, ctx->n);
  st = cudaStreamEndCapture(stream, &ctx->graph);
  if (st != cudaSuccess) {
    ctx->graph = nullptr;
    return st;
  }
  // The capture has ended: drain any eager work queued before it.
  st = cudaStreamSynchronize(ctx->stream);
  if (st != cudaSuccess) return st;
  return cudaGraphInstantiate(&ctx->exec, ctx->graph, 0);
}

int main() {
  BackendCtx ctx;
  if (ctx_init(&ctx, 1 << 16) != cudaSuccess) return 1;
  cudaMemsetAsync(ctx.weights, 0, ctx.n * sizeof(float), ctx.stream);
  cudaMemsetAsync(ctx.act, 0, ctx.n * sizeof(float), ctx.stream);
  int rc = 1;
  if (capture_forward(&ctx, 4) == cudaSuccess) {
    for (int i = 0; i < 8; ++i) cudaGraphLaunch(ctx.exec, ctx.stream);
    rc = cudaStreamSynchronize(ctx.stream) == cudaSuccess ? 0 : 1;
  }
  ctx_free(&ctx);
  return rc;
}
