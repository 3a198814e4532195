// Extra (from k16 with a constant trip count): every thread reads the whole 32x32 K
// tile per step (as attention does), 8 steps. The kernel runs past the interpreter's
// step budget; with only the race/divergence checks selected nothing says so (no
// stderr warning, --stats "0 over the step budget"), while adding
// cudagraph-shared-index-overflow prints the budget warning. Race: no barrier in the loop.
__global__ void k(const float* K, float* O) {
  __shared__ float Ks[2][32][32];
  const int tid = threadIdx.x;
  for (int e = tid; e < 1024; e += 128) Ks[0][e / 32][e % 32] = K[e];
  __syncthreads();
  float acc = 0.f;
  for (int t = 0; t < 8; ++t) {
    const int cur = t & 1;
    if (t + 1 < 8)
      for (int e = tid; e < 1024; e += 128) Ks[cur ^ 1][e / 32][e % 32] = K[(t + 1) * 1024 + e];
#ifdef CONTROL
    for (int j = 0; j < 8; ++j)   // fewer reads per step: under budget, race reported
#else
    for (int j = 0; j < 32; ++j)
#endif
      for (int d = 0; d < 32; ++d) acc += Ks[cur][j][d];
  }
  O[tid] = acc;
}
int main() { k<<<1, 128>>>(0, 0); }
