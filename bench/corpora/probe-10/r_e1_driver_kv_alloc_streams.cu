// PLANTED: cudagraph-stream-order line 63
// Driver-API paged KV block allocator of a C++ inference runtime: new blocks are
// allocated from the stream-ordered pool on the H2D stream (where the prompt's cached
// prefix is uploaded) and zero-filled for the tail on the compute stream.
#include <cuda.h>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <vector>

#define CU_RETURN(call)                                                     \
  do {                                                                      \
    CUresult r_ = (call);                                                   \
    if (r_ != CUDA_SUCCESS) {                                               \
      const char* msg_ = nullptr;                                           \
      cuGetErrorString(r_, &msg_);                                          \
      fprintf(stderr, "%s failed: %s\n", #call, msg_ ? msg_ : "?");         \
      return r_;                                                            \
    }                                                                       \
  } while (0)

struct RuntimeStreams {
  CUstream h2d;
  CUstream compute;
  CUevent h2d_done;
};

struct KvSegment {
  CUdeviceptr base = 0;
  size_t bytes = 0;
};

CUresult streams_init(RuntimeStreams* rs) {
  CU_RETURN(cuStreamCreate(&rs->h2d, CU_STREAM_NON_BLOCKING));
  CUresult r = cuStreamCreate(&rs->compute, CU_STREAM_NON_BLOCKING);
  if (r != CUDA_SUCCESS) {
    cuStreamDestroy(rs->h2d);
    return r;
  }
  r = cuEventCreate(&rs->h2d_done, CU_EVENT_DISABLE_TIMING);
  if (r != CUDA_SUCCESS) {
    cuStreamDestroy(rs->compute);
    cuStreamDestroy(rs->h2d);
  }
  return r;
}

// Allocates a segment for `total_bytes` of KV; the first `prefix_bytes` come from the
// host prefix cache, the rest is zeroed.
CUresult alloc_kv_segment(RuntimeStreams* rs, const void* host_prefix, size_t prefix_bytes,
                          size_t total_bytes, KvSegment* out) {
  if (prefix_bytes > total_bytes || (total_bytes - prefix_bytes) % 4 != 0)
    return CUDA_ERROR_INVALID_VALUE;
  CUdeviceptr d = 0;
  CU_RETURN(cuMemAllocAsync(&d, total_bytes, rs->h2d));
  CUresult r = CUDA_SUCCESS;
  if (prefix_bytes > 0) r = cuMemcpyHtoDAsync(d, host_prefix, prefix_bytes, rs->h2d);
#ifndef BUGGY
  if (r == CUDA_SUCCESS) r = cuEventRecord(rs->h2d_done, rs->h2d);
  if (r == CUDA_SUCCESS) r = cuStreamWaitEvent(rs->compute, rs->h2d_done, 0);
#endif
  if (r == CUDA_SUCCESS && total_bytes > prefix_bytes)
    r = cuMemsetD32Async(d + prefix_bytes, 0, (total_bytes - prefix_bytes) / 4, rs->compute);
  if (r != CUDA_SUCCESS) {
    cuStreamSynchronize(rs->compute);
    cuMemFreeAsync(d, rs->h2d);
    return r;
  }
  out->base = d;
  out->bytes = total_bytes;
  return CUDA_SUCCESS;
}

CUresult free_kv_segment(RuntimeStreams* rs, KvSegment* seg) {
  if (!seg->base) return CUDA_SUCCESS;
  CU_RETURN(cuStreamSynchronize(rs->compute));
  CU_RETURN(cuMemFreeAsync(seg->base, rs->h2d));
  seg->base = 0;
  seg->bytes = 0;
  return CUDA_SUCCESS;
}

void streams_destroy(RuntimeStreams* rs) {
  cuStreamSynchronize(rs->compute);
  cuStreamSynchronize(rs->h2d);
  cuEventDestroy(rs->h2d_done);
  cuStreamDestroy(rs->compute);
  cuStreamDestroy(rs->h2d);
}
