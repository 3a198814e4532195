// cudaGraphInstantiateWithParams: upload stream and result_out checks.
#include <cuda_runtime.h>
#include <cstdio>

// Correct: checks result_out, destroys on every path.
cudaError_t instantiate_and_upload(cudaGraph_t g, cudaStream_t upload, cudaStream_t run) {
  cudaGraphInstantiateParams p = {};
  p.flags = cudaGraphInstantiateFlagUpload;
  p.uploadStream = upload;
  cudaGraphExec_t e;
  cudaError_t err = cudaGraphInstantiateWithParams(&e, g, &p);
  if (err != cudaSuccess) {
    std::fprintf(stderr, "instantiate result %d\n", (int)p.result_out);
    return err;
  }
  err = cudaGraphLaunch(e, run);
  cudaGraphExecDestroy(e);
  return err;
}

// Buggy: exec leaked after the upload-stream synchronisation fails.
cudaError_t instantiate_and_upload_v2(cudaGraph_t g, cudaStream_t upload, cudaStream_t run) {
  cudaGraphInstantiateParams p = {};
  p.flags = cudaGraphInstantiateFlagUpload;
  p.uploadStream = upload;
  cudaGraphExec_t e;
  cudaError_t err = cudaGraphInstantiateWithParams(&e, g, &p);  // EXPECT: cudagraph-unpaired-instantiate
  if (err != cudaSuccess) return err;
  err = cudaStreamSynchronize(upload);
  if (err != cudaSuccess) return err;
  err = cudaGraphLaunch(e, run);
  cudaGraphExecDestroy(e);
  return err;
}

struct PrefetchedGraph {
  cudaGraphExec_t exec = nullptr;
  cudaStream_t stream = nullptr;
  ~PrefetchedGraph() {
    if (exec) cudaGraphExecDestroy(exec);
  }
};

// Correct: instantiated straight into an RAII struct's member via a pointer parameter.
bool prefetch(PrefetchedGraph* pg, cudaGraph_t g) {
  cudaGraphInstantiateParams p = {};
  p.flags = cudaGraphInstantiateFlagUpload;
  p.uploadStream = pg->stream;
  return cudaGraphInstantiateWithParams(&pg->exec, g, &p) == cudaSuccess &&
         p.result_out == cudaGraphInstantiateSuccess;
}

// Buggy: the instantiate-params struct is reused in a loop, each exec overwritten.
void warm_many(cudaGraph_t* graphs, int n, cudaStream_t s) {
  cudaGraphInstantiateParams p = {};
  p.flags = cudaGraphInstantiateFlagUpload;
  p.uploadStream = s;
  cudaGraphExec_t e = nullptr;
  for (int i = 0; i < n; ++i) {
    if (cudaGraphInstantiateWithParams(&e, graphs[i], &p) != cudaSuccess) continue;  // EXPECT: cudagraph-unpaired-instantiate
    cudaGraphLaunch(e, s);
  }
  cudaStreamSynchronize(s);
  if (e) cudaGraphExecDestroy(e);
}
