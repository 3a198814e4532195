// RUN: %cudagraph_tidy --format=text-plain --result-cache=off --quiet %s -- %cuda_args 2>&1 | FileCheck %s --check-prefix=CLEAN --allow-empty
// RUN: not %cudagraph_tidy --format=text-plain --result-cache=off --quiet %s -- %cuda_args -DBUGGY 2>&1 | FileCheck %s --check-prefix=BUGGY
// CLEAN-NOT: warning:
// BUGGY: warning: {{.*}} [cudagraph-capture-unsafe-call]
// Reduction corpus/23-const-ref-struct-stream.cu of ../shared/shapes/2026-12-04 (issues 35, 36).
// Class: a stream held in a member of a struct passed by `const T&` (`st.work`): a member of a
// reference parameter names no place outside helper summaries (and only for non-const
// references there), so the capture begun on it is not followed and calls that break it are
// not reported. By value or through a pointer (`st->work`) the same code is reported.
// Clean: no host synchronization inside the capture; silent.
// Buggy twin (-DBUGGY): a debug cudaDeviceSynchronize inside the capture; must report, silent (FN).
#include <cuda_runtime.h>
struct Streams {
  cudaStream_t work;
  cudaStream_t copy;
};
__global__ void k(float* x) { x[threadIdx.x] += 1.f; }
cudaError_t record(const Streams& st, float* d, bool debug, cudaGraph_t* out) {
  cudaError_t err = cudaStreamBeginCapture(st.work, cudaStreamCaptureModeGlobal);
  if (err != cudaSuccess) return err;
  k<<<1, 32, 0, st.work>>>(d);
#ifdef BUGGY
  if (debug) cudaDeviceSynchronize();
#else
  (void)debug;
#endif
  k<<<1, 32, 0, st.work>>>(d);
  return cudaStreamEndCapture(st.work, out);
}
