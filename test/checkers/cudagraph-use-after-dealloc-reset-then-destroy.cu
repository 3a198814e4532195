// RUN: %check_cudagraph_tidy %s cudagraph-use-after-dealloc %t
//
// A public reset() that releases a member and leaves it holding the
// released handle, on a class whose destructor calls reset() again (or
// releases the member itself): a caller that runs `r.reset()` on a local
// object and then lets it go out of scope releases the handle twice
// (issue 36 item 2). Reported at the release in reset(), with the caller's
// call and the destructor's as notes. Each bug has a silent twin.
#include <cuda_runtime.h>

class Runner {
public:
  Runner() = default;
  ~Runner() { reset(); }
  Runner(const Runner &) = delete;
  Runner &operator=(const Runner &) = delete;
  cudaError_t build(cudaGraph_t g) { return cudaGraphInstantiate(&exec_, g, 0); }
  cudaError_t replay(cudaStream_t s) { return cudaGraphLaunch(exec_, s); }
  void reset() {
    if (exec_)
      cudaGraphExecDestroy(exec_);
    // CHECK-NOTES: :[[@LINE-1]]:7: warning: 'exec_' is released again by 'cudaGraphExecDestroy' (undefined behaviour) [cudagraph-use-after-dealloc]
    // CHECK-NOTES: :[[@LINE+12]]:3: note: 'r.reset()' releases 'exec_' here and leaves it holding the released handle
    // CHECK-NOTES: :[[@LINE-10]]:15: note: the destructor of 'Runner' calls 'reset' again when 'r' goes out of scope: a second release
  }

private:
  cudaGraphExec_t exec_ = nullptr;
};

void runOnce(cudaGraph_t g, cudaStream_t s) {
  Runner r;
  r.build(g);
  r.replay(s);
  r.reset();
}

// The destructor releases the member itself.
class Events {
public:
  Events() { cudaEventCreate(&done_); }
  ~Events() { cudaEventDestroy(done_); }
  Events(const Events &) = delete;
  Events &operator=(const Events &) = delete;
  void record(cudaStream_t s) { cudaEventRecord(done_, s); }
  void release() { cudaEventDestroy(done_); }
  // CHECK-NOTES: :[[@LINE-1]]:20: warning: 'done_' is released again by 'cudaEventDestroy' (undefined behaviour) [cudagraph-use-after-dealloc]
  // CHECK-NOTES: :[[@LINE+9]]:3: note: 'e.release()' releases 'done_' here and leaves it holding the released handle
  // CHECK-NOTES: :[[@LINE-7]]:15: note: the destructor of 'Events' releases it when 'e' goes out of scope: a second release
private:
  cudaEvent_t done_ = nullptr;
};

void recordOnce(cudaStream_t s) {
  Events e;
  e.record(s);
  e.release();
}

// Silent: reset() clears the member.
class RunnerOk {
public:
  RunnerOk() = default;
  ~RunnerOk() { reset(); }
  RunnerOk(const RunnerOk &) = delete;
  RunnerOk &operator=(const RunnerOk &) = delete;
  cudaError_t build(cudaGraph_t g) { return cudaGraphInstantiate(&exec_, g, 0); }
  void reset() {
    if (exec_) {
      cudaGraphExecDestroy(exec_);
      exec_ = nullptr;
    }
  }

private:
  cudaGraphExec_t exec_ = nullptr;
};
void runOnceOk(cudaGraph_t g) {
  RunnerOk r;
  r.build(g);
  r.reset();
}

// Silent: the object is built again after the reset, so the destructor
// releases the new exec; and an object the caller does not own (a
// parameter) is not destroyed at the end of the call.
class Rebuilt {
public:
  Rebuilt() = default;
  ~Rebuilt() { drop(); }
  Rebuilt(const Rebuilt &) = delete;
  Rebuilt &operator=(const Rebuilt &) = delete;
  cudaError_t build(cudaGraph_t g) { return cudaGraphInstantiate(&exec_, g, 0); }
  void drop() {
    if (exec_)
      cudaGraphExecDestroy(exec_);
  }

private:
  cudaGraphExec_t exec_ = nullptr;
};
void rebuildAfterDrop(cudaGraph_t g, cudaGraph_t g2) {
  Rebuilt r;
  r.build(g);
  r.drop();
  r.build(g2);
}
void dropBorrowed(Rebuilt &r) { r.drop(); }
void rebuildInto(Rebuilt &r, cudaGraph_t g);
void dropThenHandOn(cudaGraph_t g, cudaGraph_t g2) {
  Rebuilt r;
  r.build(g);
  r.drop();
  rebuildInto(r, g2);
}
