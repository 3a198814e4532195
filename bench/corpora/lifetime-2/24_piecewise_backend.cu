// vLLM piecewise-backend style: one exec per submodule piece, per capture size.
#include <cuda_runtime.h>
#include <vector>
#include <map>
#include <memory>

__global__ void piece_kernel(float* h, int piece, int bs) {}

struct ConcreteSizeEntry {
  int runtime_shape = 0;
  bool need_to_compile = false;
  cudaGraphExec_t cudagraph = nullptr;
  int num_finished_warmup = 0;
};

class PiecewiseBackend {
 public:
  PiecewiseBackend(int pieces, int warmups) : pieces_(pieces), warmups_(warmups) {}
  ~PiecewiseBackend() {
    for (auto& kv : entries_)
      for (auto& e : kv.second)
        if (e.cudagraph) cudaGraphExecDestroy(e.cudagraph);
  }

  // Correct: the exec is written into the entry (field of a map element).
  void call_piece(cudaStream_t s, float* h, int piece, int bs) {
    auto& vec = entries_[bs];
    if (vec.empty()) vec.resize(pieces_);
    ConcreteSizeEntry& entry = vec[piece];
    entry.runtime_shape = bs;
    if (entry.num_finished_warmup < warmups_) {
      ++entry.num_finished_warmup;
      piece_kernel<<<bs, 128, 0, s>>>(h, piece, bs);
      return;
    }
    if (entry.cudagraph == nullptr) {
      cudaGraph_t g;
      cudaStreamBeginCapture(s, cudaStreamCaptureModeThreadLocal);
      piece_kernel<<<bs, 128, 0, s>>>(h, piece, bs);
      cudaStreamEndCapture(s, &g);
      cudaGraphInstantiate(&entry.cudagraph, g, 0);
      cudaGraphDestroy(g);
    }
    cudaGraphLaunch(entry.cudagraph, s);
  }

 private:
  int pieces_, warmups_;
  std::map<int, std::vector<ConcreteSizeEntry>> entries_;
};

// Not labelled: a real leak (the local vector is cleared without destroying), but the
// specification counts a store into a container as an escape.
void debug_replay_all(cudaStream_t s, float* h, int pieces, int bs) {
  std::vector<cudaGraphExec_t> execs;
  for (int p = 0; p < pieces; ++p) {
    cudaGraph_t g;
    cudaStreamBeginCapture(s, cudaStreamCaptureModeThreadLocal);
    piece_kernel<<<bs, 128, 0, s>>>(h, p, bs);
    cudaStreamEndCapture(s, &g);
    cudaGraphExec_t e;
    cudaGraphInstantiate(&e, g, 0);
    cudaGraphDestroy(g);
    execs.push_back(e);
  }
  for (cudaGraphExec_t e : execs) cudaGraphLaunch(e, s);
  execs.clear();
}

// Buggy: pieces captured into a fixed local array; only the last piece is destroyed.
void replay_pieces(cudaStream_t s, float* h, int bs) {
  cudaGraphExec_t execs[3];
  for (int p = 0; p < 3; ++p) {
    cudaGraph_t g;
    cudaStreamBeginCapture(s, cudaStreamCaptureModeThreadLocal);
    piece_kernel<<<bs, 128, 0, s>>>(h, p, bs);
    cudaStreamEndCapture(s, &g);
    cudaGraphInstantiate(&execs[p], g, 0);  // EXPECT: cudagraph-unpaired-instantiate
    cudaGraphDestroy(g);
  }
  for (int p = 0; p < 3; ++p) cudaGraphLaunch(execs[p], s);
  cudaGraphExecDestroy(execs[2]);
}

// Correct: array fully destroyed.
void replay_pieces_fixed(cudaStream_t s, float* h, int bs) {
  cudaGraphExec_t execs[3];
  for (int p = 0; p < 3; ++p) {
    cudaGraph_t g;
    cudaStreamBeginCapture(s, cudaStreamCaptureModeThreadLocal);
    piece_kernel<<<bs, 128, 0, s>>>(h, p, bs);
    cudaStreamEndCapture(s, &g);
    cudaGraphInstantiate(&execs[p], g, 0);
    cudaGraphDestroy(g);
  }
  for (int p = 0; p < 3; ++p) cudaGraphLaunch(execs[p], s);
  for (int p = 0; p < 3; ++p) cudaGraphExecDestroy(execs[p]);
}
