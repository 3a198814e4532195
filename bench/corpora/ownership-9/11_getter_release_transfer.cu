// Owners that lend their handle through get() and give it up through release()
// (the unique_ptr protocol): after release() the caller owns the handle and
// destroys it; the owner's destructor sees null. All correct.
#include <cuda_runtime.h>
#include <memory>
#include <utility>
#include <vector>

class EventLease {
 public:
  EventLease() { cudaEventCreateWithFlags(&ev_, cudaEventDisableTiming); }
  ~EventLease() {
    if (ev_) cudaEventDestroy(ev_);
  }
  EventLease(const EventLease &) = delete;
  EventLease &operator=(const EventLease &) = delete;
  EventLease(EventLease &&o) noexcept : ev_(std::exchange(o.ev_, nullptr)) {}

  cudaEvent_t get() const { return ev_; }
  cudaEvent_t release() {
    cudaEvent_t e = ev_;
    ev_ = nullptr;
    return e;
  }

 private:
  cudaEvent_t ev_ = nullptr;
};

class ExecLease {
 public:
  explicit ExecLease(cudaGraph_t g) {
    if (cudaGraphInstantiate(&exec_, g, 0) != cudaSuccess) exec_ = nullptr;
  }
  ~ExecLease() { reset(); }
  ExecLease(const ExecLease &) = delete;
  ExecLease &operator=(const ExecLease &) = delete;

  void reset(cudaGraphExec_t e = nullptr) {
    if (exec_) cudaGraphExecDestroy(exec_);
    exec_ = e;
  }
  cudaGraphExec_t get() const { return exec_; }
  cudaGraphExec_t release() { return std::exchange(exec_, nullptr); }

 private:
  cudaGraphExec_t exec_ = nullptr;
};

// The registry keeps raw events it took from leases and destroys them itself.
class EventRegistry {
 public:
  ~EventRegistry() {
    for (cudaEvent_t e : events_) cudaEventDestroy(e);
  }
  void adopt(EventLease &&lease) { events_.push_back(lease.release()); }
  void record_all(cudaStream_t s) {
    for (cudaEvent_t e : events_) cudaEventRecord(e, s);
  }

 private:
  std::vector<cudaEvent_t> events_;
};

void collect(cudaStream_t s, int n) {
  EventRegistry reg;
  for (int i = 0; i < n; ++i) {
    EventLease lease;
    cudaEventRecord(lease.get(), s);
    if (i % 2 == 0) reg.adopt(std::move(lease));
  }
  reg.record_all(s);
}

cudaError_t launch_and_keep(cudaGraph_t g, cudaStream_t s, cudaGraphExec_t *out) {
  ExecLease lease(g);
  if (!lease.get()) return cudaErrorInvalidValue;
  cudaError_t st = cudaGraphLaunch(lease.get(), s);
  if (st != cudaSuccess) return st;
  *out = lease.release();
  return cudaSuccess;
}

void swap_exec(cudaGraph_t g1, cudaGraph_t g2, cudaStream_t s) {
  ExecLease lease(g1);
  cudaGraphLaunch(lease.get(), s);
  cudaGraphExec_t next = nullptr;
  if (cudaGraphInstantiate(&next, g2, 0) == cudaSuccess) lease.reset(next);
  cudaGraphLaunch(lease.get(), s);
}

struct ExecDeleter {
  void operator()(CUgraphExec_st *e) const { cudaGraphExecDestroy(e); }
};
using ExecPtr = std::unique_ptr<CUgraphExec_st, ExecDeleter>;

ExecPtr adopt_exec(cudaGraph_t g) {
  ExecLease lease(g);
  return ExecPtr(lease.release());
}
