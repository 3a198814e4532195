// A long request handler with many exits.
// BUGGY: the "stale weights" exit forgets the exec.
#include <cuda_runtime.h>
#include <cstdio>

struct Request { int batch; int seq; bool stream_out; unsigned version; };
extern unsigned g_weights_version;

int handle(const Request &rq, cudaGraph_t g, cudaStream_t s, float *out) {
  if (rq.batch <= 0) return 400;
  if (rq.seq > 4096) return 413;
  cudaGraphExec_t e = nullptr;
  cudaError_t st = cudaGraphInstantiate(&e, g, 0); // EXPECT: cudagraph-unpaired-instantiate
  if (st == cudaErrorMemoryAllocation) return 503;
  if (st != cudaSuccess) return 500;
  if (rq.stream_out && out == nullptr) {
    cudaGraphExecDestroy(e);
    return 400;
  }
  if (rq.version != g_weights_version) {
    std::fprintf(stderr, "stale weights v%u\n", rq.version);
    return 409;
  }
  if (cudaGraphLaunch(e, s) != cudaSuccess) {
    cudaGraphExecDestroy(e);
    return 500;
  }
  if (cudaStreamSynchronize(s) != cudaSuccess) {
    cudaGraphExecDestroy(e);
    return 504;
  }
  cudaGraphExecDestroy(e);
  if (rq.stream_out) return 206;
  return 200;
}

// CORRECT: many exits, all funnelled through one destroy via a flag.
int handle_ok(const Request &rq, cudaGraph_t g, cudaStream_t s) {
  cudaGraphExec_t e = nullptr;
  if (cudaGraphInstantiate(&e, g, 0) != cudaSuccess) return 500;
  int code = 200;
  do {
    if (rq.version != g_weights_version) { code = 409; break; }
    if (cudaGraphLaunch(e, s) != cudaSuccess) { code = 500; break; }
    if (cudaStreamSynchronize(s) != cudaSuccess) { code = 504; break; }
  } while (0);
  cudaGraphExecDestroy(e);
  return code;
}
