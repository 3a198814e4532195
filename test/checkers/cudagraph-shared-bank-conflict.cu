// RUN: %check_cudagraph_tidy %s cudagraph-shared-bank-conflict %t
// RUN: %check_cudagraph_tidy %s cudagraph-shared-bank-conflict %t -check-suffixes=STRICT -config="{CheckOptions: {cudagraph-shared-bank-conflict.MinDegree: '2', cudagraph-shared-bank-conflict.PaddingFixIts: 'false'}}"
//
// Every positive case has a clean twin right after it. Expected degrees come
// from the bank model (32 banks x 4 bytes, 8-byte accesses in 2 phases,
// 16-byte ones in 4; full warp with index a*lane + c: gcd(a*s/4, 32)).
#include <cuda_runtime.h>

#define TILE 32
#define ROWS 8

// 1. Transpose: the column read of an unpadded 32x32 float tile is 32-way;
//    the fix pads the row to 33 floats.
__global__ void transposeNaive(float *out, const float *in, int n) {
  __shared__ float tile[TILE][TILE];
  // CHECK-FIXES:  __shared__ float tile[TILE][TILE + 1];
  int x = blockIdx.x * TILE + threadIdx.x, y = blockIdx.y * TILE + threadIdx.y;
  for (int j = 0; j < TILE; j += ROWS)
    tile[threadIdx.y + j][threadIdx.x] = in[(y + j) * n + x];
  __syncthreads();
  x = blockIdx.y * TILE + threadIdx.x;
  y = blockIdx.x * TILE + threadIdx.y;
  for (int j = 0; j < TILE; j += ROWS)
    out[(y + j) * n + x] = tile[threadIdx.x][threadIdx.y + j];
  // CHECK-MESSAGES: :[[@LINE-1]]:28: warning: 32-way bank conflict on 4-byte __shared__ load of 'tile': 32 wavefronts per warp instead of 1 (31 excess); padding the last dimension to 33 elements removes it [cudagraph-shared-bank-conflict]
  // CHECK-MESSAGES-STRICT: :[[@LINE-2]]:28: warning: 32-way bank conflict on 4-byte __shared__ load of 'tile': 32 wavefronts per warp instead of 1 (31 excess) [cudagraph-shared-bank-conflict]
}

// Twin: padded transpose (column words 0, 33, 66, ... -> banks 0, 1, 2, ...).
__global__ void transposePadded(float *out, const float *in, int n) {
  __shared__ float tile[TILE][TILE + 1];
  int x = blockIdx.x * TILE + threadIdx.x, y = blockIdx.y * TILE + threadIdx.y;
  for (int j = 0; j < TILE; j += ROWS)
    tile[threadIdx.y + j][threadIdx.x] = in[(y + j) * n + x];
  __syncthreads();
  x = blockIdx.y * TILE + threadIdx.x;
  y = blockIdx.x * TILE + threadIdx.y;
  for (int j = 0; j < TILE; j += ROWS)
    out[(y + j) * n + x] = tile[threadIdx.x][threadIdx.y + j];
}

// Twin: XOR-swizzled tile, row write and column read both conflict-free.
__global__ void transposeSwizzled(float *out, const float *in, int n) {
  __shared__ float tile[TILE][TILE];
  int x = blockIdx.x * TILE + threadIdx.x, y = blockIdx.y * TILE + threadIdx.y;
  for (int j = 0; j < TILE; j += ROWS) {
    int r = threadIdx.y + j;
    tile[r][threadIdx.x ^ r] = in[(y + j) * n + x];
  }
  __syncthreads();
  for (int j = 0; j < TILE; j += ROWS) {
    int c = threadIdx.y + j;
    out[(y + j) * n + x] = tile[threadIdx.x][c ^ threadIdx.x];
  }
}

// 2. Reduction with interleaved addressing (Harris "reduce1"): stride 2k
//    words over the active lanes; worst step k=4 (stride 8, 32 lanes) and
//    later steps are capped by the active lanes: 8-way.
__global__ void reduceInterleaved(float *g) {
  __shared__ float sdata[256];
  unsigned tid = threadIdx.x;
  sdata[tid] = g[blockIdx.x * blockDim.x + tid];
  __syncthreads();
  for (unsigned s = 1; s < blockDim.x; s *= 2) {
    unsigned index = 2 * s * tid;
    if (index < blockDim.x)
      sdata[index] += sdata[index + s];
    // CHECK-MESSAGES: :[[@LINE-1]]:7: warning: 8-way bank conflict on 4-byte __shared__ load and store of 'sdata': 8 wavefronts per warp instead of 1 (7 excess) [cudagraph-shared-bank-conflict]
    // CHECK-MESSAGES: :[[@LINE-2]]:23: warning: 8-way bank conflict on 4-byte __shared__ load of 'sdata': 8 wavefronts per warp instead of 1 (7 excess) [cudagraph-shared-bank-conflict]
    // CHECK-MESSAGES-STRICT: :[[@LINE-3]]:7: warning: 8-way bank conflict on 4-byte __shared__ load and store of 'sdata'
    // CHECK-MESSAGES-STRICT: :[[@LINE-4]]:23: warning: 8-way bank conflict on 4-byte __shared__ load of 'sdata'
    __syncthreads();
  }
  if (tid == 0)
    g[blockIdx.x] = sdata[0];
}

// Twin: sequential addressing, unit stride at every step.
__global__ void reduceSequential(float *g) {
  __shared__ float sdata[256];
  unsigned tid = threadIdx.x;
  sdata[tid] = g[blockIdx.x * blockDim.x + tid];
  __syncthreads();
  for (unsigned s = blockDim.x / 2; s > 0; s >>= 1) {
    if (tid < s)
      sdata[tid] += sdata[tid + s];
    __syncthreads();
  }
  if (tid == 0)
    g[blockIdx.x] = sdata[0];
}

// 3. Broadcast: every lane reads the same word (s[0], s[k] with k uniform).
__global__ void broadcastReads(float *g, int n) {
  __shared__ float coef[64];
  if (threadIdx.x < 64)
    coef[threadIdx.x] = g[threadIdx.x];
  __syncthreads();
  float acc = coef[0];
  for (int k = 0; k < 64; ++k)
    acc += coef[k] * g[k * n + threadIdx.x];
  g[threadIdx.x] = acc;
}

// 4. A 2-way conflict outside any loop is below the default MinDegree (4) and
//    reported only with MinDegree=2; inside a loop 2-way is reported.
__global__ void stride2(float *g) {
  __shared__ float s[512];
  s[2 * threadIdx.x] = g[threadIdx.x];
  // CHECK-MESSAGES-STRICT: :[[@LINE-1]]:3: warning: 2-way bank conflict on 4-byte __shared__ store of 's': 2 wavefronts per warp instead of 1 (1 excess)
  __syncthreads();
  float acc = 0;
  for (int k = 0; k < 4; ++k)
    acc += s[2 * threadIdx.x + k];
  // CHECK-MESSAGES: :[[@LINE-1]]:12: warning: 2-way bank conflict on 4-byte __shared__ load of 's': 2 wavefronts per warp instead of 1 (1 excess) [cudagraph-shared-bank-conflict]
  // CHECK-MESSAGES-STRICT: :[[@LINE-2]]:12: warning: 2-way bank conflict on 4-byte __shared__ load of 's'
  g[threadIdx.x] = acc;
}

// Twin: stride 3 is coprime to 32, conflict-free.
__global__ void stride3(float *g) {
  __shared__ float s[768];
  s[3 * threadIdx.x] = g[threadIdx.x];
  __syncthreads();
  float acc = 0;
  for (int k = 0; k < 4; ++k)
    acc += s[3 * threadIdx.x + k];
  g[threadIdx.x] = acc;
}

// 5. 8-byte elements: column of an unpadded double tile: each 16-lane phase
//    hits 16 distinct words of one bank -> 2 x 16 = 32 wavefronts, ideal 2.
__global__ void doubleColumn(double *g) {
  __shared__ double t[32][32];
  t[threadIdx.y][threadIdx.x] = g[threadIdx.y * 32 + threadIdx.x];
  __syncthreads();
  g[threadIdx.x * 32 + threadIdx.y] = t[threadIdx.x][threadIdx.y];
  // CHECK-MESSAGES: :[[@LINE-1]]:39: warning: 16-way bank conflict on 8-byte __shared__ load of 't': 32 wavefronts per warp instead of 2 (30 excess); padding the last dimension to 33 elements removes it [cudagraph-shared-bank-conflict]
  // CHECK-FIXES:  __shared__ double t[32][33];
  // CHECK-MESSAGES-STRICT: :[[@LINE-3]]:39: warning: 16-way bank conflict on 8-byte __shared__ load of 't'
}

// Twin: +1 double of padding = 66-word rows, gcd(66, 32) = 2 = ideal.
__global__ void doubleColumnPadded(double *g) {
  __shared__ double t[32][33];
  t[threadIdx.y][threadIdx.x] = g[threadIdx.y * 32 + threadIdx.x];
  __syncthreads();
  g[threadIdx.x * 32 + threadIdx.y] = t[threadIdx.x][threadIdx.y];
}

// 6. Block (16,2): threadIdx.y is NOT warp-uniform (a warp holds y = 0 and
//    y = 1), so x*32 + y puts 16 distinct words in bank 0 and 16 in bank 1.
__global__ void narrowBlock(float *g) {
  __shared__ float s[16 * 32 + 2];
  s[threadIdx.y * 16 + threadIdx.x] = g[threadIdx.x];
  __syncthreads();
  g[threadIdx.x] = s[threadIdx.x * 32 + threadIdx.y];
  // CHECK-MESSAGES: :[[@LINE-1]]:20: warning: 16-way bank conflict on 4-byte __shared__ load of 's': 16 wavefronts per warp instead of 1 (15 excess) [cudagraph-shared-bank-conflict]
  // CHECK-MESSAGES-STRICT: :[[@LINE-2]]:20: warning: 16-way bank conflict on 4-byte __shared__ load of 's'
}

// Twin: the same (16,2) block reading row-major: lanes cover 32 consecutive words.
__global__ void narrowBlockRowMajor(float *g) {
  __shared__ float s[16 * 32 + 2];
  s[threadIdx.y * 16 + threadIdx.x] = g[threadIdx.x];
  __syncthreads();
  g[threadIdx.x] = s[threadIdx.y * 16 + threadIdx.x + 16];
}

// 7. Unknown thread-dependent coefficient (runtime row pitch): no verdict.
//    A pointer that may be shared or global is not a shared access.
__global__ void unknownStride(float *g, int ld, bool use_smem) {
  __shared__ float s[4096];
  s[threadIdx.x * ld] = g[threadIdx.x];
  float *p = use_smem ? s : g;
  p[threadIdx.x * 32] = 1.0f;
}

// 8. Dynamic shared memory with a 16-byte element: float4 stride 2 is 2
//    wavefronts per phase (8 instead of 4) -- a 2-way conflict, in a loop.
__global__ void vec4Stride(float4 *g) {
  extern __shared__ float4 v[];
  for (int k = 0; k < 2; ++k)
    v[2 * threadIdx.x + k] = g[threadIdx.x];
  // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: 2-way bank conflict on 16-byte __shared__ store of 'v': 8 wavefronts per warp instead of 4 (4 excess) [cudagraph-shared-bank-conflict]
  // CHECK-MESSAGES-STRICT: :[[@LINE-2]]:5: warning: 2-way bank conflict on 16-byte __shared__ store of 'v'
}

// Twin: unit stride float4 is 4 wavefronts, the ideal.
__global__ void vec4Unit(float4 *g) {
  extern __shared__ float4 v[];
  for (int k = 0; k < 2; ++k)
    v[threadIdx.x + 64 * k] = g[threadIdx.x];
}

// 9. No launch in this file: a 1-D block is assumed and the note says so.
__global__ void __launch_bounds__(128) noLaunch(float *g) {
  __shared__ float s[128 * 4];
  s[threadIdx.x * 4] = g[threadIdx.x];
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: 4-way bank conflict on 4-byte __shared__ store of 's': 4 wavefronts per warp instead of 1 (3 excess) [cudagraph-shared-bank-conflict]
  // CHECK-MESSAGES-STRICT: :[[@LINE-2]]:3: warning: 4-way bank conflict on 4-byte __shared__ store of 's'
}

// Twin: no launch either, unit stride.
__global__ void __launch_bounds__(128) noLaunchUnit(float *g) {
  __shared__ float s[128 * 4];
  s[threadIdx.x + 128] = g[threadIdx.x];
}

// 10. Active lanes decide: only lanes 0-7 store with stride 32 -> 8-way.
__global__ void fewLanes(float *g) {
  __shared__ float s[32 * 32];
  for (int k = 0; k < 2; ++k)
    if (threadIdx.x < 8)
      s[threadIdx.x * 32 + k] = g[threadIdx.x];
  // CHECK-MESSAGES: :[[@LINE-1]]:7: warning: 8-way bank conflict on 4-byte __shared__ store of 's': 8 wavefronts per warp instead of 1 (7 excess) [cudagraph-shared-bank-conflict]
  // CHECK-MESSAGES-STRICT: :[[@LINE-2]]:7: warning: 8-way bank conflict on 4-byte __shared__ store of 's'
}

// Twin: a single active lane can never conflict.
__global__ void oneLane(float *g) {
  __shared__ float s[32 * 32];
  for (int k = 0; k < 2; ++k)
    if (threadIdx.x == 0)
      s[threadIdx.x * 32 + k] = g[threadIdx.x];
}

// 11. The SharedMemory<T> accessor idiom (cuda-samples): a call returning the
//     extern __shared__ array is followed; interleaved reduction through it.
template <class T> struct SharedMemory {
  __device__ operator T *() {
    extern __shared__ int smem_[];
    return (T *)smem_;
  }
};
__global__ void reduceViaAccessor(float *g) {
  float *sdata = SharedMemory<float>();
  unsigned tid = threadIdx.x;
  sdata[tid] = g[tid];
  __syncthreads();
  for (unsigned s = 1; s < blockDim.x; s *= 2) {
    unsigned index = 2 * s * tid;
    if (index < blockDim.x)
      sdata[index] += sdata[index + s];
    // CHECK-MESSAGES: :[[@LINE-1]]:7: warning: 8-way bank conflict on 4-byte __shared__ load and store of 'smem_': 8 wavefronts per warp instead of 1 (7 excess) [cudagraph-shared-bank-conflict]
    // CHECK-MESSAGES: :[[@LINE-2]]:23: warning: 8-way bank conflict on 4-byte __shared__ load of 'smem_'
    // CHECK-MESSAGES-STRICT: :[[@LINE-3]]:7: warning: 8-way bank conflict on 4-byte __shared__ load and store of 'smem_'
    // CHECK-MESSAGES-STRICT: :[[@LINE-4]]:23: warning: 8-way bank conflict on 4-byte __shared__ load of 'smem_'
    __syncthreads();
  }
}

// Twin: the same kernel with no launch in this file. Which lanes are active
// depends on blockDim (the guard), so under an assumed shape nothing is said.
__global__ void reduceViaAccessorNoLaunch(float *g) {
  float *sdata = SharedMemory<float>();
  unsigned tid = threadIdx.x;
  sdata[tid] = g[tid];
  __syncthreads();
  for (unsigned s = 1; s < blockDim.x; s *= 2) {
    unsigned index = 2 * s * tid;
    if (index < blockDim.x)
      sdata[index] += sdata[index + s];
    __syncthreads();
  }
}

void launchAll(float *a, float *b, double *d, float4 *v, int n) {
  dim3 threads(TILE, ROWS);
  transposeNaive<<<dim3(4, 4), threads>>>(a, b, n);
  transposePadded<<<dim3(4, 4), threads>>>(a, b, n);
  transposeSwizzled<<<dim3(4, 4), threads>>>(a, b, n);
  reduceInterleaved<<<8, 256>>>(a);
  reduceSequential<<<8, 256>>>(a);
  broadcastReads<<<1, 128>>>(a, n);
  stride2<<<1, 256>>>(a);
  stride3<<<1, 256>>>(a);
  doubleColumn<<<1, dim3(32, 32)>>>(d);
  doubleColumnPadded<<<1, dim3(32, 32)>>>(d);
  narrowBlock<<<1, dim3(16, 2)>>>(a);
  narrowBlockRowMajor<<<1, dim3(16, 2)>>>(a);
  unknownStride<<<1, 128>>>(a, n, n > 0);
  vec4Stride<<<1, 64, 256 * sizeof(float4)>>>(v);
  vec4Unit<<<1, 64, 128 * sizeof(float4)>>>(v);
  fewLanes<<<1, 32>>>(a);
  oneLane<<<1, 32>>>(a);
  reduceViaAccessor<<<1, 256, 256 * sizeof(float)>>>(a);
}

// 20. The block shape comes from a const variable with static storage
//     (namespace-scope constexpr dim3 or a static constexpr member of a
//     config struct), not only from a literal or a local: a (16,16) block puts
//     two tile rows in a warp, so the column read is 8-way (padding to 17
//     still leaves 2-way, so no fix-it).
struct TileCfg16 {
  static constexpr dim3 kBlock{16, 16};
};
constexpr dim3 kBlock16x16(16, 16);
__global__ void column16Static(float *g) {
  __shared__ float t[16][16];
  t[threadIdx.y][threadIdx.x] = g[threadIdx.y * 16 + threadIdx.x];
  __syncthreads();
  g[threadIdx.y * 16 + threadIdx.x] = t[threadIdx.x][threadIdx.y];
  // CHECK-MESSAGES: :[[@LINE-1]]:39: warning: 8-way bank conflict on 4-byte __shared__ load of 't': 8 wavefronts per warp instead of 1 (7 excess) [cudagraph-shared-bank-conflict]
  // CHECK-MESSAGES-STRICT: :[[@LINE-2]]:39: warning: 8-way bank conflict on 4-byte __shared__ load of 't': 8 wavefronts per warp instead of 1 (7 excess) [cudagraph-shared-bank-conflict]
}
// Twin: the same shapes, row-major read.
__global__ void column16StaticRowMajor(float *g) {
  __shared__ float t[16][16];
  t[threadIdx.y][threadIdx.x] = g[threadIdx.y * 16 + threadIdx.x];
  __syncthreads();
  g[threadIdx.y * 16 + threadIdx.x] = t[threadIdx.y][threadIdx.x];
}
void launchStaticShapes(float *g) {
  column16Static<<<1, kBlock16x16>>>(g);
  column16Static<<<1, TileCfg16::kBlock>>>(g);
  column16StaticRowMajor<<<1, kBlock16x16>>>(g);
  column16StaticRowMajor<<<1, TileCfg16::kBlock>>>(g);
}
