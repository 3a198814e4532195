// Driver API (cuGraph*) code path with goto-based error handling, as found in
// JIT runtimes that drive CUDA without the runtime library.
#include <cuda.h>
#include <cstdio>

#define DRV_TRY(call, label)                                               \
  do {                                                                     \
    if ((call) != CUDA_SUCCESS) goto label;                                \
  } while (0)

// Correct: linear goto chain.
int drvReplay(CUstream s, CUgraph g, int n) {
  int rc = -1;
  CUgraphExec exec = nullptr;
  DRV_TRY(cuGraphInstantiate(&exec, g, 0), fail);
  for (int i = 0; i < n; ++i)
    DRV_TRY(cuGraphLaunch(exec, s), fail_exec);
  DRV_TRY(cuStreamSynchronize(s), fail_exec);
  rc = 0;
fail_exec:
  cuGraphExecDestroy(exec);
fail:
  return rc;
}

// Buggy: the retry label jumps back above the instantiate while the exec is
// still live.
int drvRetry(CUstream s, CUgraph g, int attempts) {
  CUgraphExec exec = nullptr;
  int tries = 0;
retry:
  if (cuGraphInstantiate(&exec, g, 0) != CUDA_SUCCESS) // EXPECT: cudagraph-unpaired-instantiate
    return -1;
  if (cuGraphLaunch(exec, s) != CUDA_SUCCESS) {
    if (++tries < attempts)
      goto retry;  // exec overwritten on the next pass
    cuGraphExecDestroy(exec);
    return -2;
  }
  cuGraphExecDestroy(exec);
  return 0;
}

// Correct: the retry path destroys before jumping back.
int drvRetryFixed(CUstream s, CUgraph g, int attempts) {
  CUgraphExec exec = nullptr;
  int tries = 0;
retry:
  if (cuGraphInstantiate(&exec, g, 0) != CUDA_SUCCESS)
    return -1;
  if (cuGraphLaunch(exec, s) != CUDA_SUCCESS) {
    cuGraphExecDestroy(exec);
    if (++tries < attempts)
      goto retry;
    return -2;
  }
  cuGraphExecDestroy(exec);
  return 0;
}

// Buggy: the upload failure jumps to the label that only releases the graph.
int drvCaptureAndRun(CUstream s, CUdeviceptr buf, size_t bytes) {
  int rc = 0;
  CUgraph g = nullptr;
  CUgraphExec exec = nullptr;
  DRV_TRY(cuStreamBeginCapture(s, CU_STREAM_CAPTURE_MODE_GLOBAL), out);
  cuMemsetD8Async(buf, 0, bytes, s);
  DRV_TRY(cuStreamEndCapture(s, &g), out);
  DRV_TRY(cuGraphInstantiate(&exec, g, 0), out_graph); // EXPECT: cudagraph-unpaired-instantiate
  DRV_TRY(cuGraphUpload(exec, s), out_graph);
  DRV_TRY(cuGraphLaunch(exec, s), out_exec);
  goto out_exec;
out_exec:
  cuGraphExecDestroy(exec);
out_graph:
  cuGraphDestroy(g);
out:
  return rc;
}
