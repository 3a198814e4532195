// 2D block: threadIdx.y-indexed rows, each row reduced by its own warp with shuffles,
// then row 0 reads all row results after one barrier
__global__ void k(const float* in, float* out) {
  __shared__ float rs[8];
  const int x = threadIdx.x, y = threadIdx.y;
  float v = in[y * 32 + x];
  for (int o = 16; o > 0; o >>= 1) v += __shfl_xor_sync(0xffffffffu, v, o);
  if (x == 0) rs[y] = v;
  __syncthreads();
  if (y == 0 && x < 8) out[x] = rs[x] + rs[(x + 1) & 7];
}
int main() { k<<<1, dim3(32, 8)>>>(0, 0); }
