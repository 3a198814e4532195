// RUN: %cudagraph_tidy --format=text-plain --result-cache=off --quiet %s -- %cuda_args 2>&1 | FileCheck %s --check-prefix=CLEAN --allow-empty
// RUN: not %cudagraph_tidy --format=text-plain --result-cache=off --quiet %s -- %cuda_args -DBUGGY 2>&1 | FileCheck %s --check-prefix=BUGGY
// CLEAN-NOT: warning:
// BUGGY: warning: {{.*}} [cudagraph-use-after-dealloc]
// Reduction corpus/27-copied-owner-use-not-reported.cu of ../shared/shapes/2026-12-04 (issues 35, 36).
// Class: an owner copied by its implicit copy constructor (or moved by a move constructor that
// leaves the source owning) frees its member twice. The double release is reported at the
// destructor; the uses through the surviving owner between the two releases are not.
// Clean: the workspace is borrowed by reference; silent.
// Buggy (-DBUGGY): `auto ws = workspace();` copies it; the copy frees the buffer when warmup()
//   returns, then run() launches on it. Reported: line 11; not reported: the use on line 23.
#include <cuda_runtime.h>
class DeviceBuffer {
 public:
  explicit DeviceBuffer(size_t n) : n_(n) { cudaMalloc(&p_, n * sizeof(float)); }
  ~DeviceBuffer() { if (p_ != nullptr) cudaFree(p_); }
  float* data() const { return p_; }
  size_t size() const { return n_; }
 private:
  float* p_ = nullptr;
  size_t n_;
};
__global__ void fill(float* p, size_t n) { size_t i = threadIdx.x; if (i < n) p[i] = 0.f; }
class Engine {
 public:
  explicit Engine(size_t n) : ws_(n) {}
  DeviceBuffer& workspace() { return ws_; }
  void run(cudaStream_t s) { fill<<<1, 256, 0, s>>>(ws_.data(), ws_.size()); }
  void warmup(cudaStream_t s) {
#ifdef BUGGY
    auto ws = workspace();
#else
    auto& ws = workspace();
#endif
    fill<<<1, 256, 0, s>>>(ws.data(), ws.size());
  }
 private:
  DeviceBuffer ws_;
};
void serve(cudaStream_t s, int n) {
  Engine e(4096);
  e.warmup(s);
  for (int i = 0; i < n; ++i) e.run(s);
}
