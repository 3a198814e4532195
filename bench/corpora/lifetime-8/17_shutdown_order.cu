// Shutdown of a copy engine. shutdown_buggy destroys the streams and then drains
// one of them; shutdown_ok drains first. flush_and_close uses the same stream
// handle after a conditional destroy, but only on the other branch. 
#include <cuda_runtime.h>

struct CopyEngine {
  cudaStream_t h2d;
  cudaStream_t d2h;
  cudaEvent_t fence;
};

void shutdown_buggy(CopyEngine *ce) {
  cudaEventDestroy(ce->fence);
  cudaStreamDestroy(ce->h2d);
  cudaStreamDestroy(ce->d2h);
  cudaStreamSynchronize(ce->d2h); // EXPECT: cudagraph-use-after-dealloc
}

void shutdown_ok(CopyEngine *ce) {
  cudaStreamSynchronize(ce->h2d);
  cudaStreamSynchronize(ce->d2h);
  cudaEventDestroy(ce->fence);
  cudaStreamDestroy(ce->h2d);
  cudaStreamDestroy(ce->d2h);
}

void flush_and_close(cudaStream_t s, bool close) {
  if (close) cudaStreamDestroy(s);
  // ... statistics ...
  if (!close) cudaStreamSynchronize(s);
}

void local_copy(void *dst, const void *src, size_t bytes) {
  cudaStream_t s;
  if (cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking) != cudaSuccess) return;
  cudaEvent_t done;
  if (cudaEventCreateWithFlags(&done, cudaEventBlockingSync | cudaEventDisableTiming) != cudaSuccess) {
    cudaStreamDestroy(s);
    return;
  }
  cudaMemcpyAsync(dst, src, bytes, cudaMemcpyDefault, s);
  cudaEventRecord(done, s);
  cudaStreamDestroy(s); // legal: pending work completes, then the stream is freed
  cudaEventSynchronize(done);
  cudaEventDestroy(done);
}
