// Pipelined layer loop: compute on one stream, copy-out on another, ordered by an
// event. The buggy variant destroys the event inside the loop, so every later
// iteration records, waits on and destroys a destroyed handle.
#include <cuda_runtime.h>

__global__ void layer_fwd(float *act, int n, int layer) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) act[i] = act[i] * 0.5f + (float)layer;
}

void pipeline_buggy(float *d_act, float *h_out, int n, int layers,
                    cudaStream_t compute, cudaStream_t copy) {
  cudaEvent_t layer_done;
  cudaEventCreateWithFlags(&layer_done, cudaEventDisableTiming);
  int l = 0;
  do { // at least one layer
    layer_fwd<<<(n + 127) / 128, 128, 0, compute>>>(d_act, n, l);
    cudaEventRecord(layer_done, compute);          // EXPECT: cudagraph-use-after-dealloc
    cudaStreamWaitEvent(copy, layer_done, 0);      // EXPECT: cudagraph-use-after-dealloc
    cudaMemcpyAsync(h_out + (size_t)l * n, d_act, n * sizeof(float),
                    cudaMemcpyDeviceToHost, copy);
    cudaEventDestroy(layer_done);                  // EXPECT: cudagraph-use-after-dealloc
  } while (++l < layers);
  cudaStreamSynchronize(copy);
}

void pipeline_fixed(float *d_act, float *h_out, int n, int layers,
                    cudaStream_t compute, cudaStream_t copy) {
  cudaEvent_t layer_done;
  cudaEventCreateWithFlags(&layer_done, cudaEventDisableTiming);
  for (int l = 0; l < layers; ++l) {
    layer_fwd<<<(n + 127) / 128, 128, 0, compute>>>(d_act, n, l);
    cudaEventRecord(layer_done, compute);
    cudaStreamWaitEvent(copy, layer_done, 0);
    cudaMemcpyAsync(h_out + (size_t)l * n, d_act, n * sizeof(float),
                    cudaMemcpyDeviceToHost, copy);
  }
  cudaStreamSynchronize(copy);
  cudaEventDestroy(layer_done);
}

// Correct: the event is destroyed and re-created at the end of each iteration
// (legacy code that wanted a fresh event per layer).
void pipeline_recreate(float *d_act, float *h_out, int n, int layers,
                       cudaStream_t compute, cudaStream_t copy) {
  cudaEvent_t ev;
  cudaEventCreateWithFlags(&ev, cudaEventDisableTiming);
  for (int l = 0; l < layers; ++l) {
    layer_fwd<<<(n + 127) / 128, 128, 0, compute>>>(d_act, n, l);
    cudaEventRecord(ev, compute);
    cudaStreamWaitEvent(copy, ev, 0);
    cudaMemcpyAsync(h_out + (size_t)l * n, d_act, n * sizeof(float),
                    cudaMemcpyDeviceToHost, copy);
    cudaEventDestroy(ev);
    cudaEventCreateWithFlags(&ev, cudaEventDisableTiming);
  }
  cudaStreamSynchronize(copy);
  cudaEventDestroy(ev);
}
