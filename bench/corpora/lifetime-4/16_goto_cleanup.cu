/* C-style code with goto labels unwinding in reverse order. */
#include <cuda_runtime.h>
#include <stdio.h>

int replay_c(cudaStream_t s, void (*enqueue)(cudaStream_t), int iters) {
  cudaGraph_t graph = NULL;
  cudaGraphExec_t exec = NULL;
  int rc = -1;
  int i;

  if (cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal) != cudaSuccess)
    goto fail;
  enqueue(s);
  if (cudaStreamEndCapture(s, &graph) != cudaSuccess)
    goto fail;
  if (cudaGraphInstantiate(&exec, graph, 0) != cudaSuccess)
    goto fail_graph;
  for (i = 0; i < iters; ++i)
    if (cudaGraphLaunch(exec, s) != cudaSuccess)
      goto fail_exec;
  if (cudaStreamSynchronize(s) != cudaSuccess)
    goto fail_exec;
  rc = 0;

fail_exec:
  cudaGraphExecDestroy(exec);
fail_graph:
  cudaGraphDestroy(graph);
fail:
  return rc;
}

int two_execs_c(cudaGraph_t g1, cudaGraph_t g2, cudaStream_t s) {
  cudaGraphExec_t e1, e2;
  int rc = -1;
  if (cudaGraphInstantiate(&e1, g1, 0) != cudaSuccess)
    goto out;
  if (cudaGraphInstantiate(&e2, g2, 0) != cudaSuccess)
    goto out_e1;
  if (cudaGraphLaunch(e1, s) != cudaSuccess || cudaGraphLaunch(e2, s) != cudaSuccess)
    goto out_e2;
  rc = 0;
out_e2:
  cudaGraphExecDestroy(e2);
out_e1:
  cudaGraphExecDestroy(e1);
out:
  return rc;
}

/* BUG: the launch failure jumps to the wrong label and skips the exec destroy. */
int replay_c_leaky(cudaGraph_t graph, cudaStream_t s) {
  cudaGraphExec_t exec;
  int rc = -1;
  if (cudaGraphInstantiate(&exec, graph, 0) != cudaSuccess) // EXPECT: cudagraph-unpaired-instantiate
    goto fail;
  if (cudaGraphLaunch(exec, s) != cudaSuccess)
    goto fail;
  rc = 0;
  cudaGraphExecDestroy(exec);
fail:
  fprintf(stderr, "rc=%d\n", rc);
  return rc;
}
