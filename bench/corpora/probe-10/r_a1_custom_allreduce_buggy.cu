#define BUGGY
// PLANTED: cudagraph-handle-leak line 61
// One-shot custom all-reduce in the style of vLLM / TRT-LLM: every rank exports its
// data buffer and its signal block through CUDA IPC; each rank maps every peer's two
// buffers and keeps the mapped pointers in fixed-size arrays.
#include <cuda_runtime.h>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <vector>

#define CUDACHECK(cmd)                                                          \
  do {                                                                          \
    cudaError_t e_ = (cmd);                                                     \
    if (e_ != cudaSuccess) {                                                    \
      fprintf(stderr, "Failed: CUDA error %s:%d '%s'\n", __FILE__, __LINE__,    \
              cudaGetErrorString(e_));                                          \
      abort();                                                                  \
    }                                                                           \
  } while (0)

constexpr int kMaxRanks = 8;

struct Signal {
  alignas(128) volatile uint32_t start[kMaxRanks];
  alignas(128) volatile uint32_t end[kMaxRanks];
};

struct RankData {
  const float* ptrs[kMaxRanks];
};

__global__ void one_shot_allreduce(const RankData* data, Signal* const* sigs, float* out,
                                   int rank, int world, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  float acc = 0.f;
  for (int r = 0; r < world; ++r) acc += data->ptrs[r][i];
  out[i] = acc;
}

class CustomAllReduce {
 public:
  CustomAllReduce(int rank, int world, float* local_buf, Signal* local_sig,
                  const std::vector<cudaIpcMemHandle_t>& buf_handles,
                  const std::vector<cudaIpcMemHandle_t>& sig_handles)
      : rank_(rank), world_(world) {
    if (world_ > kMaxRanks || world_ < 2) {
      fprintf(stderr, "custom allreduce supports 2..%d ranks\n", kMaxRanks);
      abort();
    }
    for (int r = 0; r < world_; ++r) {
      if (r == rank_) {
        peer_bufs_[r] = local_buf;
        peer_sigs_[r] = local_sig;
        continue;
      }
      void* buf = nullptr;
      CUDACHECK(cudaIpcOpenMemHandle(&buf, buf_handles[r], cudaIpcMemLazyEnablePeerAccess));
      peer_bufs_[r] = static_cast<float*>(buf);
      void* sig = nullptr;
      CUDACHECK(cudaIpcOpenMemHandle(&sig, sig_handles[r], cudaIpcMemLazyEnablePeerAccess));  // EXPECT: cudagraph-handle-leak
      peer_sigs_[r] = static_cast<Signal*>(sig);
    }
    RankData host_data{};
    for (int r = 0; r < world_; ++r) host_data.ptrs[r] = peer_bufs_[r];
    CUDACHECK(cudaMalloc(&d_rank_data_, sizeof(RankData)));
    CUDACHECK(cudaMemcpy(d_rank_data_, &host_data, sizeof(RankData), cudaMemcpyHostToDevice));
    CUDACHECK(cudaMalloc(&d_sigs_, sizeof(Signal*) * kMaxRanks));
    CUDACHECK(cudaMemcpy(d_sigs_, peer_sigs_, sizeof(Signal*) * kMaxRanks,
                         cudaMemcpyHostToDevice));
  }

  ~CustomAllReduce() {
    for (int r = 0; r < world_; ++r) {
      if (r == rank_) continue;
      CUDACHECK(cudaIpcCloseMemHandle(peer_bufs_[r]));
#ifndef BUGGY
      CUDACHECK(cudaIpcCloseMemHandle(peer_sigs_[r]));
#endif
    }
    CUDACHECK(cudaFree(d_rank_data_));
    CUDACHECK(cudaFree(d_sigs_));
  }

  CustomAllReduce(const CustomAllReduce&) = delete;
  CustomAllReduce& operator=(const CustomAllReduce&) = delete;

  void allreduce(float* out, int n, cudaStream_t stream) {
    int threads = 512;
    int blocks = (n + threads - 1) / threads;
    one_shot_allreduce<<<blocks, threads, 0, stream>>>(d_rank_data_, d_sigs_, out, rank_,
                                                       world_, n);
    CUDACHECK(cudaGetLastError());
  }

 private:
  int rank_;
  int world_;
  float* peer_bufs_[kMaxRanks] = {};
  Signal* peer_sigs_[kMaxRanks] = {};
  RankData* d_rank_data_ = nullptr;
  Signal** d_sigs_ = nullptr;
};

void run_allreduce_step(int rank, int world, float* local, Signal* sig,
                        const std::vector<cudaIpcMemHandle_t>& bh,
                        const std::vector<cudaIpcMemHandle_t>& sh, float* out, int n,
                        cudaStream_t s) {
  CustomAllReduce ar(rank, world, local, sig, bh, sh);
  ar.allreduce(out, n, s);
  CUDACHECK(cudaStreamSynchronize(s));
}
