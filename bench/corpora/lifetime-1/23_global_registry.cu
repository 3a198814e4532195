// Globals, statics, thread-locals and opaque registration functions.
#include <cuda_runtime.h>
#include <cstdio>

extern void register_exec_slot(cudaGraphExec_t *slot);
extern int submit_to_scheduler(cudaGraphExec_t exec, int priority);

static cudaGraphExec_t g_sampler_exec = nullptr;
thread_local cudaGraphExec_t t_decode_exec = nullptr;

// Correct: stored in a global.
void init_sampler(cudaGraph_t g) {
  cudaGraphExec_t e;
  if (cudaGraphInstantiate(&e, g, 0) == cudaSuccess)
    g_sampler_exec = e;
}

// Correct: lazily created function-local static.
void launch_lazy(cudaGraph_t g, cudaStream_t s) {
  static cudaGraphExec_t exec = nullptr;
  if (!exec && cudaGraphInstantiate(&exec, g, 0) != cudaSuccess)
    return;
  cudaGraphLaunch(exec, s);
}

// Correct: thread-local cache.
void launch_tls(cudaGraph_t g, cudaStream_t s) {
  if (t_decode_exec == nullptr)
    cudaGraphInstantiate(&t_decode_exec, g, 0);
  cudaGraphLaunch(t_decode_exec, s);
}

// Correct: the address is handed to an opaque registry.
void register_graph(cudaGraph_t g) {
  cudaGraphExec_t exec = nullptr;
  cudaGraphInstantiate(&exec, g, 0);
  register_exec_slot(&exec);
}

// Correct: ownership passes to an external scheduler.
int submit(cudaGraph_t g, int prio) {
  cudaGraphExec_t exec;
  if (cudaGraphInstantiate(&exec, g, 0) != cudaSuccess)
    return -1;
  return submit_to_scheduler(exec, prio);
}

// Buggy: printing the handle does not transfer ownership.
void debug_instantiate(cudaGraph_t g) {
  cudaGraphExec_t exec;
  if (cudaGraphInstantiate(&exec, g, 0) != cudaSuccess) // EXPECT: cudagraph-unpaired-instantiate
    return;
  fprintf(stderr, "instantiated exec %p from graph %p\n", (void *)exec, (void *)g);
}
