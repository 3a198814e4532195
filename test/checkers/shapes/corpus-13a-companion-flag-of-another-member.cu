// RUN: %cudagraph_tidy --format=text-plain --result-cache=off --quiet %s -- %cuda_args 2>&1 | FileCheck %s --check-prefix=CLEAN --allow-empty
// RUN: not %cudagraph_tidy --format=text-plain --result-cache=off --quiet %s -- %cuda_args -DBUGGY 2>&1 | FileCheck %s --check-prefix=BUGGY
// CLEAN-NOT: warning:
// BUGGY: warning: {{.*}} [cudagraph-handle-leak]
// Reduction corpus/13a-companion-flag-of-another-member.cu of ../shared/shapes/2026-12-04 (issues 35, 36).
// Class: a member flag the acquiring method writes (here `own_`, which says whether the
// *stream* is owned) is taken as the flag that says whether *every* member that method
// acquires is live; a destructor that returns early on that flag is then not judged, though
// the pinned buffer it skips is acquired on every path.
// Clean: the destructor tests the flag only around the stream; silent.
// Buggy twin (-DBUGGY): `if (!own_) return;` skips cudaFreeHost for borrowed streams;
//   must report, the analyzer is silent (FN). (An unrelated global flag there is reported.)
#include <cuda_runtime.h>
class Uploader {
 public:
  explicit Uploader(size_t bytes, cudaStream_t shared = nullptr) {
    if (shared != nullptr) { s_ = shared; own_ = false; }
    else { cudaStreamCreate(&s_); own_ = true; }
    cudaMallocHost(&stage_, bytes);
  }
  ~Uploader() {
#ifndef BUGGY
    if (own_) cudaStreamDestroy(s_);
#else
    if (!own_) return;  // borrowed stream: the caller tears it down
    cudaStreamDestroy(s_);
#endif
    cudaFreeHost(stage_);
  }
  Uploader(const Uploader&) = delete;
  Uploader& operator=(const Uploader&) = delete;
  void push(void* dst, size_t n) { cudaMemcpyAsync(dst, stage_, n, cudaMemcpyHostToDevice, s_); }
 private:
  cudaStream_t s_ = nullptr;
  bool own_ = false;
  void* stage_ = nullptr;
};
void use(cudaStream_t s, void* d, size_t n, bool share) {
  Uploader u(n, share ? s : nullptr);
  u.push(d, n);
}
