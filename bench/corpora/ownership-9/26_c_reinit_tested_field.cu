/* C helpers over contexts passed by pointer that re-acquire a field on a path
 * where it was tested non-null. ws_reserve grows the workspace without freeing
 * the old one; gc_refresh re-instantiates after a failed update without
 * destroying the exec it just tested. Their fixed twins follow. */
#include <cuda_runtime.h>
#include <stddef.h>

typedef struct {
  void *d_buf;
  size_t cap;
} workspace_t;

typedef struct {
  cudaGraphExec_t exec;
  unsigned long long updates;
  unsigned long long rebuilds;
} graph_cache_t;

int ws_reserve(workspace_t *ws, size_t n) {
  if (ws->d_buf != NULL && ws->cap >= n) return 0;
  if (cudaMalloc(&ws->d_buf, n) != cudaSuccess) return -1; // EXPECT: cudagraph-handle-leak
  ws->cap = n;
  return 0;
}

int ws_reserve_fixed(workspace_t *ws, size_t n) {
  if (ws->d_buf != NULL && ws->cap >= n) return 0;
  if (ws->d_buf != NULL) {
    cudaFree(ws->d_buf);
    ws->d_buf = NULL;
    ws->cap = 0;
  }
  if (cudaMalloc(&ws->d_buf, n) != cudaSuccess) return -1;
  ws->cap = n;
  return 0;
}

void ws_release(workspace_t *ws) {
  cudaFree(ws->d_buf);
  ws->d_buf = NULL;
  ws->cap = 0;
}

int gc_refresh(graph_cache_t *gc, cudaGraph_t g) {
  if (gc->exec) {
    cudaGraphExecUpdateResultInfo info;
    if (cudaGraphExecUpdate(gc->exec, g, &info) == cudaSuccess) {
      gc->updates++;
      return 0;
    }
  }
  gc->rebuilds++;
  return cudaGraphInstantiate(&gc->exec, g, 0) == cudaSuccess ? 0 : -1; // EXPECT: cudagraph-unpaired-instantiate
}

int gc_refresh_fixed(graph_cache_t *gc, cudaGraph_t g) {
  if (gc->exec) {
    cudaGraphExecUpdateResultInfo info;
    if (cudaGraphExecUpdate(gc->exec, g, &info) == cudaSuccess) {
      gc->updates++;
      return 0;
    }
    cudaGraphExecDestroy(gc->exec);
    gc->exec = NULL;
  }
  gc->rebuilds++;
  return cudaGraphInstantiate(&gc->exec, g, 0) == cudaSuccess ? 0 : -1;
}

int gc_ensure(graph_cache_t *gc, cudaGraph_t g) {
  if (gc->exec != NULL) return 0;
  return cudaGraphInstantiate(&gc->exec, g, 0) == cudaSuccess ? 0 : -1;
}

void gc_release(graph_cache_t *gc) {
  if (gc->exec) cudaGraphExecDestroy(gc->exec);
  gc->exec = NULL;
}
