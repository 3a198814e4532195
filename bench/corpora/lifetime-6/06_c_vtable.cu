/* Plugin-style backend: C struct with a table of function pointers, a
 * malloc'ed state object that owns the exec, driver API. */
#include <cuda.h>
#include <stdlib.h>
#include <stdio.h>

typedef struct backend backend_t;

typedef struct backend_ops {
  int (*init)(backend_t *b, CUgraph g);
  int (*run)(backend_t *b);
  void (*destroy)(backend_t *b);
} backend_ops_t;

struct backend {
  const backend_ops_t *ops;
  CUstream stream;
  CUgraphExec exec;
  int launches;
};

/* Correct: the exec is stored into the heap object (field escape). */
static int graph_init(backend_t *b, CUgraph g) {
  CUresult r = cuGraphInstantiate(&b->exec, g, 0);
  if (r != CUDA_SUCCESS) {
    b->exec = NULL;
    return -1;
  }
  return 0;
}

static int graph_run(backend_t *b) {
  if (!b->exec) return -1;
  b->launches++;
  return cuGraphLaunch(b->exec, b->stream) == CUDA_SUCCESS ? 0 : -1;
}

static void graph_destroy(backend_t *b) {
  if (!b) return;
  if (b->exec) cuGraphExecDestroy(b->exec);
  free(b);
}

static const backend_ops_t k_graph_ops = {graph_init, graph_run, graph_destroy};

/* Correct: local exec goes into the struct once everything succeeded, or is
 * destroyed on the failing upload. */
static int graph_init_uploaded(backend_t *b, CUgraph g) {
  CUgraphExec e = NULL;
  if (cuGraphInstantiate(&e, g, 0) != CUDA_SUCCESS) return -1;
  if (cuGraphUpload(e, b->stream) != CUDA_SUCCESS) {
    cuGraphExecDestroy(e);
    return -2;
  }
  b->exec = e;
  return 0;
}

static const backend_ops_t k_graph_ops_uploaded = {graph_init_uploaded, graph_run,
                                                   graph_destroy};

backend_t *backend_create(CUstream s, CUgraph g, int uploaded) {
  backend_t *b = (backend_t *)calloc(1, sizeof(*b));
  if (!b) return NULL;
  b->ops = uploaded ? &k_graph_ops_uploaded : &k_graph_ops;
  b->stream = s;
  if (b->ops->init(b, g) != 0) {
    b->ops->destroy(b);
    return NULL;
  }
  return b;
}

/* Correct: probe instantiation through the driver API, destroyed at once. */
int backend_probe(CUgraph g) {
  CUgraphExec tmp;
  CUresult r = cuGraphInstantiate(&tmp, g, 0);
  if (r == CUDA_SUCCESS) cuGraphExecDestroy(tmp);
  return r == CUDA_SUCCESS;
}

int main(void) {
  CUgraph g = NULL;
  CUstream s = NULL;
  cuInit(0);
  cuGraphCreate(&g, 0);
  if (!backend_probe(g)) return 1;
  backend_t *b = backend_create(s, g, 1);
  if (b) {
    b->ops->run(b);
    b->ops->destroy(b);
  }
  cuGraphDestroy(g);
  return 0;
}
