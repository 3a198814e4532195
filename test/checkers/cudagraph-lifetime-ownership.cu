// RUN: %check_cudagraph_tidy %s cudagraph-handle-leak %t -check-suffixes=LEAK
// RUN: %check_cudagraph_tidy %s cudagraph-unpaired-instantiate %t -check-suffixes=EXEC
// RUN: %check_cudagraph_tidy %s cudagraph-capture-without-destroy %t -check-suffixes=GRAPH
// RUN: %check_cudagraph_tidy %s cudagraph-use-after-dealloc %t -check-suffixes=UAF
// RUN: %check_cudagraph_tidy %s cudagraph-mismatched-dealloc %t -check-suffixes=MISMATCH
// RUN: %check_cudagraph_tidy %s cudagraph-unpaired-instantiate %t -check-suffixes=SPEC -config="{CheckOptions: {SpeculativeMemberReports: 'true'}}"
//
// Ownership beyond one function (lib/Lifetime/Ownership/Ownership.h): members of
// classes across their methods, C structs with init/free pairs, members of
// pointer parameters tested before an acquisition. Every bug has a correct
// twin next to it that must stay silent.
#include <cuda_runtime.h>
#include <vector>

__global__ void k(float *p) {}

// ---- a member no method releases ----------------------------------------

class LeakyTimer {
public:
  LeakyTimer() {
    cudaEventCreate(&start_);
    // CHECK-MESSAGES-LEAK: :[[@LINE-1]]:5: warning: event 'start_' created by 'cudaEventCreate' and kept in a member of 'LeakyTimer' is not released on every path; call cudaEventDestroy in every path of the destructor (or a reset method) of 'LeakyTimer' [cudagraph-handle-leak]
    cudaEventCreate(&stop_);
  }
  ~LeakyTimer() { cudaEventDestroy(stop_); }
  LeakyTimer(const LeakyTimer &) = delete;
  void mark(cudaStream_t s) { cudaEventRecord(start_, s); }

private:
  cudaEvent_t start_ = nullptr;
  cudaEvent_t stop_ = nullptr;
};

class Timer { // correct: the destructor releases both
public:
  Timer() {
    cudaEventCreate(&start_);
    cudaEventCreate(&stop_);
  }
  ~Timer() {
    cudaEventDestroy(start_);
    cudaEventDestroy(stop_);
  }
  Timer(const Timer &) = delete;
  cudaEvent_t start() const { return start_; }

private:
  cudaEvent_t start_ = nullptr;
  cudaEvent_t stop_ = nullptr;
};

class DeclaredElsewhere { // a method defined in another file may release it
public:
  DeclaredElsewhere() { cudaStreamCreate(&s_); }
  void close();

private:
  cudaStream_t s_ = nullptr;
};

// ---- re-acquiring over a member another call left live ---------------------

class Runner {
public:
  ~Runner() { reset(); }
  Runner(const Runner &) = delete;
  Runner() = default;
  void capture(cudaStream_t s, float *p) {
    cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal);
    k<<<1, 32, 0, s>>>(p);
    cudaStreamEndCapture(s, &graph_);
    // CHECK-MESSAGES-GRAPH: :[[@LINE-1]]:5: warning: 'cudaStreamEndCapture' overwrites 'graph_', which still holds a live captured graph; destroy it with cudaGraphDestroy first [cudagraph-capture-without-destroy]
    cudaGraphInstantiate(&exec_, graph_, 0);
    // CHECK-MESSAGES-EXEC: :[[@LINE-1]]:5: warning: 'cudaGraphInstantiate' overwrites 'exec_', which still holds a live graph exec; destroy it with cudaGraphExecDestroy first [cudagraph-unpaired-instantiate]
    // CHECK-MESSAGES-SPEC: :[[@LINE-2]]:5: warning: 'cudaGraphInstantiate' overwrites 'exec_', which still holds a live graph exec; destroy it with cudaGraphExecDestroy first [cudagraph-unpaired-instantiate]
  }
  void replay(cudaStream_t s) { cudaGraphLaunch(exec_, s); }
  void reset() {
    if (exec_) cudaGraphExecDestroy(exec_);
    if (graph_) cudaGraphDestroy(graph_);
    exec_ = nullptr;
    graph_ = nullptr;
  }

private:
  cudaGraph_t graph_ = nullptr;
  cudaGraphExec_t exec_ = nullptr;
};

// What makes capture() overwrite: called again on one object, no reset() between.
void capture_twice(Runner &r, cudaStream_t s, float *p) {
  r.capture(s, p);
  r.replay(s);
  r.capture(s, p);
}

void capture_reset_capture(Runner &r, cudaStream_t s, float *p) {
  for (int i = 0; i < 4; ++i) {
    r.capture(s, p);
    r.replay(s);
    r.reset();
  }
}

// PyTorch's CUDAGraph shape: capture_begin / capture_end / replay / reset,
// each object captured once. No code here ends a capture twice on one object,
// so nothing is reported; SpeculativeMemberReports reports the possibility.
class OnceGraph {
public:
  ~OnceGraph() { reset(); }
  OnceGraph(const OnceGraph &) = delete;
  OnceGraph() = default;
  void capture_begin(cudaStream_t s) { s_ = s; cudaStreamBeginCapture(s_, cudaStreamCaptureModeGlobal); }
  void capture_end() {
    cudaStreamEndCapture(s_, &g_);
    cudaGraphInstantiate(&e_, g_, 0);
    // CHECK-MESSAGES-SPEC: :[[@LINE-1]]:5: warning: 'cudaGraphInstantiate' overwrites 'e_', which still holds a live graph exec; destroy it with cudaGraphExecDestroy first [cudagraph-unpaired-instantiate]
    has_ = true;
  }
  void replay() { cudaGraphLaunch(e_, s_); }
  void reset() {
    if (has_) { cudaGraphExecDestroy(e_); has_ = false; }
    if (g_) { cudaGraphDestroy(g_); g_ = nullptr; }
  }

private:
  cudaStream_t s_ = nullptr;
  cudaGraph_t g_ = nullptr;
  cudaGraphExec_t e_ = nullptr;
  bool has_ = false;
};

void use_once_graph(cudaStream_t s, float *p, int steps) {
  OnceGraph graph;
  graph.capture_begin(s);
  k<<<1, 32, 0, s>>>(p);
  graph.capture_end();
  for (int i = 0; i < steps; ++i)
    graph.replay();
}

// A fresh object in each iteration is not a second capture on one object.
void fresh_graph_per_step(cudaStream_t s, float *p, int steps) {
  for (int i = 0; i < steps; ++i) {
    OnceGraph graph;
    graph.capture_begin(s);
    k<<<1, 32, 0, s>>>(p);
    graph.capture_end();
    graph.replay();
  }
}

class GuardedRunner { // correct: releases or resets before re-capturing
public:
  ~GuardedRunner() { reset(); }
  GuardedRunner(const GuardedRunner &) = delete;
  GuardedRunner() = default;
  void capture(cudaGraph_t g) {
    if (exec_) cudaGraphExecDestroy(exec_);
    cudaGraphInstantiate(&exec_, g, 0);
  }
  void recapture(cudaGraph_t g) {
    reset();
    cudaGraphInstantiate(&exec_, g, 0);
  }
  void reset() {
    if (exec_) cudaGraphExecDestroy(exec_);
    exec_ = nullptr;
  }

private:
  cudaGraphExec_t exec_ = nullptr;
};

class OnceRunner { // correct: a flag the capturing method sets guards it
public:
  ~OnceRunner() {
    if (exec_) cudaGraphExecDestroy(exec_);
  }
  OnceRunner(const OnceRunner &) = delete;
  OnceRunner() = default;
  void ensure(cudaGraph_t g) {
    if (captured_) return;
    cudaGraphInstantiate(&exec_, g, 0);
    captured_ = true;
  }
  void again(cudaGraph_t g) { ensure(g); }

private:
  cudaGraphExec_t exec_ = nullptr;
  bool captured_ = false;
};

// ---- a destructor that releases on some paths only -----------------------

class Borrowing {
public:
  explicit Borrowing(cudaStream_t s) : stream_(s), borrowed_(s != nullptr) {
    if (!borrowed_) cudaStreamCreate(&stream_);
    cudaEventCreate(&done_);
    // CHECK-MESSAGES-LEAK: :[[@LINE-1]]:5: warning: event 'done_' created by 'cudaEventCreate' and kept in a member of 'Borrowing' is not released on every path
  }
  ~Borrowing() {
    if (borrowed_) return;
    cudaStreamDestroy(stream_);
    cudaEventDestroy(done_);
  }
  Borrowing(const Borrowing &) = delete;
  void mark() { cudaEventRecord(done_, stream_); }

private:
  cudaStream_t stream_;
  bool borrowed_;
  cudaEvent_t done_ = nullptr;
};

// ---- an owner copied by its implicit copy constructor ----------------------

class DeviceBuffer {
public:
  explicit DeviceBuffer(size_t n) { cudaMalloc(&p_, n); }
  ~DeviceBuffer() { cudaFree(p_); }
  // CHECK-MESSAGES-UAF: :[[@LINE-1]]:21: warning: 'p_' is released again by 'cudaFree' when a copy of 'DeviceBuffer' is destroyed (undefined behaviour): its implicit copy shares the handle; delete the copy operations or make them transfer ownership [cudagraph-use-after-dealloc]
  void *data() const { return p_; }

private:
  void *p_ = nullptr;
};

class MoveOnlyBuffer { // correct: copying is deleted
public:
  explicit MoveOnlyBuffer(size_t n) { cudaMalloc(&p_, n); }
  ~MoveOnlyBuffer() { cudaFree(p_); }
  MoveOnlyBuffer(const MoveOnlyBuffer &) = delete;
  MoveOnlyBuffer(MoveOnlyBuffer &&o) noexcept : p_(o.p_) { o.p_ = nullptr; }

private:
  void *p_ = nullptr;
};

void keep_buffers(int n) {
  std::vector<DeviceBuffer> all;
  all.push_back(DeviceBuffer(256));
  std::vector<MoveOnlyBuffer> fine;
  fine.push_back(MoveOnlyBuffer(256));
}

// ---- C structs with an init/free pair ------------------------------------

typedef struct {
  float *d_in;
  float *d_out;
  float *h_stage;
  cudaStream_t stream;
} solver_t;

int solver_init(solver_t *s, size_t n) {
  if (cudaStreamCreate(&s->stream) != cudaSuccess) return -1;
  if (cudaMalloc((void **)&s->d_in, n) != cudaSuccess) return -1;
  if (cudaMalloc((void **)&s->d_out, n) != cudaSuccess) return -1;
  // CHECK-MESSAGES-LEAK: :[[@LINE-1]]:7: warning: device memory 's->d_out' created by 'cudaMalloc' and kept in a member of 'solver_t' is not released on every path
  if (cudaMallocHost((void **)&s->h_stage, n) != cudaSuccess) return -1;
  return 0;
}

void solver_free(solver_t *s) {
  cudaStreamDestroy(s->stream);
  cudaFree(s->d_in);
  cudaFree(s->h_stage);
  // CHECK-MESSAGES-MISMATCH: :[[@LINE-1]]:3: warning: pinned host memory 's->h_stage' allocated by 'cudaMallocHost' is released by 'cudaFree'; release it with cudaFreeHost [cudagraph-mismatched-dealloc]
}

typedef struct {
  void *buf;
  size_t cap;
} workspace_t;

int ws_reserve(workspace_t *ws, size_t n) {
  if (ws->buf != NULL && ws->cap >= n) return 0;
  if (cudaMalloc(&ws->buf, n) != cudaSuccess) return -1;
  // CHECK-MESSAGES-LEAK: :[[@LINE-1]]:7: warning: 'cudaMalloc' overwrites 'ws->buf', which still holds a live device memory; release it with cudaFree first [cudagraph-handle-leak]
  ws->cap = n;
  return 0;
}

int ws_reserve_fixed(workspace_t *ws, size_t n) {
  if (ws->buf != NULL && ws->cap >= n) return 0;
  if (ws->buf != NULL) cudaFree(ws->buf);
  if (cudaMalloc(&ws->buf, n) != cudaSuccess) return -1;
  ws->cap = n;
  return 0;
}

void ws_free(workspace_t *ws) { cudaFree(ws->buf); }

// ---- a free function that updates an object it is given by pointer, ------
// ---- called again on that object: its earlier call left the member live ---

struct GraphSlot {
  ~GraphSlot() {
    if (exec != nullptr) cudaGraphExecDestroy(exec);
    if (graph != nullptr) cudaGraphDestroy(graph);
  }
  cudaGraph_t graph = nullptr;
  cudaGraphExec_t exec = nullptr;
  bool captured = false;
};

void slot_rebuild(GraphSlot *c, cudaStream_t s, bool rebuild) {
  if (rebuild) {
    if (cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal) != cudaSuccess) return;
    if (cudaStreamEndCapture(s, &c->graph) != cudaSuccess) return;
    // CHECK-MESSAGES-GRAPH: :[[@LINE-1]]:9: warning: 'cudaStreamEndCapture' overwrites 'c->graph', which still holds a live captured graph; destroy it with cudaGraphDestroy first [cudagraph-capture-without-destroy]
  }
  if (c->exec == nullptr)
    cudaGraphInstantiate(&c->exec, c->graph, 0);
  cudaGraphLaunch(c->exec, s);
}

void slot_serve(cudaStream_t s, int steps) {
  GraphSlot c;
  for (int i = 0; i < steps; ++i) slot_rebuild(&c, s, i % 8 == 0);
}

// Twice on one object, no loop.
void slot_capture(GraphSlot *c, cudaStream_t s) {
  cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal);
  cudaStreamEndCapture(s, &c->graph);
  // CHECK-MESSAGES-GRAPH: :[[@LINE-1]]:3: warning: 'cudaStreamEndCapture' overwrites 'c->graph'{{.*}} [cudagraph-capture-without-destroy]
}

void slot_capture_twice(cudaStream_t s) {
  GraphSlot c;
  slot_capture(&c, s);
  slot_capture(&c, s);
}

// Clean twins: the graph is destroyed first; the function runs once per
// object; the loop makes a new object each time; a call in between
// releases it; a flag of the object decides the capture.
void slot_rebuild_fixed(GraphSlot *c, cudaStream_t s) {
  if (cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal) != cudaSuccess) return;
  if (c->graph != nullptr) { cudaGraphDestroy(c->graph); c->graph = nullptr; }
  cudaStreamEndCapture(s, &c->graph);
}

void slot_serve_fixed(cudaStream_t s, int steps) {
  GraphSlot c;
  for (int i = 0; i < steps; ++i) slot_rebuild_fixed(&c, s);
}

void slot_capture_once(GraphSlot *c, cudaStream_t s) {
  cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal);
  cudaStreamEndCapture(s, &c->graph);
}

void slot_serve_once(cudaStream_t s, int steps) {
  GraphSlot c;
  slot_capture_once(&c, s);
  for (int i = 0; i < steps; ++i) {
    GraphSlot fresh;
    slot_capture_once(&fresh, s);
  }
}

void slot_drop(GraphSlot *c) {
  cudaGraphDestroy(c->graph);
  c->graph = nullptr;
}

void slot_capture_dropped(GraphSlot *c, cudaStream_t s) {
  cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal);
  cudaStreamEndCapture(s, &c->graph);
}

void slot_serve_dropped(cudaStream_t s, int steps) {
  GraphSlot c;
  for (int i = 0; i < steps; ++i) {
    slot_capture_dropped(&c, s);
    slot_drop(&c);
  }
}

void slot_capture_flagged(GraphSlot *c, cudaStream_t s) {
  if (c->captured) return;
  cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal);
  cudaStreamEndCapture(s, &c->graph);
  c->captured = true;
}

void slot_serve_flagged(cudaStream_t s, int steps) {
  GraphSlot c;
  for (int i = 0; i < steps; ++i) slot_capture_flagged(&c, s);
}

// ---- instances of static storage are singletons: their members live ------
// ---- as long as the program; a local class's methods are indexed too ------

class ProcessRunner {
public:
  void capture(cudaGraph_t g) { cudaGraphInstantiate(&exec_, g, 0); }
  void run(cudaStream_t s) { cudaGraphLaunch(exec_, s); }

private:
  cudaGraphExec_t exec_ = nullptr;
};

void runOnce(cudaGraph_t g, cudaStream_t s) {
  static ProcessRunner Runner; // a function-local singleton: silent
  Runner.capture(g);
  Runner.run(s);
}

void localClass(cudaGraph_t g, cudaStream_t s) {
  struct Local {
    void capture(cudaGraph_t g) { cudaGraphInstantiate(&exec, g, 0); }
    // CHECK-MESSAGES-EXEC: :[[@LINE-1]]:35: warning: graph exec 'exec' created by 'cudaGraphInstantiate' and kept in a member of 'Local' is not destroyed on every path; call cudaGraphExecDestroy in every path of the destructor (or a reset method) of 'Local' [cudagraph-unpaired-instantiate]
    // CHECK-MESSAGES-SPEC: :[[@LINE-2]]:35: warning: graph exec 'exec' created by 'cudaGraphInstantiate' and kept in a member of 'Local' is not destroyed on every path; call cudaGraphExecDestroy in every path of the destructor (or a reset method) of 'Local' [cudagraph-unpaired-instantiate]
    void run(cudaStream_t s) { cudaGraphLaunch(exec, s); }
    cudaGraphExec_t exec = nullptr;
  } L;
  L.capture(g);
  L.run(s);
}

// A member's null test survives a call of another method of `this` that
// does not write the member (issue 36 item 2): the private launch helper
// between the cache test and the re-instantiation.
__global__ void bump(float *x, int n) {}
class ShapeRunner {
public:
  ShapeRunner() = default;
  ~ShapeRunner() {
    if (exec_ != nullptr)
      cudaGraphExecDestroy(exec_);
  }
  ShapeRunner(const ShapeRunner &) = delete;
  ShapeRunner &operator=(const ShapeRunner &) = delete;
  void bug_prepare(cudaStream_t s, float *d, int n) {
    if (exec_ != nullptr && n == n_)
      return;
    cudaGraph_t g;
    if (cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal) != cudaSuccess)
      return;
    enqueue(s, d, n);
    if (cudaStreamEndCapture(s, &g) != cudaSuccess)
      return;
    cudaError_t st = cudaGraphInstantiate(&exec_, g, 0);
    // CHECK-MESSAGES-EXEC: :[[@LINE-1]]:22: warning: 'cudaGraphInstantiate' overwrites 'exec_'{{.*}} [cudagraph-unpaired-instantiate]
    // CHECK-MESSAGES-SPEC: :[[@LINE-2]]:22: warning: 'cudaGraphInstantiate' overwrites 'exec_'{{.*}} [cudagraph-unpaired-instantiate]
    cudaGraphDestroy(g);
    if (st == cudaSuccess)
      n_ = n;
  }
  void ok_prepare(cudaStream_t s, float *d, int n) {
    if (exec_ != nullptr && n == n_)
      return;
    if (exec_ != nullptr) {
      cudaGraphExecDestroy(exec_);
      exec_ = nullptr;
    }
    cudaGraph_t g;
    if (cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal) != cudaSuccess)
      return;
    enqueue(s, d, n);
    if (cudaStreamEndCapture(s, &g) != cudaSuccess)
      return;
    cudaError_t st = cudaGraphInstantiate(&exec_, g, 0);
    cudaGraphDestroy(g);
    if (st == cudaSuccess)
      n_ = n;
  }
  // A helper that drops the exec: after it the test says nothing.
  void ok_prepare_after_drop(cudaStream_t s, cudaGraph_t g) {
    if (exec_ == nullptr)
      return;
    drop();
    cudaGraphInstantiate(&exec_, g, 0);
  }
  void run(cudaStream_t s) { cudaGraphLaunch(exec_, s); }

private:
  void enqueue(cudaStream_t s, float *d, int n) { bump<<<1, 256, 0, s>>>(d, n); }
  void drop() {
    cudaGraphExecDestroy(exec_);
    exec_ = nullptr;
  }
  cudaGraphExec_t exec_ = nullptr;
  int n_ = -1;
};

// A member released only before it is acquired again, never by the
// destructor or reset(): the last graph leaks (issue 36 item 2).
__global__ void tick(float *x) {}
class Recorder {
public:
  Recorder() = default;
  ~Recorder() { reset(); }
  Recorder(const Recorder &) = delete;
  Recorder &operator=(const Recorder &) = delete;
  void record(cudaStream_t s, float *d) {
    if (graph_ != nullptr) {
      cudaGraphDestroy(graph_);
      graph_ = nullptr;
    }
    if (cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal) != cudaSuccess)
      return;
    tick<<<1, 32, 0, s>>>(d);
    if (cudaStreamEndCapture(s, &graph_) != cudaSuccess)
    // CHECK-MESSAGES-GRAPH: :[[@LINE-1]]:9: warning: {{.*}}'graph_'{{.*}} [cudagraph-capture-without-destroy]
      return;
    if (exec_ == nullptr)
      cudaGraphInstantiate(&exec_, graph_, 0);
  }
  void reset() {
    if (exec_ != nullptr) {
      cudaGraphExecDestroy(exec_);
      exec_ = nullptr;
    }
  }

private:
  cudaGraph_t graph_ = nullptr;
  cudaGraphExec_t exec_ = nullptr;
};

class RecorderOk {
public:
  RecorderOk() = default;
  ~RecorderOk() { reset(); }
  RecorderOk(const RecorderOk &) = delete;
  RecorderOk &operator=(const RecorderOk &) = delete;
  void record(cudaStream_t s, float *d) {
    if (graph_ != nullptr) {
      cudaGraphDestroy(graph_);
      graph_ = nullptr;
    }
    if (cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal) != cudaSuccess)
      return;
    tick<<<1, 32, 0, s>>>(d);
    if (cudaStreamEndCapture(s, &graph_) != cudaSuccess)
      return;
  }
  void reset() {
    if (graph_ != nullptr) {
      cudaGraphDestroy(graph_);
      graph_ = nullptr;
    }
  }

private:
  cudaGraph_t graph_ = nullptr;
};

// The release that makes room sits in a helper method that only the
// re-acquiring method calls, before its acquisition: the destructor releases
// nothing, so the last exec leaks. The twin's destructor calls the helper.
class Recapturer {
public:
  ~Recapturer() {}
  void step(cudaGraph_t g, cudaStream_t s) {
    if (exec_ == nullptr)
      recapture(g);
    cudaGraphLaunch(exec_, s);
  }

private:
  void drop() {
    if (exec_) {
      cudaGraphExecDestroy(exec_);
      exec_ = nullptr;
    }
  }
  void recapture(cudaGraph_t g) {
    drop();
    cudaGraphInstantiate(&exec_, g, 0);
    // CHECK-MESSAGES-EXEC: :[[@LINE-1]]:5: warning: graph exec 'exec_' created by 'cudaGraphInstantiate' and kept in a member of 'Recapturer' is not destroyed on every path{{.*}} [cudagraph-unpaired-instantiate]
    // CHECK-MESSAGES-SPEC: :[[@LINE-2]]:5: warning: graph exec 'exec_' created by {{.*}}'Recapturer' is not destroyed on every path{{.*}} [cudagraph-unpaired-instantiate]
  }
  cudaGraphExec_t exec_ = nullptr;
};
void decode_recapturer(cudaGraph_t g, cudaStream_t s) {
  Recapturer r;
  r.step(g, s);
}

class RecapturerOk {
public:
  ~RecapturerOk() { drop(); }
  void step(cudaGraph_t g, cudaStream_t s) {
    if (exec_ == nullptr)
      recapture(g);
    cudaGraphLaunch(exec_, s);
  }

private:
  void drop() {
    if (exec_) {
      cudaGraphExecDestroy(exec_);
      exec_ = nullptr;
    }
  }
  void recapture(cudaGraph_t g) {
    drop();
    cudaGraphInstantiate(&exec_, g, 0);
  }
  cudaGraphExec_t exec_ = nullptr;
};
void decode_recapturer_ok(cudaGraph_t g, cudaStream_t s) {
  RecapturerOk r;
  r.step(g, s);
}

// The destructor releases through reset(): an early return there leaks what
// the other methods left live, as one in the destructor itself would.
bool g_keep_for_debug = false;
class ResetRunner {
public:
  ResetRunner() = default;
  ~ResetRunner() { reset(); }
  ResetRunner(const ResetRunner &) = delete;
  ResetRunner &operator=(const ResetRunner &) = delete;
  void build(cudaGraph_t g) {
    if (cudaGraphInstantiate(&exec_, g, 0) != cudaSuccess)
    // CHECK-MESSAGES-EXEC: :[[@LINE-1]]:9: warning: graph exec 'exec_' created by 'cudaGraphInstantiate' and kept in a member of 'ResetRunner' is not destroyed on every path{{.*}} [cudagraph-unpaired-instantiate]
    // CHECK-MESSAGES-SPEC: :[[@LINE-2]]:9: warning: 'cudaGraphInstantiate' overwrites 'exec_'{{.*}} [cudagraph-unpaired-instantiate]
    // CHECK-MESSAGES-SPEC: :[[@LINE-3]]:9: warning: graph exec 'exec_' created by {{.*}}'ResetRunner' is not destroyed on every path{{.*}} [cudagraph-unpaired-instantiate]
      exec_ = nullptr;
  }
  void run(cudaStream_t s) { cudaGraphLaunch(exec_, s); }
  void reset() {
    if (g_keep_for_debug)
      return;
    if (exec_ != nullptr)
      cudaGraphExecDestroy(exec_);
    exec_ = nullptr;
  }

private:
  cudaGraphExec_t exec_ = nullptr;
};

// ---- the constructor leaves a member live, a method on a local re-acquires --
// The constructor is no call the index records: the local's declaration
// stands for it as the evidence that `reshape` can find the member live.

class SessionBuffers {
public:
  explicit SessionBuffers(size_t n) {
    status_ = cudaMalloc(&logits_, n);
    if (status_ == cudaSuccess)
      status_ = cudaMalloc(&indirection_, n);
  }
  ~SessionBuffers() {
    cudaFree(logits_);
    cudaFree(indirection_);
  }
  SessionBuffers(const SessionBuffers &) = delete;
  SessionBuffers &operator=(const SessionBuffers &) = delete;
  cudaError_t status() const { return status_; }
  void release() {
    cudaFree(indirection_);
    indirection_ = nullptr;
  }
  cudaError_t reshape(size_t n) {
    cudaFree(logits_);
    logits_ = nullptr;
    cudaMalloc(&logits_, n);
    return cudaMalloc(&indirection_, n);
    // CHECK-MESSAGES-LEAK: :[[@LINE-1]]:12: warning: 'cudaMalloc' overwrites 'indirection_', which still holds a live device memory{{.*}} [cudagraph-handle-leak]
  }

private:
  cudaError_t status_ = cudaSuccess;
  float *logits_ = nullptr;
  int *indirection_ = nullptr;
};

int generate(size_t n, int rounds) {
  SessionBuffers bufs(n);
  if (bufs.status() != cudaSuccess)
    return 1;
  for (int r = 0; r < rounds; ++r)
    if (bufs.reshape(n * (r + 2)) != cudaSuccess)
      return 2;
  return 0;
}

// Twin: every local of the class releases the member before reshaping.
class TidySessionBuffers {
public:
  explicit TidySessionBuffers(size_t n) { cudaMalloc(&indirection_, n); }
  ~TidySessionBuffers() { cudaFree(indirection_); }
  TidySessionBuffers(const TidySessionBuffers &) = delete;
  TidySessionBuffers &operator=(const TidySessionBuffers &) = delete;
  void release() {
    cudaFree(indirection_);
    indirection_ = nullptr;
  }
  cudaError_t reshape(size_t n) { return cudaMalloc(&indirection_, n); }

private:
  int *indirection_ = nullptr;
};

int generateTidy(size_t n) {
  TidySessionBuffers bufs(n);
  bufs.release();
  return bufs.reshape(2 * n) == cudaSuccess ? 0 : 1;
}

// darknet's layers: a helper handed a member releases a field of what the
// member points to (`resize(l->vf)` frees `vf->delta_gpu`). That is no
// release of the member, which calloc filled: no mismatch.
struct DnLayer {
  float *delta_gpu;
  DnLayer *vf;
  int train;
};
void dn_resize(DnLayer *l, size_t n) {
  if (l->train) {
    cudaFree(l->delta_gpu);
    cudaMalloc(&l->delta_gpu, n);
  }
}
void dn_make(DnLayer *l) { l->vf = (DnLayer *)calloc(1, sizeof(DnLayer)); }
void dn_resize_sublayer(DnLayer *l, size_t n) { dn_resize(l->vf, n); }
void dn_free_sublayer_wrongly(DnLayer *l) { cudaFree(l->vf); }
// CHECK-MESSAGES-MISMATCH: :[[@LINE-1]]:45: warning: heap memory 'l->vf' allocated by 'calloc' is released by 'cudaFree'; release it with free [cudagraph-mismatched-dealloc]

// darknet's network: `if (cudaSuccess == cudaHostAlloc(&net->pinned, ...))`
// tests the acquisition's status; the member is named only as where it
// writes, so nothing says the member held something before.
struct DnNet {
  float *pinned;
  int pinned_flag;
};
void dn_setup_pinned(DnNet *net, size_t n) {
  if (cudaSuccess == cudaHostAlloc((void **)&net->pinned, n, cudaHostAllocMapped)) {
    net->pinned_flag = 1;
  } else {
    net->pinned = (float *)calloc(n, 1);
    net->pinned_flag = 0;
  }
}
void dn_free_pinned(DnNet *net) {
  if (net->pinned_flag)
    cudaFreeHost(net->pinned);
  else
    free(net->pinned);
}

// The same with darknet's own allocator, defined in another file: what an
// unknown call returns is memory of any family, so no mismatch is claimed
// from "every acquisition is by cudaHostAlloc".
void *dn_xcalloc(size_t n, size_t size);
struct DnInput {
  float *pinned;
  int pinned_flag;
};
void dn_setup_input(DnInput *in, size_t n) {
  if (cudaSuccess == cudaHostAlloc((void **)&in->pinned, n, cudaHostAllocMapped)) {
    in->pinned_flag = 1;
  } else {
    in->pinned = (float *)dn_xcalloc(n, 1);
    in->pinned_flag = 0;
  }
}
void dn_free_input(DnInput in) {
  if (in.pinned_flag)
    cudaFreeHost(in.pinned);
  else
    free(in.pinned);
}

// A summarised method called on a local object: the summary speaks of the
// parameters only, so a method that releases a member takes what the
// object holds (`gb.destroy()`). The twin never calls it: the graph leaks.
struct GraphBundle {
  cudaGraph_t graph = nullptr;
  int nodes = 0;
  void destroy() {
    if (graph) {
      cudaGraphDestroy(graph);
      graph = nullptr;
    }
  }
};
static cudaError_t make_bundle(GraphBundle *b) { return cudaGraphCreate(&b->graph, 0); }

int bundle_destroyed_by_method() {
  GraphBundle gb;
  int rc = make_bundle(&gb) == cudaSuccess ? 0 : 1;
  gb.destroy();
  return rc;
}

int bundle_never_destroyed() {
  GraphBundle gb;
  int rc = make_bundle(&gb) == cudaSuccess ? 0 : 1;
  // CHECK-MESSAGES-LEAK: :[[@LINE-1]]:12: warning: graph 'gb.graph' created by 'make_bundle' is not released on every path; {{.*}} [cudagraph-handle-leak]
  return rc;
}

// The allocation goes into a local on one of two families and then into
// the member: the member is acquired by both, so releasing it by the kind
// the struct records is no mismatch. The twin fills it by one family only.
enum BufKind { BufDevice, BufPinned };
struct KindBuffer {
  void *ptr = nullptr;
  BufKind kind = BufDevice;
};
static cudaError_t kind_buffer_alloc(KindBuffer *b, size_t bytes, BufKind kind) {
  cudaError_t st;
  void *p = nullptr;
  if (kind == BufDevice)
    st = cudaMalloc(&p, bytes);
  else
    st = cudaMallocHost(&p, bytes);
  b->ptr = p;
  b->kind = kind;
  return st;
}
static void kind_buffer_free(KindBuffer *b) {
  if (b->kind == BufDevice)
    cudaFree(b->ptr);
  else
    cudaFreeHost(b->ptr);
}

struct DeviceOnlyBuffer {
  void *ptr = nullptr;
  bool pinned = false;
};
static cudaError_t device_only_alloc(DeviceOnlyBuffer *b, size_t bytes) {
  void *p = nullptr;
  cudaError_t st = cudaMalloc(&p, bytes);
  b->ptr = p;
  return st;
}
static void device_only_free(DeviceOnlyBuffer *b) {
  if (b->pinned)
    cudaFreeHost(b->ptr);
    // CHECK-MESSAGES-MISMATCH: :[[@LINE-1]]:5: warning: device memory 'b->ptr' allocated by 'cudaMalloc' is released by 'cudaFreeHost'; {{.*}} [cudagraph-mismatched-dealloc]
  else
    cudaFree(b->ptr);
}
