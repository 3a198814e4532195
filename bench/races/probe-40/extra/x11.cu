// odd-even transposition sort: phase parity alternates, each thread owns one pair
__global__ void k(float* a) {
  __shared__ float s[256];
  const int t = threadIdx.x;  // 128 threads, 256 keys
  s[t] = a[t]; s[t + 128] = a[t + 128];
  __syncthreads();
  for (int ph = 0; ph < 256; ++ph) {
    const int i = 2 * t + (ph & 1);
    if (i + 1 < 256 && s[i] > s[i + 1]) { const float x = s[i]; s[i] = s[i + 1]; s[i + 1] = x; }
    __syncthreads();
  }
  a[t] = s[t]; a[t + 128] = s[t + 128];
}
int main() { k<<<1, 128>>>(0); }
