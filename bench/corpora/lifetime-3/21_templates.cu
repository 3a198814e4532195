// Templates over graph API flavours (runtime / driver).
// CORRECT: the generic runner pairs instantiate and destroy through traits.
#include <cuda.h>
#include <cuda_runtime.h>
#include <utility>

struct RuntimeApi {
  using Graph = cudaGraph_t;
  using Exec = cudaGraphExec_t;
  using Stream = cudaStream_t;
  static bool ok(cudaError_t e) { return e == cudaSuccess; }
  static cudaError_t instantiate(Exec *e, Graph g) { return cudaGraphInstantiate(e, g, 0); }
  static cudaError_t launch(Exec e, Stream s) { return cudaGraphLaunch(e, s); }
  static void destroy(Exec e) { cudaGraphExecDestroy(e); }
};

struct DriverApi {
  using Graph = CUgraph;
  using Exec = CUgraphExec;
  using Stream = CUstream;
  static bool ok(CUresult r) { return r == CUDA_SUCCESS; }
  static CUresult instantiate(Exec *e, Graph g) { return cuGraphInstantiate(e, g, 0); }
  static CUresult launch(Exec e, Stream s) { return cuGraphLaunch(e, s); }
  static void destroy(Exec e) { cuGraphExecDestroy(e); }
};

template <class Api>
class ScopedExec {
public:
  explicit ScopedExec(typename Api::Exec e) : e_(e) {}
  ~ScopedExec() { if (e_) Api::destroy(e_); }
  ScopedExec(const ScopedExec &) = delete;
  ScopedExec &operator=(const ScopedExec &) = delete;
  typename Api::Exec get() const { return e_; }
private:
  typename Api::Exec e_;
};

template <class Api>
int run_n(typename Api::Graph g, typename Api::Stream s, int n) {
  typename Api::Exec e{};
  if (!Api::ok(Api::instantiate(&e, g))) return -1;
  ScopedExec<Api> guard(e);
  for (int i = 0; i < n; ++i)
    if (!Api::ok(Api::launch(guard.get(), s))) return i;
  return n;
}

template <class Exec, class Graph>
int run_raw_runtime(Graph g, cudaStream_t s) {
  Exec e = nullptr;
  if (cudaGraphInstantiate(&e, g, 0) != cudaSuccess) return 1;
  int rc = cudaGraphLaunch(e, s) == cudaSuccess ? 0 : 2;
  cudaGraphExecDestroy(e);
  return rc;
}

int entry(cudaGraph_t rg, CUgraph dg, cudaStream_t s) {
  int a = run_n<RuntimeApi>(rg, s, 4);
  int b = run_n<DriverApi>(dg, reinterpret_cast<CUstream>(s), 4);
  int c = run_raw_runtime<cudaGraphExec_t, cudaGraph_t>(rg, s);
  return a + b + c;
}
