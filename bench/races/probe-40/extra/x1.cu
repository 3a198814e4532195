// loop whose trip count is block-uniform but read from shared memory, barrier inside,
// plus per-warp private rows and a cross-warp read after the barrier
__global__ void k(const int* hdr, float* out) {
  __shared__ int n;
  __shared__ float row[8][32];
  const int tid = threadIdx.x, w = tid >> 5, l = tid & 31;
  if (tid == 0) n = hdr[blockIdx.x];
  __syncthreads();
  float acc = 0.f;
  for (int i = 0; i < n; ++i) {
    row[w][l] = acc + i;
    __syncthreads();
    acc += row[(w + 1) & 7][31 - l];
    __syncthreads();
  }
  out[tid] = acc;
}
int main() { k<<<2, 256>>>(0, 0); }
