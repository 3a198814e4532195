// PLANTED: cudagraph-capture-unsafe-call line 56
// Sampling step of a decoder: the per-step sampling parameters (temperature,
// top-p per request) are pushed to the device before the sampling kernel. The
// whole step is captured into a graph after warm-up.
#include <cuda_runtime.h>
#include <cstdio>
#include <vector>

#define SAMP_CHECK(x)                                                          \
  do {                                                                         \
    cudaError_t e_ = (x);                                                      \
    if (e_ != cudaSuccess) {                                                   \
      std::fprintf(stderr, "sampler: %s at line %d\n", cudaGetErrorString(e_), __LINE__); \
      return e_;                                                               \
    }                                                                          \
  } while (0)

struct SamplingParams {
  float temperature;
  float top_p;
};

struct SamplerState {
  SamplingParams *d_params;   // [max_batch]
  SamplingParams *h_params;   // pinned, [max_batch]
  const float *logits;        // [max_batch, vocab]
  int *next_tokens;           // [max_batch]
  int max_batch;
  int vocab;
};

__global__ void sample_kernel(const float *logits, const SamplingParams *params,
                              int *out, int vocab) {
  int b = blockIdx.x;
  if (threadIdx.x != 0) return;
  const float *row = logits + (size_t)b * vocab;
  float inv_t = 1.f / fmaxf(params[b].temperature, 1e-4f);
  int best = 0;
  for (int v = 1; v < vocab; ++v)
    if (row[v] * inv_t > row[best] * inv_t) best = v;
  out[b] = best;
}

// Copies the batch's sampling parameters into the device table.
static cudaError_t push_params(SamplerState *st, int batch, cudaStream_t s) {
#ifdef BUGGY
  return cudaMemcpy(st->d_params, st->h_params, batch * sizeof(SamplingParams),
                    cudaMemcpyHostToDevice);
#else
  return cudaMemcpyAsync(st->d_params, st->h_params, batch * sizeof(SamplingParams),
                         cudaMemcpyHostToDevice, s);
#endif
}

static cudaError_t enqueue_step(SamplerState *st, int batch, cudaStream_t s) {
  SAMP_CHECK(push_params(st, batch, s));  // PLANTED (buggy variant): cudagraph-capture-unsafe-call
  sample_kernel<<<batch, 32, 0, s>>>(st->logits, st->d_params, st->next_tokens,
                                     st->vocab);
  return cudaGetLastError();
}

cudaError_t build_sampling_graph(SamplerState *st, int batch, cudaStream_t s,
                                 cudaGraphExec_t *out) {
  // warm-up run outside the capture
  SAMP_CHECK(enqueue_step(st, batch, s));
  SAMP_CHECK(cudaStreamSynchronize(s));

  cudaGraph_t graph = nullptr;
  SAMP_CHECK(cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal));
  cudaError_t enq = enqueue_step(st, batch, s);
  cudaError_t end = cudaStreamEndCapture(s, &graph);
  if (enq != cudaSuccess || end != cudaSuccess) {
    if (graph) cudaGraphDestroy(graph);
    return enq != cudaSuccess ? enq : end;
  }
  cudaError_t inst = cudaGraphInstantiate(out, graph, 0);
  cudaGraphDestroy(graph);
  return inst;
}

int decode(SamplerState *st, const std::vector<SamplingParams> &per_req,
           cudaStream_t s, int steps) {
  int batch = (int)per_req.size();
  if (batch > st->max_batch) return -1;
  for (int i = 0; i < batch; ++i) st->h_params[i] = per_req[i];
  cudaGraphExec_t exec = nullptr;
  if (build_sampling_graph(st, batch, s, &exec) != cudaSuccess) return -1;
  int rc = 0;
  for (int i = 0; i < steps && rc == 0; ++i)
    if (cudaGraphLaunch(exec, s) != cudaSuccess) rc = -1;
  if (cudaStreamSynchronize(s) != cudaSuccess) rc = -1;
  cudaGraphExecDestroy(exec);
  return rc;
}
