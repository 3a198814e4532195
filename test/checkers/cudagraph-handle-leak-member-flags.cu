// RUN: %check_cudagraph_tidy %s cudagraph-handle-leak %t -check-suffixes=LEAK
// RUN: %check_cudagraph_tidy %s cudagraph-unpaired-instantiate %t -check-suffixes=EXEC
//
// Members and the flags kept next to them (issue 36 item 2): a flag covers
// only the members its method sets it with; a destructor that
// releases through a reset method is judged through it; a member released
// only where it is acquired again leaks its last value. Each bug has a
// silent twin.
#include <cuda_runtime.h>

// `owns_stream_` says whether the stream is ours; the pinned buffer is
// allocated on every path, so returning early on the flag leaks it.
class Stager {
public:
  Stager(size_t bytes, cudaStream_t borrowed) {
    if (borrowed != nullptr) {
      stream_ = borrowed;
      owns_stream_ = false;
    } else {
      cudaStreamCreateWithFlags(&stream_, cudaStreamNonBlocking);
      owns_stream_ = true;
    }
    cudaHostAlloc(&pinned_, bytes, cudaHostAllocDefault);
    // CHECK-MESSAGES-LEAK: :[[@LINE-1]]:5: warning: {{.*}}'pinned_'{{.*}} [cudagraph-handle-leak]
  }
  ~Stager() {
    if (!owns_stream_)
      return; // the lender tears the stream down
    cudaStreamDestroy(stream_);
    cudaFreeHost(pinned_);
  }
  Stager(const Stager &) = delete;
  Stager &operator=(const Stager &) = delete;
  void upload(void *dst, size_t n) {
    cudaMemcpyAsync(dst, pinned_, n, cudaMemcpyHostToDevice, stream_);
  }

private:
  cudaStream_t stream_ = nullptr;
  bool owns_stream_ = false;
  void *pinned_ = nullptr;
};

class StagerOk {
public:
  StagerOk(size_t bytes, cudaStream_t borrowed) {
    if (borrowed != nullptr) {
      stream_ = borrowed;
      owns_stream_ = false;
    } else {
      cudaStreamCreateWithFlags(&stream_, cudaStreamNonBlocking);
      owns_stream_ = true;
    }
    cudaHostAlloc(&pinned_, bytes, cudaHostAllocDefault);
  }
  ~StagerOk() {
    if (owns_stream_)
      cudaStreamDestroy(stream_);
    cudaFreeHost(pinned_);
  }
  StagerOk(const StagerOk &) = delete;
  StagerOk &operator=(const StagerOk &) = delete;
  void upload(void *dst, size_t n) {
    cudaMemcpyAsync(dst, pinned_, n, cudaMemcpyHostToDevice, stream_);
  }

private:
  cudaStream_t stream_ = nullptr;
  bool owns_stream_ = false;
  void *pinned_ = nullptr;
};

// The flag is set exactly when the allocation succeeded: the early return
// on it is right.
class Scratch {
public:
  Scratch() = default;
  ~Scratch() {
    if (!ready_)
      return;
    cudaFree(buf_);
  }
  Scratch(const Scratch &) = delete;
  Scratch &operator=(const Scratch &) = delete;
  void reserve(size_t n) {
    if (ready_)
      return;
    if (cudaMalloc(&buf_, n) == cudaSuccess)
      ready_ = true;
  }
  void *data() const { return buf_; }

private:
  void *buf_ = nullptr;
  bool ready_ = false;
};

// Both methods that instantiate into `exec_` set the flag the release
// tests: silent. (When one of them does not, the exec it leaves is never
// destroyed; that is not found yet: docs/ownership.md, "Limits".)
class ReplayOk {
public:
  ReplayOk() = default;
  ~ReplayOk() { release(); }
  ReplayOk(const ReplayOk &) = delete;
  ReplayOk &operator=(const ReplayOk &) = delete;
  void warm(cudaGraph_t g) { has_exec_ = cudaGraphInstantiate(&exec_, g, 0) == cudaSuccess; }
  void refresh(cudaGraph_t g) {
    if (has_exec_)
      cudaGraphExecDestroy(exec_);
    has_exec_ = cudaGraphInstantiate(&exec_, g, 0) == cudaSuccess;
  }
  void launch(cudaStream_t s) { cudaGraphLaunch(exec_, s); }
  void release() {
    if (has_exec_)
      cudaGraphExecDestroy(exec_);
    has_exec_ = false;
    exec_ = nullptr;
  }

private:
  cudaGraphExec_t exec_ = nullptr;
  bool has_exec_ = false;
};

// The destructor runs clear(); clear() returns early on a null member (the
// null edge says there is nothing to destroy) or on a flag set with it.
class Cleared {
public:
  Cleared() = default;
  ~Cleared() { clear(); }
  Cleared(const Cleared &) = delete;
  Cleared &operator=(const Cleared &) = delete;
  void build(cudaGraph_t g) {
    if (cudaGraphInstantiate(&exec_, g, 0) != cudaSuccess)
      exec_ = nullptr;
  }
  void clear() {
    if (exec_ == nullptr)
      return;
    cudaGraphExecDestroy(exec_);
    exec_ = nullptr;
  }

private:
  cudaGraphExec_t exec_ = nullptr;
};

class ClearedFlag {
public:
  ClearedFlag() = default;
  ~ClearedFlag() { clear(); }
  ClearedFlag(const ClearedFlag &) = delete;
  ClearedFlag &operator=(const ClearedFlag &) = delete;
  void build(cudaGraph_t g) {
    if (cudaGraphInstantiate(&exec_, g, 0) == cudaSuccess)
      built_ = true;
  }
  void clear() {
    if (!built_)
      return;
    cudaGraphExecDestroy(exec_);
    built_ = false;
  }

private:
  cudaGraphExec_t exec_ = nullptr;
  bool built_ = false;
};

// Stored through a local pointer into a slot and given back on the error
// path after the acquisition: a release, not "released only before
// re-acquiring".
struct Fence {
  cudaEvent_t done;
  int tag;
};
int arm_fence(Fence *fences, int i, cudaStream_t s) {
  cudaEvent_t ev = nullptr;
  if (cudaEventCreateWithFlags(&ev, cudaEventDisableTiming) != cudaSuccess)
    return -1;
  Fence *f = &fences[i];
  f->done = ev;
  f->tag = i;
  if (cudaEventRecord(f->done, s) != cudaSuccess) {
    cudaEventDestroy(f->done);
    f->done = nullptr;
    return -1;
  }
  return 0;
}

// A shutdown the destructor runs returns early on a null stream: the
// constructor creates the stream and the event together, so a null stream
// says the object holds neither. When the event is created on paths that
// do not create the stream, the same early return leaks it.
class CopyQueue {
public:
  CopyQueue() {
    cudaStreamCreateWithFlags(&d2h_, cudaStreamNonBlocking);
    cudaEventCreateWithFlags(&drained_, cudaEventDisableTiming);
  }
  ~CopyQueue() { shutdown(); }
  CopyQueue(const CopyQueue &) = delete;
  CopyQueue &operator=(const CopyQueue &) = delete;
  void shutdown() {
    if (!d2h_)
      return;
    cudaEventRecord(drained_, d2h_);
    cudaStreamSynchronize(d2h_);
    cudaStreamDestroy(d2h_);
    cudaEventDestroy(drained_);
    d2h_ = nullptr;
    drained_ = nullptr;
  }

private:
  cudaStream_t d2h_ = nullptr;
  cudaEvent_t drained_ = nullptr;
};

class LazyCopyQueue {
public:
  explicit LazyCopyQueue(bool own_stream) {
    if (own_stream)
      cudaStreamCreateWithFlags(&d2h_, cudaStreamNonBlocking);
    cudaEventCreateWithFlags(&drained_, cudaEventDisableTiming);
    // CHECK-MESSAGES-LEAK: :[[@LINE-1]]:5: warning: event 'drained_' created by 'cudaEventCreateWithFlags' and kept in a member of 'LazyCopyQueue' is not released on every path
  }
  ~LazyCopyQueue() { shutdown(); }
  LazyCopyQueue(const LazyCopyQueue &) = delete;
  LazyCopyQueue &operator=(const LazyCopyQueue &) = delete;
  void shutdown() {
    if (!d2h_)
      return;
    cudaStreamDestroy(d2h_);
    cudaEventDestroy(drained_);
    d2h_ = nullptr;
    drained_ = nullptr;
  }

private:
  cudaStream_t d2h_ = nullptr;
  cudaEvent_t drained_ = nullptr;
};

// A C struct handed to free functions: the one that re-instantiates
// releases the old exec first, and the last one goes with the struct to
// whoever holds it (maybe in another file). Not "released only before
// re-acquiring", which is about a class's own methods.
struct EmbedPlanC {
  cudaGraphExec_t exec;
  int n;
};
void plan_embed_c(EmbedPlanC *plan, cudaGraph_t g) { cudaGraphInstantiate(&plan->exec, g, 0); }
void plan_rebuild_c(EmbedPlanC *plan, cudaGraph_t g) {
  if (plan->exec)
    cudaGraphExecDestroy(plan->exec);
  cudaGraphInstantiate(&plan->exec, g, 0);
}

// A flag set in the constructor's initializer list is set with what the
// body acquires: a reference count shared by copies (`count_(new ...)`)
// decides whether drop() destroys the exec, and clearing exec_ when other
// copies still hold it is no leak.
class SharedGraph {
public:
  explicit SharedGraph(cudaGraph_t g) : count_(new int(1)) { cudaGraphInstantiate(&exec_, g, 0); }
  SharedGraph(const SharedGraph &o) : exec_(o.exec_), count_(o.count_) { ++*count_; }
  SharedGraph &operator=(const SharedGraph &) = delete;
  ~SharedGraph() { drop(); }
  void drop() {
    if (count_ && --*count_ == 0) {
      cudaGraphExecDestroy(exec_);
      delete count_;
    }
    exec_ = nullptr;
    count_ = nullptr;
  }

private:
  cudaGraphExec_t exec_ = nullptr;
  int *count_ = nullptr;
};

// A flag the initializer list only clears says nothing: the constructor
// instantiates without setting it, so reset() (the destructor's) never
// destroys that exec and clears the only handle.
class ClearedInInit {
public:
  explicit ClearedInInit(cudaGraph_t g) : built_(false) { cudaGraphInstantiate(&exec_, g, 0); }
  // CHECK-MESSAGES-EXEC: :[[@LINE-1]]:59: warning: graph exec 'exec_' created by 'cudaGraphInstantiate' and kept in a member of 'ClearedInInit' is not destroyed on every path{{.*}} [cudagraph-unpaired-instantiate]
  ClearedInInit(const ClearedInInit &) = delete;
  ClearedInInit &operator=(const ClearedInInit &) = delete;
  ~ClearedInInit() { reset(); }
  void reset() {
    if (built_)
      cudaGraphExecDestroy(exec_);
    built_ = false;
    exec_ = nullptr;
  }

private:
  cudaGraphExec_t exec_ = nullptr;
  bool built_;
};
class SetInInit {
public:
  SetInInit(cudaGraph_t g) : built_(cudaGraphInstantiate(&exec_, g, 0) == cudaSuccess) {}
  SetInInit(const SetInInit &) = delete;
  SetInInit &operator=(const SetInInit &) = delete;
  ~SetInInit() { reset(); }
  void reset() {
    if (built_)
      cudaGraphExecDestroy(exec_);
    built_ = false;
    exec_ = nullptr;
  }

private:
  cudaGraphExec_t exec_ = nullptr;
  bool built_;
};

// A mode flag (ModeFlags.cpp): only the other constructor sets `with_mp_`,
// so where `initialize()` left the events live the flag holds its default
// and the destructor's release arm is the one taken. Silent, in the class
// and in a subclass that releases its own stream under `!with_mp_`.
struct MpContext;
MpContext *mp_create(int rank);
void mp_destroy(MpContext *ctx);
class OverlapCore {
public:
  OverlapCore(int ranks, int splits) { initialize(splits); }
  OverlapCore(int rank, bool) {
    with_mp_ = true;
    ctx_ = mp_create(rank);
  }
  virtual ~OverlapCore();
  bool with_mp() const { return with_mp_; } // a copy: hands nothing out

protected:
  void initialize(int splits);
  bool with_mp_{false};
  MpContext *ctx_ = nullptr;
  cudaEvent_t start_, stop_;
};
void OverlapCore::initialize(int splits) {
  cudaEventCreateWithFlags(&start_, 0);
  cudaEventCreateWithFlags(&stop_, 0);
}
OverlapCore::~OverlapCore() {
  if (with_mp_) {
    mp_destroy(ctx_);
  } else {
    cudaEventDestroy(stop_);
    cudaEventDestroy(start_);
  }
}
class OverlapBase : public OverlapCore {
public:
  OverlapBase(int ranks, int splits) : OverlapCore(ranks, splits) { cudaStreamCreate(&comm_); }
  ~OverlapBase() {
    if (!with_mp_)
      cudaStreamDestroy(comm_);
  }

private:
  cudaStream_t comm_;
};

// Twins: the flag is no mode where a public method may set it later, where
// a subclass that builds through the acquiring constructor sets it, or where
// the acquiring constructor builds its base the way that sets it.
class FlagSetLater {
public:
  FlagSetLater() { cudaEventCreate(&ev_); }
  // CHECK-MESSAGES-LEAK: :[[@LINE-1]]:20: warning: event 'ev_' {{.*}} is not released on every path{{.*}} [cudagraph-handle-leak]
  FlagSetLater(int, bool) { external_ = true; }
  void detach() { external_ = true; }
  ~FlagSetLater() {
    if (!external_)
      cudaEventDestroy(ev_);
  }

private:
  bool external_{false};
  cudaEvent_t ev_;
};
class ModeCore {
public:
  ModeCore() { cudaEventCreate(&ev_); }
  // CHECK-MESSAGES-LEAK: :[[@LINE-1]]:16: warning: event 'ev_' {{.*}} is not released on every path{{.*}} [cudagraph-handle-leak]
  ModeCore(bool) { external_ = true; }
  virtual ~ModeCore() {
    if (!external_)
      cudaEventDestroy(ev_);
  }

protected:
  bool external_{false};
  cudaEvent_t ev_;
};
class ExternalMode : public ModeCore {
public:
  ExternalMode() : ModeCore() { external_ = true; }
};
class BuiltExternal : public ModeCore {
public:
  BuiltExternal() : ModeCore(true) { cudaEventCreate(&own_); }
  // CHECK-MESSAGES-LEAK: :[[@LINE-1]]:38: warning: event 'own_' {{.*}} is not released on every path{{.*}} [cudagraph-handle-leak]
  ~BuiltExternal() {
    if (!external_)
      cudaEventDestroy(own_);
  }

private:
  cudaEvent_t own_;
};
// Twin: a constructor of another class sets the flag of an object it is given.
class OpenMode {
public:
  OpenMode() { cudaEventCreate(&ev_); }
  // CHECK-MESSAGES-LEAK: :[[@LINE-1]]:16: warning: event 'ev_' {{.*}} is not released on every path{{.*}} [cudagraph-handle-leak]
  OpenMode(bool) { external_ = true; }
  ~OpenMode() {
    if (!external_)
      cudaEventDestroy(ev_);
  }
  bool external_{false};

private:
  cudaEvent_t ev_;
};
struct Detacher {
  explicit Detacher(OpenMode &m) { m.external_ = true; }
};

// A flag holding what the acquiring helper returned (`alive_ = create()`)
// says whether the stream was made: the shutdown the destructor runs may
// return on it. The twin ignores the status, so the flag never says so.
class StatusFlag {
public:
  StatusFlag() { alive_ = create(); }
  ~StatusFlag() { shutdown(); }
  void shutdown() {
    if (!alive_)
      return;
    alive_ = false;
    cudaStreamDestroy(s_);
  }

private:
  bool create() { return cudaStreamCreate(&s_) == cudaSuccess; }
  bool alive_ = false;
  cudaStream_t s_ = nullptr;
};
class StatusIgnored {
public:
  StatusIgnored() { create(); }
  ~StatusIgnored() { shutdown(); }
  void shutdown() {
    if (!alive_)
      return;
    alive_ = false;
    cudaStreamDestroy(s_);
  }

private:
  bool create() { return cudaStreamCreate(&s_) == cudaSuccess; }
  // CHECK-MESSAGES-LEAK: :[[@LINE-1]]:26: warning: stream 's_' {{.*}} is not released on every path{{.*}} [cudagraph-handle-leak]
  bool alive_ = false;
  cudaStream_t s_ = nullptr;
};

// A capacity compared with the size asked for is not a flag: `n > cap_`
// holds with the buffer live (the second, larger grow), so allocating under
// it over the member leaks the old buffer. The twin frees it first.
class GrowNoFree {
public:
  ~GrowNoFree() { cudaFree(data_); }
  void grow(size_t n) {
    if (n > cap_) {
      cudaMalloc(&data_, n);
      // CHECK-MESSAGES-LEAK: :[[@LINE-1]]:7: warning: 'cudaMalloc' overwrites 'data_', which still holds a live device memory; release it with cudaFree first [cudagraph-handle-leak]
      cap_ = n;
    }
  }

private:
  void *data_ = nullptr;
  size_t cap_ = 0;
};
class GrowFreeFirst {
public:
  ~GrowFreeFirst() { cudaFree(data_); }
  void grow(size_t n) {
    if (n > cap_) {
      cudaFree(data_);
      cudaMalloc(&data_, n);
      cap_ = n;
    }
  }

private:
  void *data_ = nullptr;
  size_t cap_ = 0;
};
void growTwice() {
  GrowNoFree a;
  a.grow(16);
  a.grow(32);
  GrowFreeFirst b;
  b.grow(16);
  b.grow(32);
}

// A move assignment that takes the other object's buffer over its own,
// releasing nothing first, loses what this object held. The twin frees
// it; a move assignment that swaps leaves it to the other's destructor.
class MoveOverwrites {
public:
  explicit MoveOverwrites(size_t n) { cudaMalloc(&base_, n); }
  ~MoveOverwrites() { cudaFree(base_); }
  MoveOverwrites(MoveOverwrites &&o) noexcept : base_(o.base_) { o.base_ = nullptr; }
  MoveOverwrites &operator=(MoveOverwrites &&o) noexcept {
    if (this == &o)
      return *this;
    base_ = o.base_;
    // CHECK-MESSAGES-LEAK: :[[@LINE-1]]:11: warning: 'operator=' overwrites 'base_', which still holds a live device memory; release it with cudaFree first [cudagraph-handle-leak]
    o.base_ = nullptr;
    return *this;
  }

private:
  void *base_ = nullptr;
};
class MoveFreesFirst {
public:
  explicit MoveFreesFirst(size_t n) { cudaMalloc(&base_, n); }
  ~MoveFreesFirst() { cudaFree(base_); }
  MoveFreesFirst &operator=(MoveFreesFirst &&o) noexcept {
    if (this == &o)
      return *this;
    cudaFree(base_);
    base_ = o.base_;
    o.base_ = nullptr;
    return *this;
  }

private:
  void *base_ = nullptr;
};
class MoveSwaps {
public:
  explicit MoveSwaps(size_t n) { cudaMalloc(&base_, n); }
  ~MoveSwaps() { cudaFree(base_); }
  MoveSwaps &operator=(MoveSwaps &&o) noexcept {
    std::swap(base_, o.base_);
    return *this;
  }

private:
  void *base_ = nullptr;
};
// The destructor releases through a method of this (`reset()`): the member
// is owned all the same. The twin's move assignment calls it first.
class MoveOverwritesResetOwner {
public:
  explicit MoveOverwritesResetOwner(size_t n) { cudaMalloc(&base_, n); }
  ~MoveOverwritesResetOwner() { reset(); }
  MoveOverwritesResetOwner &operator=(MoveOverwritesResetOwner &&o) noexcept {
    if (this != &o) {
      base_ = o.base_;
      // CHECK-MESSAGES-LEAK: :[[@LINE-1]]:13: warning: 'operator=' overwrites 'base_', which still holds a live device memory; release it with cudaFree first [cudagraph-handle-leak]
      o.base_ = nullptr;
    }
    return *this;
  }
  void reset() {
    if (base_) {
      cudaFree(base_);
      base_ = nullptr;
    }
  }

private:
  void *base_ = nullptr;
};
class MoveResetsFirst {
public:
  explicit MoveResetsFirst(size_t n) { cudaMalloc(&base_, n); }
  ~MoveResetsFirst() { reset(); }
  MoveResetsFirst &operator=(MoveResetsFirst &&o) noexcept {
    if (this != &o) {
      reset();
      base_ = o.base_;
      o.base_ = nullptr;
    }
    return *this;
  }
  void reset() {
    if (base_) {
      cudaFree(base_);
      base_ = nullptr;
    }
  }

private:
  void *base_ = nullptr;
};
// The same through std::exchange of the other's member.
class MoveExchangeOverwrites {
public:
  explicit MoveExchangeOverwrites(size_t n) { cudaMalloc(&base_, n); }
  ~MoveExchangeOverwrites() {
    if (base_)
      cudaFree(base_);
  }
  MoveExchangeOverwrites(MoveExchangeOverwrites &&o) noexcept
      : base_(std::exchange(o.base_, nullptr)) {}
  MoveExchangeOverwrites &operator=(MoveExchangeOverwrites &&o) noexcept {
    base_ = std::exchange(o.base_, nullptr);
    // CHECK-MESSAGES-LEAK: :[[@LINE-1]]:11: warning: 'operator=' overwrites 'base_', which still holds a live device memory; release it with cudaFree first [cudagraph-handle-leak]
    return *this;
  }

private:
  void *base_ = nullptr;
};

// The flag is set by every caller of the acquiring method, after the call
// (HeCBench's logic-rewrite): it says the members hold device memory.
class FlaggedByCallers {
public:
  ~FlaggedByCallers() { clearDevice(); }
  void toDevice(size_t n) {
    clearDevice();
    allocDevice(n);
    cudaMemset(d_, 0, n);
    allocated_ = 1;
  }
  void dedupOnDevice(size_t n) {
    allocDevice(n);
    allocated_ = 1;
  }

private:
  void allocDevice(size_t n) {
    cudaMalloc(&d_, n);
    cudaMalloc(&e_, n);
  }
  void clearDevice() {
    if (allocated_) {
      cudaFree(d_);
      cudaFree(e_);
      allocated_ = 0;
    }
  }
  void *d_ = nullptr;
  void *e_ = nullptr;
  int allocated_ = 0;
};
// One caller does not set the flag: the destructor then frees nothing.
class FlaggedByOneCaller {
public:
  ~FlaggedByOneCaller() { clearDevice(); }
  void toDevice(size_t n) {
    clearDevice();
    allocDevice(n);
    allocated_ = 1;
  }
  void dedupOnDevice(size_t n) { allocDevice(n); }

private:
  void allocDevice(size_t n) {
    cudaMalloc(&d_, n);
    // CHECK-MESSAGES-LEAK: :[[@LINE-1]]:5: warning: device memory 'd_' created by 'cudaMalloc' and kept in a member of 'FlaggedByOneCaller' is not released on every path; call cudaFree in every path of the destructor (or a reset method) of 'FlaggedByOneCaller' [cudagraph-handle-leak]
    cudaMalloc(&e_, n);
    // CHECK-MESSAGES-LEAK: :[[@LINE-1]]:5: warning: device memory 'e_' created by 'cudaMalloc' and kept in a member of 'FlaggedByOneCaller' is not released on every path; call cudaFree in every path of the destructor (or a reset method) of 'FlaggedByOneCaller' [cudagraph-handle-leak]
  }
  void clearDevice() {
    if (allocated_) {
      cudaFree(d_);
      cudaFree(e_);
      allocated_ = 0;
    }
  }
  void *d_ = nullptr;
  void *e_ = nullptr;
  int allocated_ = 0;
};

// A status check whose acquisition is an `if`'s init statement (lmdeploy's
// TM_CUDA_CHECK); the reporter is declared only, so it may return.
void reportCudaError(cudaError_t e, const char *file, int line);
#define STATUS_CHECK(expr)                                                     \
  do {                                                                         \
    if (cudaError_t status_ = (expr); status_ != cudaSuccess)                  \
      reportCudaError(status_, __FILE__, __LINE__);                            \
  } while (0)

// The side stream is made only for context parallelism, its events with it;
// the destructor tests the stream for all three. Each acquisition is the
// init statement of the check's `if`: it runs on every path through that
// `if`, in the arm of `parts > 1`, with the others.
class SideStreamContext {
public:
  explicit SideStreamContext(int parts) {
    if (parts > 1) {
      STATUS_CHECK(cudaStreamCreateWithFlags(&side_, cudaStreamNonBlocking));
      STATUS_CHECK(cudaEventCreateWithFlags(&produced_, cudaEventDisableTiming));
      STATUS_CHECK(cudaEventCreateWithFlags(&consumed_, cudaEventDisableTiming));
    }
  }
  ~SideStreamContext() {
    if (side_) {
      STATUS_CHECK(cudaEventDestroy(produced_));
      STATUS_CHECK(cudaEventDestroy(consumed_));
      STATUS_CHECK(cudaStreamDestroy(side_));
    }
  }
  SideStreamContext(const SideStreamContext &) = delete;
  SideStreamContext &operator=(const SideStreamContext &) = delete;
  cudaStream_t side_ = nullptr;
  cudaEvent_t produced_ = nullptr;
  cudaEvent_t consumed_ = nullptr;
};

// The event is made on every path, the stream only for parts > 1: the
// destructor's test of the stream skips the event.
class SideStreamEventAlways {
public:
  explicit SideStreamEventAlways(int parts) {
    if (parts > 1)
      STATUS_CHECK(cudaStreamCreateWithFlags(&side_, cudaStreamNonBlocking));
    STATUS_CHECK(cudaEventCreateWithFlags(&produced_, cudaEventDisableTiming));
    // CHECK-MESSAGES-LEAK: :[[@LINE-1]]:18: warning: event 'produced_' created by 'cudaEventCreateWithFlags' and kept in a member of 'SideStreamEventAlways' is not released on every path{{.*}} [cudagraph-handle-leak]
  }
  ~SideStreamEventAlways() {
    if (side_) {
      STATUS_CHECK(cudaEventDestroy(produced_));
      STATUS_CHECK(cudaStreamDestroy(side_));
    }
  }
  SideStreamEventAlways(const SideStreamEventAlways &) = delete;
  SideStreamEventAlways &operator=(const SideStreamEventAlways &) = delete;
  cudaStream_t side_ = nullptr;
  cudaEvent_t produced_ = nullptr;
};
