// lanes 0-15 and 16-31 exchange halves under half-warp masks, each half synced separately
__global__ void k(float* out) {
  __shared__ float s[32];
  const int l = threadIdx.x & 31;
  s[l] = (float)l;
  const unsigned m = l < 16 ? 0x0000ffffu : 0xffff0000u;
  __syncwarp(m);
  const float v = s[(l & 16) | ((l + 1) & 15)];
  out[threadIdx.x] = v;
}
int main() { k<<<1, 32>>>(0); }
