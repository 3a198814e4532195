// Exec handles held in members of a local object with a destructor.
#include <cuda_runtime.h>

struct GraphBundle {
  cudaGraph_t graph = nullptr;
  cudaGraphExec_t exec = nullptr;
  GraphBundle() = default;
  GraphBundle(const GraphBundle &) = delete;
  GraphBundle &operator=(const GraphBundle &) = delete;
  ~GraphBundle() {
    if (exec) cudaGraphExecDestroy(exec);
    if (graph) cudaGraphDestroy(graph);
  }
};

cudaError_t capture_run(cudaStream_t s, void (*work)(cudaStream_t)) {
  GraphBundle b;
  cudaError_t e = cudaStreamBeginCapture(s, cudaStreamCaptureModeThreadLocal);
  if (e != cudaSuccess) return e;
  work(s);
  if ((e = cudaStreamEndCapture(s, &b.graph)) != cudaSuccess) return e;
  if ((e = cudaGraphInstantiate(&b.exec, b.graph, 0)) != cudaSuccess) return e;
  if ((e = cudaGraphLaunch(b.exec, s)) != cudaSuccess) return e;
  return cudaStreamSynchronize(s);
}

struct ExecSlot {
  cudaGraphExec_t h{};
  ~ExecSlot() { if (h) cudaGraphExecDestroy(h); }
};

cudaError_t via_local_then_member(cudaGraph_t g, cudaStream_t s) {
  ExecSlot slot;
  cudaGraphExec_t tmp = nullptr;
  cudaError_t e = cudaGraphInstantiate(&tmp, g, 0);
  if (e != cudaSuccess) return e;
  slot.h = tmp;
  return cudaGraphLaunch(slot.h, s);
}

struct PlainPair {  // no destructor
  cudaGraphExec_t exec = nullptr;
  int id = 0;
};

// BUG: PlainPair has no destructor; the exec is lost at scope exit.
cudaError_t plain_member_leak(cudaGraph_t g, cudaStream_t s) {
  PlainPair p;
  p.id = 3;
  cudaError_t e = cudaGraphInstantiate(&p.exec, g, 0); // EXPECT: cudagraph-unpaired-instantiate
  if (e != cudaSuccess) return e;
  return cudaGraphLaunch(p.exec, s);
}
