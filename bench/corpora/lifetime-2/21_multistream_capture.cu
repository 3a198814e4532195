// Fork/join capture across streams (tensor-parallel overlap); execs per stream slot.
#include <cuda_runtime.h>
#include <array>

__global__ void compute(float* x, int n) {}
__global__ void comm_pack(float* x, int n) {}

constexpr int kSlots = 4;

struct OverlapEngine {
  cudaStream_t main, side;
  cudaEvent_t fork, join;
  std::array<cudaGraphExec_t, kSlots> slots{};

  cudaGraph_t capture(float* x, int n) {
    cudaGraph_t g;
    cudaStreamBeginCapture(main, cudaStreamCaptureModeGlobal);
    cudaEventRecord(fork, main);
    cudaStreamWaitEvent(side, fork, 0);
    compute<<<n / 256, 256, 0, main>>>(x, n);
    comm_pack<<<n / 256, 256, 0, side>>>(x, n);
    cudaEventRecord(join, side);
    cudaStreamWaitEvent(main, join, 0);
    cudaStreamEndCapture(main, &g);
    return g;
  }

  // Correct: stored into the member array.
  void build_slot(int i, float* x, int n) {
    cudaGraph_t g = capture(x, n);
    cudaGraphInstantiate(&slots[i], g, 0);
    cudaGraphDestroy(g);
  }

  // Correct: all slots destroyed.
  void destroy_all() {
    for (auto& e : slots) {
      if (e) cudaGraphExecDestroy(e);
      e = nullptr;
    }
  }
};

// Buggy: local fork/join exec for a one-off collective warm-up, never destroyed.
void warm_overlap(OverlapEngine& eng, float* x, int n) {
  cudaGraph_t g = eng.capture(x, n);
  cudaGraphExec_t e;
  cudaGraphInstantiate(&e, g, 0);  // EXPECT: cudagraph-unpaired-instantiate
  cudaGraphDestroy(g);
  cudaGraphLaunch(e, eng.main);
  cudaStreamSynchronize(eng.main);
}

// Buggy: local array of execs; the early exit leaks those already built.
int build_local_slots(OverlapEngine& eng, float* x, const int* sizes) {
  cudaGraphExec_t local[kSlots];
  for (int i = 0; i < kSlots; ++i) {
    cudaGraph_t g = eng.capture(x, sizes[i]);
    cudaError_t err = cudaGraphInstantiate(&local[i], g, 0);  // EXPECT: cudagraph-unpaired-instantiate
    cudaGraphDestroy(g);
    if (err != cudaSuccess) return i;
  }
  for (int i = 0; i < kSlots; ++i) cudaGraphLaunch(local[i], eng.main);
  cudaStreamSynchronize(eng.main);
  for (int i = 0; i < kSlots; ++i) cudaGraphExecDestroy(local[i]);
  return kSlots;
}

// Correct: two execs (main + side), both destroyed.
void run_two(OverlapEngine& eng, cudaGraph_t ga, cudaGraph_t gb) {
  cudaGraphExec_t a, b;
  cudaGraphInstantiate(&a, ga, 0);
  cudaGraphInstantiate(&b, gb, 0);
  cudaGraphLaunch(a, eng.main);
  cudaGraphLaunch(b, eng.side);
  cudaStreamSynchronize(eng.main);
  cudaStreamSynchronize(eng.side);
  cudaGraphExecDestroy(b);
  cudaGraphExecDestroy(a);
}

// Buggy: only one of the two execs destroyed.
void run_two_leaky(OverlapEngine& eng, cudaGraph_t ga, cudaGraph_t gb) {
  cudaGraphExec_t a, b;
  cudaGraphInstantiate(&a, ga, 0);
  cudaGraphInstantiate(&b, gb, 0);  // EXPECT: cudagraph-unpaired-instantiate
  cudaGraphLaunch(a, eng.main);
  cudaGraphLaunch(b, eng.side);
  cudaStreamSynchronize(eng.main);
  cudaGraphExecDestroy(a);
}
