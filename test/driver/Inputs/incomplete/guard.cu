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
