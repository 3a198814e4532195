// RUN: %check_cudagraph_tidy %s cudagraph-handle-leak %t -check-suffixes=LEAK
// RUN: %check_cudagraph_tidy %s cudagraph-unpaired-instantiate %t -check-suffixes=EXEC
// RUN: %check_cudagraph_tidy %s cudagraph-use-after-dealloc %t -check-suffixes=UAF
//
// Handles kept in standard containers (lib/Lifetime/Containers/ContainerFlow.cpp): a
// handle moves into the container, a release loop over the elements (or a
// release of the element about to go) releases it, and a drop (clear,
// erase, pop_back, the end of a local container) while it is live is a
// leak at the drop. Every buggy case has a clean twin right after it.
#include <cuda_runtime.h>
#include <array>
#include <map>
#include <unordered_map>
#include <utility>
#include <vector>

void keep(std::vector<cudaStream_t> &v);

// ---- streams in a vector -------------------------------------------------

void leak_vector_end_of_life(int n) {
  std::vector<cudaStream_t> streams;
  for (int i = 0; i < n; ++i) {
    cudaStream_t s;
    cudaStreamCreate(&s);
    // CHECK-MESSAGES-LEAK: :[[@LINE-1]]:5: warning: stream 's' created by 'cudaStreamCreate' is not released on every path; call cudaStreamDestroy or hand it to an owner [cudagraph-handle-leak]
    streams.push_back(s);
  }
}

void clean_vector_release_loop(int n) {
  std::vector<cudaStream_t> streams;
  for (int i = 0; i < n; ++i) {
    cudaStream_t s;
    cudaStreamCreate(&s);
    streams.push_back(s);
  }
  for (auto s : streams)
    cudaStreamDestroy(s);
}

void leak_vector_clear(int n) {
  std::vector<cudaStream_t> streams;
  for (int i = 0; i < n; ++i) {
    cudaStream_t s;
    cudaStreamCreate(&s);
    streams.emplace_back(s);
  }
  streams.clear();
  // CHECK-MESSAGES-LEAK: :[[@LINE-1]]:3: warning: stream 's' created by 'cudaStreamCreate' is not released on every path; call cudaStreamDestroy or hand it to an owner [cudagraph-handle-leak]
}

void clean_vector_index_loop_then_clear(int n) {
  std::vector<cudaStream_t> streams;
  for (int i = 0; i < n; ++i) {
    cudaStream_t s;
    cudaStreamCreate(&s);
    streams.emplace_back(s);
  }
  for (size_t i = 0; i < streams.size(); ++i)
    cudaStreamDestroy(streams[i]);
  streams.clear();
}

void leak_pop_back() {
  std::vector<cudaStream_t> streams;
  {
    cudaStream_t s;
    cudaStreamCreate(&s);
    streams.push_back(s);
  }
  streams.pop_back();
  // CHECK-MESSAGES-LEAK: :[[@LINE-1]]:3: warning: stream 's' created by 'cudaStreamCreate' is not released on every path; call cudaStreamDestroy or hand it to an owner [cudagraph-handle-leak]
}

void clean_pop_back_after_destroying_back() {
  std::vector<cudaStream_t> streams;
  {
    cudaStream_t s;
    cudaStreamCreate(&s);
    streams.push_back(s);
  }
  cudaStreamDestroy(streams.back());
  streams.pop_back();
}

// ---- events created in place ----------------------------------------------

void leak_events_in_place(int n) {
  std::vector<cudaEvent_t> events(n);
  for (int i = 0; i < n; ++i)
    cudaEventCreate(&events[i]);
  // CHECK-MESSAGES-LEAK: :[[@LINE-1]]:5: warning: event 'events[]' created by 'cudaEventCreate' is not released on every path; call cudaEventDestroy or hand it to an owner [cudagraph-handle-leak]
  cudaEventRecord(events[0], 0);
}

void clean_events_in_place(int n) {
  std::vector<cudaEvent_t> events(n);
  for (int i = 0; i < n; ++i)
    cudaEventCreate(&events[i]);
  cudaEventRecord(events[0], 0);
  for (int i = 0; i < n; ++i)
    cudaEventDestroy(events[i]);
}

// A second error exit after a first that destroyed the events and returned:
// the first exit's destroy loop never runs before the second.
int leak_events_second_exit(int n, float *d) {
  std::vector<cudaEvent_t> events(n);
  for (int i = 0; i < n; ++i)
    cudaEventCreate(&events[i]);
  // CHECK-MESSAGES-LEAK: :[[@LINE-1]]:5: warning: event 'events[]' created by 'cudaEventCreate' is not released on every path; call cudaEventDestroy or hand it to an owner [cudagraph-handle-leak]
  if (cudaMemsetAsync(d, 0, 4, 0) != cudaSuccess) {
    for (int i = 0; i < n; ++i)
      cudaEventDestroy(events[i]);
    return 1;
  }
  if (cudaEventRecord(events[0], 0) != cudaSuccess)
    return 1;
  for (int i = 0; i < n; ++i)
    cudaEventDestroy(events[i]);
  return 0;
}
int clean_events_both_exits(int n, float *d) {
  std::vector<cudaEvent_t> events(n);
  for (int i = 0; i < n; ++i)
    cudaEventCreate(&events[i]);
  if (cudaMemsetAsync(d, 0, 4, 0) != cudaSuccess) {
    for (int i = 0; i < n; ++i)
      cudaEventDestroy(events[i]);
    return 1;
  }
  if (cudaEventRecord(events[0], 0) != cudaSuccess) {
    for (int i = 0; i < n; ++i)
      cudaEventDestroy(events[i]);
    return 1;
  }
  for (int i = 0; i < n; ++i)
    cudaEventDestroy(events[i]);
  return 0;
}

// An error exit whose destroy loop falls through to a status check the
// analysis cannot see throw: on the path that skipped the exit the events
// are still live at the return.
void check_status(cudaError_t e); // throws on failure, opaque here
int leak_events_exit_falls_to_check(int n, float *d) {
  std::vector<cudaEvent_t> events(n);
  for (int i = 0; i < n; ++i)
    cudaEventCreate(&events[i]);
  // CHECK-MESSAGES-LEAK: :[[@LINE-1]]:5: warning: event 'events[]' created by 'cudaEventCreate' is not released on every path; call cudaEventDestroy or hand it to an owner [cudagraph-handle-leak]
  cudaError_t e = cudaMemsetAsync(d, 0, 4, 0);
  if (e != cudaSuccess) {
    for (int i = 0; i < n; ++i)
      cudaEventDestroy(events[i]);
  }
  check_status(e);
  return 0;
}
int clean_events_exit_falls_to_check(int n, float *d) {
  std::vector<cudaEvent_t> events(n);
  for (int i = 0; i < n; ++i)
    cudaEventCreate(&events[i]);
  cudaError_t e = cudaMemsetAsync(d, 0, 4, 0);
  if (e != cudaSuccess) {
    for (int i = 0; i < n; ++i)
      cudaEventDestroy(events[i]);
  }
  check_status(e);
  for (int i = 0; i < n; ++i)
    cudaEventDestroy(events[i]);
  return 0;
}
// Created and destroyed under the same flag: the path that skips the
// destroy loop created nothing.
int clean_events_under_one_flag(int n, bool timing) {
  std::vector<cudaEvent_t> events(n);
  if (timing)
    for (int i = 0; i < n; ++i)
      cudaEventCreate(&events[i]);
  cudaDeviceSynchronize();
  if (timing)
    for (int i = 0; i < n; ++i)
      cudaEventDestroy(events[i]);
  return 0;
}

// A destroy loop left by its break, not by its condition.
int clean_events_destroy_loop_breaks(int n) {
  std::vector<cudaEvent_t> events(n);
  for (int i = 0; i < n; ++i)
    cudaEventCreate(&events[i]);
  cudaDeviceSynchronize();
  int i = 0;
  for (;;) {
    if (i == n)
      break;
    cudaEventDestroy(events[i++]);
  }
  return 0;
}

// Events moved from one container into another: the move loop is release
// code for `used`, not for `spare`, whose clear() drops them live.
void leak_events_moved_then_cleared(int n) {
  std::vector<cudaEvent_t> used, spare;
  for (int i = 0; i < n; ++i) {
    cudaEvent_t e = nullptr;
    if (cudaEventCreate(&e) == cudaSuccess)
      used.push_back(e);
  }
  for (cudaEvent_t e : used)
    spare.push_back(e);
  used.clear();
  spare.clear();
  // CHECK-MESSAGES-LEAK: :[[@LINE-1]]:3: warning: event 'e' created by 'cudaEventCreate' is not released on every path; call cudaEventDestroy or hand it to an owner [cudagraph-handle-leak]
}
void clean_events_moved_then_destroyed(int n) {
  std::vector<cudaEvent_t> used, spare;
  for (int i = 0; i < n; ++i) {
    cudaEvent_t e = nullptr;
    if (cudaEventCreate(&e) == cudaSuccess)
      used.push_back(e);
  }
  for (cudaEvent_t e : used)
    spare.push_back(e);
  used.clear();
  for (cudaEvent_t e : spare)
    cudaEventDestroy(e);
  spare.clear();
}

void leak_std_array() {
  std::array<cudaStream_t, 4> pool;
  for (auto &s : pool)
    cudaStreamCreate(&s);
  // CHECK-MESSAGES-LEAK: :[[@LINE-1]]:5: warning: stream 'pool[]' created by 'cudaStreamCreate' is not released on every path; call cudaStreamDestroy or hand it to an owner [cudagraph-handle-leak]
}

void clean_std_array() {
  std::array<cudaStream_t, 4> pool;
  for (auto &s : pool)
    cudaStreamCreate(&s);
  for (cudaStream_t s : pool)
    cudaStreamDestroy(s);
}

// ---- containers that escape are not this function's to release -----------

std::vector<cudaStream_t> clean_returned(int n) {
  std::vector<cudaStream_t> streams;
  for (int i = 0; i < n; ++i) {
    cudaStream_t s;
    cudaStreamCreate(&s);
    streams.push_back(s);
  }
  return streams;
}

void clean_handed_to_owner(int n) {
  std::vector<cudaStream_t> streams(n);
  for (int i = 0; i < n; ++i)
    cudaStreamCreate(&streams[i]);
  keep(streams);
}

// Copied out before the erase, released after it.
void clean_copy_out_then_erase(std::map<int, cudaStream_t> *unused, int k) {
  std::map<int, cudaStream_t> m;
  {
    cudaStream_t s;
    cudaStreamCreate(&s);
    m[k] = s;
  }
  cudaStream_t old = m.at(k);
  m.erase(k);
  cudaStreamDestroy(old);
}

// Another key leaves: the element at 1 is still there, and released.
void clean_erase_other_key() {
  std::map<int, cudaStream_t> m;
  {
    cudaStream_t s;
    cudaStreamCreate(&s);
    m[1] = s;
  }
  m.erase(2);
  for (auto &kv : m)
    cudaStreamDestroy(kv.second);
}

// ---- a graph cache keyed by shape (local) ---------------------------------

void leak_erase_without_destroy(cudaGraph_t g, int bs) {
  std::unordered_map<int, cudaGraphExec_t> cache;
  {
    cudaGraphExec_t e;
    cudaGraphInstantiate(&e, g, 0);
    cache.emplace(bs, e);
  }
  auto it = cache.find(bs);
  cudaGraphLaunch(it->second, 0);
  cache.erase(it);
  // CHECK-MESSAGES-EXEC: :[[@LINE-1]]:3: warning: graph exec 'e' created by 'cudaGraphInstantiate' is not destroyed on every path; call cudaGraphExecDestroy or hand it to an owner [cudagraph-unpaired-instantiate]
}

void clean_destroy_then_erase(cudaGraph_t g, int bs) {
  std::unordered_map<int, cudaGraphExec_t> cache;
  {
    cudaGraphExec_t e;
    cudaGraphInstantiate(&e, g, 0);
    cache.emplace(bs, e);
  }
  auto it = cache.find(bs);
  cudaGraphLaunch(it->second, 0);
  cudaGraphExecDestroy(it->second);
  cache.erase(it);
}

void leak_erase_by_key(cudaGraph_t g, int bs) {
  std::map<int, cudaGraphExec_t> cache;
  {
    cudaGraphExec_t e;
    cudaGraphInstantiate(&e, g, 0);
    cache[bs] = e;
  }
  cache.erase(bs);
  // CHECK-MESSAGES-EXEC: :[[@LINE-1]]:3: warning: graph exec 'e' created by 'cudaGraphInstantiate' is not destroyed on every path; call cudaGraphExecDestroy or hand it to an owner [cudagraph-unpaired-instantiate]
}

void clean_destroy_at_key_then_erase(cudaGraph_t g, int bs) {
  std::map<int, cudaGraphExec_t> cache;
  {
    cudaGraphExec_t e;
    cudaGraphInstantiate(&e, g, 0);
    cache[bs] = e;
  }
  cudaGraphExecDestroy(cache.at(bs));
  cache.erase(bs);
}

void leak_instantiated_in_place(cudaGraph_t g, int n) {
  std::map<int, cudaGraphExec_t> cache;
  for (int bs = 1; bs <= n; bs *= 2)
    cudaGraphInstantiate(&cache[bs], g, 0);
  // CHECK-MESSAGES-EXEC: :[[@LINE-1]]:5: warning: graph exec 'cache[]' created by 'cudaGraphInstantiate' is not destroyed on every path; call cudaGraphExecDestroy or hand it to an owner [cudagraph-unpaired-instantiate]
}

void clean_instantiated_in_place(cudaGraph_t g, int n) {
  std::map<int, cudaGraphExec_t> cache;
  for (int bs = 1; bs <= n; bs *= 2)
    cudaGraphInstantiate(&cache[bs], g, 0);
  for (auto &[bs, exec] : cache)
    cudaGraphExecDestroy(exec);
  cache.clear();
}

void clean_iterator_loop(cudaGraph_t g, int n) {
  std::map<int, cudaGraphExec_t> cache;
  for (int bs = 1; bs <= n; bs *= 2) {
    cudaGraphExec_t e;
    cudaGraphInstantiate(&e, g, 0);
    cache.insert({bs, e});
  }
  for (auto it = cache.begin(); it != cache.end(); ++it)
    cudaGraphExecDestroy(it->second);
}

void leak_insert_pair_then_clear(cudaGraph_t g, int n) {
  std::map<int, cudaGraphExec_t> cache;
  for (int bs = 1; bs <= n; bs *= 2) {
    cudaGraphExec_t e;
    cudaGraphInstantiate(&e, g, 0);
    cache.insert(std::make_pair(bs, e));
  }
  cache.clear();
  // CHECK-MESSAGES-EXEC: :[[@LINE-1]]:3: warning: graph exec 'e' created by 'cudaGraphInstantiate' is not destroyed on every path; call cudaGraphExecDestroy or hand it to an owner [cudagraph-unpaired-instantiate]
}

// An assignment over the element at the same constant key.
void leak_overwrite_same_key(cudaGraph_t g, cudaGraph_t g2) {
  std::map<int, cudaGraphExec_t> cache;
  {
    cudaGraphExec_t e;
    cudaGraphInstantiate(&e, g, 0);
    cache[0] = e;
  }
  cudaGraphExec_t e2;
  cudaGraphInstantiate(&e2, g2, 0);
  cache[0] = e2;
  // CHECK-MESSAGES-EXEC: :[[@LINE-1]]:3: warning: graph exec 'e' created by 'cudaGraphInstantiate' is not destroyed on every path; call cudaGraphExecDestroy or hand it to an owner [cudagraph-unpaired-instantiate]
  for (auto &kv : cache)
    cudaGraphExecDestroy(kv.second);
}

void clean_overwrite_after_destroy(cudaGraph_t g, cudaGraph_t g2) {
  std::map<int, cudaGraphExec_t> cache;
  {
    cudaGraphExec_t e;
    cudaGraphInstantiate(&e, g, 0);
    cache[0] = e;
  }
  cudaGraphExec_t e2;
  cudaGraphInstantiate(&e2, g2, 0);
  cudaGraphExecDestroy(cache[0]);
  cache[0] = e2;
  for (auto &kv : cache)
    cudaGraphExecDestroy(kv.second);
}

// Keys spelled alike in a loop are different values: no overwrite.
void clean_fill_by_variable_key(cudaGraph_t g, int n) {
  std::map<int, cudaGraphExec_t> cache;
  for (int bs = 1; bs <= n; bs *= 2) {
    cudaGraphExec_t e;
    cudaGraphInstantiate(&e, g, 0);
    cache[bs] = e;
  }
  for (auto &kv : cache)
    cudaGraphExecDestroy(kv.second);
}

// ---- a member cache: inserted by one method, evicted by another -----------

class GraphCache {
public:
  void put(int bs, cudaGraph_t g) {
    cudaGraphExec_t e;
    cudaGraphInstantiate(&e, g, 0);
    execs_[bs] = e;
  }
  void evict_forgetting_destroy(int bs) {
    auto it = execs_.find(bs);
    if (it == execs_.end())
      return;
    execs_.erase(it);
    // CHECK-MESSAGES-EXEC: :[[@LINE-1]]:5: warning: graph exec 'execs_[]' created by 'cudaGraphInstantiate' is not destroyed on every path; call cudaGraphExecDestroy or hand it to an owner [cudagraph-unpaired-instantiate]
  }
  void evict(int bs) {
    auto it = execs_.find(bs);
    if (it == execs_.end())
      return;
    cudaGraphExecDestroy(it->second);
    execs_.erase(it);
  }
  void launch(int bs, cudaStream_t s) { cudaGraphLaunch(execs_.at(bs), s); }
  ~GraphCache() {
    for (auto &kv : execs_)
      cudaGraphExecDestroy(kv.second);
    execs_.clear();
  }

private:
  std::unordered_map<int, cudaGraphExec_t> execs_;
};

// An event pool that moves the used events into the free list with a range
// insert before clearing the used list: the free list holds them now. The
// twin clears the used list without moving them.
class RecyclingEventPool {
public:
  ~RecyclingEventPool() {
    for (cudaEvent_t e : free_)
      cudaEventDestroy(e);
    for (cudaEvent_t e : used_)
      cudaEventDestroy(e);
  }
  cudaEvent_t acquire() {
    cudaEvent_t e = nullptr;
    if (cudaEventCreate(&e) != cudaSuccess)
      return nullptr;
    used_.push_back(e);
    return e;
  }
  void recycle() {
    free_.insert(free_.end(), used_.begin(), used_.end());
    used_.clear();
  }
  void recycle_forgetting_move() {
    used_.clear();
    // CHECK-MESSAGES-LEAK: :[[@LINE-1]]:5: warning: event 'used_[]' created by 'cudaEventCreate' is not released on every path; {{.*}} [cudagraph-handle-leak]
  }

private:
  std::vector<cudaEvent_t> free_, used_;
};

// An LRU cache that hands the victim to a helper before erasing it.
void retire(cudaGraphExec_t e);
class LruCache {
public:
  void put(int bs, cudaGraph_t g) {
    cudaGraphExec_t e;
    cudaGraphInstantiate(&e, g, 0);
    execs_.emplace(bs, e);
    if (execs_.size() > 8) {
      auto victim = execs_.begin();
      retire(victim->second);
      execs_.erase(victim);
    }
  }
  void shrink() {
    while (!execs_.empty()) {
      auto victim = execs_.begin();
      cudaGraphExecDestroy(victim->second);
      execs_.erase(victim);
    }
  }
  ~LruCache() { shrink(); }

private:
  std::map<int, cudaGraphExec_t> execs_;
};

// ---- owning classes in vectors: the move constructor must null the source --

class StreamOwner {
public:
  StreamOwner() { cudaStreamCreate(&s_); }
  StreamOwner(StreamOwner &&other) noexcept : s_(other.s_) {}
  ~StreamOwner() {
    if (s_)
      cudaStreamDestroy(s_);
    // CHECK-MESSAGES-UAF: :[[@LINE-1]]:7: warning: 's_' is released again by 'cudaStreamDestroy' (undefined behaviour) [cudagraph-use-after-dealloc]
  }

private:
  cudaStream_t s_ = nullptr;
};

class StreamOwnerNulls {
public:
  StreamOwnerNulls() { cudaStreamCreate(&s_); }
  StreamOwnerNulls(StreamOwnerNulls &&other) noexcept : s_(other.s_) { other.s_ = nullptr; }
  ~StreamOwnerNulls() {
    if (s_)
      cudaStreamDestroy(s_);
  }

private:
  cudaStream_t s_ = nullptr;
};

class StreamOwnerExchanges {
public:
  StreamOwnerExchanges() { cudaStreamCreate(&s_); }
  StreamOwnerExchanges(StreamOwnerExchanges &&other) noexcept
      : s_(std::exchange(other.s_, nullptr)) {}
  StreamOwnerExchanges &operator=(StreamOwnerExchanges &&other) noexcept {
    std::swap(s_, other.s_);
    return *this;
  }
  ~StreamOwnerExchanges() {
    if (s_)
      cudaStreamDestroy(s_);
  }

private:
  cudaStream_t s_ = nullptr;
};

class EventOwnerBadAssign {
public:
  EventOwnerBadAssign() { cudaEventCreate(&e_); }
  EventOwnerBadAssign(const EventOwnerBadAssign &) = delete;
  EventOwnerBadAssign &operator=(EventOwnerBadAssign &&other) noexcept {
    e_ = other.e_;
    // CHECK-MESSAGES-LEAK: :[[@LINE-1]]:8: warning: 'operator=' overwrites 'e_', which still holds a live event; release it with cudaEventDestroy first [cudagraph-handle-leak]
    return *this;
  }
  ~EventOwnerBadAssign() { cudaEventDestroy(e_); }
  // CHECK-MESSAGES-UAF: :[[@LINE-1]]:28: warning: 'e_' is released again by 'cudaEventDestroy' (undefined behaviour) [cudagraph-use-after-dealloc]

private:
  cudaEvent_t e_ = nullptr;
};

class EventOwnerDeletedMove {
public:
  EventOwnerDeletedMove() { cudaEventCreate(&e_); }
  EventOwnerDeletedMove(EventOwnerDeletedMove &&) = delete;
  ~EventOwnerDeletedMove() { cudaEventDestroy(e_); }

private:
  cudaEvent_t e_ = nullptr;
};

void fill_owners(std::vector<StreamOwnerNulls> &v, std::vector<StreamOwnerExchanges> &w) {
  v.emplace_back();
  w.emplace_back();
}

// Re-instantiating into an element a map already holds (issue 36 item 3):
// `&kv.second` of a loop over the map, `&cache.at(k)`, name an element that
// exists, so the exec it holds is lost unless destroyed first.
class ShapeExecCache {
public:
  ~ShapeExecCache() {
    for (auto &kv : execs_)
      cudaGraphExecDestroy(kv.second);
  }
  void add(int batch, cudaGraph_t g) {
    cudaGraphExec_t e;
    if (cudaGraphInstantiate(&e, g, 0) == cudaSuccess)
      execs_.emplace(batch, e);
  }
  void bug_rebuild_all(cudaGraph_t g) {
    for (auto &kv : execs_)
      cudaGraphInstantiate(&kv.second, g, 0);
    // CHECK-MESSAGES-EXEC: :[[@LINE-1]]:7: warning: 'cudaGraphInstantiate' overwrites {{.*}} [cudagraph-unpaired-instantiate]
  }
  void ok_rebuild_all(cudaGraph_t g) {
    for (auto &kv : execs_) {
      cudaGraphExecDestroy(kv.second);
      cudaGraphInstantiate(&kv.second, g, 0);
    }
  }
  void bug_rebuild_one(int batch, cudaGraph_t g) {
    if (execs_.count(batch) != 0)
      cudaGraphInstantiate(&execs_.at(batch), g, 0);
    // CHECK-MESSAGES-EXEC: :[[@LINE-1]]:7: warning: 'cudaGraphInstantiate' overwrites {{.*}} [cudagraph-unpaired-instantiate]
  }
  void ok_rebuild_one(int batch, cudaGraph_t g) {
    auto it = execs_.find(batch);
    if (it == execs_.end())
      return;
    cudaGraphExecDestroy(it->second);
    cudaGraphInstantiate(&it->second, g, 0);
  }
  void run(int batch, cudaStream_t s) { cudaGraphLaunch(execs_.at(batch), s); }
  // A `this`-call between the lookup and the re-instantiation that never
  // names `execs_` (nor do the methods it calls) leaves the element as it
  // was.
  void bug_rebuild_captured(int batch, cudaStream_t s) {
    auto it = execs_.find(batch);
    cudaGraph_t g = capture(s);
    if (it != execs_.end())
      cudaGraphInstantiate(&it->second, g, 0);
    // CHECK-MESSAGES-EXEC: :[[@LINE-1]]:7: warning: 'cudaGraphInstantiate' overwrites {{.*}} [cudagraph-unpaired-instantiate]
    cudaGraphDestroy(g);
  }
  void ok_rebuild_captured(int batch, cudaStream_t s) {
    auto it = execs_.find(batch);
    cudaGraph_t g = capture(s);
    if (it != execs_.end()) {
      cudaGraphExecDestroy(it->second);
      cudaGraphInstantiate(&it->second, g, 0);
    }
    cudaGraphDestroy(g);
  }

private:
  cudaGraph_t capture(cudaStream_t s) {
    cudaGraph_t g = nullptr;
    cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal);
    record(s);
    cudaStreamEndCapture(s, &g);
    return g;
  }
  void record(cudaStream_t s) { cudaMemsetAsync(scratch_, 0, 64, s); }
  float *scratch_ = nullptr;
  std::map<int, cudaGraphExec_t> execs_;
};

// A vector's slots may be fresh: creating into them only accumulates.
class StreamPool {
public:
  ~StreamPool() {
    for (cudaStream_t s : streams_)
      cudaStreamDestroy(s);
  }
  void ok_grow(size_t n) {
    size_t old = streams_.size();
    streams_.resize(n);
    for (size_t i = old; i < n; ++i)
      cudaStreamCreate(&streams_[i]);
  }

private:
  std::vector<cudaStream_t> streams_;
};

// ---- handles in a member of a struct-valued element ----------------------
// `std::map<int, Slot>` with `Slot::exec`, the struct's one pointer member:
// `kv.second.exec`, `it->second.exec`, `v[i].exec` are the element's handle.

class SlotCache {
public:
  ~SlotCache() {
    for (auto &kv : m_)
      cudaGraphExecDestroy(kv.second.exec);
  }
  void put(int key, cudaGraph_t g) {
    if (m_.size() >= 4)
      evict();
    Slot sl;
    if (cudaGraphInstantiate(&sl.exec, g, 0) != cudaSuccess)
      return;
    m_.emplace(key, sl);
  }
  void run(int key, cudaStream_t s) { cudaGraphLaunch(m_.at(key).exec, s); }

private:
  struct Slot {
    cudaGraphExec_t exec = nullptr;
    int uses = 0;
  };
  void evict() { m_.erase(m_.begin()); }
  // CHECK-MESSAGES-EXEC: :[[@LINE-1]]:18: warning: graph exec 'm_[]' created by 'cudaGraphInstantiate' is not destroyed on every path; call cudaGraphExecDestroy or hand it to an owner [cudagraph-unpaired-instantiate]
  std::map<int, Slot> m_;
};

class SlotCacheDestroysVictim {
public:
  ~SlotCacheDestroysVictim() {
    for (auto &[k, sl] : m_)
      cudaGraphExecDestroy(sl.exec);
  }
  void put(int key, cudaGraph_t g) {
    if (m_.size() >= 4)
      evict();
    Slot sl;
    if (cudaGraphInstantiate(&sl.exec, g, 0) != cudaSuccess)
      return;
    m_.emplace(key, sl);
  }

private:
  struct Slot {
    cudaGraphExec_t exec = nullptr;
    int uses = 0;
  };
  void evict() {
    auto victim = m_.begin();
    cudaGraphExecDestroy(victim->second.exec);
    m_.erase(victim);
  }
  std::map<int, Slot> m_;
};

// The iterator used where it is made: `m_.begin()->second` is the victim.
class ExecCacheDestroysBegin {
public:
  ~ExecCacheDestroysBegin() {
    for (auto &kv : m_)
      cudaGraphExecDestroy(kv.second);
  }
  void put(int key, cudaGraph_t g) {
    if (m_.size() >= 4)
      evict();
    cudaGraphExec_t e;
    if (cudaGraphInstantiate(&e, g, 0) != cudaSuccess)
      return;
    m_.emplace(key, e);
  }

private:
  void evict() {
    cudaGraphExecDestroy(m_.begin()->second);
    m_.erase(m_.begin());
  }
  std::map<int, cudaGraphExec_t> m_;
};

struct StreamSlot {
  cudaStream_t stream;
  int prio;
};
void leak_struct_slots_end_of_life(int n) {
  std::vector<StreamSlot> v;
  for (int i = 0; i < n; ++i) {
    StreamSlot s;
    if (cudaStreamCreate(&s.stream) != cudaSuccess)
    // CHECK-MESSAGES-LEAK: :[[@LINE-1]]:9: warning: stream 's.stream' created by 'cudaStreamCreate' is not released on every path; call cudaStreamDestroy or hand it to an owner [cudagraph-handle-leak]
      return;
    s.prio = i;
    v.push_back(s);
  }
}
void ok_struct_slots_destroyed(int n) {
  std::vector<StreamSlot> v;
  for (int i = 0; i < n; ++i) {
    StreamSlot s;
    if (cudaStreamCreate(&s.stream) != cudaSuccess)
      break;
    s.prio = i;
    v.push_back(s);
  }
  for (auto &s : v)
    cudaStreamDestroy(s.stream);
}
void ok_struct_slots_destroyed_by_index(int n) {
  std::vector<StreamSlot> v;
  for (int i = 0; i < n; ++i) {
    StreamSlot s;
    if (cudaStreamCreate(&s.stream) != cudaSuccess)
      break;
    v.push_back(s);
  }
  for (size_t i = 0; i < v.size(); ++i)
    cudaStreamDestroy(v[i].stream);
}

// Two pointer members: which one is the handle is not guessed.
struct StreamAndEvent {
  cudaStream_t s;
  cudaEvent_t e;
};
void ok_two_pointer_struct_not_followed() {
  std::vector<StreamAndEvent> v;
  StreamAndEvent t;
  if (cudaStreamCreate(&t.s) != cudaSuccess)
    return;
  v.push_back(t);
  v.clear();
}

// A std::pair element is the pair case (`p.second`), not a struct of ours.
void ok_pairs_destroyed_through_second(cudaGraph_t g, int n) {
  std::vector<std::pair<int, cudaGraphExec_t>> local;
  for (int i = 0; i < n; ++i) {
    cudaGraphExec_t e = nullptr;
    if (cudaGraphInstantiate(&e, g, 0) != cudaSuccess)
      break;
    local.push_back({i, e});
  }
  for (auto &p : local)
    cudaGraphExecDestroy(p.second);
}

// A release loop one short (issue 36): the pool is filled from index 0 and
// the destructor's loop, the only release of its elements, starts at 1.
class StreamPoolFromOne {
public:
  explicit StreamPoolFromOne(int n) {
    for (int i = 0; i < n; ++i) {
      cudaStream_t s;
      if (cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking) != cudaSuccess)
        break;
      streams_.push_back(s);
    }
  }
  ~StreamPoolFromOne() {
    for (size_t i = 1; i < streams_.size(); ++i)
      // CHECK-MESSAGES-LEAK: :[[@LINE-1]]:5: warning: stream 'streams_[0]' {{.*}}is not released on every path; call cudaStreamDestroy{{.*}} [cudagraph-handle-leak]
      cudaStreamDestroy(streams_[i]);
  }

private:
  std::vector<cudaStream_t> streams_;
};
class StreamPoolAll {
public:
  explicit StreamPoolAll(int n) {
    for (int i = 0; i < n; ++i) {
      cudaStream_t s;
      if (cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking) != cudaSuccess)
        break;
      streams_.push_back(s);
    }
  }
  ~StreamPoolAll() {
    for (size_t i = 0; i < streams_.size(); ++i)
      cudaStreamDestroy(streams_[i]);
  }

private:
  std::vector<cudaStream_t> streams_;
};
// The last one skipped; and a pool whose first stream is released on its
// own before the loop from 1 (two release sites: nothing is said).
class EventRingShort {
public:
  void add() {
    cudaEvent_t e;
    if (cudaEventCreate(&e) == cudaSuccess)
      events_.push_back(e);
  }
  ~EventRingShort() {
    for (size_t i = 0; i < events_.size() - 1; ++i)
      // CHECK-MESSAGES-LEAK: :[[@LINE-1]]:5: warning: event 'events_' {{.*}}is not released on every path; call cudaEventDestroy{{.*}} [cudagraph-handle-leak]
      cudaEventDestroy(events_[i]);
  }

private:
  std::vector<cudaEvent_t> events_;
};
class StreamPoolFirstApart {
public:
  void add() {
    cudaStream_t s;
    if (cudaStreamCreate(&s) == cudaSuccess)
      streams_.push_back(s);
  }
  ~StreamPoolFirstApart() {
    if (!streams_.empty())
      cudaStreamDestroy(streams_[0]);
    for (size_t i = 1; i < streams_.size(); ++i)
      cudaStreamDestroy(streams_[i]);
  }

private:
  std::vector<cudaStream_t> streams_;
};

// Handles a helper of the class returns (made, or taken from a free list)
// and the method puts into a member container, alone or inside a struct
// (issue 36): a clear() that drops them while live is a leak; moving them
// to the free list first is not.
struct InflightBatch {
  cudaEvent_t done;
  int id;
};
class BatchTracker {
public:
  ~BatchTracker() {
    for (auto &b : inflight_)
      cudaEventDestroy(b.done);
    for (cudaEvent_t e : free_)
      cudaEventDestroy(e);
  }
  void submit(int id) {
    InflightBatch b;
    b.id = id;
    b.done = acquire();
    inflight_.push_back(b);
  }
  void abort_all() {
    inflight_.clear();
    // CHECK-MESSAGES-LEAK: :[[@LINE-1]]:5: warning: event 'inflight_[]' created by 'acquire' is not released on every path; {{.*}} [cudagraph-handle-leak]
  }
  void abort_all_recycling() {
    for (auto &b : inflight_)
      free_.push_back(b.done);
    inflight_.clear();
  }

private:
  cudaEvent_t acquire() {
    if (!free_.empty()) {
      cudaEvent_t e = free_.back();
      free_.pop_back();
      return e;
    }
    cudaEvent_t e = nullptr;
    cudaEventCreateWithFlags(&e, cudaEventDisableTiming);
    return e;
  }
  std::vector<InflightBatch> inflight_;
  std::vector<cudaEvent_t> free_;
};
cudaStream_t make_stream() {
  cudaStream_t s = nullptr;
  cudaStreamCreate(&s);
  return s;
}
class StreamList {
public:
  ~StreamList() {
    for (cudaStream_t s : streams_)
      cudaStreamDestroy(s);
  }
  void grow() {
    cudaStream_t s = make_stream();
    streams_.push_back(s);
  }
  void reset_forgetting() {
    streams_.clear();
    // CHECK-MESSAGES-LEAK: :[[@LINE-1]]:5: warning: stream 'streams_[]' created by 'make_stream' is not released on every path; {{.*}} [cudagraph-handle-leak]
  }
  void reset() {
    for (cudaStream_t s : streams_)
      cudaStreamDestroy(s);
    streams_.clear();
  }

private:
  std::vector<cudaStream_t> streams_;
};
