// Mixed-precision training step captured as a CUDA graph. Dynamic loss
// scaling: an overflow flag is written on device; when it fires, the step is
// skipped and the scale halved. The scale lives in device memory so the graph
// does not need to be re-captured when it changes.
#include <cuda_runtime.h>
#include <cuda_fp16.h>
#include <cstdio>
#include <functional>
#include <vector>

namespace train {

__global__ void forward_backward(const __half* x, __half* grad, const float* scale, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) grad[i] = __float2half(__half2float(x[i]) * (*scale));
}

__global__ void check_overflow(const __half* grad, int* flag, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    float g = __half2float(grad[i]);
    if (isinf(g) || isnan(g)) atomicExch(flag, 1);
  }
}

__global__ void sgd_update(float* w, const __half* grad, const float* scale, const int* flag, float lr, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n && *flag == 0) w[i] -= lr * __half2float(grad[i]) / (*scale);
}

struct Tensors {
  __half* x;
  __half* grad;
  float* w;
  float* scale;
  int* overflow;
  int n;
};

class LossScaler {
 public:
  float scale = 65536.f;
  int good_steps = 0;
  void update(bool overflow) {
    if (overflow) { scale *= 0.5f; good_steps = 0; }
    else if (++good_steps == 2000) { scale *= 2.f; good_steps = 0; }
  }
};

static cudaError_t record_step(const Tensors& t, cudaStream_t s, float lr, cudaGraph_t* g) {
  cudaError_t err = cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal);
  if (err != cudaSuccess) return err;
  int b = (t.n + 255) / 256;
  cudaMemsetAsync(t.overflow, 0, sizeof(int), s);
  forward_backward<<<b, 256, 0, s>>>(t.x, t.grad, t.scale, t.n);
  check_overflow<<<b, 256, 0, s>>>(t.grad, t.overflow, t.n);
  sgd_update<<<b, 256, 0, s>>>(t.w, t.grad, t.scale, t.overflow, lr, t.n);
  return cudaStreamEndCapture(s, g);
}

class TrainStep {
 public:
  TrainStep(Tensors t, cudaStream_t s) : t_(t), s_(s) {}
  ~TrainStep() {
    if (exec_) cudaGraphExecDestroy(exec_);
  }

  // Instantiates with explicit params so the error node can be reported.
  cudaError_t init(float lr) {
    cudaGraph_t g = nullptr;
    cudaError_t err = record_step(t_, s_, lr, &g);
    if (err != cudaSuccess) return err;
    cudaGraphInstantiateParams params = {};
    params.flags = cudaGraphInstantiateFlagUpload;
    params.uploadStream = s_;
    cudaGraphExec_t e = nullptr;
    err = cudaGraphInstantiateWithParams(&e, g, &params);
    cudaGraphDestroy(g);
    if (err != cudaSuccess) {
      std::fprintf(stderr, "instantiate failed: result %d node %p\n",
                   static_cast<int>(params.result_out), static_cast<void*>(params.errNode_out));
      return err;
    }
    exec_ = e;
    lr_ = lr;
    return cudaSuccess;
  }

  // Learning-rate schedule change: lr is baked into kernel params, so the exec
  // is updated in place; topology is identical so update normally succeeds.
  cudaError_t set_lr(float lr) {
    cudaGraph_t g = nullptr;
    cudaError_t err = record_step(t_, s_, lr, &g);
    if (err != cudaSuccess) return err;
    cudaGraphExecUpdateResultInfo info;
    err = cudaGraphExecUpdate(exec_, g, &info);
    if (err != cudaSuccess) {
      cudaGetLastError();
      cudaGraphExecDestroy(exec_);
      exec_ = nullptr;
      err = cudaGraphInstantiate(&exec_, g, 0);
    }
    cudaGraphDestroy(g);
    if (err == cudaSuccess) lr_ = lr;
    return err;
  }

  // Returns true when the step was applied, false when it overflowed.
  bool step(LossScaler& scaler) {
    cudaMemcpyAsync(t_.scale, &scaler.scale, sizeof(float), cudaMemcpyHostToDevice, s_);
    cudaGraphLaunch(exec_, s_);
    int flag = 0;
    cudaMemcpyAsync(&flag, t_.overflow, sizeof(int), cudaMemcpyDeviceToHost, s_);
    cudaStreamSynchronize(s_);
    scaler.update(flag != 0);
    return flag == 0;
  }

 private:
  Tensors t_;
  cudaStream_t s_;
  cudaGraphExec_t exec_ = nullptr;
  float lr_ = 0.f;
};

// Evaluation step: forward + overflow check only. The caller gets a callable
// that replays it; the callable owns the exec through the capture.
std::function<bool()> make_eval_step(const Tensors& t, cudaStream_t s) {
  cudaGraph_t g = nullptr;
  if (cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal) != cudaSuccess) return {};
  int b = (t.n + 255) / 256;
  forward_backward<<<b, 256, 0, s>>>(t.x, t.grad, t.scale, t.n);
  check_overflow<<<b, 256, 0, s>>>(t.grad, t.overflow, t.n);
  if (cudaStreamEndCapture(s, &g) != cudaSuccess) return {};
  cudaGraphExec_t e = nullptr;
  cudaError_t err = cudaGraphInstantiate(&e, g, 0);
  cudaGraphDestroy(g);
  if (err != cudaSuccess) return {};
  return [e, s, t]() {
    cudaGraphLaunch(e, s);
    int flag = 0;
    cudaMemcpy(&flag, t.overflow, sizeof(int), cudaMemcpyDeviceToHost);
    return flag == 0;
  };
}

// Probe: finds the largest scale that does not overflow on the first batch.
// Each probe rebuilds the graph; an overflowing probe returns early.
float probe_initial_scale(Tensors t, cudaStream_t s, float lr) {
  float scale = 1u << 24;
  for (int tries = 0; tries < 16; ++tries) {
    cudaGraph_t g = nullptr;
    if (record_step(t, s, lr, &g) != cudaSuccess) return 1.f;
    cudaGraphExec_t e = nullptr;
    cudaError_t err = cudaGraphInstantiate(&e, g, 0);  // EXPECT: cudagraph-unpaired-instantiate
    cudaGraphDestroy(g);
    if (err != cudaSuccess) return 1.f;
    cudaMemcpy(t.scale, &scale, sizeof(float), cudaMemcpyHostToDevice);
    cudaGraphLaunch(e, s);
    int flag = 0;
    cudaMemcpyAsync(&flag, t.overflow, sizeof(int), cudaMemcpyDeviceToHost, s);
    cudaStreamSynchronize(s);
    if (flag == 0) return scale;  // the probe exec is still alive here
    cudaGraphExecDestroy(e);
    scale *= 0.5f;
  }
  return scale;
}

int train_loop(Tensors t, cudaStream_t s, int steps) {
  TrainStep step(t, s);
  if (step.init(1e-3f) != cudaSuccess) return -1;
  LossScaler scaler;
  scaler.scale = probe_initial_scale(t, s, 1e-3f);
  int applied = 0;
  for (int i = 0; i < steps; ++i) {
    if (i == steps / 2) step.set_lr(5e-4f);
    applied += step.step(scaler) ? 1 : 0;
  }
  auto eval = make_eval_step(t, s);
  if (eval) eval();
  return applied;
}

}  // namespace train
