// Graph re-capture when the input shape changes.
#include <cuda_runtime.h>

__global__ void conv(const float *in, float *out, int h, int w) {}

struct Shape {
  int h, w;
  bool operator==(const Shape &o) const { return h == o.h && w == o.w; }
  bool operator!=(const Shape &o) const { return !(*this == o); }
};

class ConvGraphCache {
public:
  ~ConvGraphCache() {
    if (exec_) cudaGraphExecDestroy(exec_);
  }

  // Correct: the old exec is destroyed before recapturing.
  void run(const float *in, float *out, Shape shape, cudaStream_t s) {
    if (!exec_ || shape != shape_) {
      if (exec_) {
        cudaGraphExecDestroy(exec_);
        exec_ = nullptr;
      }
      cudaGraph_t g;
      cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal);
      conv<<<shape.h, shape.w, 0, s>>>(in, out, shape.h, shape.w);
      cudaStreamEndCapture(s, &g);
      cudaGraphInstantiate(&exec_, g, 0);
      cudaGraphDestroy(g);
      shape_ = shape;
    }
    cudaGraphLaunch(exec_, s);
  }

  // Member re-instantiated with unknown state on entry: not reported by spec.
  void rebuild(cudaGraph_t g) { cudaGraphInstantiate(&exec_, g, 0); }

private:
  cudaGraphExec_t exec_ = nullptr;
  Shape shape_{0, 0};
};

// Buggy: a local exec reused across a sequence of shapes; when the shape
// changes it is re-instantiated over the live exec.
void runSequence(const float *in, float *out, const Shape *shapes, int count,
                 cudaStream_t s) {
  cudaGraphExec_t exec = nullptr;
  Shape current{-1, -1};
  cudaGraph_t g;
  cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal);
  conv<<<shapes[0].h, shapes[0].w, 0, s>>>(in, out, shapes[0].h, shapes[0].w);
  cudaStreamEndCapture(s, &g);
  cudaGraphInstantiate(&exec, g, 0);
  cudaGraphDestroy(g);
  current = shapes[0];
  for (int i = 0; i < count; ++i) {
    if (shapes[i] != current) {
      cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal);
      conv<<<shapes[i].h, shapes[i].w, 0, s>>>(in, out, shapes[i].h, shapes[i].w);
      cudaStreamEndCapture(s, &g);
      cudaGraphInstantiate(&exec, g, 0); // EXPECT: cudagraph-unpaired-instantiate
      cudaGraphDestroy(g);
      current = shapes[i];
    }
    cudaGraphLaunch(exec, s);
  }
  cudaGraphExecDestroy(exec);
}

// Correct: same loop, destroys before re-instantiating.
void runSequenceFixed(const float *in, float *out, const Shape *shapes, int count,
                      cudaStream_t s) {
  cudaGraphExec_t exec = nullptr;
  Shape current{-1, -1};
  for (int i = 0; i < count; ++i) {
    if (shapes[i] != current) {
      if (exec != nullptr)
        cudaGraphExecDestroy(exec);
      cudaGraph_t g;
      cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal);
      conv<<<shapes[i].h, shapes[i].w, 0, s>>>(in, out, shapes[i].h, shapes[i].w);
      cudaStreamEndCapture(s, &g);
      cudaGraphInstantiate(&exec, g, 0);
      cudaGraphDestroy(g);
      current = shapes[i];
    }
    cudaGraphLaunch(exec, s);
  }
  if (exec)
    cudaGraphExecDestroy(exec);
}
