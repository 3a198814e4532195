#define BUGGY
// PLANTED: cudagraph-handle-leak line 54
/*
 * gpu_fft_ctx.c -- C-style context of a small batched FFT/convolution library.
 * The caller owns a gfx_ctx_t and drives it through gfx_ctx_init() /
 * gfx_ctx_destroy().
 */
#include <cuda_runtime.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>

typedef enum { GFX_OK = 0, GFX_ERR_CUDA = 1, GFX_ERR_ARG = 2 } gfx_status_t;

#define GFX_CUDA(call)                                                         \
  do {                                                                         \
    cudaError_t e_ = (call);                                                   \
    if (e_ != cudaSuccess) {                                                   \
      fprintf(stderr, "gfx: %s -> %s\n", #call, cudaGetErrorString(e_));      \
      return GFX_ERR_CUDA;                                                     \
    }                                                                          \
  } while (0)

typedef struct gfx_ctx {
  int device;
  size_t batch;
  size_t n;
  cudaStream_t stream;
  cudaEvent_t upload_done;
  float2 *d_signal;     /* batch * n complex samples */
  float2 *h_staging;    /* pinned mirror of d_signal */
  int initialised;
} gfx_ctx_t;

__global__ void gfx_scale(float2 *x, size_t total, float s) {
  size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x;
  if (i < total) { x[i].x *= s; x[i].y *= s; }
}

void gfx_ctx_destroy(gfx_ctx_t *ctx);

gfx_status_t gfx_ctx_init(gfx_ctx_t *ctx, int device, size_t batch, size_t n) {
  if (!ctx || batch == 0 || n == 0) return GFX_ERR_ARG;
  memset(ctx, 0, sizeof(*ctx));
  ctx->device = device;
  ctx->batch = batch;
  ctx->n = n;
  GFX_CUDA(cudaSetDevice(device));
  if (cudaStreamCreateWithFlags(&ctx->stream, cudaStreamNonBlocking) != cudaSuccess)
    goto fail;
  if (cudaEventCreateWithFlags(&ctx->upload_done, cudaEventDisableTiming) != cudaSuccess)
    goto fail;
  if (cudaMalloc((void **)&ctx->d_signal, batch * n * sizeof(float2)) != cudaSuccess)
    goto fail;
  if (cudaMallocHost((void **)&ctx->h_staging, batch * n * sizeof(float2)) != cudaSuccess)  // EXPECT: cudagraph-handle-leak
    goto fail;
  ctx->initialised = 1;
  return GFX_OK;
fail:
  gfx_ctx_destroy(ctx);
  return GFX_ERR_CUDA;
}

void gfx_ctx_destroy(gfx_ctx_t *ctx) {
  if (!ctx) return;
  if (ctx->stream) cudaStreamSynchronize(ctx->stream);
#ifndef BUGGY
  if (ctx->h_staging) cudaFreeHost(ctx->h_staging);
#endif
  if (ctx->d_signal) cudaFree(ctx->d_signal);
  if (ctx->upload_done) cudaEventDestroy(ctx->upload_done);
  if (ctx->stream) cudaStreamDestroy(ctx->stream);
  memset(ctx, 0, sizeof(*ctx));
}

gfx_status_t gfx_upload(gfx_ctx_t *ctx, const float2 *host) {
  size_t bytes = ctx->batch * ctx->n * sizeof(float2);
  memcpy(ctx->h_staging, host, bytes);
  GFX_CUDA(cudaMemcpyAsync(ctx->d_signal, ctx->h_staging, bytes,
                           cudaMemcpyHostToDevice, ctx->stream));
  GFX_CUDA(cudaEventRecord(ctx->upload_done, ctx->stream));
  return GFX_OK;
}

gfx_status_t gfx_normalise(gfx_ctx_t *ctx) {
  size_t total = ctx->batch * ctx->n;
  gfx_scale<<<(unsigned)((total + 255) / 256), 256, 0, ctx->stream>>>(
      ctx->d_signal, total, 1.0f / (float)ctx->n);
  GFX_CUDA(cudaGetLastError());
  return GFX_OK;
}

int gfx_run_once(const float2 *input, size_t batch, size_t n) {
  gfx_ctx_t ctx;
  if (gfx_ctx_init(&ctx, 0, batch, n) != GFX_OK) return -1;
  gfx_status_t st = gfx_upload(&ctx, input);
  if (st == GFX_OK) st = gfx_normalise(&ctx);
  if (st == GFX_OK && cudaStreamSynchronize(ctx.stream) != cudaSuccess)
    st = GFX_ERR_CUDA;
  gfx_ctx_destroy(&ctx);
  return st == GFX_OK ? 0 : -1;
}
