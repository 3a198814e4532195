// Test utilities: RAII wrappers around graph handles plus a handful of unit
// tests that use them. ASSERT_* macros return from the test on failure.
#include <cuda_runtime.h>
#include <cstdio>
#include <memory>
#include <utility>
#include <vector>

namespace testutil {

static int g_failures = 0;

#define ASSERT_CUDA(x)                                                       \
  do {                                                                       \
    cudaError_t e_ = (x);                                                    \
    if (e_ != cudaSuccess) {                                                 \
      std::printf("FAIL %s:%d %s\n", __FILE__, __LINE__, cudaGetErrorString(e_)); \
      ++g_failures;                                                          \
      return;                                                                \
    }                                                                        \
  } while (0)

#define ASSERT_TRUE(c)                                                       \
  do {                                                                       \
    if (!(c)) {                                                              \
      std::printf("FAIL %s:%d %s\n", __FILE__, __LINE__, #c);                \
      ++g_failures;                                                          \
      return;                                                                \
    }                                                                        \
  } while (0)

class UniqueGraph {
 public:
  UniqueGraph() = default;
  explicit UniqueGraph(cudaGraph_t g) : g_(g) {}
  ~UniqueGraph() { if (g_) cudaGraphDestroy(g_); }
  UniqueGraph(UniqueGraph&& o) noexcept : g_(std::exchange(o.g_, nullptr)) {}
  UniqueGraph& operator=(UniqueGraph&& o) noexcept {
    if (this != &o) { if (g_) cudaGraphDestroy(g_); g_ = std::exchange(o.g_, nullptr); }
    return *this;
  }
  cudaGraph_t get() const { return g_; }
  cudaGraph_t* out() { return &g_; }
 private:
  cudaGraph_t g_ = nullptr;
};

class UniqueExec {
 public:
  UniqueExec() = default;
  explicit UniqueExec(cudaGraphExec_t e) : e_(e) {}
  ~UniqueExec() { reset(); }
  UniqueExec(const UniqueExec&) = delete;
  UniqueExec& operator=(const UniqueExec&) = delete;
  UniqueExec(UniqueExec&& o) noexcept : e_(std::exchange(o.e_, nullptr)) {}
  UniqueExec& operator=(UniqueExec&& o) noexcept {
    if (this != &o) reset(std::exchange(o.e_, nullptr));
    return *this;
  }
  void reset(cudaGraphExec_t e = nullptr) {
    if (e_) cudaGraphExecDestroy(e_);
    e_ = e;
  }
  cudaGraphExec_t get() const { return e_; }
  cudaGraphExec_t release() { return std::exchange(e_, nullptr); }
 private:
  cudaGraphExec_t e_ = nullptr;
};

struct ExecDeleter {
  void operator()(CUgraphExec_st* e) const { cudaGraphExecDestroy(e); }
};
using ExecPtr = std::unique_ptr<CUgraphExec_st, ExecDeleter>;

__global__ void fill(int* p, int v, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) p[i] = v;
}

static UniqueGraph capture_fill(cudaStream_t s, int* p, int v, int n) {
  UniqueGraph g;
  if (cudaStreamBeginCapture(s, cudaStreamCaptureModeThreadLocal) != cudaSuccess) return g;
  fill<<<(n + 127) / 128, 128, 0, s>>>(p, v, n);
  cudaStreamEndCapture(s, g.out());
  return g;
}

static UniqueExec make_exec(cudaGraph_t g) {
  cudaGraphExec_t e = nullptr;
  if (cudaGraphInstantiate(&e, g, 0) != cudaSuccess) return UniqueExec();
  return UniqueExec(e);
}

struct Fixture {
  cudaStream_t s = nullptr;
  int* buf = nullptr;
  int n = 4096;
  Fixture() { cudaStreamCreate(&s); cudaMalloc(&buf, n * sizeof(int)); }
  ~Fixture() { cudaFree(buf); cudaStreamDestroy(s); }
  int read(int i) {
    int v = 0;
    cudaMemcpy(&v, buf + i, sizeof(int), cudaMemcpyDeviceToHost);
    return v;
  }
};

void test_fill_via_wrapper() {
  Fixture f;
  UniqueGraph g = capture_fill(f.s, f.buf, 7, f.n);
  ASSERT_TRUE(g.get() != nullptr);
  UniqueExec e = make_exec(g.get());
  ASSERT_TRUE(e.get() != nullptr);
  ASSERT_CUDA(cudaGraphLaunch(e.get(), f.s));
  ASSERT_CUDA(cudaStreamSynchronize(f.s));
  ASSERT_TRUE(f.read(100) == 7);
}

void test_fill_via_unique_ptr() {
  Fixture f;
  UniqueGraph g = capture_fill(f.s, f.buf, 3, f.n);
  ASSERT_TRUE(g.get() != nullptr);
  cudaGraphExec_t raw = nullptr;
  ASSERT_CUDA(cudaGraphInstantiate(&raw, g.get(), 0));
  ExecPtr e(raw);
  ASSERT_CUDA(cudaGraphLaunch(e.get(), f.s));
  ASSERT_CUDA(cudaStreamSynchronize(f.s));
  ASSERT_TRUE(f.read(0) == 3);
}

// Raw handle: the destroy is at the end, but every ASSERT returns early.
void test_relaunch_raw() {
  Fixture f;
  UniqueGraph g = capture_fill(f.s, f.buf, 5, f.n);
  ASSERT_TRUE(g.get() != nullptr);
  cudaGraphExec_t e = nullptr;
  ASSERT_CUDA(cudaGraphInstantiate(&e, g.get(), 0));  // EXPECT: cudagraph-unpaired-instantiate
  for (int i = 0; i < 3; ++i) ASSERT_CUDA(cudaGraphLaunch(e, f.s));
  ASSERT_CUDA(cudaStreamSynchronize(f.s));
  ASSERT_TRUE(f.read(f.n - 1) == 5);
  cudaGraphExecDestroy(e);
}

// Move semantics: the exec travels through a vector of wrappers.
void test_move_into_vector() {
  Fixture f;
  std::vector<UniqueExec> pool;
  for (int v = 0; v < 4; ++v) {
    UniqueGraph g = capture_fill(f.s, f.buf, v, f.n);
    ASSERT_TRUE(g.get() != nullptr);
    cudaGraphExec_t raw = nullptr;
    ASSERT_CUDA(cudaGraphInstantiate(&raw, g.get(), 0));
    pool.emplace_back(raw);
  }
  for (auto& e : pool) ASSERT_CUDA(cudaGraphLaunch(e.get(), f.s));
  ASSERT_CUDA(cudaStreamSynchronize(f.s));
  ASSERT_TRUE(f.read(1) == 3);
}

// reset() over a live exec destroys the old one first. Correct.
void test_reset_replaces() {
  Fixture f;
  UniqueExec holder;
  for (int v = 1; v <= 2; ++v) {
    UniqueGraph g = capture_fill(f.s, f.buf, v, f.n);
    cudaGraphExec_t raw = nullptr;
    ASSERT_CUDA(cudaGraphInstantiate(&raw, g.get(), 0));
    holder.reset(raw);
  }
  ASSERT_CUDA(cudaGraphLaunch(holder.get(), f.s));
  ASSERT_CUDA(cudaStreamSynchronize(f.s));
  ASSERT_TRUE(f.read(9) == 2);
}

// release() hands the raw handle out; a second wrapper adopts it at once.
void test_release_ownership() {
  Fixture f;
  UniqueGraph g = capture_fill(f.s, f.buf, 11, f.n);
  UniqueExec e = make_exec(g.get());
  ASSERT_TRUE(e.get() != nullptr);
  cudaGraphExec_t raw = e.release();
  UniqueExec adopted(raw);
  ASSERT_CUDA(cudaGraphLaunch(adopted.get(), f.s));
  ASSERT_CUDA(cudaStreamSynchronize(f.s));
  ASSERT_TRUE(f.read(2) == 11);
}

}  // namespace testutil

int run_all_tests() {
  testutil::test_fill_via_wrapper();
  testutil::test_fill_via_unique_ptr();
  testutil::test_relaunch_raw();
  testutil::test_move_into_vector();
  testutil::test_reset_replaces();
  testutil::test_release_ownership();
  std::printf("%d failures\n", testutil::g_failures);
  return testutil::g_failures == 0 ? 0 : 1;
}
