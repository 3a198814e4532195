// Reduction of k20 (missed race): a loop with a runtime trip count and its barriers at
// the top of the body; the code after the loop writes the tile the last iteration
// read, with no barrier. With -DCONTROL the trip count is constant and it is reported.
#ifdef CONTROL
#define KK 128
#else
#define KK K
#endif
__global__ void k(const float* A, float* C, int K) {
  __shared__ float a[32][32];
  const int tx = threadIdx.x, ty = threadIdx.y;
  float acc = 0.f;
  for (int k0 = 0; k0 < KK; k0 += 32) {
    __syncthreads();
    a[ty][tx] = A[k0 + ty * 32 + tx];
    __syncthreads();
    for (int k = 0; k < 32; ++k) acc += a[ty][k];
  }
  a[tx][ty] = acc;  // races with the last iteration's reads of row ty
  __syncthreads();
  C[ty * 32 + tx] = a[ty][tx];
}
int main() { k<<<1, dim3(32, 32)>>>(0, 0, 128); }
