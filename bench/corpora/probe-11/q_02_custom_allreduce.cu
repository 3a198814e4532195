// vLLM/SGLang-style custom all-reduce: peer buffers opened through CUDA IPC,
// kept in a map keyed by the handle bytes, closed in the destructor; graph
// buffers registered after capture.
#include <cuda_runtime.h>
#include <cstring>
#include <map>
#include <string>
#include <vector>
#include <stdexcept>

#define CUDACHECK(cmd)                                                   \
  do {                                                                   \
    cudaError_t e = cmd;                                                 \
    if (e != cudaSuccess) throw std::runtime_error(cudaGetErrorString(e)); \
  } while (0)

constexpr int kMaxRanks = 8;

struct RankData { const void *ptrs[kMaxRanks]; };
struct Signal { alignas(128) unsigned int flag[kMaxRanks]; };

class CustomAllreduce {
 public:
  CustomAllreduce(Signal **signals, void *rank_data, size_t rank_data_sz, int rank, int world)
      : rank_(rank), world_(world),
        d_rank_data_base_(reinterpret_cast<RankData *>(rank_data)),
        d_rank_data_end_(d_rank_data_base_ + rank_data_sz / sizeof(RankData)) {
    for (int i = 0; i < world_; i++) sg_[i] = signals[i];
  }

  ~CustomAllreduce() {
    for (auto &kv : ipc_handles_) {
      cudaIpcCloseMemHandle(kv.second);
    }
  }

  char *open_ipc_handle(const void *ipc_handle) {
    std::string key(reinterpret_cast<const char *>(ipc_handle), sizeof(cudaIpcMemHandle_t));
    auto it = ipc_handles_.find(key);
    if (it == ipc_handles_.end()) {
      char *ipc_ptr = nullptr;
      cudaIpcMemHandle_t h;
      std::memcpy(&h, ipc_handle, sizeof(h));
      CUDACHECK(cudaIpcOpenMemHandle((void **)&ipc_ptr, h, cudaIpcMemLazyEnablePeerAccess));
      it = ipc_handles_.insert({key, ipc_ptr}).first;
    }
    return it->second;
  }

  void register_buffer(const std::vector<std::string> &handles,
                       const std::vector<int64_t> &offsets, void *self) {
    check_rank_data_capacity();
    RankData data;
    for (int i = 0; i < world_; i++) {
      if (i != rank_) {
        char *handle = open_ipc_handle(handles[i].data());
        handle += offsets[i];
        data.ptrs[i] = handle;
      } else {
        data.ptrs[i] = self;
      }
    }
    RankData *d_data = d_rank_data_base_++;
    CUDACHECK(cudaMemcpy(d_data, &data, sizeof(RankData), cudaMemcpyHostToDevice));
    buffers_[self] = d_data;
  }

  void register_graph_buffers(const std::vector<std::string> &handles,
                              const std::vector<std::vector<int64_t>> &offsets) {
    size_t num_buffers = graph_unreg_buffers_.size();
    check_rank_data_capacity(num_buffers);
    std::vector<RankData> rank_data(num_buffers);
    for (size_t i = 0; i < num_buffers; i++) {
      void *self_ptr = graph_unreg_buffers_[i];
      RankData &rd = rank_data[i];
      for (int j = 0; j < world_; j++) {
        if (j != rank_) {
          char *handle = open_ipc_handle(&handles[j][i * sizeof(cudaIpcMemHandle_t)]);
          handle += offsets[j][i];
          rd.ptrs[j] = handle;
        } else {
          rd.ptrs[j] = self_ptr;
        }
      }
    }
    CUDACHECK(cudaMemcpy(d_rank_data_base_, rank_data.data(),
                         sizeof(RankData) * num_buffers, cudaMemcpyHostToDevice));
    d_rank_data_base_ += num_buffers;
    graph_unreg_buffers_.clear();
  }

  void note_graph_buffer(void *p) { graph_unreg_buffers_.push_back(p); }

 private:
  void check_rank_data_capacity(size_t num = 1) {
    if (d_rank_data_base_ + num > d_rank_data_end_)
      throw std::runtime_error("Rank data buffer is overflowed");
  }

  int rank_, world_;
  Signal *sg_[kMaxRanks];
  RankData *d_rank_data_base_, *d_rank_data_end_;
  std::map<std::string, char *> ipc_handles_;
  std::map<void *, RankData *> buffers_;
  std::vector<void *> graph_unreg_buffers_;
};

// Meta buffer allocation owned by the Python side in vLLM; here a small owner.
struct MetaBuffer {
  void *ptr = nullptr;
  explicit MetaBuffer(size_t n) {
    CUDACHECK(cudaMalloc(&ptr, n));
    if (cudaMemset(ptr, 0, n) != cudaSuccess) {
      cudaFree(ptr);
      throw std::runtime_error("memset failed");
    }
  }
  ~MetaBuffer() { cudaFree(ptr); }
  MetaBuffer(const MetaBuffer &) = delete;
  MetaBuffer &operator=(const MetaBuffer &) = delete;
};

int main() {
  try {
    MetaBuffer meta(sizeof(Signal) + (1 << 16));
    MetaBuffer rank_data(1 << 20);
    Signal *sigs[kMaxRanks] = {static_cast<Signal *>(meta.ptr)};
    CustomAllreduce ar(sigs, rank_data.ptr, 1 << 20, 0, 1);
    std::vector<std::string> handles(1);
    std::vector<int64_t> offsets(1, 0);
    ar.register_buffer(handles, offsets, meta.ptr);
  } catch (const std::exception &) {
    return 1;
  }
  return 0;
}
