/* C API of a solver library: handle created through T** out-parameter,
 * workspace stored in fields of a caller-owned context, destroy function. */
#include <cuda_runtime.h>
#include <stdio.h>
#include <stdlib.h>

typedef enum { SOLVER_OK = 0, SOLVER_ALLOC = 1, SOLVER_CUDA = 2 } solverStatus_t;

typedef struct solverContext {
  cudaStream_t stream;
  int owns_stream;
  double *workspace;
  size_t workspace_bytes;
  int *info;
} solverContext;

__global__ void jacobi_step(const double *a, double *x, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) x[i] = x[i] / (a[i] + 1.0);
}

solverStatus_t solverCreate(solverContext **out, cudaStream_t user_stream) {
  *out = NULL;
  solverContext *ctx = (solverContext *)calloc(1, sizeof(*ctx));
  if (!ctx) return SOLVER_ALLOC;
  if (user_stream == NULL) {
    if (cudaStreamCreate(&ctx->stream) != cudaSuccess) {
      free(ctx);
      return SOLVER_CUDA;
    }
    ctx->owns_stream = 1;
  } else {
    ctx->stream = user_stream;
    ctx->owns_stream = 0;
  }
  if (cudaMalloc((void **)&ctx->info, sizeof(int)) != cudaSuccess) {
    if (ctx->owns_stream) cudaStreamDestroy(ctx->stream);
    free(ctx);
    return SOLVER_CUDA;
  }
  *out = ctx;
  return SOLVER_OK;
}

solverStatus_t solverReserve(solverContext *ctx, size_t bytes) {
  if (bytes <= ctx->workspace_bytes) return SOLVER_OK;
  double *fresh = NULL;
  if (cudaMalloc((void **)&fresh, bytes) != cudaSuccess) return SOLVER_CUDA;
  if (ctx->workspace) {
    cudaStreamSynchronize(ctx->stream);
    cudaFree(ctx->workspace);
  }
  ctx->workspace = fresh;
  ctx->workspace_bytes = bytes;
  return SOLVER_OK;
}

void solverDestroy(solverContext *ctx) {
  if (!ctx) return;
  cudaStreamSynchronize(ctx->stream);
  if (ctx->workspace) cudaFree(ctx->workspace);
  cudaFree(ctx->info);
  if (ctx->owns_stream) cudaStreamDestroy(ctx->stream);
  free(ctx);
}

static solverStatus_t solve(solverContext *ctx, int n) {
  solverStatus_t st = solverReserve(ctx, 2 * n * sizeof(double));
  if (st != SOLVER_OK) return st;
  double *a = ctx->workspace, *x = ctx->workspace + n;
  cudaMemsetAsync(ctx->workspace, 0, 2 * n * sizeof(double), ctx->stream);
  for (int k = 0; k < 8; ++k) jacobi_step<<<(n + 255) / 256, 256, 0, ctx->stream>>>(a, x, n);
  return cudaStreamSynchronize(ctx->stream) == cudaSuccess ? SOLVER_OK : SOLVER_CUDA;
}

int main(void) {
  solverContext *ctx = NULL;
  if (solverCreate(&ctx, NULL) != SOLVER_OK) return 1;
  int rc = 0;
  for (int n = 1024; n <= 16384 && rc == 0; n *= 2)
    if (solve(ctx, n) != SOLVER_OK) rc = 2;
  solverDestroy(ctx);

  cudaStream_t mine;
  if (cudaStreamCreateWithFlags(&mine, cudaStreamNonBlocking) != cudaSuccess) return 1;
  solverContext *borrowed = NULL;
  if (solverCreate(&borrowed, mine) == SOLVER_OK) {
    if (solve(borrowed, 4096) != SOLVER_OK) rc = 3;
    solverDestroy(borrowed);
  }
  cudaStreamDestroy(mine);
  printf("rc=%d\n", rc);
  return rc;
}
