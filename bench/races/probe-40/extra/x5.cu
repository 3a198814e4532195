// barrier inside a loop whose bound is blockDim.x-based: uniform for the known shape
__global__ void k(const float* in, float* out) {
  __shared__ float s[256];
  const int tid = threadIdx.x;
  float acc = 0.f;
  for (int base = 0; base < 4 * blockDim.x; base += blockDim.x) {
    s[tid] = in[base + tid];
    __syncthreads();
    acc += s[blockDim.x - 1 - tid];
    __syncthreads();
  }
  out[tid] = acc;
}
int main() { k<<<1, 256>>>(0, 0); }
