// grid-stride-like loop with a barrier where every thread runs the same count (1024/256)
__global__ void k(const float* in, float* out) {
  __shared__ float s[256];
  float acc = 0.f;
  for (int i = threadIdx.x; i < 1024; i += 256) {
    s[threadIdx.x] = in[i];
    __syncthreads();
    acc += s[threadIdx.x ^ 1];
    __syncthreads();
  }
  out[threadIdx.x] = acc;
}
int main() { k<<<1, 256>>>(0, 0); }
