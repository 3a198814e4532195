// Reduction of 15_delta_rows.cu (BUGGY): FN of cudagraph-barrier-divergence.
// A per-thread strided loop (c = threadIdx.x; c < cols; c += 256) holding a barrier,
// with `cols` a runtime kernel argument: for cols = 1000 threads 0-231 run 4 iterations,
// threads 232-255 run 3 and wait at the barrier after the loop (the program hangs on an
// H100: 15_delta_rows.buggy timed out in a plain run, under racecheck and synccheck).
// Nothing is reported; with the bound written as the literal 1000 the check reports it,
// and passing the literal 1000 at the launch does not help.
__global__ void rows(const float* x, float* y, int cols) {
  __shared__ float s[256];
  for (int c = threadIdx.x; c < cols; c += 256) {
    s[threadIdx.x] = x[c];
    __syncthreads();
    y[c] = s[(threadIdx.x + 1) & 255];
    __syncthreads();
  }
  __syncthreads();
}

void launch_rows(const float* x, float* y) { rows<<<1, 256, 0, 0>>>(x, y, 1000); }
