// RUN: %check_cudagraph_tidy %s cudagraph-shared-index-overflow %t
// RUN: %check_cudagraph_tidy %s cudagraph-shared-index-overflow %t -check-suffixes=POSSIBLE -config="{CheckOptions: {cudagraph-shared-index-overflow.ReportPossibleOverflows: 'true'}}"
//
// Definite overflows need a launch of the kernel in this file and an
// unguarded path; every positive case has a clean twin right after it.
#include <cuda_runtime.h>

#define BLOCK 256
#define R 3

// 1. Two floats per thread into a 256-float array: threads 128-255 overflow
//    (compute-sanitizer memcheck reports exactly those 128 threads).
__global__ void strideTwo(float *g) {
  __shared__ float cache[BLOCK];
  cache[threadIdx.x * 2] = g[threadIdx.x];
  // CHECK-NOTES: :[[@LINE-1]]:3: warning: __shared__ array 'cache' is indexed out of bounds: the index reaches 510 but the array has 256 elements [cudagraph-shared-index-overflow]
  // CHECK-NOTES: :{{[0-9]+}}:{{[0-9]+}}: note: with block (256,1,1) from this launch, threads 128-255 (128 threads) go out of bounds
  // CHECK-MESSAGES-POSSIBLE: :[[@LINE-3]]:3: warning: __shared__ array 'cache' is indexed out of bounds: the index reaches 510
}
void launchStrideTwo(float *g) { strideTwo<<<1, BLOCK>>>(g); }

// Twin: the array holds two floats per thread.
__global__ void strideTwoSized(float *g) {
  __shared__ float cache[2 * BLOCK];
  cache[threadIdx.x * 2] = g[threadIdx.x];
}
void launchStrideTwoSized(float *g) { strideTwoSized<<<1, BLOCK>>>(g); }

// Twin: an early return keeps the upper half out.
__global__ void strideTwoEarlyReturn(float *g) {
  __shared__ float cache[BLOCK];
  if (threadIdx.x >= BLOCK / 2)
    return;
  cache[threadIdx.x * 2] = g[threadIdx.x];
}
void launchStrideTwoEarlyReturn(float *g) { strideTwoEarlyReturn<<<1, BLOCK>>>(g); }

// 2. 1-D stencil whose halo array forgot one side of the halo.
__global__ void haloShort(const float *in, float *out) {
  __shared__ float s[BLOCK + R];
  int g = blockIdx.x * blockDim.x + threadIdx.x;
  s[threadIdx.x + R] = in[g];
  if (threadIdx.x < R) {
    s[threadIdx.x] = in[g - R];
    s[threadIdx.x + BLOCK + R] = in[g + BLOCK];
    // CHECK-NOTES: :[[@LINE-1]]:5: warning: __shared__ array 's' is indexed out of bounds: the index reaches 261 but the array has 259 elements [cudagraph-shared-index-overflow]
    // CHECK-NOTES: :{{[0-9]+}}:{{[0-9]+}}: note: with block (256,1,1) from this launch, threads 0-2 (3 threads) go out of bounds
    // CHECK-MESSAGES-POSSIBLE: :[[@LINE-3]]:5: warning: __shared__ array 's' is indexed out of bounds: the index reaches 261
  }
  __syncthreads();
  float v = 0;
  for (int k = -R; k <= R; ++k)
    v += s[threadIdx.x + R + k];
  // CHECK-NOTES: :[[@LINE-1]]:10: warning: __shared__ array 's' is indexed out of bounds: the index reaches 261 but the array has 259 elements [cudagraph-shared-index-overflow]
  // CHECK-NOTES: :{{[0-9]+}}:{{[0-9]+}}: note: with block (256,1,1) from this launch, threads 253-255 (3 threads) go out of bounds
  // CHECK-MESSAGES-POSSIBLE: :[[@LINE-3]]:10: warning: __shared__ array 's' is indexed out of bounds: the index reaches 261
  out[g] = v;
}
void launchHaloShort(const float *in, float *out) { haloShort<<<16, BLOCK>>>(in, out); }

// Twin: guarded halo with room for both sides.
__global__ void haloGuarded(const float *in, float *out) {
  __shared__ float s[BLOCK + 2 * R];
  int g = blockIdx.x * blockDim.x + threadIdx.x;
  s[threadIdx.x + R] = in[g];
  if (threadIdx.x < R) {
    s[threadIdx.x] = in[g - R];
    s[threadIdx.x + BLOCK + R] = in[g + BLOCK];
  }
  __syncthreads();
  float v = 0;
  for (int k = -R; k <= R; ++k)
    v += s[threadIdx.x + R + k];
  out[g] = v;
}
void launchHaloGuarded(const float *in, float *out) { haloGuarded<<<16, BLOCK>>>(in, out); }

// 3. Reduction that starts at s = blockDim.x instead of blockDim.x / 2.
__global__ void reduceOffByOne(float *g) {
  __shared__ float sdata[BLOCK];
  unsigned tid = threadIdx.x;
  sdata[tid] = g[tid];
  __syncthreads();
  for (unsigned s = blockDim.x; s > 0; s >>= 1) {
    if (tid < s)
      sdata[tid] += sdata[tid + s];
    // CHECK-NOTES: :[[@LINE-1]]:21: warning: __shared__ array 'sdata' is indexed out of bounds: the index reaches 511 but the array has 256 elements [cudagraph-shared-index-overflow]
    // CHECK-NOTES: :{{[0-9]+}}:{{[0-9]+}}: note: with block (256,1,1) from this launch, threads 0-255 (256 threads) go out of bounds
    // CHECK-MESSAGES-POSSIBLE: :[[@LINE-3]]:21: warning: __shared__ array 'sdata' is indexed out of bounds: the index reaches 511
    __syncthreads();
  }
}
void launchReduceOffByOne(float *g) { reduceOffByOne<<<1, BLOCK>>>(g); }

// Twin: sequential addressing, tid + s <= 2s - 1 <= blockDim.x - 1.
__global__ void reduceSequential(float *g) {
  __shared__ float sdata[BLOCK];
  unsigned tid = threadIdx.x;
  sdata[tid] = g[tid];
  __syncthreads();
  for (unsigned s = blockDim.x / 2; s > 0; s >>= 1) {
    if (tid < s)
      sdata[tid] += sdata[tid + s];
    __syncthreads();
  }
}
void launchReduceSequential(float *g) { reduceSequential<<<1, BLOCK>>>(g); }

// 4. 2-D tile: per-dimension check, the row loop runs one step too far.
#define TILE 32
#define ROWS 8
__global__ void tileRows(float *g) {
  __shared__ float tile[TILE][TILE];
  for (int j = 0; j <= TILE; j += ROWS)
    tile[threadIdx.y + j][threadIdx.x] = g[threadIdx.x];
  // CHECK-NOTES: :[[@LINE-1]]:5: warning: __shared__ array 'tile' is indexed out of bounds in dimension 1 of 2: the index reaches 39 but that dimension has 32 elements [cudagraph-shared-index-overflow]
  // CHECK-NOTES: :{{[0-9]+}}:{{[0-9]+}}: note: with block (32,8,1) from this launch, threads 0-255 (256 threads) go out of bounds
  // CHECK-MESSAGES-POSSIBLE: :[[@LINE-3]]:5: warning: __shared__ array 'tile' is indexed out of bounds in dimension 1 of 2
}
void launchTileRows(float *g) {
  dim3 threads(TILE, ROWS);
  tileRows<<<1, threads>>>(g);
}

// Twin: j < TILE.
__global__ void tileRowsOk(float *g) {
  __shared__ float tile[TILE][TILE + 1];
  for (int j = 0; j < TILE; j += ROWS)
    tile[threadIdx.y + j][threadIdx.x] = g[threadIdx.x];
}
void launchTileRowsOk(float *g) {
  dim3 threads(TILE, ROWS);
  tileRowsOk<<<1, threads>>>(g);
}

// 5. Dynamic shared memory sized by the launch: 256 floats, one thread reads
//    one past the end.
__global__ void dynNeighbour(float *g) {
  extern __shared__ float dyn[];
  dyn[threadIdx.x] = g[threadIdx.x];
  __syncthreads();
  g[threadIdx.x] = dyn[threadIdx.x + 1];
  // CHECK-NOTES: :[[@LINE-1]]:20: warning: __shared__ array 'dyn' is indexed out of bounds: the index reaches 256 but the array has 256 elements [cudagraph-shared-index-overflow]
  // CHECK-NOTES: :{{[0-9]+}}:{{[0-9]+}}: note: with block (256,1,1) with 1024 bytes of dynamic shared memory from this launch, thread 255 goes out of bounds
  // CHECK-MESSAGES-POSSIBLE: :[[@LINE-3]]:20: warning: __shared__ array 'dyn' is indexed out of bounds: the index reaches 256
}
void launchDynNeighbour(float *g) {
  dynNeighbour<<<1, BLOCK, BLOCK * sizeof(float)>>>(g);
}

// Twin: the launch allocates one more element.
__global__ void dynNeighbourOk(float *g) {
  extern __shared__ float dyn[];
  dyn[threadIdx.x] = g[threadIdx.x];
  __syncthreads();
  g[threadIdx.x] = dyn[threadIdx.x + 1];
}
void launchDynNeighbourOk(float *g) {
  dynNeighbourOk<<<1, BLOCK, (BLOCK + 1) * sizeof(float)>>>(g);
}

// 6. A byte buffer re-typed through a pointer: bounds follow the cast type.
__global__ void bytesAsFloats(float *g) {
  extern __shared__ char raw[];
  float *f = reinterpret_cast<float *>(raw);
  f[threadIdx.x] = g[threadIdx.x];
  // CHECK-NOTES: :[[@LINE-1]]:3: warning: __shared__ array 'raw' is indexed out of bounds: the access reaches byte offset 1020 of a 512-byte array (index 255 of 128 elements of 4 bytes) [cudagraph-shared-index-overflow]
  // CHECK-NOTES: :{{[0-9]+}}:{{[0-9]+}}: note: with block (256,1,1) with 512 bytes of dynamic shared memory from this launch, threads 128-255 (128 threads) go out of bounds
  // CHECK-MESSAGES-POSSIBLE: :[[@LINE-3]]:3: warning: __shared__ array 'raw' is indexed out of bounds: the access reaches byte offset 1020
}
void launchBytesAsFloats(float *g) { bytesAsFloats<<<1, BLOCK, 512>>>(g); }

// 7. Negative index for thread 0; the twin guards it.
__global__ void leftNeighbour(float *g) {
  __shared__ float s[BLOCK];
  int t = threadIdx.x;
  s[t] = g[t];
  __syncthreads();
  g[t] = s[t - 1];
  // CHECK-NOTES: :[[@LINE-1]]:10: warning: __shared__ array 's' is indexed out of bounds: the index reaches -1 but the array has 256 elements [cudagraph-shared-index-overflow]
  // CHECK-NOTES: :{{[0-9]+}}:{{[0-9]+}}: note: with block (256,1,1) from this launch, thread 0 goes out of bounds
  // CHECK-MESSAGES-POSSIBLE: :[[@LINE-3]]:10: warning: __shared__ array 's' is indexed out of bounds: the index reaches -1
}
void launchLeftNeighbour(float *g) { leftNeighbour<<<1, BLOCK>>>(g); }

__global__ void leftNeighbourGuarded(float *g) {
  __shared__ float s[BLOCK];
  int t = threadIdx.x;
  s[t] = g[t];
  __syncthreads();
  g[t] = t > 0 ? s[t - 1] : 0.0f;
}
void launchLeftNeighbourGuarded(float *g) { leftNeighbourGuarded<<<1, BLOCK>>>(g); }

// 8. Template argument as array size, launched with more threads than it.
template <int N> __global__ void templ(float *g) {
  __shared__ float s[N];
  s[threadIdx.x] = g[threadIdx.x];
  // CHECK-NOTES: :[[@LINE-1]]:3: warning: __shared__ array 's' is indexed out of bounds: the index reaches 255 but the array has 128 elements [cudagraph-shared-index-overflow]
  // CHECK-NOTES: :{{[0-9]+}}:{{[0-9]+}}: note: in templ<128> with block (256,1,1) from this launch, threads 128-255 (128 threads) go out of bounds
  // CHECK-MESSAGES-POSSIBLE: :[[@LINE-3]]:3: warning: __shared__ array 's' is indexed out of bounds: the index reaches 255
}
void launchTempl(float *g) {
  templ<128><<<1, 256>>>(g);
  templ<256><<<1, 256>>>(g);
}

// 9. A guard of a global coordinate against a problem size holds in every
//    interior block of a large enough problem: the overflow behind it is
//    definite. Only "possible": a guard on the parameter's value itself, and
//    a kernel with no launch in this file (hardware limit assumed).
__global__ void dataGuard(float *g, int n) {
  __shared__ float cache[BLOCK];
  int gid = blockIdx.x * blockDim.x + threadIdx.x;
  if (gid < n)
    cache[threadIdx.x * 2] = g[gid];
  // CHECK-NOTES: :[[@LINE-1]]:5: warning: __shared__ array 'cache' is indexed out of bounds: the index reaches 510 but the array has 256 elements [cudagraph-shared-index-overflow]
  // CHECK-NOTES: :{{[0-9]+}}:{{[0-9]+}}: note: with block (256,1,1) from this launch, threads 128-255 (128 threads) go out of bounds
  // CHECK-MESSAGES-POSSIBLE: :[[@LINE-3]]:5: warning: __shared__ array 'cache' is indexed out of bounds: the index reaches 510
}
void launchDataGuard(float *g, int n) { dataGuard<<<4, BLOCK>>>(g, n); }

__global__ void countGuard(float *g, int nwarps) {
  __shared__ float part[4];
  if (threadIdx.x < nwarps)
    part[threadIdx.x] = g[threadIdx.x];
  // CHECK-MESSAGES-POSSIBLE: :[[@LINE-1]]:5: warning: possible out-of-bounds index into __shared__ array 'part': the index can reach 255 but the array has 4 elements [cudagraph-shared-index-overflow]
}
void launchCountGuard(float *g, int n) { countGuard<<<1, BLOCK>>>(g, n); }

__global__ void noLaunch(float *g) {
  __shared__ float s[BLOCK];
  s[threadIdx.x] = g[threadIdx.x];
  // CHECK-MESSAGES-POSSIBLE: :[[@LINE-1]]:3: warning: possible out-of-bounds index into __shared__ array 's': the index can reach 1023 but the array has 256 elements [cudagraph-shared-index-overflow]
}

// Twin: __launch_bounds__ caps the block at the array size.
__global__ void __launch_bounds__(BLOCK) boundedNoLaunch(float *g) {
  __shared__ float s[BLOCK];
  s[threadIdx.x] = g[threadIdx.x];
}

// 10. A pointer that is shared or global depending on a flag is not a
//     shared access (ggml softmax idiom), so nothing is said about it.
__global__ void maybeShared(float *dst, bool use_smem) {
  __shared__ float buf[32];
  float *vals = use_smem ? buf : dst;
  vals[threadIdx.x] = 1.0f;
}
void launchMaybeShared(float *g) { maybeShared<<<1, BLOCK>>>(g, false); }

// 11. A thread that calls __trap() or fails an assert() never reaches the
//     access: such a guard is decided per thread like an early return.
//     Positive: the trap checks the wrong bound, threads 128-191 get through.
#include <cassert>
__global__ void trapWrongBound(float *g) {
  __shared__ float s[128];
  if (threadIdx.x >= 192)
    __trap();
  s[threadIdx.x] = g[threadIdx.x];
  // CHECK-NOTES: :[[@LINE-1]]:3: warning: __shared__ array 's' is indexed out of bounds: the index reaches 191 but the array has 128 elements [cudagraph-shared-index-overflow]
  // CHECK-NOTES: :{{[0-9]+}}:{{[0-9]+}}: note: with block (256,1,1) from this launch, threads 128-191 (64 threads) go out of bounds
  // CHECK-MESSAGES-POSSIBLE: :[[@LINE-3]]:3: warning: __shared__ array 's' is indexed out of bounds: the index reaches 191
}
// Twins: the trap / assert stops threads 128-255.
__global__ void trapGuard(float *g) {
  __shared__ float s[128];
  if (threadIdx.x >= 128)
    __trap();
  s[threadIdx.x] = g[threadIdx.x];
}
__global__ void assertGuard(float *g) {
  __shared__ float s[128];
  assert(threadIdx.x < 128);
  s[threadIdx.x] = g[threadIdx.x];
}
void launchTrapGuards(float *g) {
  trapWrongBound<<<1, 256>>>(g);
  trapGuard<<<1, 256>>>(g);
  assertGuard<<<1, 256>>>(g);
}

// 12. The block shape of a namespace-scope constexpr dim3 is used: with
//     (32,8), rows 8-15 of an 8-row tile are written.
constexpr dim3 kTile32x8(32, 8);
__global__ void tileRowsTwice(float *g) {
  __shared__ float t[8][32];
  t[threadIdx.y * 2][threadIdx.x] = g[threadIdx.x];
  // CHECK-NOTES: :[[@LINE-1]]:3: warning: __shared__ array 't' is indexed out of bounds in dimension 1 of 2: the index reaches 14 but that dimension has 8 elements [cudagraph-shared-index-overflow]
  // CHECK-NOTES: :{{[0-9]+}}:{{[0-9]+}}: note: with block (32,8,1) from this launch, {{.*}}
  // CHECK-MESSAGES-POSSIBLE: :[[@LINE-3]]:3: warning: __shared__ array 't' is indexed out of bounds in dimension 1 of 2: the index reaches 14
}
// Twin: one row per threadIdx.y.
__global__ void tileRowsOnce(float *g) {
  __shared__ float t[8][32];
  t[threadIdx.y][threadIdx.x] = g[threadIdx.x];
}
void launchConstexprDim3(float *g) {
  tileRowsTwice<<<1, kTile32x8>>>(g);
  tileRowsOnce<<<1, kTile32x8>>>(g);
}

// 13. Per-warp partials sized for 4 warps under a 256-thread launch: lane 0
//     of warps 4-7 overflows, and the note does not pretend the threads are
//     a contiguous range.
__global__ void warpPartialsTooFew(float *g) {
  __shared__ float part[4];
  unsigned lane = threadIdx.x % 32, warp = threadIdx.x / 32;
  if (lane == 0)
    part[warp] = g[threadIdx.x];
  // CHECK-NOTES: :[[@LINE-1]]:5: warning: __shared__ array 'part' is indexed out of bounds: the index reaches 7 but the array has 4 elements [cudagraph-shared-index-overflow]
  // CHECK-NOTES: :{{[0-9]+}}:{{[0-9]+}}: note: with block (256,1,1) from this launch, 4 threads between 128 and 224 go out of bounds
  // CHECK-MESSAGES-POSSIBLE: :[[@LINE-3]]:5: warning: __shared__ array 'part' is indexed out of bounds: the index reaches 7
}
// Twin: one partial per warp of the launch.
__global__ void warpPartials(float *g) {
  __shared__ float part[256 / 32];
  unsigned lane = threadIdx.x % 32, warp = threadIdx.x / 32;
  if (lane == 0)
    part[warp] = g[threadIdx.x];
}
void launchWarpPartials(float *g) {
  warpPartialsTooFew<<<1, 256>>>(g);
  warpPartials<<<1, 256>>>(g);
}

// 14. A local that a callee may change through a reference or a pointer gets
//     no verdict after that (callees are not followed). Positive: the callee
//     only reads the index (const reference), so the ring index still
//     overflows for threads 128-255.
__device__ void traceIndex(const int &i, float *g) { g[0] = i; }
__device__ void wrapRing(int &i) { if (i >= BLOCK) i -= BLOCK; }
__device__ void storeIndex(int *p, int v) { *p = v; }
__global__ void ringNotWrapped(float *g) {
  __shared__ float s[BLOCK];
  int idx = threadIdx.x + 128;
  traceIndex(idx, g);
  s[idx] = g[threadIdx.x];
  // CHECK-NOTES: :[[@LINE-1]]:3: warning: __shared__ array 's' is indexed out of bounds: the index reaches 383 but the array has 256 elements [cudagraph-shared-index-overflow]
  // CHECK-NOTES: :{{[0-9]+}}:{{[0-9]+}}: note: with block (256,1,1) from this launch, threads 128-255 (128 threads) go out of bounds
  // CHECK-MESSAGES-POSSIBLE: :[[@LINE-3]]:3: warning: __shared__ array 's' is indexed out of bounds: the index reaches 383
}
// Twins: wrapped through a reference parameter, through a pointer, and
// through a local reference.
__global__ void ringWrapped(float *g) {
  __shared__ float s[BLOCK];
  int idx = threadIdx.x + 128;
  wrapRing(idx);
  s[idx] = g[threadIdx.x];
  int j = threadIdx.x + 300;
  storeIndex(&j, threadIdx.x);
  s[j] = g[threadIdx.x];
  int k = threadIdx.x + 400;
  int &rk = k;
  rk = threadIdx.x;
  s[k] = g[threadIdx.x];
}
void launchRing(float *g) {
  ringNotWrapped<<<1, BLOCK>>>(g);
  ringWrapped<<<1, BLOCK>>>(g);
}

// 15. An arm of `?:`, or the right side of `&&` / `||`, under a guard that
//     compares a global coordinate with a problem size runs in every interior
//     block, as the arm of the same `if` does: thread 255 reads s[256] there
//     (issue 36).
__global__ void nextInOperand(const float *in, float *out, int n) {
  __shared__ float s[BLOCK];
  int t = threadIdx.x, i = blockIdx.x * BLOCK + t;
  s[t] = i < n ? in[i] : 0.f;
  __syncthreads();
  float nx = i + 1 < n ? s[t + 1] : 0.f;
  // CHECK-NOTES: :[[@LINE-1]]:26: warning: __shared__ array 's' is indexed out of bounds: the index reaches 256 but the array has 256 elements [cudagraph-shared-index-overflow]
  // CHECK-NOTES: :{{[0-9]+}}:{{[0-9]+}}: note: with block (256,1,1) from this launch, thread 255 goes out of bounds
  // CHECK-MESSAGES-POSSIBLE: :[[@LINE-3]]:26: warning: __shared__ array 's' is indexed out of bounds: the index reaches 256
  bool up = i + 1 < n && s[t + 1] > 0.f;
  // CHECK-NOTES: :[[@LINE-1]]:26: warning: __shared__ array 's' is indexed out of bounds: the index reaches 256 but the array has 256 elements [cudagraph-shared-index-overflow]
  // CHECK-NOTES: :{{[0-9]+}}:{{[0-9]+}}: note: with block (256,1,1) from this launch, thread 255 goes out of bounds
  // CHECK-MESSAGES-POSSIBLE: :[[@LINE-3]]:26: warning: __shared__ array 's' is indexed out of bounds: the index reaches 256
  bool down = i + 1 >= n || s[t + 1] < 0.f;
  // CHECK-NOTES: :[[@LINE-1]]:29: warning: __shared__ array 's' is indexed out of bounds: the index reaches 256 but the array has 256 elements [cudagraph-shared-index-overflow]
  // CHECK-NOTES: :{{[0-9]+}}:{{[0-9]+}}: note: with block (256,1,1) from this launch, thread 255 goes out of bounds
  // CHECK-MESSAGES-POSSIBLE: :[[@LINE-3]]:29: warning: __shared__ array 's' is indexed out of bounds: the index reaches 256
  if (i < n) out[i] = nx + up + down;
}
// Twin (the fix): the tile's last thread reads its neighbour from global
// memory; the arms are narrowed as an `if`'s are (`t < BLOCK - 1`).
__global__ void nextInOperandOk(const float *in, float *out, int n) {
  __shared__ float s[BLOCK];
  int t = threadIdx.x, i = blockIdx.x * BLOCK + t;
  s[t] = i < n ? in[i] : 0.f;
  __syncthreads();
  float nx = t + 1 < BLOCK ? s[t + 1] : (i + 1 < n ? in[i + 1] : 0.f);
  bool up = t < BLOCK - 1 && i + 1 < n && s[t + 1] > 0.f;
  bool down = t >= BLOCK - 1 || s[t + 1] < 0.f;
  if (i < n) out[i] = nx + up + down;
}
void launchNextInOperand(const float *in, float *out, int n) {
  nextInOperand<<<(n + BLOCK - 1) / BLOCK, BLOCK>>>(in, out, n);
  nextInOperandOk<<<(n + BLOCK - 1) / BLOCK, BLOCK>>>(in, out, n);
}

// 16. A tile's valid count, `min(n - blockIdx.x * BLOCK, BLOCK)`, is BLOCK in
//     every interior block: s[valid] reads one past the tile there (issue 36).
__global__ void tileTail(const int *keys, int *last, int n) {
  __shared__ int s[BLOCK];
  int t = threadIdx.x, base = blockIdx.x * BLOCK;
  int valid = min(n - base, BLOCK);
  if (t < valid) s[t] = keys[base + t];
  __syncthreads();
  if (t == 0) last[blockIdx.x] = s[valid];
  // CHECK-NOTES: :[[@LINE-1]]:34: warning: __shared__ array 's' is indexed out of bounds: the index reaches 256 but the array has 256 elements [cudagraph-shared-index-overflow]
  // CHECK-NOTES: :{{[0-9]+}}:{{[0-9]+}}: note: with block (256,1,1) from this launch, thread 0 goes out of bounds
  // CHECK-MESSAGES-POSSIBLE: :[[@LINE-3]]:34: warning: __shared__ array 's' is indexed out of bounds: the index reaches 256
}
// Twin (the fix): the tile's last key.
__global__ void tileTailOk(const int *keys, int *last, int n) {
  __shared__ int s[BLOCK];
  int t = threadIdx.x, base = blockIdx.x * BLOCK;
  int valid = min(n - base, BLOCK);
  if (t < valid) s[t] = keys[base + t];
  __syncthreads();
  if (t == 0) last[blockIdx.x] = s[valid - 1];
}
void launchTileTail(const int *keys, int *last, int n) {
  tileTail<<<(n + BLOCK - 1) / BLOCK, BLOCK>>>(keys, last, n);
  tileTailOk<<<(n + BLOCK - 1) / BLOCK, BLOCK>>>(keys, last, n);
}

// 17. Integer intrinsics with known results (issue 36): __popc of a word is
//     in [0, 32], __umulhi(w, K) in [0, K - 1], __umul24 is a product, and a
//     shuffled value keeps its range.
__global__ void intrinsicIndex(const unsigned *data, unsigned *out) {
  __shared__ unsigned cnt[32];
  __shared__ unsigned char bins[BLOCK * 32];
  cnt[threadIdx.x % 32] = 0;
  __syncthreads();
  unsigned w = data[blockIdx.x * BLOCK + threadIdx.x];
  atomicAdd(&cnt[__popc(w)], 1u);
  // CHECK-NOTES: :[[@LINE-1]]:14: warning: __shared__ array 'cnt' is indexed out of bounds: the index reaches 32 but the array has 32 elements [cudagraph-shared-index-overflow]
  // CHECK-NOTES: :{{[0-9]+}}:{{[0-9]+}}: note: with block (256,1,1) from this launch, threads 0-255 (256 threads) go out of bounds
  // CHECK-MESSAGES-POSSIBLE: :[[@LINE-3]]:14: warning: __shared__ array 'cnt' is indexed out of bounds: the index reaches 32
  atomicAdd(&cnt[__umulhi(w, 48u)], 1u);
  // CHECK-NOTES: :[[@LINE-1]]:14: warning: __shared__ array 'cnt' is indexed out of bounds: the index reaches 47 but the array has 32 elements [cudagraph-shared-index-overflow]
  // CHECK-NOTES: :{{[0-9]+}}:{{[0-9]+}}: note: with block (256,1,1) from this launch, threads 0-255 (256 threads) go out of bounds
  // CHECK-MESSAGES-POSSIBLE: :[[@LINE-3]]:14: warning: __shared__ array 'cnt' is indexed out of bounds: the index reaches 47
  bins[threadIdx.x + __umul24(w & 63u, BLOCK)]++;
  // CHECK-NOTES: :[[@LINE-1]]:3: warning: __shared__ array 'bins' is indexed out of bounds: the index reaches 16383 but the array has 8192 elements [cudagraph-shared-index-overflow]
  // CHECK-NOTES: :{{[0-9]+}}:{{[0-9]+}}: note: with block (256,1,1) from this launch, threads 0-255 (256 threads) go out of bounds
  // CHECK-MESSAGES-POSSIBLE: :[[@LINE-3]]:3: warning: __shared__ array 'bins' is indexed out of bounds: the index reaches 16383
  out[threadIdx.x] = cnt[__shfl_sync(0xffffffffu, w & 63u, 0)];
  // CHECK-NOTES: :[[@LINE-1]]:22: warning: __shared__ array 'cnt' is indexed out of bounds: the index reaches 63 but the array has 32 elements [cudagraph-shared-index-overflow]
  // CHECK-NOTES: :{{[0-9]+}}:{{[0-9]+}}: note: with block (256,1,1) from this launch, threads 0-255 (256 threads) go out of bounds
  // CHECK-MESSAGES-POSSIBLE: :[[@LINE-3]]:22: warning: __shared__ array 'cnt' is indexed out of bounds: the index reaches 63
}
// Twin (the fix): the indices fit: 33 counts, 32 high-word bins, 32 bins
// per thread, 32 shuffled bins.
__global__ void intrinsicIndexOk(const unsigned *data, unsigned *out) {
  __shared__ unsigned cnt[33];
  __shared__ unsigned char bins[BLOCK * 32];
  cnt[threadIdx.x % 33] = 0;
  __syncthreads();
  unsigned w = data[blockIdx.x * BLOCK + threadIdx.x];
  atomicAdd(&cnt[__popc(w)], 1u);
  atomicAdd(&cnt[__umulhi(w, 32u)], 1u);
  bins[threadIdx.x + __umul24(w & 31u, BLOCK)]++;
  out[threadIdx.x] = cnt[__shfl_sync(0xffffffffu, w & 31u, 0)] + cnt[__popc(w & 0xffu)];
}
void launchIntrinsicIndex(const unsigned *data, unsigned *out) {
  intrinsicIndex<<<4, BLOCK>>>(data, out);
  intrinsicIndexOk<<<4, BLOCK>>>(data, out);
}
