// Fork/join capture across two streams with events (the pattern used to capture
// overlapping attention and MLP branches). Events and the side stream are created
// before the capture and destroyed after it ends. Correct.
#include <cuda_runtime.h>

__global__ void branch_a(float *x, int n) { int i = blockIdx.x * blockDim.x + threadIdx.x; if (i < n) x[i] += 1.f; }
__global__ void branch_b(float *y, int n) { int i = blockIdx.x * blockDim.x + threadIdx.x; if (i < n) y[i] *= 2.f; }
__global__ void merge(float *x, const float *y, int n) { int i = blockIdx.x * blockDim.x + threadIdx.x; if (i < n) x[i] += y[i]; }

cudaError_t capture_fork_join(float *x, float *y, int n, cudaStream_t main_s,
                              cudaGraphExec_t *exec) {
  cudaStream_t side;
  cudaError_t st = cudaStreamCreateWithFlags(&side, cudaStreamNonBlocking);
  if (st != cudaSuccess) return st;
  cudaEvent_t fork, join;
  cudaEventCreateWithFlags(&fork, cudaEventDisableTiming);
  cudaEventCreateWithFlags(&join, cudaEventDisableTiming);

  cudaGraph_t g = nullptr;
  st = cudaStreamBeginCapture(main_s, cudaStreamCaptureModeGlobal);
  if (st == cudaSuccess) {
    cudaEventRecord(fork, main_s);
    cudaStreamWaitEvent(side, fork, 0);
    branch_a<<<(n + 255) / 256, 256, 0, main_s>>>(x, n);
    branch_b<<<(n + 255) / 256, 256, 0, side>>>(y, n);
    cudaEventRecord(join, side);
    cudaStreamWaitEvent(main_s, join, 0);
    merge<<<(n + 255) / 256, 256, 0, main_s>>>(x, y, n);
    st = cudaStreamEndCapture(main_s, &g);
  }
  if (st == cudaSuccess) {
    st = cudaGraphInstantiate(exec, g, 0);
    cudaGraphDestroy(g);
  }
  cudaEventDestroy(join);
  cudaEventDestroy(fork);
  cudaStreamDestroy(side);
  return st;
}

// A capture-aware helper: when the caller is capturing, record the event into the
// graph; otherwise wait for it on the host. Correct.
cudaError_t fence(cudaStream_t s, cudaEvent_t ev) {
  cudaStreamCaptureStatus cs;
  cudaError_t st = cudaStreamIsCapturing(s, &cs);
  if (st != cudaSuccess) return st;
  st = cudaEventRecord(ev, s);
  if (st != cudaSuccess || cs != cudaStreamCaptureStatusNone) return st;
  return cudaEventSynchronize(ev);
}
