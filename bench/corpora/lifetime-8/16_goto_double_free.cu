// Solver setup in C with a single cleanup label. setup_buggy frees the residual
// buffer on the tolerance error and then jumps to the label that frees it again.
// setup_ok resets the pointer after the early free.
#include <cuda_runtime.h>
#include <stddef.h>

typedef struct {
  double *x, *r, *p;
  int n;
} cg_state;

int cg_iterate(cg_state *st, double tol);

int setup_buggy(int n, double tol) {
  cg_state st = {NULL, NULL, NULL, n};
  int rc = -1;
  if (cudaMalloc((void **)&st.x, n * sizeof(double)) != cudaSuccess) goto done;
  if (cudaMalloc((void **)&st.r, n * sizeof(double)) != cudaSuccess) goto done;
  if (cudaMalloc((void **)&st.p, n * sizeof(double)) != cudaSuccess) goto done;
  if (tol <= 0.0) {
    cudaFree(st.r);
    goto done;
  }
  rc = cg_iterate(&st, tol);
done:
  cudaFree(st.p);
  cudaFree(st.r); // EXPECT: cudagraph-use-after-dealloc
  cudaFree(st.x);
  return rc;
}

int setup_ok(int n, double tol) {
  cg_state st = {NULL, NULL, NULL, n};
  int rc = -1;
  if (cudaMalloc((void **)&st.x, n * sizeof(double)) != cudaSuccess) goto done;
  if (cudaMalloc((void **)&st.r, n * sizeof(double)) != cudaSuccess) goto done;
  if (cudaMalloc((void **)&st.p, n * sizeof(double)) != cudaSuccess) goto done;
  if (tol <= 0.0) {
    cudaFree(st.r);
    st.r = NULL;
    goto done;
  }
  rc = cg_iterate(&st, tol);
done:
  cudaFree(st.p);
  cudaFree(st.r);
  cudaFree(st.x);
  return rc;
}
