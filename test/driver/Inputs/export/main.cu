// Calls the wrappers of util.cu and buffers.cu: without their exported
// summaries they are unknown calls (every handle passed escapes, nothing
// is reported); with them the bugs below are found.
#include <cuda_runtime.h>

void cuda_free(void *p);
cudaStream_t make_stream();
cudaError_t init_graph(cudaGraphExec_t *out, cudaGraph_t g);
void drop_exec(cudaGraphExec_t e);
void swap_exec(cudaGraphExec_t old, cudaGraphExec_t fresh);
void free_via_static(void *p);
void free_pair(void *a, void *b);
void local_free(void *p); // util.cu's is static: not this one
namespace gpu {
void launch(cudaGraphExec_t e, cudaStream_t s);
}

void double_free() {
  void *p;
  if (cudaMalloc(&p, 64) != cudaSuccess)
    return;
  cuda_free(p);
  cudaFree(p); // FREE
}

void stream_leak() {
  cudaStream_t s = make_stream(); // STREAM
  cudaStreamSynchronize(s);
}

void mismatch() {
  cudaStream_t s;
  cudaStreamCreate(&s);
  cuda_free(s); // MISMATCH
}

void exec_leak(cudaGraph_t g, cudaStream_t st) {
  cudaGraphExec_t e;
  if (init_graph(&e, g) != cudaSuccess) // EXEC
    return;
  gpu::launch(e, st);
}

void launch_after_drop(cudaGraph_t g, cudaStream_t st) {
  cudaGraphExec_t e;
  if (init_graph(&e, g) != cudaSuccess)
    return;
  drop_exec(e);
  gpu::launch(e, st); // LAUNCH
}

void pair_double_free() {
  void *a, *b;
  if (cudaMalloc(&a, 8) != cudaSuccess)
    return;
  if (cudaMalloc(&b, 8) != cudaSuccess) {
    cudaFree(a);
    return;
  }
  free_pair(a, b);
  cudaFree(b); // PAIR
}

// Correct code: silent with or without the model.
void correct(cudaGraph_t g, cudaStream_t st) {
  cudaStream_t s = make_stream();
  cudaStreamDestroy(s);
  void *p;
  if (cudaMalloc(&p, 8) == cudaSuccess)
    free_via_static(p);
  cudaGraphExec_t e;
  if (init_graph(&e, g) != cudaSuccess)
    return;
  gpu::launch(e, st);
  drop_exec(e);
}

void swapped(cudaGraph_t g, cudaGraphExec_t old) {
  cudaGraphExec_t e;
  if (cudaGraphInstantiate(&e, g, 0) == cudaSuccess)
    swap_exec(old, e);
}

void through_undefined(void) {
  void *p;
  if (cudaMalloc(&p, 8) != cudaSuccess)
    return;
  local_free(p);
  cudaFree(p);
}
