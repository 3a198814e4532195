// PLANTED: cudagraph-mismatched-dealloc line 89
// Single-node tensor-parallel all-reduce: each rank exports its scratch buffer
// through CUDA IPC and maps every peer's buffer for a one-shot reduction.
#include <cuda_runtime.h>
#include <cstdio>
#include <cstring>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

#define CUDA_TRY(expr)                                                         \
  do {                                                                         \
    cudaError_t _e = (expr);                                                   \
    if (_e != cudaSuccess) {                                                   \
      throw std::runtime_error(std::string(#expr) + " failed: " +             \
                               cudaGetErrorString(_e));                        \
    }                                                                          \
  } while (0)

namespace tp {

constexpr int kMaxRanks = 8;

struct PeerHandleTable {
  cudaIpcMemHandle_t handles[kMaxRanks];
  size_t bytes;
  int world;
};

__global__ void one_shot_allreduce(float *const *peers, float *out, int world,
                                   size_t n) {
  size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x;
  if (i >= n) return;
  float acc = 0.f;
  for (int r = 0; r < world; ++r) acc += peers[r][i];
  out[i] = acc;
}

class IpcPeerBuffers {
 public:
  IpcPeerBuffers(int rank, int world, size_t bytes)
      : rank_(rank), world_(world), bytes_(bytes), peers_(world, nullptr) {
    CUDA_TRY(cudaMalloc(&local_, bytes_));
    CUDA_TRY(cudaMemset(local_, 0, bytes_));
    CUDA_TRY(cudaMalloc(&d_peer_table_, sizeof(float *) * world_));
    peers_[rank_] = local_;
  }
  IpcPeerBuffers(const IpcPeerBuffers &) = delete;
  IpcPeerBuffers &operator=(const IpcPeerBuffers &) = delete;
  ~IpcPeerBuffers() { release(); }

  void export_handle(PeerHandleTable *table) const {
    CUDA_TRY(cudaIpcGetMemHandle(&table->handles[rank_], local_));
    table->bytes = bytes_;
    table->world = world_;
  }

  void open_peers(const PeerHandleTable &table) {
    if (table.bytes != bytes_ || table.world != world_)
      throw std::invalid_argument("peer table does not match this group");
    for (int r = 0; r < world_; ++r) {
      if (r == rank_) continue;
      void *p = nullptr;
      CUDA_TRY(cudaIpcOpenMemHandle(&p, table.handles[r],
                                    cudaIpcMemLazyEnablePeerAccess));
      peers_[r] = static_cast<float *>(p);
    }
    CUDA_TRY(cudaMemcpy(d_peer_table_, peers_.data(), sizeof(float *) * world_,
                        cudaMemcpyHostToDevice));
    opened_ = true;
  }

  void allreduce(float *out, size_t n, cudaStream_t stream) {
    if (!opened_) throw std::logic_error("open_peers() not called");
    int block = 256;
    int grid = static_cast<int>((n + block - 1) / block);
    one_shot_allreduce<<<grid, block, 0, stream>>>(d_peer_table_, out, world_, n);
    CUDA_TRY(cudaGetLastError());
  }

  float *local() const { return local_; }

  void release() {
    if (opened_) {
      for (int r = 0; r < world_; ++r) {
        if (r == rank_ || peers_[r] == nullptr) continue;
#ifdef BUGGY
        cudaFree(peers_[r]);  // PLANTED (buggy variant): cudagraph-mismatched-dealloc
#else
        cudaIpcCloseMemHandle(peers_[r]);
#endif
        peers_[r] = nullptr;
      }
      opened_ = false;
    }
    if (d_peer_table_) {
      cudaFree(d_peer_table_);
      d_peer_table_ = nullptr;
    }
    if (local_) {
      cudaFree(local_);
      local_ = nullptr;
    }
  }

 private:
  int rank_;
  int world_;
  size_t bytes_;
  float *local_ = nullptr;
  float **d_peer_table_ = nullptr;
  std::vector<float *> peers_;
  bool opened_ = false;
};

}  // namespace tp

int run_rank(int rank, int world, tp::PeerHandleTable *shared, size_t n) {
  try {
    tp::IpcPeerBuffers bufs(rank, world, n * sizeof(float));
    float *raw_out = nullptr;
    CUDA_TRY(cudaMalloc(&raw_out, n * sizeof(float)));
    std::unique_ptr<float, decltype(&cudaFree)> out(raw_out, &cudaFree);
    bufs.export_handle(shared);
    // (out-of-band barrier with the other ranks happens here)
    bufs.open_peers(*shared);
    bufs.allreduce(out.get(), n, nullptr);
    CUDA_TRY(cudaDeviceSynchronize());
  } catch (const std::exception &e) {
    std::fprintf(stderr, "rank %d: %s\n", rank, e.what());
    return 1;
  }
  return 0;
}
