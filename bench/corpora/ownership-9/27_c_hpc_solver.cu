/* Jacobi/CG-style iterative solver of an HPC code, C style: a solver struct
 * with an init/free pair, options read from the command line, an optional
 * graph of one iteration, optional pinned residual history, optional
 * preconditioner. solver_free releases the exec but not the captured graph
 * kept for node-count diagnostics, and returns the pinned history with free();
 * solver_check_once captures a convergence check and copies the tolerance with
 * a synchronous cudaMemcpy inside the capture. */
#include <cuda_runtime.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define CHECK(call)                                                         \
  do {                                                                      \
    cudaError_t err__ = (call);                                             \
    if (err__ != cudaSuccess) {                                             \
      fprintf(stderr, "%s:%d: %s\n", __FILE__, __LINE__, cudaGetErrorString(err__)); \
      return -1;                                                            \
    }                                                                       \
  } while (0)

typedef struct {
  int n;
  int max_iter;
  double tol;
  int use_graph;
  int use_precond;
  int keep_history;
  int verbose;
  int device;
} solver_opts;

typedef struct {
  solver_opts o;
  cudaStream_t s;
  double *d_a, *d_x, *d_b, *d_r, *d_tmp;
  double *d_diag;
  double *d_tol;
  double *h_history;
  cudaGraph_t iter_graph;
  cudaGraphExec_t iter_exec;
  cudaEvent_t start, stop;
} solver;

__global__ void jacobi_sweep(const double *a, const double *b, const double *x, double *xn, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) xn[i] = (b[i] - (a[i] - 1.0) * x[i]) / a[i];
}
__global__ void residual(const double *a, const double *b, const double *x, double *r, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) r[i] = b[i] - a[i] * x[i];
}
__global__ void apply_precond(const double *diag, double *r, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) r[i] /= diag[i];
}

static void parse_opts(solver_opts *o, int argc, char **argv) {
  memset(o, 0, sizeof(*o));
  o->n = 1 << 20;
  o->max_iter = 500;
  o->tol = 1e-8;
  for (int i = 1; i < argc; ++i) {
    if (!strcmp(argv[i], "--graph")) o->use_graph = 1;
    else if (!strcmp(argv[i], "--precond")) o->use_precond = 1;
    else if (!strcmp(argv[i], "--history")) o->keep_history = 1;
    else if (!strcmp(argv[i], "-v")) o->verbose = 1;
    else if (!strncmp(argv[i], "--n=", 4)) o->n = atoi(argv[i] + 4);
    else if (!strncmp(argv[i], "--iters=", 8)) o->max_iter = atoi(argv[i] + 8);
    else if (!strncmp(argv[i], "--device=", 9)) o->device = atoi(argv[i] + 9);
  }
}

static void enqueue_iteration(solver *sv) {
  int n = sv->o.n, blocks = (n + 255) / 256;
  jacobi_sweep<<<blocks, 256, 0, sv->s>>>(sv->d_a, sv->d_b, sv->d_x, sv->d_tmp, n);
  residual<<<blocks, 256, 0, sv->s>>>(sv->d_a, sv->d_b, sv->d_tmp, sv->d_r, n);
  if (sv->o.use_precond) apply_precond<<<blocks, 256, 0, sv->s>>>(sv->d_diag, sv->d_r, n);
  cudaMemcpyAsync(sv->d_x, sv->d_tmp, n * sizeof(double), cudaMemcpyDeviceToDevice, sv->s);
}

int solver_init(solver *sv, const solver_opts *o) {
  size_t bytes = (size_t)o->n * sizeof(double);
  memset(sv, 0, sizeof(*sv));
  sv->o = *o;
  CHECK(cudaSetDevice(o->device));
  CHECK(cudaStreamCreateWithFlags(&sv->s, cudaStreamNonBlocking));
  CHECK(cudaEventCreate(&sv->start));
  CHECK(cudaEventCreate(&sv->stop));
  CHECK(cudaMalloc((void **)&sv->d_a, bytes));
  CHECK(cudaMalloc((void **)&sv->d_x, bytes));
  CHECK(cudaMalloc((void **)&sv->d_b, bytes));
  CHECK(cudaMalloc((void **)&sv->d_r, bytes));
  CHECK(cudaMalloc((void **)&sv->d_tmp, bytes));
  CHECK(cudaMalloc((void **)&sv->d_tol, sizeof(double)));
  if (o->use_precond) CHECK(cudaMalloc((void **)&sv->d_diag, bytes));
  if (o->keep_history) CHECK(cudaMallocHost((void **)&sv->h_history, o->max_iter * sizeof(double)));
  CHECK(cudaMemsetAsync(sv->d_x, 0, bytes, sv->s));
  if (o->use_graph) {
    CHECK(cudaMemcpy(sv->d_tol, &sv->o.tol, sizeof(double), cudaMemcpyHostToDevice));
    CHECK(cudaStreamBeginCapture(sv->s, cudaStreamCaptureModeGlobal));
    enqueue_iteration(sv);
    CHECK(cudaStreamEndCapture(sv->s, &sv->iter_graph)); // EXPECT: cudagraph-capture-without-destroy
    CHECK(cudaGraphInstantiate(&sv->iter_exec, sv->iter_graph, 0));
    if (o->verbose) {
      size_t nodes = 0;
      cudaGraphGetNodes(sv->iter_graph, NULL, &nodes);
      printf("iteration graph: %zu nodes\n", nodes);
    }
  }
  return 0;
}

void solver_free(solver *sv) {
  if (sv->iter_exec) cudaGraphExecDestroy(sv->iter_exec);
  if (sv->h_history) free(sv->h_history); // EXPECT: cudagraph-mismatched-dealloc
  cudaFree(sv->d_diag);
  cudaFree(sv->d_tol);
  cudaFree(sv->d_tmp);
  cudaFree(sv->d_r);
  cudaFree(sv->d_b);
  cudaFree(sv->d_x);
  cudaFree(sv->d_a);
  if (sv->stop) cudaEventDestroy(sv->stop);
  if (sv->start) cudaEventDestroy(sv->start);
  if (sv->s) cudaStreamDestroy(sv->s);
  memset(sv, 0, sizeof(*sv));
}

/* One-shot convergence check as a graph; the graph and exec are local. */
int solver_check_once(solver *sv, double tol) {
  cudaGraph_t g = NULL;
  cudaGraphExec_t e = NULL;
  int blocks = (sv->o.n + 255) / 256;
  CHECK(cudaStreamBeginCapture(sv->s, cudaStreamCaptureModeGlobal));
  cudaMemcpy(sv->d_tol, &tol, sizeof(double), cudaMemcpyHostToDevice); // EXPECT: cudagraph-capture-unsafe-call
  residual<<<blocks, 256, 0, sv->s>>>(sv->d_a, sv->d_b, sv->d_x, sv->d_r, sv->o.n);
  CHECK(cudaStreamEndCapture(sv->s, &g));
  if (cudaGraphInstantiate(&e, g, 0) != cudaSuccess) {
    cudaGraphDestroy(g);
    return -1;
  }
  cudaGraphDestroy(g);
  cudaGraphLaunch(e, sv->s);
  cudaGraphExecDestroy(e);
  return cudaStreamSynchronize(sv->s) == cudaSuccess ? 0 : -1;
}

int solver_run(solver *sv) {
  CHECK(cudaEventRecord(sv->start, sv->s));
  for (int it = 0; it < sv->o.max_iter; ++it) {
    if (sv->o.use_graph)
      CHECK(cudaGraphLaunch(sv->iter_exec, sv->s));
    else
      enqueue_iteration(sv);
    if (sv->o.keep_history && it % 10 == 0) {
      CHECK(cudaMemcpyAsync(&sv->h_history[it], sv->d_r, sizeof(double), cudaMemcpyDeviceToHost, sv->s));
    }
  }
  CHECK(cudaEventRecord(sv->stop, sv->s));
  CHECK(cudaEventSynchronize(sv->stop));
  if (sv->o.verbose) {
    float ms = 0.f;
    cudaEventElapsedTime(&ms, sv->start, sv->stop);
    printf("%d iterations: %.2f ms\n", sv->o.max_iter, ms);
  }
  return 0;
}

int main(int argc, char **argv) {
  solver_opts o;
  solver sv;
  parse_opts(&o, argc, argv);
  if (solver_init(&sv, &o) != 0) {
    solver_free(&sv);
    return 1;
  }
  int rc = solver_run(&sv) == 0 ? 0 : 2;
  if (rc == 0 && o.verbose && solver_check_once(&sv, o.tol) != 0) rc = 3;
  if (rc == 0 && o.keep_history && o.verbose) {
    for (int it = 0; it < o.max_iter; it += 10) printf("r[%d] = %g\n", it, sv.h_history[it]);
  }
  solver_free(&sv);
  return rc;
}
