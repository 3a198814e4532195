// Driver-API code (CUresult, cuGraphInstantiate / cuGraphExecDestroy).
#include <cuda.h>
#include <cstdio>
#include <cstdlib>

#define CU_TRY(call)                                                  \
  do {                                                                \
    CUresult _r = (call);                                             \
    if (_r != CUDA_SUCCESS) {                                         \
      const char* _s = nullptr;                                       \
      cuGetErrorString(_r, &_s);                                      \
      std::fprintf(stderr, "%s failed: %s\n", #call, _s ? _s : "?");  \
      return _r;                                                      \
    }                                                                 \
  } while (0)

struct Module {
  CUmodule mod;
  CUfunction fn;
};

static CUresult add_kernel_node(CUgraph g, CUfunction fn, void** params, CUgraphNode* out) {
  CUDA_KERNEL_NODE_PARAMS p = {};
  p.func = fn;
  p.gridDimX = 128;
  p.gridDimY = 1;
  p.gridDimZ = 1;
  p.blockDimX = 256;
  p.blockDimY = 1;
  p.blockDimZ = 1;
  p.kernelParams = params;
  return cuGraphAddKernelNode(out, g, nullptr, 0, &p);
}

// Correct: explicit graph construction, exec destroyed after the replays.
CUresult run_explicit(const Module& m, CUstream s, void** params, int reps) {
  CUgraph g;
  CU_TRY(cuGraphCreate(&g, 0));
  CUgraphNode n;
  CUresult r = add_kernel_node(g, m.fn, params, &n);
  if (r != CUDA_SUCCESS) {
    cuGraphDestroy(g);
    return r;
  }
  CUgraphExec ge;
  r = cuGraphInstantiate(&ge, g, 0);
  cuGraphDestroy(g);
  if (r != CUDA_SUCCESS) return r;
  for (int i = 0; i < reps && r == CUDA_SUCCESS; ++i) r = cuGraphLaunch(ge, s);
  cuGraphExecDestroy(ge);
  return r;
}

// Buggy: CU_TRY on the launch returns with the exec still alive.
CUresult run_explicit_v2(const Module& m, CUstream s, void** params, int reps) {
  CUgraph g;
  CU_TRY(cuGraphCreate(&g, 0));
  CUgraphNode n;
  CU_TRY(add_kernel_node(g, m.fn, params, &n));
  CUgraphExec ge;
  CU_TRY(cuGraphInstantiate(&ge, g, 0));  // EXPECT: cudagraph-unpaired-instantiate
  cuGraphDestroy(g);
  for (int i = 0; i < reps; ++i) CU_TRY(cuGraphLaunch(ge, s));
  CU_TRY(cuStreamSynchronize(s));
  CU_TRY(cuGraphExecDestroy(ge));
  return CUDA_SUCCESS;
}

// Buggy: exec only destroyed when verbose logging is off.
CUresult run_with_flags(CUgraph g, CUstream s, bool verbose) {
  CUgraphExec ge;
  CUresult r = cuGraphInstantiateWithFlags(&ge, g, CUDA_GRAPH_INSTANTIATE_FLAG_AUTO_FREE_ON_LAUNCH);  // EXPECT: cudagraph-unpaired-instantiate
  if (r != CUDA_SUCCESS) return r;
  r = cuGraphLaunch(ge, s);
  if (verbose) {
    std::printf("launched: %d\n", (int)r);
    return r;
  }
  cuGraphExecDestroy(ge);
  return r;
}

// Correct: driver instantiate-with-params; exec returned through an out-parameter.
CUresult instantiate_uploaded(CUgraph g, CUstream upload, CUgraphExec* out) {
  CUDA_GRAPH_INSTANTIATE_PARAMS ip = {};
  ip.flags = CUDA_GRAPH_INSTANTIATE_FLAG_UPLOAD;
  ip.hUploadStream = upload;
  CUgraphExec ge;
  CU_TRY(cuGraphInstantiateWithParams(&ge, g, &ip));
  if (ip.result_out != CUDA_GRAPH_INSTANTIATE_SUCCESS) {
    cuGraphExecDestroy(ge);
    return CUDA_ERROR_INVALID_VALUE;
  }
  *out = ge;
  return CUDA_SUCCESS;
}

// Buggy: the result_out check returns without destroying the exec.
CUresult instantiate_uploaded_v2(CUgraph g, CUstream upload, CUgraphExec* out) {
  CUDA_GRAPH_INSTANTIATE_PARAMS ip = {};
  ip.flags = CUDA_GRAPH_INSTANTIATE_FLAG_UPLOAD;
  ip.hUploadStream = upload;
  CUgraphExec ge;
  CU_TRY(cuGraphInstantiateWithParams(&ge, g, &ip));  // EXPECT: cudagraph-unpaired-instantiate
  if (ip.result_out != CUDA_GRAPH_INSTANTIATE_SUCCESS) return CUDA_ERROR_INVALID_VALUE;
  *out = ge;
  return CUDA_SUCCESS;
}
