// permutation write: (tid * 33) % 256 is a bijection, so no two threads share a slot
__global__ void k(const float* in, float* out) {
  __shared__ float s[256];
  const int tid = threadIdx.x;
  s[(tid * 33) % 256] = in[tid];
  s[(tid * 33) % 256] += 1.f;
  __syncthreads();
  out[tid] = s[tid];
}
int main() { k<<<1, 256>>>(0, 0); }
