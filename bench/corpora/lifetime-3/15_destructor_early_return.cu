// Owners whose destructors return early for moved-from / disabled states.
// CORRECT: each exec is stored to a member of an owner that destroys it.
#include <cuda_runtime.h>
#include <utility>

class CapturedStep {
public:
  CapturedStep(cudaGraph_t g, bool enabled) : enabled_(enabled) {
    if (!enabled_) return;
    if (cudaGraphInstantiate(&exec_, g, 0) != cudaSuccess) {
      exec_ = nullptr;
      enabled_ = false;
    }
  }
  CapturedStep(CapturedStep &&o) noexcept
      : exec_(std::exchange(o.exec_, nullptr)), enabled_(std::exchange(o.enabled_, false)) {}
  CapturedStep &operator=(CapturedStep &&o) noexcept {
    if (this == &o) return *this;
    if (exec_) cudaGraphExecDestroy(exec_);
    exec_ = std::exchange(o.exec_, nullptr);
    enabled_ = std::exchange(o.enabled_, false);
    return *this;
  }
  ~CapturedStep() {
    if (!enabled_) return;
    if (exec_ == nullptr) return;
    cudaGraphExecDestroy(exec_);
  }
  void run(cudaStream_t s) {
    if (enabled_) cudaGraphLaunch(exec_, s);
  }

private:
  cudaGraphExec_t exec_ = nullptr;
  bool enabled_;
};

struct Node {
  cudaGraphExec_t exec = nullptr;
  Node *next = nullptr;
  ~Node() {
    if (!exec) return;
    cudaGraphExecDestroy(exec);
    delete next;
  }
};

Node *chain(cudaGraph_t g, int n) {
  Node *head = nullptr;
  for (int i = 0; i < n; ++i) {
    Node *nd = new Node;
    cudaGraphExec_t e;
    if (cudaGraphInstantiate(&e, g, 0) != cudaSuccess) {
      delete nd;
      break;
    }
    nd->exec = e;
    nd->next = head;
    head = nd;
  }
  return head;
}
