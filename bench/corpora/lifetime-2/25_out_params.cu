// Execs returned through pointer and reference out-parameters.
#include <cuda_runtime.h>

__global__ void embed(const int* ids, float* out, int n) {}

// Correct: pointer out-parameter.
cudaError_t build_embed_graph(cudaStream_t s, const int* ids, float* out, int n, cudaGraphExec_t* exec_out) {
  cudaGraph_t g;
  cudaError_t err = cudaStreamBeginCapture(s, cudaStreamCaptureModeThreadLocal);
  if (err != cudaSuccess) return err;
  embed<<<(n + 255) / 256, 256, 0, s>>>(ids, out, n);
  err = cudaStreamEndCapture(s, &g);
  if (err != cudaSuccess) return err;
  err = cudaGraphInstantiate(exec_out, g, 0);
  cudaGraphDestroy(g);
  return err;
}

// Correct: reference out-parameter assigned from a local.
bool build_embed_graph_ref(cudaGraph_t g, cudaGraphExec_t& out) {
  cudaGraphExec_t tmp;
  if (cudaGraphInstantiate(&tmp, g, 0) != cudaSuccess) return false;
  out = tmp;
  return true;
}

// Buggy: out-parameter only written when `publish` is set.
bool build_embed_graph_cond(cudaGraph_t g, cudaStream_t s, bool publish, cudaGraphExec_t* out) {
  cudaGraphExec_t tmp;
  if (cudaGraphInstantiate(&tmp, g, 0) != cudaSuccess) return false;  // EXPECT: cudagraph-unpaired-instantiate
  cudaGraphLaunch(tmp, s);
  if (publish) {
    *out = tmp;
    return true;
  }
  return false;
}

// Correct: caller of the out-parameter builder destroys the result.
void embed_once(cudaStream_t s, const int* ids, float* out, int n) {
  cudaGraphExec_t e;
  if (build_embed_graph(s, ids, out, n, &e) != cudaSuccess) return;
  cudaGraphLaunch(e, s);
  cudaGraphExecDestroy(e);
}

// Buggy: caller of the same-file builder forgets the result.
void embed_once_leaky(cudaStream_t s, const int* ids, float* out, int n) {
  cudaGraphExec_t e;
  if (build_embed_graph(s, ids, out, n, &e) != cudaSuccess) return;  // EXPECT: cudagraph-unpaired-instantiate
  cudaGraphLaunch(e, s);
}

struct EmbedPlan {
  cudaGraphExec_t exec;
  int n;
};

// Correct: written into a struct reached through a pointer parameter.
void plan_embed(EmbedPlan* plan, cudaGraph_t g) {
  cudaGraphInstantiate(&plan->exec, g, 0);
}

// Buggy: instantiated into a struct that is a local copy of the plan.
void plan_embed_copy(EmbedPlan plan, cudaGraph_t g, cudaStream_t s) {
  cudaGraphInstantiate(&plan.exec, g, 0);  // EXPECT: cudagraph-unpaired-instantiate
  cudaGraphLaunch(plan.exec, s);
}

// Correct: reference-to-struct parameter.
void plan_embed_ref(EmbedPlan& plan, cudaGraph_t g) {
  if (plan.exec) cudaGraphExecDestroy(plan.exec);
  cudaGraphInstantiate(&plan.exec, g, 0);
}
