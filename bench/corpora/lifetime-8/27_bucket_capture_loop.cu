// Capturing one graph per batch-size bucket at server start-up (the pattern of
// vLLM/SGLang graph runners). capture_buckets_buggy captures every bucket into
// the same cudaGraph_t and only destroys the last one. The two other functions
// keep the graphs in a container or destroy each after instantiation.
#include <cuda_runtime.h>
#include <vector>

__global__ void fwd(const int *ids, float *out, int bs) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < bs) out[i] = (float)ids[i];
}

static const int kBuckets[] = {1, 2, 4, 8, 16, 32, 64};

void capture_buckets_buggy(const int *ids, float *out, cudaStream_t s,
                           std::vector<cudaGraphExec_t> &execs) {
  cudaGraph_t g = nullptr;
  for (int bs : kBuckets) {
    cudaStreamBeginCapture(s, cudaStreamCaptureModeThreadLocal);
    fwd<<<(bs + 31) / 32, 32, 0, s>>>(ids, out, bs);
    cudaStreamEndCapture(s, &g); // EXPECT: cudagraph-capture-without-destroy
    cudaGraphExec_t e;
    cudaGraphInstantiate(&e, g, 0);
    execs.push_back(e);
  }
  cudaGraphDestroy(g);
}

void capture_buckets(const int *ids, float *out, cudaStream_t s,
                     std::vector<cudaGraphExec_t> &execs) {
  for (int bs : kBuckets) {
    cudaGraph_t g;
    cudaStreamBeginCapture(s, cudaStreamCaptureModeThreadLocal);
    fwd<<<(bs + 31) / 32, 32, 0, s>>>(ids, out, bs);
    if (cudaStreamEndCapture(s, &g) != cudaSuccess) continue;
    cudaGraphExec_t e;
    if (cudaGraphInstantiate(&e, g, 0) == cudaSuccess) execs.push_back(e);
    cudaGraphDestroy(g);
  }
}

// Keeps the graphs too (for later cudaGraphExecUpdate); the caller destroys them.
void capture_buckets_keep(const int *ids, float *out, cudaStream_t s,
                          std::vector<cudaGraph_t> &graphs,
                          std::vector<cudaGraphExec_t> &execs) {
  for (int bs : kBuckets) {
    cudaGraph_t g;
    cudaStreamBeginCapture(s, cudaStreamCaptureModeThreadLocal);
    fwd<<<(bs + 31) / 32, 32, 0, s>>>(ids, out, bs);
    if (cudaStreamEndCapture(s, &g) != cudaSuccess) break;
    graphs.push_back(g);
    cudaGraphExec_t e;
    if (cudaGraphInstantiate(&e, g, 0) != cudaSuccess) break;
    execs.push_back(e);
  }
}

void release_buckets(std::vector<cudaGraph_t> &graphs, std::vector<cudaGraphExec_t> &execs) {
  for (cudaGraphExec_t e : execs) cudaGraphExecDestroy(e);
  for (cudaGraph_t g : graphs) cudaGraphDestroy(g);
  execs.clear();
  graphs.clear();
}
