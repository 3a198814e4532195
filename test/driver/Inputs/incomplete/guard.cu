// A unit with a fatal error (a header that is not there): clang builds the
// rest, but instantiates no template it had not instantiated before.
#include <cuda_runtime.h>
#include <stdexcept>
#include "not_in_this_tree.h"
#include <memory>

#define CHECK(x) do { if ((x) != cudaSuccess) throw std::runtime_error("cuda"); } while (0)

struct PinnedDeleter {
  void operator()(void *p) const { if (p) cudaFreeHost(p); }
};

// The guard's declaration cannot be built (unique_ptr<void, PinnedDeleter>
// is a new instantiation): `h` handed to it is lost from the AST.
void guarded(int *dev) {
  void *h;
  CHECK(cudaMallocHost(&h, 64));
  std::unique_ptr<void, PinnedDeleter> guard(h);
  CHECK(cudaMemset(dev, 0, 4));
}

// Built whole: still analysed, its leak still reported.
void leaks(int *dev) {
  void *h;
  CHECK(cudaMallocHost(&h, 64));
  CHECK(cudaMemset(dev, 0, 4));
  cudaFreeHost(h);
}

// Lost code that names none of the places holding a resource: still
// analysed, the leak on the throw still reported.
void unrelated(int *dev) {
  void *h;
  CHECK(cudaMallocHost(&h, 64));
  std::unique_ptr<int, PinnedDeleter> other(nullptr);
  CHECK(cudaMemset(dev, 0, 4));
  cudaFreeHost(h);
}

// A move assignment that swaps with the source (tiny-cuda-nn's
// StreamAndEvent): std::swap is a new instantiation, so the calls are
// RecoveryExprs. What they did is unknown: no double release is claimed.
struct SwappingOwner {
  SwappingOwner() { cudaStreamCreate(&s_); }
  ~SwappingOwner() {
    if (s_) cudaStreamDestroy(s_);
  }
  SwappingOwner &operator=(SwappingOwner &&other) {
    std::swap(s_, other.s_);
    return *this;
  }
  SwappingOwner(SwappingOwner &&other) { *this = std::move(other); }
  cudaStream_t s_ = nullptr;
};

// Its twin copies the handle and leaves the source owning it: built whole,
// still reported at the destructor's release.
struct CopyingOwner {
  CopyingOwner() { cudaStreamCreate(&s_); }
  ~CopyingOwner() {
    if (s_) cudaStreamDestroy(s_);
  }
  CopyingOwner &operator=(CopyingOwner &&other) {
    s_ = other.s_;
    return *this;
  }
  cudaStream_t s_ = nullptr;
};
