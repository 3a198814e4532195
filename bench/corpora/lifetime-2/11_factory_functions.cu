// Factories that return execs, and callers of those factories.
#include <cuda_runtime.h>
#include <cstdio>

__global__ void sampler(const float* logits, int* out, int vocab, int bs) {}

// Correct: returns the exec (escape).
static cudaGraphExec_t make_sampler_exec(cudaStream_t s, const float* logits, int* out, int vocab, int bs) {
  cudaGraph_t g;
  cudaStreamBeginCapture(s, cudaStreamCaptureModeThreadLocal);
  sampler<<<bs, 256, 0, s>>>(logits, out, vocab, bs);
  cudaStreamEndCapture(s, &g);
  cudaGraphExec_t e = nullptr;
  cudaGraphInstantiate(&e, g, 0);
  cudaGraphDestroy(g);
  return e;
}

// Correct: returns through a status + out-pointer pair, or nullptr on failure.
static cudaError_t try_make_exec(cudaGraph_t g, cudaGraphExec_t* out) {
  cudaGraphExec_t e;
  cudaError_t err = cudaGraphInstantiate(&e, g, 0);
  if (err != cudaSuccess) return err;
  *out = e;
  return cudaSuccess;
}

// Correct: caller destroys what the factory returned.
void sample_once(cudaStream_t s, const float* logits, int* out, int vocab, int bs) {
  cudaGraphExec_t e = make_sampler_exec(s, logits, out, vocab, bs);
  cudaGraphLaunch(e, s);
  cudaStreamSynchronize(s);
  cudaGraphExecDestroy(e);
}

// Buggy: caller of the factory never destroys the exec.
void sample_once_leaky(cudaStream_t s, const float* logits, int* out, int vocab, int bs) {
  cudaGraphExec_t e = make_sampler_exec(s, logits, out, vocab, bs);  // EXPECT: cudagraph-unpaired-instantiate
  cudaGraphLaunch(e, s);
  cudaStreamSynchronize(s);
}

// Buggy: factory via out-pointer, error path after it forgets the exec.
int sample_with_status(cudaGraph_t g, cudaStream_t s) {
  cudaGraphExec_t e;
  if (try_make_exec(g, &e) != cudaSuccess) return -1;  // EXPECT: cudagraph-unpaired-instantiate
  if (cudaGraphLaunch(e, s) != cudaSuccess) {
    std::fprintf(stderr, "launch failed\n");
    return -2;
  }
  cudaGraphExecDestroy(e);
  return 0;
}

// Correct: factory via out-pointer with destroy on every path.
int sample_with_status_fixed(cudaGraph_t g, cudaStream_t s) {
  cudaGraphExec_t e;
  if (try_make_exec(g, &e) != cudaSuccess) return -1;
  int rc = cudaGraphLaunch(e, s) == cudaSuccess ? 0 : -2;
  cudaGraphExecDestroy(e);
  return rc;
}

struct SamplerState {
  cudaGraphExec_t exec;
  int bs;
};

// Correct: factory result stored into a caller-provided struct.
void init_sampler(SamplerState* st, cudaStream_t s, const float* logits, int* out, int vocab) {
  st->exec = make_sampler_exec(s, logits, out, vocab, st->bs);
}

// Buggy: factory result overwrites a local exec that is still alive.
void resample(cudaStream_t s, const float* logits, int* out, int vocab) {
  cudaGraphExec_t e = make_sampler_exec(s, logits, out, vocab, 8);
  cudaGraphLaunch(e, s);
  e = make_sampler_exec(s, logits, out, vocab, 16);  // EXPECT: cudagraph-unpaired-instantiate
  cudaGraphLaunch(e, s);
  cudaGraphExecDestroy(e);
}
