// PLANTED: cudagraph-handle-leak line 48
// Disaggregated prefill/decode: the prefill process writes KV blocks into a shared
// buffer and sends, per message, an IPC event handle recorded after the write. The
// decode-side consumer imports the event, makes its stream wait on it and launches
// the KV scatter kernel.
#include <cuda_runtime.h>
#include <cstdint>
#include <cstdio>
#include <deque>

#define RETURN_IF_CUDA_ERR(expr)                                              \
  do {                                                                        \
    cudaError_t status_ = (expr);                                             \
    if (status_ != cudaSuccess) {                                             \
      fprintf(stderr, "%s failed: %s\n", #expr, cudaGetErrorString(status_)); \
      return status_;                                                         \
    }                                                                         \
  } while (0)

struct KvTransferMsg {
  cudaIpcEventHandle_t ready;  // recorded by the producer after the copy
  uint64_t request_id;
  int32_t first_block;
  int32_t num_blocks;
  int32_t layer;
};

__global__ void scatter_kv_blocks(const uint16_t* staging, uint16_t* kv_cache,
                                  const int32_t* block_table, int first_block,
                                  int num_blocks, int block_elems) {
  int b = blockIdx.x;
  if (b >= num_blocks) return;
  int dst = block_table[first_block + b];
  for (int i = threadIdx.x; i < block_elems; i += blockDim.x)
    kv_cache[(size_t)dst * block_elems + i] = staging[(size_t)b * block_elems + i];
}

class KvConsumer {
 public:
  KvConsumer(cudaStream_t stream, const uint16_t* staging, uint16_t* kv_cache,
             const int32_t* block_table, int block_elems)
      : stream_(stream), staging_(staging), kv_cache_(kv_cache),
        block_table_(block_table), block_elems_(block_elems) {}

  cudaError_t consume(const KvTransferMsg& msg) {
    if (msg.num_blocks <= 0) return cudaSuccess;
    cudaEvent_t producer_done;
    RETURN_IF_CUDA_ERR(cudaIpcOpenEventHandle(&producer_done, msg.ready));
    cudaError_t st = cudaStreamWaitEvent(stream_, producer_done, 0);
    if (st != cudaSuccess) {
      cudaEventDestroy(producer_done);
      return st;
    }
    scatter_kv_blocks<<<msg.num_blocks, 256, 0, stream_>>>(
        staging_, kv_cache_, block_table_, msg.first_block, msg.num_blocks, block_elems_);
    st = cudaGetLastError();
#ifndef BUGGY
    // The wait is enqueued; the imported handle is no longer needed.
    cudaEventDestroy(producer_done);
#endif
    ++consumed_;
    return st;
  }

  cudaError_t drain(std::deque<KvTransferMsg>& queue) {
    while (!queue.empty()) {
      KvTransferMsg msg = queue.front();
      queue.pop_front();
      RETURN_IF_CUDA_ERR(consume(msg));
    }
    return cudaSuccess;
  }

  uint64_t consumed() const { return consumed_; }

 private:
  cudaStream_t stream_;
  const uint16_t* staging_;
  uint16_t* kv_cache_;
  const int32_t* block_table_;
  int block_elems_;
  uint64_t consumed_ = 0;
};
