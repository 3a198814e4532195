// RUN: %check_cudagraph_tidy %s cudagraph-handle-leak %t
// RUN: %check_cudagraph_tidy %s cudagraph-use-after-dealloc %t
// RUN: %check_cudagraph_tidy %s cudagraph-handle-leak %t -check-suffixes=LEAK -- -DBUGGY
// RUN: %check_cudagraph_tidy %s cudagraph-use-after-dealloc %t -check-suffixes=UAF -- -DBUGGY
//
// Which memory an exec keeps (lib/Lifetime/Capture/CapturedMemory.cpp):
// only calls on a path that goes on to end the capture are recorded into
// the graph; memory the capture allocates is the graph's own and is
// allocated again by each launch. Each clean function is correct code that
// used to draw a warning; each -DBUGGY twin is the bug next to it.
#include <cuda_runtime.h>
#include <cstdlib>

#define OK(x) do { if ((x) != cudaSuccess) abort(); } while (0)

__global__ void scale(float *x, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) x[i] *= 2.f;
}

// A capture that only some calls take, ended under the same flag: what
// runs after the region (printing the graph, then destroying it) was never
// captured, so destroying the graph frees nothing the exec reads.
void optionally_graphed(cudaStream_t s, int steps, bool graphed, bool keep) {
  float *buf = nullptr;
  OK(cudaMalloc(&buf, 64 * sizeof(float)));
  cudaGraph_t graph = nullptr;
  cudaGraphExec_t exec = nullptr;
  if (graphed) OK(cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal));
  scale<<<1, 64, 0, s>>>(buf, 64);
  if (graphed) {
    OK(cudaStreamEndCapture(s, &graph));
    OK(cudaGraphInstantiate(&exec, graph, 0));
    if (!keep) { cudaGraphDestroy(graph); graph = nullptr; }
  }
#ifdef BUGGY
  cudaFree(buf);
#endif
  for (int i = 0; i < steps; ++i)
    if (graphed) cudaGraphLaunch(exec, s);
  // CHECK-MESSAGES-UAF: :[[@LINE-1]]:18: warning: graph exec 'exec' is launched by 'cudaGraphLaunch' after 'buf', which its captured graph uses, was freed
  if (graph != nullptr) {
    cudaGraphDebugDotPrint(graph, "graph.dot", 0);
    cudaGraphDestroy(graph);
  }
  if (exec != nullptr) cudaGraphExecDestroy(exec);
#ifndef BUGGY
  cudaFree(buf);
#endif
}

// The same block runs under capture when the request fits, eagerly when it
// does not. Captured, its scratch allocation and free are nodes of the
// graph: a later eager free of the same variable is not the exec's memory.
// BUGGY: the exec reads a buffer allocated before the loop, which an eager
// tick frees and replaces.
void serve_ticks(cudaStream_t s, const int *sizes, int ticks, int cap) {
  cudaGraphExec_t exec = nullptr;
  float *scratch = nullptr;
#ifdef BUGGY
  if (cudaMalloc(&scratch, cap * sizeof(float)) != cudaSuccess) return;
#endif
  for (int t = 0; t < ticks; ++t) {
    const bool fits = sizes[t] <= cap;
    if (fits && exec != nullptr) {
      cudaGraphLaunch(exec, s);
      // CHECK-MESSAGES-UAF: :[[@LINE-1]]:7: warning: graph exec 'exec' is launched by 'cudaGraphLaunch' after 'scratch', which its captured graph uses, was freed
      continue;
    }
    if (fits && cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal) != cudaSuccess) break;
#ifndef BUGGY
    cudaMallocAsync(&scratch, sizes[t] * sizeof(float), s);
#endif
    scale<<<1, 256, 0, s>>>(scratch, sizes[t]);
#ifndef BUGGY
    cudaFreeAsync(scratch, s);
#else
    if (!fits) { cudaFree(scratch); cudaMalloc(&scratch, sizes[t] * sizeof(float)); }
#endif
    if (fits) {
      cudaGraph_t g;
      if (cudaStreamEndCapture(s, &g) != cudaSuccess) break;
      cudaError_t st = cudaGraphInstantiate(&exec, g, 0);
      cudaGraphDestroy(g);
      if (st != cudaSuccess) { exec = nullptr; break; }
      cudaGraphLaunch(exec, s);
    }
  }
  if (exec != nullptr) cudaGraphExecDestroy(exec);
#ifdef BUGGY
  cudaFree(scratch);
#endif
}

// A memory node without a free node: each launch allocates `work` again,
// so it is freed after every launch (the zero-trip exit allocates nothing).
// BUGGY: freed once after all the launches; the second launch fails.
void replay_with_graph_memory(const float *in, int n, int reps, cudaStream_t s) {
  if (reps <= 0) return;
  float *work = nullptr;
  cudaGraph_t g;
  OK(cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal));
  OK(cudaMallocAsync(&work, n * sizeof(float), s));
  OK(cudaMemcpyAsync(work, in, n * sizeof(float), cudaMemcpyDeviceToDevice, s));
  scale<<<(n + 255) / 256, 256, 0, s>>>(work, n);
  OK(cudaStreamEndCapture(s, &g));
  cudaGraphExec_t e;
  OK(cudaGraphInstantiate(&e, g, 0));
  OK(cudaGraphDestroy(g));
  for (int r = 0; r < reps; ++r) {
    OK(cudaGraphLaunch(e, s));
    // CHECK-MESSAGES-LEAK: :[[@LINE-1]]:8: warning: 'cudaGraphLaunch' relaunches a graph that allocates 'work' while the previous launch's stream-ordered device memory is still allocated: the launch fails; free it with cudaFreeAsync before relaunching
#ifndef BUGGY
    OK(cudaFreeAsync(work, s));
#endif
  }
#ifdef BUGGY
  OK(cudaFreeAsync(work, s));
#endif
  OK(cudaStreamSynchronize(s));
  OK(cudaGraphExecDestroy(e));
}

// One graph allocates, another frees (the programming guide's pattern):
// launched in turn, every allocation is freed before the next launch. In the
// BUGGY twin the freeing graph is instantiated but never launched.
void alloc_in_one_graph_free_in_another(cudaStream_t s, int n, int iters) {
  float *scratch = nullptr;
  cudaGraph_t ga, gb;
  cudaGraphExec_t ea, eb;
  OK(cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal));
  OK(cudaMallocAsync(&scratch, n * sizeof(float), s));
#ifdef BUGGY
  // CHECK-MESSAGES-LEAK: :[[@LINE-2]]:6: warning: stream-ordered device memory 'scratch' created by 'cudaMallocAsync' is not released on every path; call cudaFreeAsync or hand it to an owner [cudagraph-handle-leak]
#endif
  scale<<<1, 32, 0, s>>>(scratch, n);
  OK(cudaStreamEndCapture(s, &ga));
  OK(cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal));
  scale<<<1, 32, 0, s>>>(scratch, n);
  OK(cudaFreeAsync(scratch, s));
  OK(cudaStreamEndCapture(s, &gb));
  OK(cudaGraphInstantiate(&ea, ga, 0));
  OK(cudaGraphInstantiate(&eb, gb, 0));
  for (int i = 0; i < iters; ++i) {
    OK(cudaGraphLaunch(ea, s));
#ifndef BUGGY
    OK(cudaGraphLaunch(eb, s));
#endif
  }
  OK(cudaStreamSynchronize(s));
  cudaGraphExecDestroy(eb);
  cudaGraphExecDestroy(ea);
  cudaGraphDestroy(gb);
  cudaGraphDestroy(ga);
}
