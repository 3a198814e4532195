// guarded barrier whose condition is true for every thread of the launched shape
__global__ void k(const float* in, float* out) {
  __shared__ float s[256];
  const int tid = threadIdx.x;
  if (tid < 300) {
    s[tid] = in[tid];
    __syncthreads();
    out[tid] = s[255 - tid];
  }
}
int main() { k<<<1, 256>>>(0, 0); }
