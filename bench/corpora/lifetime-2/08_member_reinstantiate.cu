// Class that keeps an exec member and rebuilds it when the input shape changes.
#include <cuda_runtime.h>
#include <cstddef>

__global__ void conv_fwd(const float* x, float* y, int n, int c) {}

class ShapeSpecializedConv {
 public:
  ShapeSpecializedConv(cudaStream_t s, int n, int c) : stream_(s), n_(n), c_(c) {
    build(n, c);
  }
  ~ShapeSpecializedConv() {
    if (exec_) cudaGraphExecDestroy(exec_);
  }

  // Correct: old exec destroyed before the new one replaces it.
  void reshape(int n, int c) {
    if (n == n_ && c == c_) return;
    if (exec_) {
      cudaGraphExecDestroy(exec_);
      exec_ = nullptr;
    }
    build(n, c);
    n_ = n;
    c_ = c;
  }

  // Buggy: within this function the first exec is overwritten while still alive.
  void rebuild_twice(float* x, float* y, int n, int c) {
    if (exec_) cudaGraphExecDestroy(exec_);
    cudaGraph_t g1 = capture(x, y, n, c);
    cudaGraphInstantiate(&exec_, g1, 0);
    cudaGraphDestroy(g1);
    cudaGraphLaunch(exec_, stream_);  // warm-up
    cudaGraph_t g2 = capture(x, y, n, c);
    cudaGraphInstantiate(&exec_, g2, 0);  // EXPECT: cudagraph-unpaired-instantiate
    cudaGraphDestroy(g2);
  }

  // Correct: same as above but destroys the warm-up exec in between.
  void rebuild_twice_fixed(float* x, float* y, int n, int c) {
    if (exec_) cudaGraphExecDestroy(exec_);
    cudaGraph_t g1 = capture(x, y, n, c);
    cudaGraphInstantiate(&exec_, g1, 0);
    cudaGraphDestroy(g1);
    cudaGraphLaunch(exec_, stream_);
    cudaGraphExecDestroy(exec_);
    cudaGraph_t g2 = capture(x, y, n, c);
    cudaGraphInstantiate(&exec_, g2, 0);
    cudaGraphDestroy(g2);
  }

  void forward() { cudaGraphLaunch(exec_, stream_); }

 private:
  cudaGraph_t capture(float* x, float* y, int n, int c) {
    cudaGraph_t g;
    cudaStreamBeginCapture(stream_, cudaStreamCaptureModeThreadLocal);
    conv_fwd<<<n, c, 0, stream_>>>(x, y, n, c);
    cudaStreamEndCapture(stream_, &g);
    return g;
  }
  void build(int n, int c) {
    cudaGraph_t g = capture(x_, y_, n, c);
    cudaGraphInstantiate(&exec_, g, 0);
    cudaGraphDestroy(g);
  }

  cudaStream_t stream_;
  int n_, c_;
  float* x_ = nullptr;
  float* y_ = nullptr;
  cudaGraphExec_t exec_ = nullptr;
};

// Buggy: a local handle re-instantiated when the shape changes, old one not destroyed.
void run_sequence(cudaStream_t s, float* x, float* y, const int* shapes, int count) {
  cudaGraphExec_t exec = nullptr;
  int cur = -1;
  for (int i = 0; i < count; ++i) {
    if (shapes[i] != cur) {
      cudaGraph_t g;
      cudaStreamBeginCapture(s, cudaStreamCaptureModeThreadLocal);
      conv_fwd<<<shapes[i], 64, 0, s>>>(x, y, shapes[i], 64);
      cudaStreamEndCapture(s, &g);
      cudaGraphInstantiate(&exec, g, 0);  // EXPECT: cudagraph-unpaired-instantiate
      cudaGraphDestroy(g);
      cur = shapes[i];
    }
    cudaGraphLaunch(exec, s);
  }
  if (exec) cudaGraphExecDestroy(exec);
}

// Correct: same loop with the old exec destroyed first.
void run_sequence_fixed(cudaStream_t s, float* x, float* y, const int* shapes, int count) {
  cudaGraphExec_t exec = nullptr;
  int cur = -1;
  for (int i = 0; i < count; ++i) {
    if (shapes[i] != cur) {
      if (exec) cudaGraphExecDestroy(exec);
      cudaGraph_t g;
      cudaStreamBeginCapture(s, cudaStreamCaptureModeThreadLocal);
      conv_fwd<<<shapes[i], 64, 0, s>>>(x, y, shapes[i], 64);
      cudaStreamEndCapture(s, &g);
      cudaGraphInstantiate(&exec, g, 0);
      cudaGraphDestroy(g);
      cur = shapes[i];
    }
    cudaGraphLaunch(exec, s);
  }
  if (exec) cudaGraphExecDestroy(exec);
}
