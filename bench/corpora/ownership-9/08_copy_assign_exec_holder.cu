// A graph holder assigned into a slot of the model state. ExecHolder owns its
// exec (destroyed in the destructor) but keeps the implicit copy assignment, so
// `slot = built;` leaves two holders that both destroy one exec. The slot
// starts empty (its exec is null), so the assignment loses nothing else.
// SharedExec has a user-defined copy that shares through a reference count.
#include <cuda_runtime.h>
#include <atomic>

class ExecHolder {
 public:
  ExecHolder() = default;
  explicit ExecHolder(cudaGraph_t g) { cudaGraphInstantiate(&exec_, g, 0); }
  ~ExecHolder() {
    if (exec_) cudaGraphExecDestroy(exec_); // EXPECT: cudagraph-use-after-dealloc
  }
  cudaError_t launch(cudaStream_t s) const { return exec_ ? cudaGraphLaunch(exec_, s) : cudaErrorInvalidValue; }

 private:
  cudaGraphExec_t exec_ = nullptr;
};

struct ModelState {
  ExecHolder prefill;
  ExecHolder decode;
};

void install_decode_graph(ModelState &state, cudaGraph_t g, cudaStream_t s) {
  ExecHolder built(g);
  built.launch(s);
  state.decode = built;
}

class SharedExec {
 public:
  SharedExec() = default;
  explicit SharedExec(cudaGraph_t g) : count_(new std::atomic<int>(1)) { cudaGraphInstantiate(&exec_, g, 0); }
  SharedExec(const SharedExec &o) : exec_(o.exec_), count_(o.count_) {
    if (count_) count_->fetch_add(1);
  }
  SharedExec &operator=(const SharedExec &o) {
    if (this == &o) return *this;
    drop();
    exec_ = o.exec_;
    count_ = o.count_;
    if (count_) count_->fetch_add(1);
    return *this;
  }
  ~SharedExec() { drop(); }
  cudaError_t launch(cudaStream_t s) const { return exec_ ? cudaGraphLaunch(exec_, s) : cudaErrorInvalidValue; }

 private:
  void drop() {
    if (count_ && count_->fetch_sub(1) == 1) {
      cudaGraphExecDestroy(exec_);
      delete count_;
    }
    exec_ = nullptr;
    count_ = nullptr;
  }
  cudaGraphExec_t exec_ = nullptr;
  std::atomic<int> *count_ = nullptr;
};

struct SharedState {
  SharedExec prefill;
  SharedExec decode;
};

void install_shared(SharedState &state, cudaGraph_t g, cudaStream_t s) {
  SharedExec built(g);
  built.launch(s);
  state.decode = built;
  state.prefill = state.decode;
}
