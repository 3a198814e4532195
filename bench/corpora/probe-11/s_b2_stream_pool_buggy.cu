#define BUGGY
// PLANTED: cudagraph-handle-leak line 47
// Round-robin pool of non-blocking streams used by an HPC halo-exchange code to
// overlap packing kernels of the six faces of a 3-D subdomain.
#include <cuda_runtime.h>
#include <cstdio>
#include <cstdlib>
#include <vector>

#define CHECK(call)                                                            \
  do {                                                                         \
    cudaError_t s_ = (call);                                                   \
    if (s_ != cudaSuccess) {                                                   \
      std::fprintf(stderr, "CUDA error %s at %s:%d\n", cudaGetErrorString(s_), \
                   __FILE__, __LINE__);                                        \
      std::abort();                                                            \
    }                                                                          \
  } while (0)

struct Face {
  const double *src;
  double *packed;
  int nx, ny;
  int stride;
};

__global__ void pack_face(const double *src, double *dst, int nx, int ny,
                          int stride) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  int j = blockIdx.y;
  if (i < nx && j < ny) dst[j * nx + i] = src[j * stride + i];
}

class StreamPool {
 public:
  explicit StreamPool(int n, int priority = 0) {
    streams_.reserve(n);
    for (int i = 0; i < n; ++i) {
      cudaStream_t s;
      CHECK(cudaStreamCreateWithPriority(&s, cudaStreamNonBlocking, priority));
      streams_.push_back(s);
    }
    CHECK(cudaEventCreateWithFlags(&joined_, cudaEventDisableTiming));
  }

  ~StreamPool() {
#ifdef BUGGY
    for (size_t i = 1; i < streams_.size(); ++i)  // EXPECT: cudagraph-handle-leak
      cudaStreamDestroy(streams_[i]);
#else
    for (size_t i = 0; i < streams_.size(); ++i)
      cudaStreamDestroy(streams_[i]);
#endif
    cudaEventDestroy(joined_);
  }

  StreamPool(const StreamPool &) = delete;
  StreamPool &operator=(const StreamPool &) = delete;

  cudaStream_t next() {
    cudaStream_t s = streams_[cursor_];
    cursor_ = (cursor_ + 1) % streams_.size();
    return s;
  }

  // Makes `main` wait for everything submitted to the pool so far.
  void join_into(cudaStream_t main) {
    for (cudaStream_t s : streams_) {
      CHECK(cudaEventRecord(joined_, s));
      CHECK(cudaStreamWaitEvent(main, joined_, 0));
    }
  }

  size_t size() const { return streams_.size(); }

 private:
  std::vector<cudaStream_t> streams_;
  cudaEvent_t joined_ = nullptr;
  size_t cursor_ = 0;
};

void pack_halos(StreamPool &pool, Face *faces, int nfaces, cudaStream_t main) {
  for (int f = 0; f < nfaces; ++f) {
    const Face &fc = faces[f];
    dim3 block(128);
    dim3 grid((fc.nx + 127) / 128, fc.ny);
    pack_face<<<grid, block, 0, pool.next()>>>(fc.src, fc.packed, fc.nx, fc.ny,
                                                fc.stride);
  }
  CHECK(cudaGetLastError());
  pool.join_into(main);
}

int run_timesteps(Face *faces, int steps) {
  cudaStream_t main_stream;
  CHECK(cudaStreamCreate(&main_stream));
  {
    StreamPool pool(6);
    for (int t = 0; t < steps; ++t) {
      pack_halos(pool, faces, 6, main_stream);
      // (MPI exchange of the packed faces would be posted here)
    }
    CHECK(cudaStreamSynchronize(main_stream));
  }
  CHECK(cudaStreamDestroy(main_stream));
  return 0;
}
