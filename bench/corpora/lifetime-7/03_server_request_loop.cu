// Per-request graph creation in a serving loop (batch of one request is
// captured, instantiated, replayed and torn down).
#include <cuda_runtime.h>
#include <cstddef>

struct Request {
  int id;
  int tokens;
  float *in;
  float *out;
  bool cancelled;
};

bool popRequest(Request *r);         // defined in the scheduler TU
void reply(int id, cudaError_t status);

__global__ void forward(const float *in, float *out, int tokens) {}

static cudaError_t captureRequest(const Request &r, cudaStream_t s, cudaGraph_t *g) {
  cudaStreamBeginCapture(s, cudaStreamCaptureModeThreadLocal);
  forward<<<r.tokens, 128, 0, s>>>(r.in, r.out, r.tokens);
  return cudaStreamEndCapture(s, g);
}

// Buggy: a cancelled request `continue`s after the exec was built.
void serveLoopBuggy(cudaStream_t s) {
  Request r;
  while (popRequest(&r)) {
    if (r.tokens <= 0)
      continue;  // nothing instantiated yet: fine
    cudaGraph_t g;
    if (captureRequest(r, s, &g) != cudaSuccess) {
      reply(r.id, cudaErrorStreamCaptureInvalidated);
      continue;
    }
    cudaGraphExec_t exec;
    cudaError_t e = cudaGraphInstantiate(&exec, g, 0); // EXPECT: cudagraph-unpaired-instantiate
    cudaGraphDestroy(g);
    if (e != cudaSuccess) {
      reply(r.id, e);
      continue;
    }
    if (r.cancelled) {
      reply(r.id, cudaErrorNotReady);
      continue;  // leak: exec not destroyed
    }
    reply(r.id, cudaGraphLaunch(exec, s));
    cudaGraphExecDestroy(exec);
  }
}

// Correct: every continue/break after instantiation destroys first.
int serveLoopFixed(cudaStream_t s, int maxRequests) {
  Request r;
  int served = 0;
  while (popRequest(&r)) {
    cudaGraph_t g;
    if (captureRequest(r, s, &g) != cudaSuccess)
      continue;
    cudaGraphExec_t exec = nullptr;
    cudaError_t e = cudaGraphInstantiate(&exec, g, 0);
    cudaGraphDestroy(g);
    if (e != cudaSuccess)
      continue;
    if (r.cancelled) {
      cudaGraphExecDestroy(exec);
      continue;
    }
    e = cudaGraphLaunch(exec, s);
    cudaStreamSynchronize(s);
    cudaGraphExecDestroy(exec);
    reply(r.id, e);
    if (++served == maxRequests)
      break;
  }
  return served;
}

// Buggy: shutdown break taken between launch and destroy.
int serveUntilShutdown(cudaStream_t s, const volatile bool *shutdown) {
  Request r;
  int served = 0;
  for (;;) {
    if (!popRequest(&r))
      break;
    cudaGraph_t g;
    if (captureRequest(r, s, &g) != cudaSuccess)
      break;
    cudaGraphExec_t exec;
    if (cudaGraphInstantiate(&exec, g, 0) != cudaSuccess) { // EXPECT: cudagraph-unpaired-instantiate
      cudaGraphDestroy(g);
      break;
    }
    cudaGraphDestroy(g);
    cudaGraphLaunch(exec, s);
    ++served;
    if (*shutdown)
      break;  // leak on shutdown
    cudaStreamSynchronize(s);
    cudaGraphExecDestroy(exec);
  }
  return served;
}
