#define BUGGY
// PLANTED: cudagraph-handle-leak line 71
// Producer/consumer hand-off between a prefill worker process and a decode
// worker process: the producer records an interprocess event after writing the
// KV blocks, the consumer imports it and makes its stream wait on it.
#include <cuda_runtime.h>
#include <cstdint>
#include <cstdio>
#include <cstring>

#define CHECK_CUDA_RET(call)                                                   \
  do {                                                                         \
    cudaError_t err__ = (call);                                                \
    if (err__ != cudaSuccess) {                                                \
      std::fprintf(stderr, "%s:%d %s -> %s\n", __FILE__, __LINE__, #call,      \
                   cudaGetErrorName(err__));                                   \
      return err__;                                                            \
    }                                                                          \
  } while (0)

struct KvHandoffMsg {
  cudaIpcMemHandle_t blocks;
  cudaIpcEventHandle_t ready;
  uint64_t seq_id;
  uint32_t num_blocks;
  uint32_t block_bytes;
};

struct DecodeWorker {
  cudaStream_t stream;
  void *kv_pool;
  size_t kv_pool_bytes;
  uint32_t next_free_block;
};

__global__ void copy_blocks(const uint4 *__restrict__ src, uint4 *__restrict__ dst,
                            size_t n_vec) {
  for (size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x; i < n_vec;
       i += (size_t)gridDim.x * blockDim.x)
    dst[i] = src[i];
}

// Producer side: export the ready event together with the block handle.
cudaError_t publish_blocks(void *blocks, cudaStream_t s, uint64_t seq,
                           uint32_t nblocks, uint32_t block_bytes,
                           cudaEvent_t ipc_event, KvHandoffMsg *msg) {
  CHECK_CUDA_RET(cudaEventRecord(ipc_event, s));
  CHECK_CUDA_RET(cudaIpcGetEventHandle(&msg->ready, ipc_event));
  CHECK_CUDA_RET(cudaIpcGetMemHandle(&msg->blocks, blocks));
  msg->seq_id = seq;
  msg->num_blocks = nblocks;
  msg->block_bytes = block_bytes;
  return cudaSuccess;
}

static bool reserve_blocks(DecodeWorker *w, uint32_t n, uint32_t block_bytes,
                           char **dst) {
  size_t need = (size_t)(w->next_free_block + n) * block_bytes;
  if (need > w->kv_pool_bytes) return false;
  *dst = static_cast<char *>(w->kv_pool) + (size_t)w->next_free_block * block_bytes;
  w->next_free_block += n;
  return true;
}

// Consumer side: wait for the producer, then pull the blocks into our pool.
cudaError_t ingest_blocks(DecodeWorker *w, const KvHandoffMsg &msg) {
  char *dst = nullptr;
  if (!reserve_blocks(w, msg.num_blocks, msg.block_bytes, &dst))
    return cudaErrorMemoryAllocation;

  cudaEvent_t ready;
  CHECK_CUDA_RET(cudaIpcOpenEventHandle(&ready, msg.ready));  // EXPECT: cudagraph-handle-leak
  cudaError_t st = cudaStreamWaitEvent(w->stream, ready, 0);
  if (st != cudaSuccess) {
    cudaEventDestroy(ready);
    return st;
  }

  void *src = nullptr;
  st = cudaIpcOpenMemHandle(&src, msg.blocks, cudaIpcMemLazyEnablePeerAccess);
  if (st != cudaSuccess) {
    cudaEventDestroy(ready);
    return st;
  }

  size_t bytes = (size_t)msg.num_blocks * msg.block_bytes;
  size_t n_vec = bytes / sizeof(uint4);
  copy_blocks<<<256, 256, 0, w->stream>>>(static_cast<const uint4 *>(src),
                                          reinterpret_cast<uint4 *>(dst), n_vec);
  st = cudaGetLastError();
  // The mapping must stay valid until the copy ran.
  cudaError_t sync = cudaStreamSynchronize(w->stream);
  cudaIpcCloseMemHandle(src);
#ifdef BUGGY
  // (the imported event is simply dropped here)
#else
  cudaEventDestroy(ready);
#endif
  return st != cudaSuccess ? st : sync;
}

int decode_loop(DecodeWorker *w, const KvHandoffMsg *msgs, int count) {
  for (int i = 0; i < count; ++i) {
    cudaError_t st = ingest_blocks(w, msgs[i]);
    if (st != cudaSuccess) {
      std::fprintf(stderr, "seq %llu: %s\n", (unsigned long long)msgs[i].seq_id,
                   cudaGetErrorString(st));
      return -1;
    }
  }
  return 0;
}
