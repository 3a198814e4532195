// Hand-written cleanup objects declared in the function.
#include <cuda_runtime.h>
#include <cstdio>

// Correct: a local guard class whose destructor destroys the referenced exec.
bool run_with_local_guard(cudaGraph_t g, cudaStream_t s) {
  struct ExecGuard {
    cudaGraphExec_t *slot;
    ~ExecGuard() {
      if (*slot)
        cudaGraphExecDestroy(*slot);
    }
  };
  cudaGraphExec_t exec = nullptr;
  ExecGuard guard{&exec};
  if (cudaGraphInstantiate(&exec, g, 0) != cudaSuccess)
    return false;
  if (cudaGraphLaunch(exec, s) != cudaSuccess)
    return false;
  return cudaStreamSynchronize(s) == cudaSuccess;
}

class Holder {
public:
  explicit Holder(cudaGraphExec_t e) : e_(e) {}
  ~Holder() { cudaGraphExecDestroy(e_); }
  cudaGraphExec_t get() const { return e_; }

private:
  cudaGraphExec_t e_;
};

// Correct: the exec is adopted by a Holder on the heap and returned.
Holder *adopt(cudaGraph_t g) {
  cudaGraphExec_t e;
  if (cudaGraphInstantiate(&e, g, 0) != cudaSuccess)
    return nullptr;
  return new Holder(e);
}

// Buggy: two execs, only one is adopted.
void run_two(cudaGraph_t g1, cudaGraph_t g2, cudaStream_t s) {
  cudaGraphExec_t e1, e2;
  if (cudaGraphInstantiate(&e1, g1, 0) != cudaSuccess)
    return;
  Holder h1(e1);
  if (cudaGraphInstantiate(&e2, g2, 0) != cudaSuccess) // EXPECT: cudagraph-unpaired-instantiate
    return;
  cudaGraphLaunch(h1.get(), s);
  cudaGraphLaunch(e2, s);
}
