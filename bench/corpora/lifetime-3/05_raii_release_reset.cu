// unique_ptr-based RAII for graph execs with release()/reset().
// BUGGY: one function releases ownership and never destroys the exec.
#include <cuda_runtime.h>
#include <memory>
#include <type_traits>

struct ExecDeleter {
  void operator()(cudaGraphExec_t e) const noexcept {
    if (e) cudaGraphExecDestroy(e);
  }
};
using ExecPtr = std::unique_ptr<std::remove_pointer_t<cudaGraphExec_t>, ExecDeleter>;

ExecPtr make_exec(cudaGraph_t g) {
  cudaGraphExec_t e = nullptr;
  if (cudaGraphInstantiate(&e, g, 0) != cudaSuccess)
    return nullptr;
  return ExecPtr(e);
}

// CORRECT: reset() hands a new exec to the owner, which destroys the old one.
void refresh(ExecPtr &owner, cudaGraph_t g) {
  cudaGraphExec_t e = nullptr;
  if (cudaGraphInstantiate(&e, g, 0) == cudaSuccess)
    owner.reset(e);
}

// CORRECT: release() transfers to a raw out-parameter.
bool export_exec(cudaGraph_t g, cudaGraphExec_t *out) {
  cudaGraphExec_t e = nullptr;
  if (cudaGraphInstantiate(&e, g, 0) != cudaSuccess) return false;
  ExecPtr guard(e);
  if (cudaGraphUpload(e, 0) != cudaSuccess) return false;  // guard destroys
  *out = guard.release();
  return true;
}

// BUGGY: release() detaches the exec, the raw pointer is launched then dropped.
int run_once(cudaGraph_t g, cudaStream_t s) {
  cudaGraphExec_t e = nullptr;
  if (cudaGraphInstantiate(&e, g, 0) != cudaSuccess) return 1; // EXPECT: cudagraph-unpaired-instantiate
  ExecPtr guard(e);
  cudaGraphExec_t raw = guard.release();  // "avoid double destroy" - but nothing destroys it
  cudaGraphLaunch(raw, s);
  return cudaStreamSynchronize(s) == cudaSuccess ? 0 : 2;
}

int main() {
  cudaGraph_t g;
  cudaGraphCreate(&g, 0);
  cudaStream_t s;
  cudaStreamCreate(&s);
  ExecPtr p = make_exec(g);
  refresh(p, g);
  cudaGraphExec_t out = nullptr;
  if (export_exec(g, &out)) cudaGraphExecDestroy(out);
  int rc = run_once(g, s);
  cudaGraphDestroy(g);
  return rc;
}
