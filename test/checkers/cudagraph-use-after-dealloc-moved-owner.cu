// RUN: %check_cudagraph_tidy %s cudagraph-use-after-dealloc %t
//
// An owning class moved by a growing std::vector: a user-written move that
// copies the handle and leaves the source owning it makes both destructors
// release it. A move that hands ownership over by clearing the flag the
// destructor tests (`o.owns_ = false`) leaves one owner.
#include <cuda_runtime.h>
#include <utility>
#include <vector>

class FlagKept {
public:
  FlagKept() : owns_(cudaStreamCreate(&s_) == cudaSuccess) {}
  FlagKept(FlagKept &&o) noexcept : s_(o.s_), owns_(o.owns_) {}
  FlagKept(const FlagKept &) = delete;
  ~FlagKept() {
    if (owns_)
      cudaStreamDestroy(s_);
    // CHECK-NOTES: :[[@LINE-1]]:7: warning: 's_' is released again by 'cudaStreamDestroy' (undefined behaviour) [cudagraph-use-after-dealloc]
    // CHECK-NOTES: :[[@LINE-6]]:40: note: the move constructor of 'FlagKept' copies 's_' from the moved-from object without nulling it: after a move (a std::vector growing) both destructors release it
  }

private:
  cudaStream_t s_ = nullptr;
  bool owns_ = false;
};

class FlagCleared {
public:
  FlagCleared() : owns_(cudaStreamCreate(&s_) == cudaSuccess) {}
  FlagCleared(FlagCleared &&o) noexcept : s_(o.s_), owns_(o.owns_) { o.owns_ = false; }
  FlagCleared(const FlagCleared &) = delete;
  ~FlagCleared() {
    if (owns_)
      cudaStreamDestroy(s_);
  }

private:
  cudaStream_t s_ = nullptr;
  bool owns_ = false;
};

class FlagExchanged {
public:
  FlagExchanged() : owns_(cudaStreamCreate(&s_) == cudaSuccess) {}
  FlagExchanged(FlagExchanged &&o) noexcept : s_(o.s_), owns_(std::exchange(o.owns_, false)) {}
  FlagExchanged(const FlagExchanged &) = delete;
  ~FlagExchanged() {
    if (!owns_)
      return;
    cudaStreamDestroy(s_);
  }

private:
  cudaStream_t s_ = nullptr;
  bool owns_ = false;
};

void grow() {
  std::vector<FlagKept> a;
  a.emplace_back();
  a.emplace_back();
  std::vector<FlagCleared> b;
  b.emplace_back();
  b.emplace_back();
  std::vector<FlagExchanged> c;
  c.emplace_back();
  c.emplace_back();
}
