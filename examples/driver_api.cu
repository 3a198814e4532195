// Driver API code with a goto-cleanup error path; one exec leaks on the path
// where the upload fails, because the cleanup label only destroys the graph.
#include <cuda.h>

int build_and_launch(CUgraph graph, CUstream stream) {
  CUgraphExec exec = nullptr;
  int rc = -1;
  if (cuGraphInstantiate(&exec, graph, 0) != CUDA_SUCCESS)
    goto cleanup;
  if (cuGraphUpload(exec, stream) != CUDA_SUCCESS)
    goto cleanup;
  if (cuGraphLaunch(exec, stream) != CUDA_SUCCESS)
    goto cleanup_exec;
  rc = 0;
cleanup_exec:
  cuGraphExecDestroy(exec);
cleanup:
  cuGraphDestroy(graph);
  return rc;
}
