// Three gaps of the stream-order engine's witness search (--stats counts
// them, test/driver/stream-gap-stats.test): one a path confirms, one no
// path leaves open, one whose search its bounds cut.
#include <cuda_runtime.h>

__global__ void use(float *q, int n) {}

// Confirmed: the wait is under the flag, the use is not.
void wait_under_flag(cudaStream_t a, cudaStream_t b, cudaEvent_t e, bool overlap, int n) {
  float *q = nullptr;
  cudaMallocAsync(&q, n * sizeof(float), a);
  if (overlap) {
    cudaEventRecord(e, a);
    cudaStreamWaitEvent(b, e, 0);
  }
  use<<<1, 32, 0, b>>>(q, n);
  cudaStreamSynchronize(b);
  cudaFreeAsync(q, a);
}

// No path: the use is under the flag that the wait is under.
void wait_and_use_under_flag(cudaStream_t a, cudaStream_t b, cudaEvent_t e, bool overlap, int n) {
  float *q = nullptr;
  cudaMallocAsync(&q, n * sizeof(float), a);
  if (overlap) {
    cudaEventRecord(e, a);
    cudaStreamWaitEvent(b, e, 0);
  }
  if (overlap)
    use<<<1, 32, 0, b>>>(q, n);
  cudaStreamSynchronize(b);
  cudaFreeAsync(q, a);
}

// Cut: fourteen branches that each launch work on `b` (so none is crossed
// as one step) lie between the wait and the use; every path through them
// either waited or leaves before the use, and there are more of them than
// the search's bounds allow it to try.
void wait_then_many_launches(cudaStream_t a, cudaStream_t b, cudaEvent_t e, const int *v,
                             bool overlap, int n) {
  float *q = nullptr, *r = nullptr;
  cudaMallocAsync(&q, n * sizeof(float), a);
  cudaMallocAsync(&r, 16 * n * sizeof(float), b);
  if (overlap) {
    cudaEventRecord(e, a);
    cudaStreamWaitEvent(b, e, 0);
  }
  if (v[0] > 0) use<<<1, 32, 0, b>>>(r + 0 * n, n);
  if (v[1] > 0) use<<<1, 32, 0, b>>>(r + 1 * n, n);
  if (v[2] > 0) use<<<1, 32, 0, b>>>(r + 2 * n, n);
  if (v[3] > 0) use<<<1, 32, 0, b>>>(r + 3 * n, n);
  if (v[4] > 0) use<<<1, 32, 0, b>>>(r + 4 * n, n);
  if (v[5] > 0) use<<<1, 32, 0, b>>>(r + 5 * n, n);
  if (v[6] > 0) use<<<1, 32, 0, b>>>(r + 6 * n, n);
  if (v[7] > 0) use<<<1, 32, 0, b>>>(r + 7 * n, n);
  if (v[8] > 0) use<<<1, 32, 0, b>>>(r + 8 * n, n);
  if (v[9] > 0) use<<<1, 32, 0, b>>>(r + 9 * n, n);
  if (v[10] > 0) use<<<1, 32, 0, b>>>(r + 10 * n, n);
  if (v[11] > 0) use<<<1, 32, 0, b>>>(r + 11 * n, n);
  if (v[12] > 0) use<<<1, 32, 0, b>>>(r + 12 * n, n);
  if (v[13] > 0) use<<<1, 32, 0, b>>>(r + 13 * n, n);
  if (!overlap) {
    cudaFreeAsync(r, b);
    cudaStreamSynchronize(b);
    cudaFreeAsync(q, a);
    return;
  }
  use<<<1, 32, 0, b>>>(q, n);
  cudaFreeAsync(r, b);
  cudaStreamSynchronize(b);
  cudaFreeAsync(q, a);
}
