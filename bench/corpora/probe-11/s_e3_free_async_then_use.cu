// PLANTED: cudagraph-use-after-dealloc line 70
// Mixture-of-experts dispatch: tokens are permuted into an expert-major
// workspace taken from the stream-ordered pool, run through the experts and
// scattered back.
#include <cuda_runtime.h>
#include <cstdint>
#include <cstdio>
#include <stdexcept>

#define MOE_CHECK(call)                                                        \
  do {                                                                         \
    cudaError_t err__ = (call);                                                \
    if (err__ != cudaSuccess) throw std::runtime_error(cudaGetErrorString(err__)); \
  } while (0)

struct MoeProblem {
  const float *hidden;     // [tokens, dim]
  const int32_t *expert_of; // [tokens]
  float *output;           // [tokens, dim]
  int tokens;
  int dim;
  int num_experts;
};

__global__ void permute_tokens(const float *hidden, const int32_t *expert_of,
                               float *ws, int32_t *perm, int tokens, int dim) {
  int t = blockIdx.x;
  if (t >= tokens) return;
  if (threadIdx.x == 0) perm[t] = t;  // identity order; real code sorts by expert
  for (int d = threadIdx.x; d < dim; d += blockDim.x)
    ws[(size_t)t * dim + d] = hidden[(size_t)t * dim + d];
}

__global__ void expert_ffn(float *ws, const int32_t *expert_of, int tokens, int dim) {
  int t = blockIdx.x;
  if (t >= tokens) return;
  float scale = 1.0f + 0.1f * expert_of[t];
  for (int d = threadIdx.x; d < dim; d += blockDim.x) ws[(size_t)t * dim + d] *= scale;
}

__global__ void unpermute(const float *ws, const int32_t *perm, float *out,
                          int tokens, int dim) {
  int t = blockIdx.x;
  if (t >= tokens) return;
  int src = perm[t];
  for (int d = threadIdx.x; d < dim; d += blockDim.x)
    out[(size_t)src * dim + d] = ws[(size_t)t * dim + d];
}

class MoeLayer {
 public:
  explicit MoeLayer(cudaStream_t stream) : stream_(stream) {}

  void forward(const MoeProblem &p) {
    // One stream-ordered allocation carved into the activations and the
    // permutation, so a single free releases both.
    size_t ws_bytes = (size_t)p.tokens * p.dim * sizeof(float);
    size_t perm_off = (ws_bytes + 255) & ~size_t(255);
    size_t total = perm_off + p.tokens * sizeof(int32_t);
    char *workspace = nullptr;
    MOE_CHECK(cudaMallocAsync(&workspace, total, stream_));
    float *ws = reinterpret_cast<float *>(workspace);
    int32_t *perm = reinterpret_cast<int32_t *>(workspace + perm_off);

    permute_tokens<<<p.tokens, 128, 0, stream_>>>(p.hidden, p.expert_of, ws, perm,
                                                  p.tokens, p.dim);
    expert_ffn<<<p.tokens, 128, 0, stream_>>>(ws, p.expert_of, p.tokens, p.dim);
#ifdef BUGGY
    cudaFreeAsync(workspace, stream_);
    unpermute<<<p.tokens, 128, 0, stream_>>>(ws, perm, p.output, p.tokens, p.dim);  // PLANTED (buggy variant): cudagraph-use-after-dealloc
#else
    unpermute<<<p.tokens, 128, 0, stream_>>>(ws, perm, p.output, p.tokens, p.dim);
    cudaFreeAsync(workspace, stream_);
#endif
    MOE_CHECK(cudaGetLastError());
  }

 private:
  cudaStream_t stream_;
};

int run_moe_layers(MoeProblem *layers, int nlayers, cudaStream_t s) {
  MoeLayer layer(s);
  try {
    for (int l = 0; l < nlayers; ++l) layer.forward(layers[l]);
    MOE_CHECK(cudaStreamSynchronize(s));
  } catch (const std::exception &e) {
    std::fprintf(stderr, "moe: %s\n", e.what());
    return 1;
  }
  return 0;
}
