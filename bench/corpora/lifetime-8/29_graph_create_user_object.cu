// Graphs built node by node, and host-side state kept alive by a user object
// whose reference is moved into the graph. build_memset_graph_buggy loses the
// graph when adding the second node fails.
#include <cuda_runtime.h>
#include <cstring>

struct HostState {
  int generation;
};

static void destroy_state(void *p) { delete static_cast<HostState *>(p); }

cudaError_t build_memset_graph_buggy(float *d, size_t n, cudaGraphExec_t *exec) {
  cudaGraph_t g;
  cudaError_t st = cudaGraphCreate(&g, 0); // EXPECT: cudagraph-handle-leak
  if (st != cudaSuccess) return st;
  cudaMemsetParams p;
  std::memset(&p, 0, sizeof(p));
  p.dst = d;
  p.value = 0;
  p.elementSize = 4;
  p.width = n;
  p.height = 1;
  cudaGraphNode_t a, b;
  st = cudaGraphAddMemsetNode(&a, g, nullptr, 0, &p);
  if (st != cudaSuccess) { cudaGraphDestroy(g); return st; }
  p.value = 1;
  st = cudaGraphAddMemsetNode(&b, g, &a, 1, &p);
  if (st != cudaSuccess) return st;
  st = cudaGraphInstantiate(exec, g, 0);
  cudaGraphDestroy(g);
  return st;
}

cudaError_t build_memset_graph(float *d, size_t n, cudaGraphExec_t *exec) {
  cudaGraph_t g;
  cudaError_t st = cudaGraphCreate(&g, 0);
  if (st != cudaSuccess) return st;
  cudaMemsetParams p;
  std::memset(&p, 0, sizeof(p));
  p.dst = d;
  p.elementSize = 4;
  p.width = n;
  p.height = 1;
  cudaGraphNode_t a, b;
  st = cudaGraphAddMemsetNode(&a, g, nullptr, 0, &p);
  if (st == cudaSuccess) {
    p.value = 1;
    st = cudaGraphAddMemsetNode(&b, g, &a, 1, &p);
  }
  if (st == cudaSuccess) st = cudaGraphInstantiate(exec, g, 0);
  cudaGraphDestroy(g);
  return st;
}

// The user object's only reference is moved into the graph: the graph releases
// it when the graph (and every exec made from it) is destroyed. Correct.
cudaError_t attach_state(cudaGraph_t g, int generation) {
  HostState *hs = new HostState{generation};
  cudaUserObject_t uo;
  cudaError_t st = cudaUserObjectCreate(&uo, hs, destroy_state, 1, cudaUserObjectNoDestructorSync);
  if (st != cudaSuccess) {
    delete hs;
    return st;
  }
  st = cudaGraphRetainUserObject(g, uo, 1, cudaGraphUserObjectMove);
  if (st != cudaSuccess) cudaUserObjectRelease(uo, 1);
  return st;
}

// Clone for a second exec; the clone is destroyed after instantiation. Correct.
cudaError_t clone_and_instantiate(cudaGraph_t tmpl, cudaGraphExec_t *exec) {
  cudaGraph_t copy;
  cudaError_t st = cudaGraphClone(&copy, tmpl);
  if (st != cudaSuccess) return st;
  st = cudaGraphInstantiate(exec, copy, 0);
  cudaGraphDestroy(copy);
  return st;
}
