// Small helpers defined in the same translation unit.
#include <cuda_runtime.h>
#include <cstdio>
#include <map>
#include <mutex>

static std::mutex g_registry_mu;
static std::map<int, cudaGraphExec_t> g_registry;

static void release_exec(cudaGraphExec_t &e) {
  if (e) {
    cudaGraphExecDestroy(e);
    e = nullptr;
  }
}

static cudaError_t create_exec(cudaGraphExec_t *out, cudaGraph_t g) {
  return cudaGraphInstantiateWithFlags(out, g, 0);
}

static cudaGraphExec_t build_exec_or_null(cudaGraph_t g) {
  cudaGraphExec_t e = nullptr;
  if (cudaGraphInstantiate(&e, g, 0) != cudaSuccess)
    return nullptr;
  return e;
}

static void publish(int key, cudaGraphExec_t e) {
  std::lock_guard<std::mutex> lk(g_registry_mu);
  g_registry[key] = e;
}

static void describe(cudaGraphExec_t e) {
  unsigned long long flags = 0;
  cudaGraphExecGetFlags(e, &flags);
  printf("exec flags=%llx\n", flags);
}

// Correct: reference-taking release helper.
void run_with_helper(cudaGraph_t g, cudaStream_t s) {
  cudaGraphExec_t e = nullptr;
  if (cudaGraphInstantiate(&e, g, 0) != cudaSuccess)
    return;
  cudaGraphLaunch(e, s);
  release_exec(e);
}

// Buggy: created through the out-param helper, never released.
void run_created(cudaGraph_t g, cudaStream_t s) {
  cudaGraphExec_t e;
  if (create_exec(&e, g) != cudaSuccess) // EXPECT: cudagraph-unpaired-instantiate
    return;
  cudaGraphLaunch(e, s);
}

// Buggy: created through the value-returning helper, then only described.
void inspect_graph(cudaGraph_t g) {
  cudaGraphExec_t e = build_exec_or_null(g); // EXPECT: cudagraph-unpaired-instantiate
  if (!e)
    return;
  describe(e);
}

// Correct: value-returning helper plus release helper.
void run_built(cudaGraph_t g, cudaStream_t s) {
  cudaGraphExec_t e = build_exec_or_null(g);
  if (!e)
    return;
  cudaGraphLaunch(e, s);
  release_exec(e);
}

// Correct: the exec is published to a global registry by a helper.
void register_graph(int key, cudaGraph_t g) {
  cudaGraphExec_t e;
  if (cudaGraphInstantiate(&e, g, 0) != cudaSuccess)
    return;
  publish(key, e);
}

// Buggy: describe() only reads the exec; nobody owns it afterwards.
void debug_dump(cudaGraph_t g) {
  cudaGraphExec_t e;
  if (cudaGraphInstantiate(&e, g, 0) != cudaSuccess) // EXPECT: cudagraph-unpaired-instantiate
    return;
  describe(e);
}
