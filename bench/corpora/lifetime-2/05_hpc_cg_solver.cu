// HPC conjugate-gradient style solver: one graph per iteration body.
#include <cuda_runtime.h>
#include <cmath>
#include <cstdio>

__global__ void spmv(const int* rowptr, const int* col, const double* val, const double* x, double* y, int n) {}
__global__ void axpy(double a, const double* x, double* y, int n) {}
__global__ void dot(const double* a, const double* b, double* out, int n) {}

struct CsrMatrix {
  int n;
  int* rowptr;
  int* col;
  double* val;
};

static cudaGraph_t capture_iteration(cudaStream_t s, const CsrMatrix& A, double* x, double* r, double* p,
                                     double* Ap, double* rr) {
  cudaGraph_t g = nullptr;
  cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal);
  spmv<<<(A.n + 127) / 128, 128, 0, s>>>(A.rowptr, A.col, A.val, p, Ap, A.n);
  axpy<<<(A.n + 127) / 128, 128, 0, s>>>(1.0, p, x, A.n);
  axpy<<<(A.n + 127) / 128, 128, 0, s>>>(-1.0, Ap, r, A.n);
  dot<<<64, 256, 0, s>>>(r, r, rr, A.n);
  cudaStreamEndCapture(s, &g);
  return g;
}

// Correct: break on convergence, destroy after the loop.
int cg_solve(cudaStream_t s, const CsrMatrix& A, double* x, double* r, double* p, double* Ap, double* rr_dev,
             double tol, int max_iter) {
  cudaGraph_t g = capture_iteration(s, A, x, r, p, Ap, rr_dev);
  cudaGraphExec_t exec;
  if (cudaGraphInstantiate(&exec, g, 0) != cudaSuccess) {
    cudaGraphDestroy(g);
    return -1;
  }
  cudaGraphDestroy(g);
  int it = 0;
  for (; it < max_iter; ++it) {
    cudaGraphLaunch(exec, s);
    double rr = 0;
    cudaMemcpyAsync(&rr, rr_dev, sizeof(double), cudaMemcpyDeviceToHost, s);
    cudaStreamSynchronize(s);
    if (std::sqrt(rr) < tol) break;
  }
  cudaGraphExecDestroy(exec);
  return it;
}

// Buggy: returns the iteration count from inside the loop.
int cg_solve_early_return(cudaStream_t s, const CsrMatrix& A, double* x, double* r, double* p, double* Ap,
                          double* rr_dev, double tol, int max_iter) {
  cudaGraph_t g = capture_iteration(s, A, x, r, p, Ap, rr_dev);
  cudaGraphExec_t exec;
  cudaGraphInstantiate(&exec, g, 0);  // EXPECT: cudagraph-unpaired-instantiate
  cudaGraphDestroy(g);
  for (int it = 0; it < max_iter; ++it) {
    cudaGraphLaunch(exec, s);
    double rr = 0;
    cudaMemcpyAsync(&rr, rr_dev, sizeof(double), cudaMemcpyDeviceToHost, s);
    cudaStreamSynchronize(s);
    if (std::sqrt(rr) < tol) return it;
  }
  cudaGraphExecDestroy(exec);
  return max_iter;
}

// Buggy: divergence (NaN) path returns an error code and forgets the exec.
int cg_solve_nan_guard(cudaStream_t s, const CsrMatrix& A, double* x, double* r, double* p, double* Ap,
                       double* rr_dev, double tol, int max_iter) {
  cudaGraph_t g = capture_iteration(s, A, x, r, p, Ap, rr_dev);
  cudaGraphExec_t exec;
  cudaError_t st = cudaGraphInstantiate(&exec, g, 0);  // EXPECT: cudagraph-unpaired-instantiate
  cudaGraphDestroy(g);
  if (st != cudaSuccess) return -2;
  int it = 0;
  while (it < max_iter) {
    cudaGraphLaunch(exec, s);
    double rr = 0;
    cudaMemcpy(&rr, rr_dev, sizeof(double), cudaMemcpyDeviceToHost);
    if (std::isnan(rr)) {
      std::fprintf(stderr, "CG diverged at iteration %d\n", it);
      return -3;
    }
    if (std::sqrt(rr) < tol) break;
    ++it;
  }
  cudaGraphExecDestroy(exec);
  return it;
}

// Correct: multigrid-like levels, execs kept in a caller-owned array (out-parameter).
void build_level_graphs(cudaStream_t s, const CsrMatrix* levels, int nlev, double** work, cudaGraphExec_t* out) {
  for (int l = 0; l < nlev; ++l) {
    cudaGraph_t g = capture_iteration(s, levels[l], work[0], work[1], work[2], work[3], work[4]);
    cudaGraphInstantiate(&out[l], g, 0);
    cudaGraphDestroy(g);
  }
}
