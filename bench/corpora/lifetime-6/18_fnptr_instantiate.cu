// Instantiate called through function pointers (dlsym-style shims, test hooks).
#include <cuda_runtime.h>
#include <cstdio>

// cudaGraphInstantiate is overloaded in C++ (cuda_runtime.h adds a 5-arg
// legacy form), so the alias has to pick the 3-arg one explicitly.
using InstantiateFn = cudaError_t (*)(cudaGraphExec_t*, cudaGraph_t, unsigned long long);
using InstantiateFlagsFn = decltype(&cudaGraphInstantiateWithFlags);
typedef cudaError_t (*DestroyFn)(cudaGraphExec_t);

struct CudaApi {
  InstantiateFn instantiate = &cudaGraphInstantiate;
  DestroyFn destroy = &cudaGraphExecDestroy;
  decltype(&cudaGraphLaunch) launch = &cudaGraphLaunch;
};

static CudaApi g_api;

// Correct: instantiate and destroy both through the table.
int run_via_table(cudaGraph_t g, cudaStream_t s) {
  cudaGraphExec_t e = nullptr;
  if (g_api.instantiate(&e, g, 0) != cudaSuccess) return -1;
  g_api.launch(e, s);
  g_api.destroy(e);
  return 0;
}

// BUG: local function-pointer alias; the exec is never destroyed.
int run_via_alias(cudaGraph_t g, cudaStream_t s) {
  decltype(static_cast<InstantiateFn>(&cudaGraphInstantiate)) inst = cudaGraphInstantiate;
  cudaGraphExec_t e;
  if (inst(&e, g, 0) != cudaSuccess) return -1; // EXPECT: cudagraph-unpaired-instantiate
  return cudaGraphLaunch(e, s) == cudaSuccess ? 0 : -2;
}

// Correct: alias for instantiation, plain API for destroy.
int run_mixed(cudaGraph_t g, cudaStream_t s) {
  InstantiateFlagsFn fn = &cudaGraphInstantiateWithFlags;
  cudaGraphExec_t e = nullptr;
  cudaError_t err = (*fn)(&e, g, 0);
  if (err != cudaSuccess) return -1;
  err = cudaGraphLaunch(e, s);
  cudaGraphExecDestroy(e);
  return err == cudaSuccess ? 0 : -2;
}

// BUG: error path after the table instantiate returns without destroy.
int run_table_bug(cudaGraph_t g, cudaStream_t s, int reps) {
  cudaGraphExec_t e = nullptr;
  if (g_api.instantiate(&e, g, 0) != cudaSuccess) return -1; // EXPECT: cudagraph-unpaired-instantiate
  for (int i = 0; i < reps; ++i) {
    if (g_api.launch(e, s) != cudaSuccess) {
      std::fprintf(stderr, "launch %d failed\n", i);
      return -2;
    }
  }
  g_api.destroy(e);
  return 0;
}

// Correct: test hook replaces instantiate; result handed to the caller.
cudaGraphExec_t make_exec(cudaGraph_t g, InstantiateFn hook = nullptr) {
  InstantiateFn fn = hook ? hook : static_cast<InstantiateFn>(&cudaGraphInstantiate);
  cudaGraphExec_t e = nullptr;
  if (fn(&e, g, 0) != cudaSuccess) return nullptr;
  return e;
}

int main() {
  cudaGraph_t g;
  cudaGraphCreate(&g, 0);
  cudaStream_t s;
  cudaStreamCreate(&s);
  run_via_table(g, s);
  run_via_alias(g, s);
  run_mixed(g, s);
  run_table_bug(g, s, 2);
  if (auto e = make_exec(g)) cudaGraphExecDestroy(e);
  cudaGraphDestroy(g);
  cudaStreamDestroy(s);
  return 0;
}
