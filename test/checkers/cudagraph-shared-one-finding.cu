// RUN: %check_cudagraph_tidy %s cudagraph-shared-bank-conflict %t -config="{CheckOptions: {cudagraph-shared-bank-conflict.PaddingFixIts: 'false'}}"
// RUN: %check_cudagraph_tidy %s cudagraph-shared-index-overflow %t -check-suffixes=OVF
//
// One finding per source access: the instantiations of a kernel template and
// the launch shapes of a kernel give the access one warning, the worst,
// with a note naming the others (ggml ssm-conv.cu's per-thread rows).
#include <cuda_runtime.h>

template <int Cols> __global__ void rows(const float *in, float *out) {
  __shared__ float smem[128 * Cols];
  for (int i = 0; i < Cols; ++i)
    smem[threadIdx.x * Cols + i] = in[threadIdx.x * Cols + i];
  // CHECK-NOTES: :[[@LINE-1]]:5: warning: 8-way bank conflict on 4-byte __shared__ store of 'smem': 8 wavefronts per warp instead of 1 (7 excess) [cudagraph-shared-bank-conflict]
  // CHECK-NOTES: :{{[0-9]+}}:{{[0-9]+}}: note: in rows<40>, assuming block (128,1,1) from this launch (warp 0)
  // CHECK-NOTES: :[[@LINE-3]]:5: note: also at this access: 2-way in rows<34>; 4-way in rows<36>
  __syncthreads();
  out[threadIdx.x] = smem[threadIdx.x];
}
// rows<35>: an odd row, conflict-free, and not named.
void runRows(const float *in, float *out) {
  rows<34><<<1, 128>>>(in, out);
  rows<35><<<1, 128>>>(in, out);
  rows<36><<<1, 128>>>(in, out);
  rows<40><<<1, 128>>>(in, out);
}

// Two launch shapes of one kernel: the overflow is reported once, under the
// shape that overflows the most, with the other shape in a note.
__global__ void twoShapes(float *g) {
  __shared__ float s[100];
  s[threadIdx.x] = g[threadIdx.x];
  // CHECK-NOTES-OVF: :[[@LINE-1]]:3: warning: __shared__ array 's' is indexed out of bounds: the index reaches 255 but the array has 100 elements [cudagraph-shared-index-overflow]
  // CHECK-NOTES-OVF: :{{[0-9]+}}:{{[0-9]+}}: note: with block (256,1,1) from this launch, threads 100-255 (156 threads) go out of bounds
  // CHECK-NOTES-OVF: :[[@LINE-3]]:3: note: also at this access: block (128,1,1)
}
void runTwo(float *g) {
  twoShapes<<<1, 128>>>(g);
  twoShapes<<<1, 256>>>(g);
  twoShapes<<<1, 64>>>(g);
}
