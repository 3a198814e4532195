/* C plugin interface for a host application that loads GPU "effects".
 * Handles are opaque; every create has a matching destroy. Error codes are
 * plain ints; cleanup uses goto in the classic C style. */
#include <cuda_runtime.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

extern "C" {

typedef enum {
  FX_OK = 0,
  FX_ERR_ARG = -1,
  FX_ERR_NOMEM = -2,
  FX_ERR_CUDA = -3,
} fx_status;

typedef struct fx_effect {
  cudaStream_t stream;
  cudaGraphExec_t exec;
  float* lut;
  int size;
  int owns_stream;
} fx_effect;

__global__ void fx_apply_lut(float* img, const float* lut, int n, int size) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) img[i] = lut[(int)(img[i] * (size - 1)) % size];
}

static int fx_capture(fx_effect* fx, float* img, int n, cudaGraph_t* out) {
  if (cudaStreamBeginCapture(fx->stream, cudaStreamCaptureModeGlobal) != cudaSuccess) return FX_ERR_CUDA;
  fx_apply_lut<<<(n + 255) / 256, 256, 0, fx->stream>>>(img, fx->lut, n, fx->size);
  if (cudaStreamEndCapture(fx->stream, out) != cudaSuccess) return FX_ERR_CUDA;
  return FX_OK;
}

int fx_create(fx_effect** out, float* img, int n, int lut_size, cudaStream_t stream) {
  int rc = FX_OK;
  fx_effect* fx = NULL;
  cudaGraph_t graph = NULL;
  cudaGraphExec_t exec = NULL;

  if (!out || !img || n <= 0 || lut_size <= 1) return FX_ERR_ARG;
  fx = (fx_effect*)calloc(1, sizeof(*fx));
  if (!fx) return FX_ERR_NOMEM;
  fx->size = lut_size;
  if (stream) {
    fx->stream = stream;
  } else {
    if (cudaStreamCreate(&fx->stream) != cudaSuccess) { rc = FX_ERR_CUDA; goto fail; }
    fx->owns_stream = 1;
  }
  if (cudaMalloc(&fx->lut, lut_size * sizeof(float)) != cudaSuccess) { rc = FX_ERR_CUDA; goto fail; }
  rc = fx_capture(fx, img, n, &graph);
  if (rc != FX_OK) goto fail;
  if (cudaGraphInstantiate(&exec, graph, 0) != cudaSuccess) { rc = FX_ERR_CUDA; goto fail; }
  if (cudaGraphUpload(exec, fx->stream) != cudaSuccess) { rc = FX_ERR_CUDA; goto fail; }
  cudaGraphDestroy(graph);
  fx->exec = exec;
  *out = fx;
  return FX_OK;

fail:
  if (exec) cudaGraphExecDestroy(exec);
  if (graph) cudaGraphDestroy(graph);
  if (fx->lut) cudaFree(fx->lut);
  if (fx->owns_stream) cudaStreamDestroy(fx->stream);
  free(fx);
  return rc;
}

void fx_destroy(fx_effect* fx) {
  if (!fx) return;
  if (fx->exec) cudaGraphExecDestroy(fx->exec);
  if (fx->lut) cudaFree(fx->lut);
  if (fx->owns_stream) cudaStreamDestroy(fx->stream);
  free(fx);
}

int fx_run(fx_effect* fx) {
  if (!fx || !fx->exec) return FX_ERR_ARG;
  return cudaGraphLaunch(fx->exec, fx->stream) == cudaSuccess ? FX_OK : FX_ERR_CUDA;
}

/* Rebuilds the graph for a new image. The new exec is validated with one
 * launch before it replaces the old one. */
int fx_rebind(fx_effect* fx, float* img, int n) {
  int rc = FX_OK;
  cudaGraph_t graph = NULL;
  cudaGraphExec_t fresh = NULL;
  if (!fx || !img) return FX_ERR_ARG;
  rc = fx_capture(fx, img, n, &graph);
  if (rc != FX_OK) return rc;
  if (cudaGraphInstantiate(&fresh, graph, 0) != cudaSuccess) { rc = FX_ERR_CUDA; goto out; }  // EXPECT: cudagraph-unpaired-instantiate
  if (cudaGraphLaunch(fresh, fx->stream) != cudaSuccess) { rc = FX_ERR_CUDA; goto out; }
  if (cudaStreamSynchronize(fx->stream) != cudaSuccess) { rc = FX_ERR_CUDA; goto out; }
  if (fx->exec) cudaGraphExecDestroy(fx->exec);
  fx->exec = fresh;
out:
  /* only the graph is released here: a fresh exec that failed validation
   * is leaked */
  if (graph) cudaGraphDestroy(graph);
  return rc;
}

/* Exports a standalone exec to the host, which must destroy it with
 * fx_exec_release(). */
int fx_export_exec(fx_effect* fx, float* img, int n, cudaGraphExec_t* out_exec) {
  cudaGraph_t graph = NULL;
  int rc = fx_capture(fx, img, n, &graph);
  if (rc != FX_OK) return rc;
  cudaError_t e = cudaGraphInstantiate(out_exec, graph, 0);
  cudaGraphDestroy(graph);
  return e == cudaSuccess ? FX_OK : FX_ERR_CUDA;
}

void fx_exec_release(cudaGraphExec_t e) {
  if (e) cudaGraphExecDestroy(e);
}

/* Self-test entry point called by the host's plugin validator. */
int fx_selftest(void) {
  float* img = NULL;
  fx_effect* fx = NULL;
  cudaGraphExec_t extra = NULL;
  int rc;
  if (cudaMalloc(&img, 1024 * sizeof(float)) != cudaSuccess) return FX_ERR_CUDA;
  rc = fx_create(&fx, img, 1024, 256, NULL);
  if (rc != FX_OK) goto done;
  rc = fx_run(fx);
  if (rc != FX_OK) goto done;
  rc = fx_export_exec(fx, img, 1024, &extra);  // EXPECT: cudagraph-unpaired-instantiate
  if (rc != FX_OK) goto done;
  if (cudaGraphLaunch(extra, fx->stream) != cudaSuccess) { rc = FX_ERR_CUDA; goto done; }
  rc = fx_rebind(fx, img, 512);
  fx_exec_release(extra);
done:
  fx_destroy(fx);
  cudaFree(img);
  return rc;
}

/* Helper for hosts that want the raw exec for a one-off run. */
int fx_run_once(fx_effect* fx, float* img, int n) {
  cudaGraphExec_t e = NULL;
  int rc = fx_export_exec(fx, img, n, &e);
  if (rc != FX_OK) return rc;
  if (cudaGraphLaunch(e, fx->stream) != cudaSuccess) rc = FX_ERR_CUDA;
  else if (cudaStreamSynchronize(fx->stream) != cudaSuccess) rc = FX_ERR_CUDA;
  fx_exec_release(e);
  return rc;
}

}  /* extern "C" */
