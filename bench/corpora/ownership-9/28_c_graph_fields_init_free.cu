/* C contexts holding graph objects in fields. fft_plan_free destroys the
 * graph it built node by node and the stream, but never the exec that
 * fft_plan_init instantiates. conv_plan_* is a correct pair over the same
 * fields. */
#include <cuda_runtime.h>
#include <stddef.h>
#include <string.h>

typedef struct {
  int n;
  cudaStream_t stream;
  cudaGraph_t graph;
  cudaGraphExec_t exec;
  float2 *d_work;
} fft_plan;

static int add_memset_node(cudaGraph_t g, void *dst, size_t bytes) {
  cudaMemsetParams p;
  cudaGraphNode_t node;
  memset(&p, 0, sizeof(p));
  p.dst = dst;
  p.value = 0;
  p.elementSize = 1;
  p.width = bytes;
  p.height = 1;
  return cudaGraphAddMemsetNode(&node, g, NULL, 0, &p) == cudaSuccess ? 0 : -1;
}

int fft_plan_init(fft_plan *p, int n) {
  memset(p, 0, sizeof(*p));
  p->n = n;
  if (cudaStreamCreateWithFlags(&p->stream, cudaStreamNonBlocking) != cudaSuccess) return -1;
  if (cudaMalloc((void **)&p->d_work, n * sizeof(float2)) != cudaSuccess) return -1;
  if (cudaGraphCreate(&p->graph, 0) != cudaSuccess) return -1;
  if (add_memset_node(p->graph, p->d_work, n * sizeof(float2)) != 0) return -1;
  if (cudaGraphInstantiate(&p->exec, p->graph, 0) != cudaSuccess) return -1; // EXPECT: cudagraph-unpaired-instantiate
  return 0;
}

int fft_plan_exec(fft_plan *p) { return cudaGraphLaunch(p->exec, p->stream) == cudaSuccess ? 0 : -1; }

void fft_plan_free(fft_plan *p) {
  if (p->graph) cudaGraphDestroy(p->graph);
  if (p->d_work) cudaFree(p->d_work);
  if (p->stream) cudaStreamDestroy(p->stream);
  memset(p, 0, sizeof(*p));
}

typedef struct {
  int n;
  cudaStream_t stream;
  cudaGraph_t graph;
  cudaGraphExec_t exec;
  float *d_work;
} conv_plan;

int conv_plan_init(conv_plan *p, int n) {
  memset(p, 0, sizeof(*p));
  p->n = n;
  if (cudaStreamCreateWithFlags(&p->stream, cudaStreamNonBlocking) != cudaSuccess) return -1;
  if (cudaMalloc((void **)&p->d_work, n * sizeof(float)) != cudaSuccess) return -1;
  if (cudaGraphCreate(&p->graph, 0) != cudaSuccess) return -1;
  if (add_memset_node(p->graph, p->d_work, n * sizeof(float)) != 0) return -1;
  if (cudaGraphInstantiate(&p->exec, p->graph, 0) != cudaSuccess) return -1;
  /* The exec does not need the graph once instantiated. */
  cudaGraphDestroy(p->graph);
  p->graph = NULL;
  return 0;
}

int conv_plan_exec(conv_plan *p) { return cudaGraphLaunch(p->exec, p->stream) == cudaSuccess ? 0 : -1; }

void conv_plan_free(conv_plan *p) {
  if (p->exec) cudaGraphExecDestroy(p->exec);
  if (p->graph) cudaGraphDestroy(p->graph);
  if (p->d_work) cudaFree(p->d_work);
  if (p->stream) cudaStreamDestroy(p->stream);
  memset(p, 0, sizeof(*p));
}

int transform(int n, int reps) {
  fft_plan f;
  conv_plan c;
  int rc = 0;
  if (fft_plan_init(&f, n) != 0) rc = 1;
  if (rc == 0 && conv_plan_init(&c, n) != 0) rc = 2;
  for (int i = 0; rc == 0 && i < reps; ++i) {
    if (fft_plan_exec(&f) != 0 || conv_plan_exec(&c) != 0) rc = 3;
  }
  if (rc != 1) conv_plan_free(&c);
  fft_plan_free(&f);
  return rc;
}
