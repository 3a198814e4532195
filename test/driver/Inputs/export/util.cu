// A project's own wrappers, defined in another file than their callers
// (test/driver/export-model.test).
#include <cuda_runtime.h>

cudaGraphExec_t g_exec;

void cuda_free(void *p) { cudaFree(p); }

cudaStream_t make_stream() {
  cudaStream_t s;
  cudaStreamCreate(&s);
  return s;
}

cudaError_t init_graph(cudaGraphExec_t *out, cudaGraph_t g) {
  return cudaGraphInstantiate(out, g, 0);
}

void drop_exec(cudaGraphExec_t e) { cudaGraphExecDestroy(e); }

namespace gpu {
void launch(cudaGraphExec_t e, cudaStream_t s) { cudaGraphLaunch(e, s); }
} // namespace gpu

// Releases `old`, keeps `fresh` in a global: the entry lists only arg 0,
// and `fresh` escapes at the call as it would at an unknown call.
void swap_exec(cudaGraphExec_t old, cudaGraphExec_t fresh) {
  cudaGraphExecDestroy(old);
  g_exec = fresh;
}

// Internal linkage: other files cannot call them, nothing is exported.
static void local_free(void *p) { cudaFree(p); }
namespace {
void anon_free(void *p) { cudaFree(p); }
} // namespace

// External, through a same-file static helper.
void free_via_static(void *p) { local_free(p); anon_free(nullptr); }
