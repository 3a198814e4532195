#define BUGGY
// PLANTED: cudagraph-stream-order line 48
/* Solver pipeline of an HPC code: streams are created once in an init function; the
 * per-step scratch comes from the stream-ordered allocator on the default stream (as
 * the rest of the legacy code base allocates) and is consumed on the compute stream. */
#include <cuda_runtime.h>
#include <stdio.h>

typedef struct {
  cudaStream_t compute;
  cudaStream_t io;
  int n;
  double* x;
  double* r;
} Solver;

#define SOLVER_CHECK(call)                                                          \
  do {                                                                              \
    cudaError_t s_ = (call);                                                        \
    if (s_ != cudaSuccess) {                                                        \
      fprintf(stderr, "solver: %s -> %s\n", #call, cudaGetErrorString(s_));         \
      return -1;                                                                    \
    }                                                                               \
  } while (0)

#ifdef BUGGY
#define SOLVER_STREAM_FLAGS cudaStreamNonBlocking
#else
#define SOLVER_STREAM_FLAGS cudaStreamDefault
#endif

__global__ void residual(const double* x, double* r, double* scratch, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) { scratch[i] = x[i] * 0.5; r[i] = x[i] - scratch[i]; }
}

int solver_init(Solver* s, int n) {
  s->n = n;
  SOLVER_CHECK(cudaStreamCreateWithFlags(&s->compute, SOLVER_STREAM_FLAGS));
  SOLVER_CHECK(cudaStreamCreateWithFlags(&s->io, SOLVER_STREAM_FLAGS));
  SOLVER_CHECK(cudaMalloc((void**)&s->x, sizeof(double) * n));
  SOLVER_CHECK(cudaMalloc((void**)&s->r, sizeof(double) * n));
  return 0;
}

int solver_step(Solver* s) {
  double* scratch = NULL;
  SOLVER_CHECK(cudaMallocAsync((void**)&scratch, sizeof(double) * s->n, 0));
  residual<<<(s->n + 127) / 128, 128, 0, s->compute>>>(s->x, s->r, scratch, s->n);  // EXPECT: cudagraph-stream-order
  cudaError_t launched = cudaGetLastError();
  SOLVER_CHECK(cudaFreeAsync(scratch, s->compute));
  SOLVER_CHECK(launched);
  return 0;
}

void solver_destroy(Solver* s) {
  cudaStreamSynchronize(s->compute);
  cudaFree(s->x);
  cudaFree(s->r);
  cudaStreamDestroy(s->io);
  cudaStreamDestroy(s->compute);
}

int solver_run(Solver* s, int steps) {
  for (int i = 0; i < steps; ++i)
    if (solver_step(s) != 0) return -1;
  return cudaStreamSynchronize(s->compute) == cudaSuccess ? 0 : -1;
}
