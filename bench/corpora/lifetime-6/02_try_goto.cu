/* C-style module: TRY macro jumps to a single cleanup label. */
#include <cuda_runtime.h>
#include <stdio.h>
#include <string.h>

#define TRY(x) if ((err = (x))) goto out
#define TRY_MSG(x, msg) if ((err = (x))) { fprintf(stderr, "%s\n", msg); goto out; }

typedef struct {
  cudaStream_t stream;
  float *a, *b;
  int n;
} job_t;

static cudaError_t capture(job_t *j, cudaGraph_t *out_graph, int variant) {
  cudaError_t err;
  TRY(cudaStreamBeginCapture(j->stream, cudaStreamCaptureModeGlobal));
  if (variant)
    cudaMemcpyAsync(j->b, j->a, j->n * sizeof(float), cudaMemcpyDeviceToDevice, j->stream);
  else
    cudaMemsetAsync(j->a, 0, j->n * sizeof(float), j->stream);
  TRY(cudaStreamEndCapture(j->stream, out_graph));
out:
  return err;
}

/* Correct: both execs start NULL; the label destroys whatever is live. */
int run_job(job_t *j, int iters) {
  cudaError_t err = cudaSuccess;
  cudaGraph_t g0 = NULL, g1 = NULL;
  cudaGraphExec_t e0 = NULL, e1 = NULL;
  int i;

  TRY(capture(j, &g0, 0));
  TRY(capture(j, &g1, 1));
  TRY(cudaGraphInstantiate(&e0, g0, 0));
  TRY_MSG(cudaGraphInstantiate(&e1, g1, 0), "second instantiate failed");
  for (i = 0; i < iters; i++) {
    TRY(cudaGraphLaunch(e0, j->stream));
    TRY(cudaGraphLaunch(e1, j->stream));
  }
  TRY(cudaStreamSynchronize(j->stream));

out:
  if (e1) cudaGraphExecDestroy(e1);
  if (e0) cudaGraphExecDestroy(e0);
  if (g1) cudaGraphDestroy(g1);
  if (g0) cudaGraphDestroy(g0);
  return err == cudaSuccess ? 0 : -1;
}

/* Correct: the exec is handed to the caller through an out-parameter, and
 * the error label destroys it only when we are not handing it back. */
int make_exec(job_t *j, cudaGraphExec_t *out_exec) {
  cudaError_t err = cudaSuccess;
  cudaGraph_t g = NULL;
  cudaGraphExec_t e = NULL;

  TRY(capture(j, &g, 0));
  TRY(cudaGraphInstantiate(&e, g, 0));
  TRY(cudaGraphUpload(e, j->stream));
  *out_exec = e;
  e = NULL;

out:
  if (e) cudaGraphExecDestroy(e);
  if (g) cudaGraphDestroy(g);
  return (int)err;
}

int main(void) {
  job_t j;
  cudaGraphExec_t e = NULL;
  memset(&j, 0, sizeof(j));
  j.n = 256;
  cudaStreamCreate(&j.stream);
  cudaMalloc((void **)&j.a, j.n * sizeof(float));
  cudaMalloc((void **)&j.b, j.n * sizeof(float));
  run_job(&j, 3);
  if (make_exec(&j, &e) == 0) {
    cudaGraphLaunch(e, j.stream);
    cudaGraphExecDestroy(e);
  }
  cudaFree(j.a);
  cudaFree(j.b);
  cudaStreamDestroy(j.stream);
  return 0;
}
