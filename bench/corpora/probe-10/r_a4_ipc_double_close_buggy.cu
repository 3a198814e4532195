#define BUGGY
// PLANTED: cudagraph-use-after-dealloc line 67
// Re-mapping a peer's KV pool after the peer process restarted: the new IPC handle is
// opened, the pool header is validated, and the mapping is swapped into the slot.
#include <cuda_runtime.h>
#include <cstdint>
#include <cstdio>
#include <mutex>

static constexpr uint64_t kPoolMagic = 0x4b56504f4f4c3031ull;  // "KVPOOL01"

struct PoolHeader {
  uint64_t magic;
  uint32_t version;
  uint32_t num_blocks;
  uint64_t block_bytes;
};

struct PeerSlot {
  std::mutex mu;
  void* base = nullptr;
  uint32_t num_blocks = 0;
  uint64_t block_bytes = 0;
  int generation = 0;
};

static cudaError_t read_header(const void* base, PoolHeader* out, cudaStream_t s) {
  cudaError_t st = cudaMemcpyAsync(out, base, sizeof(PoolHeader), cudaMemcpyDeviceToHost, s);
  if (st != cudaSuccess) return st;
  return cudaStreamSynchronize(s);
}

cudaError_t remap_peer_pool(PeerSlot* slot, const cudaIpcMemHandle_t& handle,
                            uint32_t expected_version, cudaStream_t s) {
  void* mapped = nullptr;
  PoolHeader hdr{};
  cudaError_t st = cudaIpcOpenMemHandle(&mapped, handle, cudaIpcMemLazyEnablePeerAccess);
  if (st != cudaSuccess) {
    fprintf(stderr, "remap: open failed: %s\n", cudaGetErrorString(st));
    return st;
  }

  st = read_header(mapped, &hdr, s);
  if (st != cudaSuccess) goto fail;

  if (hdr.magic != kPoolMagic || hdr.version != expected_version) {
    fprintf(stderr, "remap: bad pool header (magic %llx, version %u)\n",
            (unsigned long long)hdr.magic, hdr.version);
#ifdef BUGGY
    cudaIpcCloseMemHandle(mapped);
#endif
    st = cudaErrorInvalidValue;
    goto fail;
  }

  {
    std::lock_guard<std::mutex> lock(slot->mu);
    void* old = slot->base;
    slot->base = mapped;
    slot->num_blocks = hdr.num_blocks;
    slot->block_bytes = hdr.block_bytes;
    slot->generation++;
    if (old) cudaIpcCloseMemHandle(old);
  }
  return cudaSuccess;

fail:
  if (mapped) cudaIpcCloseMemHandle(mapped);  // EXPECT: cudagraph-use-after-dealloc
  return st;
}
