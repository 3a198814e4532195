// vLLM-style CUDA graph cache: one exec per padded batch bucket, a default exec
// for the largest bucket, a dedicated capture stream and a pool of events used
// to order the capture stream after the compute stream. Options select eager
// fallback, padding, piecewise capture and NVTX-like markers.
#include <cuda_runtime.h>
#include <cstdio>
#include <map>
#include <vector>

__global__ void attn_decode(const float *q, const float *kv, float *o, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) o[i] = q[i] * kv[i];
}
__global__ void rms_norm(float *x, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) x[i] *= 0.99f;
}

struct CacheOptions {
  bool enforce_eager = false;
  bool pad_to_bucket = true;
  bool piecewise = false;
  bool verbose = false;
  int max_batch = 256;
  std::vector<int> buckets{1, 2, 4, 8, 16, 32, 64, 128, 256};
};

class BucketGraphCache {
 public:
  BucketGraphCache(const CacheOptions &opts, cudaStream_t compute)
      : opts_(opts), compute_(compute) {
    cudaStreamCreateWithFlags(&capture_stream_, cudaStreamNonBlocking);
    cudaEventCreateWithFlags(&fork_, cudaEventDisableTiming);
  }

  ~BucketGraphCache() {
    for (auto &kv : execs_) cudaGraphExecDestroy(kv.second);
    execs_.clear();
    if (default_exec_) cudaGraphExecDestroy(default_exec_);
    cudaEventDestroy(fork_);
    cudaStreamDestroy(capture_stream_);
  }

  BucketGraphCache(const BucketGraphCache &) = delete;
  BucketGraphCache &operator=(const BucketGraphCache &) = delete;

  int bucket_for(int batch) const {
    if (!opts_.pad_to_bucket) return batch;
    for (int b : opts_.buckets)
      if (b >= batch) return b;
    return -1;
  }

  // Records an event on the compute stream once the weights are resident; the
  // first replay waits for it.
  void warmup(const float *q, const float *kv, float *o) {
    cudaEventCreateWithFlags(&warmup_done_, cudaEventDisableTiming); // EXPECT: cudagraph-handle-leak
    attn_decode<<<1, 32, 0, compute_>>>(q, kv, o, 32);
    cudaEventRecord(warmup_done_, compute_);
    cudaStreamWaitEvent(capture_stream_, warmup_done_, 0);
    warmed_ = true;
  }

  cudaError_t capture_bucket(int bucket, const float *q, const float *kv, float *o) {
    if (opts_.enforce_eager) return cudaSuccess;
    if (execs_.count(bucket)) return cudaSuccess;
    cudaEventRecord(fork_, compute_);
    cudaStreamWaitEvent(capture_stream_, fork_, 0);
    cudaGraph_t g = nullptr;
    cudaError_t st = cudaStreamBeginCapture(capture_stream_, cudaStreamCaptureModeThreadLocal);
    if (st != cudaSuccess) return st;
    attn_decode<<<(bucket * 128 + 127) / 128, 128, 0, capture_stream_>>>(q, kv, o, bucket * 128);
    if (!opts_.piecewise) rms_norm<<<(bucket * 128 + 127) / 128, 128, 0, capture_stream_>>>(o, bucket * 128);
    st = cudaStreamEndCapture(capture_stream_, &g);
    if (st != cudaSuccess) return st;
    cudaGraphExec_t e = nullptr;
    st = cudaGraphInstantiate(&e, g, 0);
    cudaGraphDestroy(g);
    if (st != cudaSuccess) return st;
    execs_[bucket] = e;
    if (opts_.verbose) std::printf("captured bucket %d\n", bucket);
    return cudaSuccess;
  }

  // Captures the graph used when no bucket fits; called again by the
  // scheduler whenever max_batch is raised at runtime.
  cudaError_t capture_default(const float *q, const float *kv, float *o) {
    cudaGraph_t g = nullptr;
    cudaError_t st = cudaStreamBeginCapture(capture_stream_, cudaStreamCaptureModeThreadLocal);
    if (st != cudaSuccess) return st;
    attn_decode<<<(opts_.max_batch * 128 + 127) / 128, 128, 0, capture_stream_>>>(q, kv, o, opts_.max_batch * 128);
    st = cudaStreamEndCapture(capture_stream_, &g);
    if (st != cudaSuccess) return st;
    st = cudaGraphInstantiate(&default_exec_, g, 0); // EXPECT: cudagraph-unpaired-instantiate
    cudaGraphDestroy(g);
    return st;
  }

  cudaError_t run(int batch, const float *q, const float *kv, float *o) {
    int bucket = bucket_for(batch);
    if (opts_.enforce_eager || bucket < 0) {
      if (bucket < 0 && default_exec_) return cudaGraphLaunch(default_exec_, capture_stream_);
      attn_decode<<<(batch * 128 + 127) / 128, 128, 0, compute_>>>(q, kv, o, batch * 128);
      return cudaGetLastError();
    }
    auto it = execs_.find(bucket);
    if (it == execs_.end()) {
      cudaError_t st = capture_bucket(bucket, q, kv, o);
      if (st != cudaSuccess) return st;
      it = execs_.find(bucket);
    }
    if (it == execs_.end()) return cudaErrorUnknown;
    return cudaGraphLaunch(it->second, capture_stream_);
  }

  void set_max_batch(int m) { opts_.max_batch = m; }
  bool warmed() const { return warmed_; }

 private:
  CacheOptions opts_;
  cudaStream_t compute_;
  cudaStream_t capture_stream_ = nullptr;
  cudaEvent_t fork_ = nullptr;
  cudaEvent_t warmup_done_ = nullptr;
  cudaGraphExec_t default_exec_ = nullptr;
  std::map<int, cudaGraphExec_t> execs_;
  bool warmed_ = false;
};

int run_scheduler(cudaStream_t compute, const float *q, const float *kv, float *o,
                  const int *batches, int steps, bool eager, bool verbose) {
  CacheOptions opts;
  opts.enforce_eager = eager;
  opts.verbose = verbose;
  BucketGraphCache cache(opts, compute);
  cache.warmup(q, kv, o);
  if (cache.capture_default(q, kv, o) != cudaSuccess) return 1;
  for (int s = 0; s < steps; ++s) {
    if (batches[s] > 256 && batches[s] > opts.max_batch) {
      opts.max_batch = batches[s];
      cache.set_max_batch(batches[s]);
      if (cache.capture_default(q, kv, o) != cudaSuccess) return 1;
    }
    cudaError_t st = cache.run(batches[s], q, kv, o);
    if (st != cudaSuccess) {
      if (verbose) std::fprintf(stderr, "step %d: %s\n", s, cudaGetErrorString(st));
      return 2;
    }
  }
  return cudaStreamSynchronize(compute) == cudaSuccess ? 0 : 3;
}
