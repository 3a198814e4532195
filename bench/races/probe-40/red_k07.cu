// Reduction of k07 (missed race): a thread-dependent ?: that picks a __shared__ read
// or a non-constant value (parameter, global or shared load). The read is lost.
// With -DCONTROL the other arm is the constant 0.f and the race is reported.
__global__ void k(const float* in, float* out, float carry) {
  __shared__ float s[256];
  const int tid = threadIdx.x;
  s[2 * tid] = in[2 * tid];
  // no barrier: thread 31 reads s[64], which thread 32 writes
#ifdef CONTROL
  out[tid] = (tid < 127) ? s[2 * tid + 2] : 0.f;
#else
  out[tid] = (tid < 127) ? s[2 * tid + 2] : carry;
#endif
}
int main() { k<<<1, 128>>>(0, 0, 1.f); }
