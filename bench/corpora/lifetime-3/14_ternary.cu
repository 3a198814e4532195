// Ternaries choosing the instantiate flavour and the value handed back.
// BUGGY: pick_exec drops the exec when the warm-up launch fails.
#include <cuda_runtime.h>

// CORRECT: the ternary picks the API; both arms produce one exec, destroyed below.
int run(cudaGraph_t g, cudaStream_t s, bool upload) {
  cudaGraphExec_t e = nullptr;
  cudaError_t st = upload ? cudaGraphInstantiateWithFlags(&e, g, cudaGraphInstantiateFlagUpload)
                          : cudaGraphInstantiate(&e, g, 0);
  if (st != cudaSuccess) return 1;
  st = cudaGraphLaunch(e, s);
  cudaGraphExecDestroy(e);
  return st == cudaSuccess ? 0 : 2;
}

// BUGGY: when the warm-up launch fails, nullptr is returned and e is lost.
cudaGraphExec_t pick_exec(cudaGraph_t g, cudaStream_t s) {
  cudaGraphExec_t e = nullptr;
  if (cudaGraphInstantiate(&e, g, 0) != cudaSuccess) return nullptr; // EXPECT: cudagraph-unpaired-instantiate
  bool ok = cudaGraphLaunch(e, s) == cudaSuccess;
  return ok ? e : nullptr;
}

// CORRECT: same shape, but the failing arm destroys first.
cudaGraphExec_t pick_exec_ok(cudaGraph_t g, cudaStream_t s) {
  cudaGraphExec_t e = nullptr;
  if (cudaGraphInstantiate(&e, g, 0) != cudaSuccess) return nullptr;
  bool ok = cudaGraphLaunch(e, s) == cudaSuccess;
  if (!ok) cudaGraphExecDestroy(e);
  return ok ? e : nullptr;
}

// CORRECT: instantiate into one of two out-slots chosen by a ternary.
bool fill_slot(cudaGraphExec_t *front, cudaGraphExec_t *back, bool use_front, cudaGraph_t g) {
  cudaGraphExec_t *slot = use_front ? front : back;
  return cudaGraphInstantiate(slot, g, 0) == cudaSuccess;
}
