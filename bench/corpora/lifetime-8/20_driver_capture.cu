// Driver-API stream capture of an upload + kernel sequence. capture_upload_buggy
// uploads the parameters with the synchronous cuMemcpyHtoD inside the capture;
// capture_upload uses cuMemcpyHtoDAsync on the capturing stream.
#include <cuda.h>

CUresult capture_upload_buggy(CUfunction fn, CUdeviceptr dparams, const void *hparams,
                              size_t bytes, CUstream s, CUgraphExec *exec_out) {
  CUresult r = cuStreamBeginCapture(s, CU_STREAM_CAPTURE_MODE_GLOBAL);
  if (r != CUDA_SUCCESS) return r;
  cuMemcpyHtoD(dparams, hparams, bytes); // EXPECT: cudagraph-capture-unsafe-call
  void *args[] = {&dparams};
  cuLaunchKernel(fn, 64, 1, 1, 128, 1, 1, 0, s, args, NULL);
  CUgraph g;
  r = cuStreamEndCapture(s, &g);
  if (r != CUDA_SUCCESS) return r;
  r = cuGraphInstantiate(exec_out, g, 0);
  cuGraphDestroy(g);
  return r;
}

CUresult capture_upload(CUfunction fn, CUdeviceptr dparams, const void *hparams_pinned,
                        size_t bytes, CUstream s, CUgraphExec *exec_out) {
  CUresult r = cuStreamBeginCapture(s, CU_STREAM_CAPTURE_MODE_GLOBAL);
  if (r != CUDA_SUCCESS) return r;
  cuMemcpyHtoDAsync(dparams, hparams_pinned, bytes, s);
  void *args[] = {&dparams};
  cuLaunchKernel(fn, 64, 1, 1, 128, 1, 1, 0, s, args, NULL);
  CUgraph g;
  r = cuStreamEndCapture(s, &g);
  if (r != CUDA_SUCCESS) return r;
  r = cuGraphInstantiate(exec_out, g, 0);
  cuGraphDestroy(g);
  return r;
}

// The eager path is allowed to synchronize: the capture only happens when asked.
CUresult run_step(CUfunction fn, CUdeviceptr dparams, CUstream s, int capture,
                  CUgraphExec *exec_out) {
  CUresult r;
  void *args[] = {&dparams};
  if (capture) {
    r = cuStreamBeginCapture(s, CU_STREAM_CAPTURE_MODE_RELAXED);
    if (r != CUDA_SUCCESS) return r;
  }
  cuLaunchKernel(fn, 64, 1, 1, 128, 1, 1, 0, s, args, NULL);
  if (!capture) return cuStreamSynchronize(s);
  CUgraph g;
  r = cuStreamEndCapture(s, &g);
  if (r != CUDA_SUCCESS) return r;
  r = cuGraphInstantiate(exec_out, g, 0);
  cuGraphDestroy(g);
  return r;
}

// The captured graph is lost when instantiation fails.
CUresult capture_upload_leaky(CUfunction fn, CUdeviceptr dparams, const void *hparams_pinned,
                              size_t bytes, CUstream s, CUgraphExec *exec_out) {
  CUresult r = cuStreamBeginCapture(s, CU_STREAM_CAPTURE_MODE_GLOBAL);
  if (r != CUDA_SUCCESS) return r;
  cuMemcpyHtoDAsync(dparams, hparams_pinned, bytes, s);
  void *args[] = {&dparams};
  cuLaunchKernel(fn, 64, 1, 1, 128, 1, 1, 0, s, args, NULL);
  CUgraph g;
  r = cuStreamEndCapture(s, &g); // EXPECT: cudagraph-capture-without-destroy
  if (r != CUDA_SUCCESS) return r;
  r = cuGraphInstantiate(exec_out, g, 0);
  if (r != CUDA_SUCCESS) return r;
  cuGraphDestroy(g);
  return CUDA_SUCCESS;
}

// The graph is kept by the caller's struct for later updates. Correct.
typedef struct {
  CUgraph graph;
  CUgraphExec exec;
} captured_t;

CUresult capture_keep(CUfunction fn, CUdeviceptr dparams, CUstream s, captured_t *out) {
  CUresult r = cuStreamBeginCapture(s, CU_STREAM_CAPTURE_MODE_GLOBAL);
  if (r != CUDA_SUCCESS) return r;
  void *args[] = {&dparams};
  cuLaunchKernel(fn, 64, 1, 1, 128, 1, 1, 0, s, args, NULL);
  r = cuStreamEndCapture(s, &out->graph);
  if (r != CUDA_SUCCESS) return r;
  return cuGraphInstantiate(&out->exec, out->graph, 0);
}
