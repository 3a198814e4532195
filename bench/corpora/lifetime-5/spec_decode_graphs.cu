// Speculative decoding: a draft model proposes k tokens, the target model
// verifies them in one pass. Each lookahead depth k has a pair of graphs.
#include <cuda_runtime.h>
#include <array>
#include <cstdio>
#include <memory>
#include <stdexcept>

namespace specdec {

constexpr int kMaxLookahead = 8;

__global__ void draft_step(const int* in, int* out, int k) {
  int i = threadIdx.x;
  if (i < k) out[i] = (in[i] * 31 + 7) & 1023;
}

__global__ void verify_step(const int* proposed, const int* target, int* accepted, int k) {
  if (threadIdx.x == 0) {
    int n = 0;
    while (n < k && proposed[n] == target[n]) ++n;
    *accepted = n;
  }
}

struct Buffers {
  int* tokens = nullptr;
  int* proposed = nullptr;
  int* target = nullptr;
  int* accepted = nullptr;
};

struct GraphPair {
  cudaGraphExec_t draft = nullptr;
  cudaGraphExec_t verify = nullptr;
};

// Captures a graph of a callable on the given stream.
template <typename F>
static cudaError_t capture(cudaStream_t s, F&& body, cudaGraph_t* out) {
  cudaError_t err = cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal);
  if (err != cudaSuccess) return err;
  body();
  return cudaStreamEndCapture(s, out);
}

// Builds an exec from a graph and hands it back; the graph is consumed.
static cudaGraphExec_t build_exec(cudaGraph_t g) {
  cudaGraphExec_t e = nullptr;
  if (cudaGraphInstantiate(&e, g, 0) != cudaSuccess) e = nullptr;
  cudaGraphDestroy(g);
  return e;
}

class SpeculativeGraphManager {
 public:
  explicit SpeculativeGraphManager(cudaStream_t s) : stream_(s) {
    cudaMalloc(&buf_.tokens, 64 * sizeof(int));
    cudaMalloc(&buf_.proposed, 64 * sizeof(int));
    cudaMalloc(&buf_.target, 64 * sizeof(int));
    cudaMalloc(&buf_.accepted, sizeof(int));
  }

  ~SpeculativeGraphManager() {
    for (auto& p : pairs_) {
      if (p.draft) cudaGraphExecDestroy(p.draft);
      if (p.verify) cudaGraphExecDestroy(p.verify);
    }
    cudaFree(buf_.tokens);
    cudaFree(buf_.proposed);
    cudaFree(buf_.target);
    cudaFree(buf_.accepted);
  }

  cudaError_t prepare(int k) {
    if (k <= 0 || k > kMaxLookahead) return cudaErrorInvalidValue;
    GraphPair& slot = pairs_[k - 1];
    if (slot.draft && slot.verify) return cudaSuccess;

    cudaGraph_t dg = nullptr, vg = nullptr;
    cudaError_t err = capture(stream_, [&] {
      for (int i = 0; i < k; ++i) draft_step<<<1, 32, 0, stream_>>>(buf_.tokens, buf_.proposed, k);
    }, &dg);
    if (err != cudaSuccess) return err;
    err = capture(stream_, [&] {
      verify_step<<<1, 32, 0, stream_>>>(buf_.proposed, buf_.target, buf_.accepted, k);
    }, &vg);
    if (err != cudaSuccess) {
      cudaGraphDestroy(dg);
      return err;
    }

    cudaGraphExec_t draft = nullptr, verify = nullptr;
    err = cudaGraphInstantiate(&draft, dg, 0);  // EXPECT: cudagraph-unpaired-instantiate
    cudaGraphDestroy(dg);
    if (err != cudaSuccess) {
      cudaGraphDestroy(vg);
      return err;
    }
    err = cudaGraphInstantiate(&verify, vg, 0);
    cudaGraphDestroy(vg);
    if (err != cudaSuccess) return err;  // draft leaks
    slot.draft = draft;
    slot.verify = verify;
    return cudaSuccess;
  }

  // Same as prepare() but via the shared helper. Correct.
  cudaError_t prepare_verify_only(int k) {
    cudaGraph_t vg = nullptr;
    cudaError_t err = capture(stream_, [&] {
      verify_step<<<1, 32, 0, stream_>>>(buf_.proposed, buf_.target, buf_.accepted, k);
    }, &vg);
    if (err != cudaSuccess) return err;
    cudaGraphExec_t e = build_exec(vg);
    if (!e) return cudaErrorUnknown;
    GraphPair& slot = pairs_[k - 1];
    if (slot.verify) cudaGraphExecDestroy(slot.verify);
    slot.verify = e;
    return cudaSuccess;
  }

  // Benchmarks the draft path alone for a given k; throws on failure.
  float time_draft(int k, int iters) {
    cudaGraph_t dg = nullptr;
    if (capture(stream_, [&] {
          draft_step<<<1, 32, 0, stream_>>>(buf_.tokens, buf_.proposed, k);
        }, &dg) != cudaSuccess)
      throw std::runtime_error("capture failed");
    cudaGraphExec_t e = build_exec(dg);  // EXPECT: cudagraph-unpaired-instantiate
    if (!e) throw std::runtime_error("instantiate failed");
    cudaEvent_t a, b;
    cudaEventCreate(&a);
    cudaEventCreate(&b);
    cudaEventRecord(a, stream_);
    for (int i = 0; i < iters; ++i) cudaGraphLaunch(e, stream_);
    cudaEventRecord(b, stream_);
    cudaEventSynchronize(b);
    float ms = 0.f;
    cudaEventElapsedTime(&ms, a, b);
    cudaEventDestroy(a);
    cudaEventDestroy(b);
    return ms / iters;  // e never destroyed
  }

  // Correct: the throw-away exec is destroyed before the exception is raised.
  void smoke_test(int k) {
    cudaGraph_t vg = nullptr;
    if (capture(stream_, [&] {
          verify_step<<<1, 32, 0, stream_>>>(buf_.proposed, buf_.target, buf_.accepted, k);
        }, &vg) != cudaSuccess)
      return;
    cudaGraphExec_t e = build_exec(vg);
    if (!e) return;
    cudaError_t err = cudaGraphLaunch(e, stream_);
    if (err == cudaSuccess) err = cudaStreamSynchronize(stream_);
    cudaGraphExecDestroy(e);
    if (err != cudaSuccess) throw std::runtime_error(cudaGetErrorString(err));
  }

  int run(int k) {
    if (prepare(k) != cudaSuccess) return -1;
    GraphPair& p = pairs_[k - 1];
    cudaGraphLaunch(p.draft, stream_);
    cudaGraphLaunch(p.verify, stream_);
    int accepted = 0;
    cudaMemcpyAsync(&accepted, buf_.accepted, sizeof(int), cudaMemcpyDeviceToHost, stream_);
    cudaStreamSynchronize(stream_);
    return accepted;
  }

 private:
  cudaStream_t stream_;
  Buffers buf_;
  std::array<GraphPair, kMaxLookahead> pairs_{};
};

}  // namespace specdec

int spec_main() {
  cudaStream_t s;
  cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking);
  auto mgr = std::make_unique<specdec::SpeculativeGraphManager>(s);
  int total = 0;
  for (int k = 1; k <= 4; ++k) total += mgr->run(k);
  mgr->prepare_verify_only(2);
  try {
    mgr->smoke_test(3);
    std::printf("draft %.3f ms\n", mgr->time_draft(4, 100));
  } catch (const std::exception& ex) {
    std::fprintf(stderr, "%s\n", ex.what());
  }
  mgr.reset();
  cudaStreamDestroy(s);
  return total;
}
