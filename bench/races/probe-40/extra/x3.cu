// two warps exchange through disjoint halves, then each reads its own half back
// after a full-mask __syncwarp only (no block barrier needed: same-warp data)
__global__ void k(float* out) {
  __shared__ float s[2][32];
  const int w = threadIdx.x >> 5, l = threadIdx.x & 31;
  s[w][l] = l * 2.f;
  __syncwarp();
  float v = s[w][31 - l];
  __syncwarp();
  s[w][l] = v + 1.f;
  __syncwarp();
  out[threadIdx.x] = s[w][(l + 1) & 31];
}
int main() { k<<<1, 64>>>(0); }
