// Session object malloc'ed in C style; execs built into locals first.
#include <cuda_runtime.h>
#include <cstdlib>
#include <cstring>
#include <cstdio>

struct session {
  cudaStream_t stream;
  cudaGraphExec_t embed;
  cudaGraphExec_t attn;
  cudaGraphExec_t head;
};

extern "C" void session_free(session* s) {
  if (!s) return;
  if (s->embed) cudaGraphExecDestroy(s->embed);
  if (s->attn) cudaGraphExecDestroy(s->attn);
  if (s->head) cudaGraphExecDestroy(s->head);
  free(s);
}

static cudaGraph_t stage_graph(cudaStream_t st, void* p, size_t n, int v) {
  cudaGraph_t g = nullptr;
  cudaStreamBeginCapture(st, cudaStreamCaptureModeGlobal);
  cudaMemsetAsync(p, v, n, st);
  cudaStreamEndCapture(st, &g);
  return g;
}

// BUG: when the attn or head instantiation fails, the execs already built in
// locals are neither destroyed nor stored; only the struct is freed.
extern "C" session* session_new(cudaStream_t st, void* ws, size_t n) {
  session* s = (session*)malloc(sizeof(session));
  if (!s) return nullptr;
  memset(s, 0, sizeof(*s));
  s->stream = st;

  cudaGraph_t g0 = stage_graph(st, ws, n, 0);
  cudaGraph_t g1 = stage_graph(st, ws, n, 1);
  cudaGraph_t g2 = stage_graph(st, ws, n, 2);
  cudaGraphExec_t e0 = nullptr, e1 = nullptr, e2 = nullptr;

  if (cudaGraphInstantiate(&e0, g0, 0) != cudaSuccess) goto fail; // EXPECT: cudagraph-unpaired-instantiate
  if (cudaGraphInstantiate(&e1, g1, 0) != cudaSuccess) goto fail; // EXPECT: cudagraph-unpaired-instantiate
  if (cudaGraphInstantiate(&e2, g2, 0) != cudaSuccess) goto fail;

  s->embed = e0;
  s->attn = e1;
  s->head = e2;
  cudaGraphDestroy(g0);
  cudaGraphDestroy(g1);
  cudaGraphDestroy(g2);
  return s;

fail:
  std::fprintf(stderr, "session_new: instantiate failed\n");
  cudaGraphDestroy(g0);
  cudaGraphDestroy(g1);
  cudaGraphDestroy(g2);
  session_free(s);
  return nullptr;
}

// Correct: same shape, but the failure path moves what exists into the
// struct before session_free destroys it.
extern "C" session* session_new_fixed(cudaStream_t st, void* ws, size_t n) {
  session* s = (session*)calloc(1, sizeof(session));
  if (!s) return nullptr;
  s->stream = st;
  cudaGraph_t g0 = stage_graph(st, ws, n, 0);
  cudaGraph_t g1 = stage_graph(st, ws, n, 1);
  cudaGraphExec_t e0 = nullptr, e1 = nullptr;
  bool ok = cudaGraphInstantiate(&e0, g0, 0) == cudaSuccess &&
            cudaGraphInstantiate(&e1, g1, 0) == cudaSuccess;
  s->embed = e0;
  s->attn = e1;
  cudaGraphDestroy(g0);
  cudaGraphDestroy(g1);
  if (!ok) {
    session_free(s);
    return nullptr;
  }
  return s;
}

int main() {
  cudaStream_t st;
  cudaStreamCreate(&st);
  void* ws = nullptr;
  cudaMalloc(&ws, 4096);
  session* a = session_new(st, ws, 4096);
  session* b = session_new_fixed(st, ws, 4096);
  if (a) cudaGraphLaunch(a->embed, st);
  session_free(a);
  session_free(b);
  cudaFree(ws);
  cudaStreamDestroy(st);
  return 0;
}
