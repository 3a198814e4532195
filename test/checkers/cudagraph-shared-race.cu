// RUN: %check_cudagraph_tidy %s cudagraph-shared-race %t -- -- -I%cuda_path/include/cccl
//
// Races between the threads of one block on __shared__ memory, found by
// running every thread of the launch shape with barrier phases. Every
// positive case has a clean twin (the fix).
#include <cuda_runtime.h>
#include <cuda_pipeline.h>
#include <cooperative_groups.h>
#include <cooperative_groups/reduce.h>

#define N 256

// 1. A missing barrier between the write of a tile and the read of a
//    neighbour's element (read after write).
__global__ void neighbourNoBarrier(const float *in, float *out) {
  __shared__ float s[N];
  int t = threadIdx.x;
  s[t] = in[blockIdx.x * N + t];
  // CHECK-NOTES: :[[@LINE-1]]:3: warning: data race on __shared__ 's': thread 0 writes byte 0 here and thread 255 reads it at line {{[0-9]+}} with no barrier between them [cudagraph-shared-race]
  // CHECK-NOTES: :[[@LINE+2]]:29: note: the conflicting read by thread 255
  // CHECK-NOTES: :{{[0-9]+}}:{{[0-9]+}}: note: with block (256,1,1) from this launch
  out[blockIdx.x * N + t] = s[(t + 1) % N];
}
__global__ void neighbourBarrier(const float *in, float *out) {
  __shared__ float s[N];
  int t = threadIdx.x;
  s[t] = in[blockIdx.x * N + t];
  __syncthreads();
  out[blockIdx.x * N + t] = s[(t + 1) % N];
}

// 2. Buffer reuse across the iterations of a loop with one barrier per
//    iteration: the read of iteration k meets the write of iteration k + 1.
__global__ void reuseUnrolled(const float *in, float *out) {
  __shared__ float s[N];
  int t = threadIdx.x;
  float acc = 0;
  for (int k = 0; k < 4; ++k) {
    s[t] = in[k * N + t];
    // CHECK-NOTES: :[[@LINE-1]]:5: warning: data race on __shared__ 's': thread 0 writes byte 0 here and thread 255 reads it at line {{[0-9]+}} with no barrier between them [cudagraph-shared-race]
    // CHECK-NOTES: :[[@LINE+3]]:12: note: the conflicting read by thread 255
    // CHECK-NOTES: :{{[0-9]+}}:{{[0-9]+}}: note: with block (256,1,1) from this launch
    __syncthreads();
    acc += s[N - 1 - t];
  }
  out[t] = acc;
}
__global__ void reuseUnrolledFixed(const float *in, float *out) {
  __shared__ float s[N];
  int t = threadIdx.x;
  float acc = 0;
  for (int k = 0; k < 4; ++k) {
    s[t] = in[k * N + t];
    __syncthreads();
    acc += s[N - 1 - t];
    __syncthreads();
  }
  out[t] = acc;
}

// 3. The same with a trip count only known at run time: the loop runs once
//    symbolically, and the end of its body meets the start of the next
//    iteration.
__global__ void reuseSymbolic(const float *in, float *out, int tiles) {
  __shared__ float s[N];
  int t = threadIdx.x;
  float acc = 0;
  for (int k = 0; k < tiles; ++k) {
    s[t] = in[k * N + t];
    // CHECK-NOTES: :[[@LINE-1]]:5: warning: data race on __shared__ 's': thread 0 writes byte 0 here and thread 255 reads it at line {{[0-9]+}} in the next iteration with no barrier between them [cudagraph-shared-race]
    // CHECK-NOTES: :[[@LINE+3]]:12: note: the conflicting read by thread 255
    // CHECK-NOTES: :{{[0-9]+}}:{{[0-9]+}}: note: with block (256,1,1) from this launch
    __syncthreads();
    acc += s[N - 1 - t];
  }
  out[t] = acc;
}
__global__ void reuseSymbolicFixed(const float *in, float *out, int tiles) {
  __shared__ float s[N];
  int t = threadIdx.x;
  float acc = 0;
  for (int k = 0; k < tiles; ++k) {
    s[t] = in[k * N + t];
    __syncthreads();
    acc += s[N - 1 - t];
    __syncthreads();
  }
  out[t] = acc;
}

// 4. One thread writes a value every thread reads, with no barrier between.
__global__ void broadcastNoBarrier(const float *in, float *out) {
  __shared__ float scale;
  if (threadIdx.x == 0)
    scale = in[0];
    // CHECK-NOTES: :[[@LINE-1]]:5: warning: data race on __shared__ 'scale': thread 0 writes byte 0 here and thread 32 reads it at line {{[0-9]+}} with no barrier between them [cudagraph-shared-race]
    // CHECK-NOTES: :[[@LINE+2]]:40: note: the conflicting read by thread 32
    // CHECK-NOTES: :{{[0-9]+}}:{{[0-9]+}}: note: with block (256,1,1) from this launch
  out[threadIdx.x] = in[threadIdx.x] * scale;
}
__global__ void broadcastBarrier(const float *in, float *out) {
  __shared__ float scale;
  if (threadIdx.x == 0)
    scale = in[0];
  __syncthreads();
  out[threadIdx.x] = in[threadIdx.x] * scale;
}

// 5. Warp-synchronous reduction without __syncwarp: the lanes of a warp are
//    not in lockstep since Volta.
__global__ void warpReduceLockstep(const float *in, float *out) {
  __shared__ float s[N];
  int t = threadIdx.x;
  s[t] = in[t];
  __syncthreads();
  if (t < 32) {
    s[t] += s[t + 16];
    // CHECK-NOTES: :[[@LINE-1]]:5: warning: warp-synchronous race on __shared__ 's': lane 16 writes byte 64 here and lane 0 of the same warp reads it at line {{[0-9]+}} with no __syncwarp() between them; lanes of a warp are not in lockstep since Volta [cudagraph-shared-race]
    // CHECK-NOTES: :[[@LINE-2]]:13: note: the conflicting read by lane 0
    // CHECK-NOTES: :{{[0-9]+}}:{{[0-9]+}}: note: with block (256,1,1) from this launch
    s[t] += s[t + 8];
    // CHECK-NOTES: :[[@LINE-1]]:5: warning: warp-synchronous race on __shared__ 's': lane 16 writes byte 64 here and lane 0 of the same warp reads it at line {{[0-9]+}} with no __syncwarp() between them; lanes of a warp are not in lockstep since Volta [cudagraph-shared-race]
    // CHECK-NOTES: :[[@LINE-6]]:13: note: the conflicting read by lane 0
    // CHECK-NOTES: :{{[0-9]+}}:{{[0-9]+}}: note: with block (256,1,1) from this launch
  }
  if (t == 0)
    out[blockIdx.x] = s[0];
}
__global__ void warpReduceSyncwarp(const float *in, float *out) {
  __shared__ float s[N];
  int t = threadIdx.x;
  s[t] = in[t];
  __syncthreads();
  if (t < 32) {
    float v = s[t];
    for (int o = 16; o > 0; o >>= 1) {
      v += s[t + o];
      __syncwarp();
      s[t] = v;
      __syncwarp();
    }
  }
  if (t == 0)
    out[blockIdx.x] = s[0];
}

// 6. Every thread stores its own id into one slot (write after write); one
//    value stored by every thread is not reported.
__global__ void lastWriterWins(int *out) {
  __shared__ int last;
  __shared__ int done;
  last = threadIdx.x;
  // CHECK-NOTES: :[[@LINE-1]]:3: warning: data race on __shared__ 'last': thread 0 writes byte 0 here and thread 32 writes it at line {{[0-9]+}} with no barrier between them [cudagraph-shared-race]
  // CHECK-NOTES: :[[@LINE-2]]:3: note: the conflicting write by thread 32
  // CHECK-NOTES: :{{[0-9]+}}:{{[0-9]+}}: note: with block (256,1,1) from this launch
  done = 1;
  __syncthreads();
  out[threadIdx.x] = last + done;
}
__global__ void oneWriter(int *out) {
  __shared__ int last;
  if (threadIdx.x == 0)
    last = threadIdx.x;
  __syncthreads();
  out[threadIdx.x] = last;
}

// 7. The write is in a __device__ helper.
__device__ void put(float *s, int i, float v) { s[i] = v; }
// CHECK-NOTES: :[[@LINE-1]]:49: warning: data race on __shared__ 's': thread 0 writes byte 0 here and thread 255 reads it at line {{[0-9]+}} with no barrier between them [cudagraph-shared-race]
// CHECK-NOTES: :[[@LINE+6]]:22: note: the conflicting read by thread 255
// CHECK-NOTES: :{{[0-9]+}}:{{[0-9]+}}: note: with block (256,1,1) from this launch
// CHECK-NOTES: :[[@LINE+3]]:3: note: an access is in 'put', called here from 'helperNoBarrier'
__global__ void helperNoBarrier(const float *in, float *out) {
  __shared__ float s[N];
  put(s, threadIdx.x, in[threadIdx.x]);
  out[threadIdx.x] = s[N - 1 - threadIdx.x];
}
__global__ void helperBarrier(const float *in, float *out) {
  __shared__ float s[N];
  put(s, threadIdx.x, in[threadIdx.x]);
  __syncthreads();
  out[threadIdx.x] = s[N - 1 - threadIdx.x];
}
// Both accesses in one helper, called once: one note names the call.
__device__ float putThenRead(float *s, int i, float v) {
  s[i] = v;
  // CHECK-NOTES: :[[@LINE-1]]:3: warning: data race on __shared__ 's': thread 0 writes byte 0 here and thread 255 reads it at line {{[0-9]+}} with no barrier between them [cudagraph-shared-race]
  // CHECK-NOTES: :[[@LINE+3]]:10: note: the conflicting read by thread 255
  // CHECK-NOTES: :{{[0-9]+}}:{{[0-9]+}}: note: with block (256,1,1) from this launch
  // CHECK-NOTES: :[[@LINE+5]]:22: note: both accesses are in 'putThenRead', called here from 'helperBothAccesses'
  return s[N - 1 - i];
}
__global__ void helperBothAccesses(const float *in, float *out) {
  __shared__ float s[N];
  out[threadIdx.x] = putThenRead(s, threadIdx.x, in[threadIdx.x]);
}

// 8. Two `extern __shared__` arrays share the dynamic region: writing one
//    and reading the other is a race on the same bytes.
__global__ void externAlias(const float *in, float *out) {
  extern __shared__ float xs[];
  extern __shared__ float ys[];
  xs[threadIdx.x] = in[threadIdx.x];
  // CHECK-NOTES: :[[@LINE-1]]:3: warning: warp-synchronous race on __shared__ 'xs': lane 0 writes byte 0 here and lane 1 of the same warp reads it at line {{[0-9]+}} with no __syncwarp() between them; lanes of a warp are not in lockstep since Volta [cudagraph-shared-race]
  // CHECK-NOTES: :[[@LINE+2]]:22: note: the conflicting read by lane 1
  // CHECK-NOTES: :{{[0-9]+}}:{{[0-9]+}}: note: with block (256,1,1) with 1024 bytes of dynamic shared memory from this launch
  out[threadIdx.x] = ys[threadIdx.x ^ 1];
}
__global__ void externAliasBarrier(const float *in, float *out) {
  extern __shared__ float xs[];
  extern __shared__ float ys[];
  xs[threadIdx.x] = in[threadIdx.x];
  __syncthreads();
  out[threadIdx.x] = ys[threadIdx.x ^ 1];
}

// Clean: the arms of a branch on a block-uniform value are never both taken.
__global__ void uniformArms(const float *in, float *out, int mode) {
  __shared__ float s[N + 1];
  int t = threadIdx.x;
  if (mode > 0)
    s[t] = in[t];
  else
    out[t] = s[t + 1];
}

// Clean (no verdict): accesses behind a thread-dependent guard the
// interpreter cannot decide, an index read from memory, a callee it does not
// follow given the array, an asynchronous copy.
__global__ void undecidedGuard(const float *in, float *out, int n) {
  __shared__ float s[N + 1];
  int t = threadIdx.x;
  if (t < n)
    s[t] = in[t];
  out[t] = s[t + 1];
}
__global__ void dataDependent(const int *idx, float *out) {
  __shared__ float s[N];
  s[idx[threadIdx.x] & (N - 1)] = 1.0f;
  out[threadIdx.x] = s[threadIdx.x];
}
__device__ void fillSomehow(float *s, int i);
__global__ void opaqueCallee(float *out) {
  __shared__ float s[N];
  fillSomehow(s, threadIdx.x);
  s[threadIdx.x] = 0.0f;
  out[threadIdx.x] = s[N - 1 - threadIdx.x];
}
__global__ void asyncCopy(const float *in, float *out) {
  __shared__ float s[N];
  __pipeline_memcpy_async(&s[threadIdx.x], &in[threadIdx.x], sizeof(float));
  __pipeline_commit();
  __pipeline_wait_prior(0);
  s[threadIdx.x] += 1.0f;
  out[threadIdx.x] = s[N - 1 - threadIdx.x];
}

// 9. A plain store and atomic updates of one counter in one interval: the
//    reset may land after some increments (a lost update).
__global__ void resetRacesAtomics(int *out) {
  __shared__ int count;
  if (threadIdx.x == 0)
    count = 0;
    // CHECK-NOTES: :[[@LINE-1]]:5: warning: data race on __shared__ 'count': thread 0 writes byte 0 here and thread 32 writes it at line {{[0-9]+}} with no barrier between them [cudagraph-shared-race]
    // CHECK-NOTES: :[[@LINE+2]]:14: note: the conflicting write by thread 32
    // CHECK-NOTES: :{{[0-9]+}}:{{[0-9]+}}: note: with block (256,1,1) from this launch
  atomicAdd(&count, 1);
  __syncthreads();
  out[threadIdx.x] = count;
}

// Clean: every lane stores the sum a butterfly reduction left in all of them
// (one value; the interpreter cannot know it, so write-write pairs of values
// it does not know are not reported), and a plain read polls a counter other
// threads update atomically.
__global__ void warpSumsPerWarp(const float *in, float *out) {
  __shared__ float sums[N / 32];
  float v = in[threadIdx.x];
  for (int o = 16; o > 0; o >>= 1)
    v += __shfl_xor_sync(0xffffffff, v, o);
  sums[threadIdx.x / 32] = v;
  __syncthreads();
  if (threadIdx.x < N / 32)
    out[threadIdx.x] = sums[threadIdx.x];
}
__global__ void pollCounter(int *out, int limit) {
  __shared__ int hits;
  if (threadIdx.x == 0)
    hits = 0;
  __syncthreads();
  while (hits < limit)
    atomicAdd(&hits, 1);
  out[threadIdx.x] = 1;
}

// Clean: atomics on one counter do not race with each other.
__global__ void atomicCounter(int *out) {
  __shared__ int count;
  if (threadIdx.x == 0)
    count = 0;
  __syncthreads();
  atomicAdd(&count, 1);
  __syncthreads();
  out[threadIdx.x] = count;
}

// Without a launch shape: a block of two warps is run, and what holds there
// with nothing shape-dependent on the paths holds for every larger block.
__global__ void unlaunchedNeighbour(const float *in, float *out) {
  __shared__ float s[64];
  s[threadIdx.x % 64] = in[threadIdx.x];
  // CHECK-NOTES: :[[@LINE-1]]:3: warning: data race on __shared__ 's': thread 0 writes byte 0 here and thread 63 reads it at line {{[0-9]+}} with no barrier between them [cudagraph-shared-race]
  // CHECK-NOTES: :[[@LINE+2]]:22: note: the conflicting read by thread 63
  // CHECK-NOTES: :[[@LINE-5]]:17: note: with any block of two or more warps (nothing on these paths depends on the block shape); no launch of 'unlaunchedNeighbour' with a constant block size is visible in this file
  out[threadIdx.x] = s[(threadIdx.x + 1) % 64];
}
// ... but an index built from blockDim is judged only with a launch shape.
__global__ void unlaunchedShapeDependent(const float *in, float *out) {
  __shared__ float s[1024];
  s[threadIdx.x] = in[threadIdx.x];
  out[threadIdx.x] = s[blockDim.x - 1 - threadIdx.x];
}

// 11. What goes without a verdict stays local: an asynchronous copy into
//     one array, a callee not followed given it, shared-memory asm on it, or
//     a named barrier later in the thread, leave the race on another array
//     (or before the barrier) reported; the fixed twins are silent.
__global__ void asyncCopyOtherArray(const float *in, float *out) {
  __shared__ float staged[N];
  __shared__ float r[N];
  __pipeline_memcpy_async(&staged[threadIdx.x], &in[threadIdx.x], sizeof(float));
  r[threadIdx.x] = in[N + threadIdx.x];
  // CHECK-NOTES: :[[@LINE-1]]:3: warning: data race on __shared__ 'r': thread 0 writes byte 0 here and thread 255 reads it at line {{[0-9]+}} with no barrier between them [cudagraph-shared-race]
  // CHECK-NOTES: :[[@LINE+2]]:22: note: the conflicting read by thread 255
  // CHECK-NOTES: :{{[0-9]+}}:{{[0-9]+}}: note: with block (256,1,1) from this launch
  out[threadIdx.x] = r[N - 1 - threadIdx.x] + staged[threadIdx.x];
}
__global__ void asyncCopyOtherArrayFixed(const float *in, float *out) {
  __shared__ float staged[N];
  __shared__ float r[N];
  __pipeline_memcpy_async(&staged[threadIdx.x], &in[threadIdx.x], sizeof(float));
  r[threadIdx.x] = in[N + threadIdx.x];
  __syncthreads();
  out[threadIdx.x] = r[N - 1 - threadIdx.x] + staged[threadIdx.x];
}
__global__ void asmOtherArray(const float *in, float *out) {
  __shared__ float a[N];
  __shared__ float r[N];
  unsigned addr = static_cast<unsigned>(__cvta_generic_to_shared(&a[threadIdx.x]));
  asm volatile("st.shared.f32 [%0], %1;" ::"r"(addr), "f"(in[threadIdx.x]));
  r[threadIdx.x] = in[N + threadIdx.x];
  // CHECK-NOTES: :[[@LINE-1]]:3: warning: data race on __shared__ 'r': thread 0 writes byte 0 here and thread 255 reads it at line {{[0-9]+}} with no barrier between them [cudagraph-shared-race]
  // CHECK-NOTES: :[[@LINE+2]]:22: note: the conflicting read by thread 255
  // CHECK-NOTES: :{{[0-9]+}}:{{[0-9]+}}: note: with block (256,1,1) from this launch
  out[threadIdx.x] = r[N - 1 - threadIdx.x] + a[N - 1 - threadIdx.x];
}
__global__ void raceBeforeNamedBarrier(const float *in, float *out) {
  __shared__ float r[N];
  r[threadIdx.x] = in[threadIdx.x];
  // CHECK-NOTES: :[[@LINE-1]]:3: warning: data race on __shared__ 'r': thread 0 writes byte 0 here and thread 255 reads it at line {{[0-9]+}} with no barrier between them [cudagraph-shared-race]
  // CHECK-NOTES: :[[@LINE+2]]:13: note: the conflicting read by thread 255
  // CHECK-NOTES: :{{[0-9]+}}:{{[0-9]+}}: note: with block (256,1,1) from this launch
  float v = r[N - 1 - threadIdx.x];
  asm volatile("bar.sync 1, 256;");
  r[threadIdx.x] = v;
  out[threadIdx.x] = r[N - 1 - threadIdx.x];
}
__global__ void raceBeforeNamedBarrierFixed(const float *in, float *out) {
  __shared__ float r[N];
  r[threadIdx.x] = in[threadIdx.x];
  __syncthreads();
  float v = r[N - 1 - threadIdx.x];
  asm volatile("bar.sync 1, 256;");
  r[threadIdx.x] = v;
  out[threadIdx.x] = r[N - 1 - threadIdx.x];
}
// An asm store whose address is not traced to an array: no verdict at all.
__global__ void asmUnknownTarget(const float *in, float *out, unsigned addr) {
  __shared__ float r[N];
  asm volatile("st.shared.f32 [%0], %1;" ::"r"(addr), "f"(in[threadIdx.x]));
  r[threadIdx.x] = in[N + threadIdx.x];
  out[threadIdx.x] = r[N - 1 - threadIdx.x];
}

// An arm that only leaves the kernel (global stores, a loop that may
// return) is not run (InterpreterInert.cpp); what follows it still is, and
// an arm that reads shared memory before it returns is run.
__global__ void exitArmThenRace(const float *in, float *out, const int *ids, int m) {
  __shared__ float s[N];
  if (m < 16) {
    for (int j = 0; j < 4; ++j) {
      if (j > m)
        return;
      out[j * N + threadIdx.x] += in[threadIdx.x];
    }
    return;
  }
  s[threadIdx.x] = in[ids[threadIdx.x]];
  // CHECK-NOTES: :[[@LINE-1]]:3: warning: data race on __shared__ 's': thread 0 writes byte 0 here and thread 255 reads it at line {{[0-9]+}} with no barrier between them [cudagraph-shared-race]
  // CHECK-NOTES: :[[@LINE+2]]:22: note: the conflicting read by thread 255
  // CHECK-NOTES: :{{[0-9]+}}:{{[0-9]+}}: note: with block (256,1,1) from this launch
  out[threadIdx.x] = s[N - 1 - threadIdx.x];
}
__global__ void exitArmThenBarrier(const float *in, float *out, const int *ids, int m) {
  __shared__ float s[N];
  if (m < 16) {
    for (int j = 0; j < 4; ++j) {
      if (j > m)
        return;
      out[j * N + threadIdx.x] += in[threadIdx.x];
    }
    return;
  }
  s[threadIdx.x] = in[ids[threadIdx.x]];
  __syncthreads();
  out[threadIdx.x] = s[N - 1 - threadIdx.x];
}
__global__ void exitArmReads(const float *in, float *out, int m) {
  __shared__ float s[N];
  s[threadIdx.x] = in[threadIdx.x];
  // CHECK-NOTES: :[[@LINE-1]]:3: warning: data race on __shared__ 's': thread 0 writes byte 0 here and thread 255 reads it at line {{[0-9]+}} with no barrier between them [cudagraph-shared-race]
  // CHECK-NOTES: :[[@LINE+3]]:24: note: the conflicting read by thread 255
  // CHECK-NOTES: :{{[0-9]+}}:{{[0-9]+}}: note: with block (256,1,1) from this launch
  if (m > 0) {
    out[threadIdx.x] = s[N - 1 - threadIdx.x];
    return;
  }
  out[threadIdx.x] = 0.0f;
}
__global__ void exitArmReadsFixed(const float *in, float *out, int m) {
  __shared__ float s[N];
  s[threadIdx.x] = in[threadIdx.x];
  __syncthreads();
  if (m > 0) {
    out[threadIdx.x] = s[N - 1 - threadIdx.x];
    return;
  }
  out[threadIdx.x] = 0.0f;
}

// 15. Indices and guards written with a tile's ranks: lane 0 of each warp
//     writes its warp's slot and warp 0 reads all eight after only the
//     tile's sync, which orders the lanes of one warp, not the warps.
__global__ void tileRanksNoBarrier(float *out) {
  __shared__ float s[8];
  cooperative_groups::thread_block_tile<32> tile =
      cooperative_groups::tiled_partition<32>(cooperative_groups::this_thread_block());
  if (tile.thread_rank() == 0)
    s[tile.meta_group_rank()] = 1.0f;
  // CHECK-NOTES: :[[@LINE-1]]:5: warning: data race on __shared__ 's': thread 32 writes byte 4 here and thread 1 reads it at line {{[0-9]+}} with no barrier between them [cudagraph-shared-race]
  // CHECK-NOTES: :[[@LINE+4]]:31: note: the conflicting read by thread 1
  // CHECK-NOTES: :{{[0-9]+}}:{{[0-9]+}}: note: with block (256,1,1) from this launch
  tile.sync();
  if (tile.meta_group_rank() == 0 && tile.thread_rank() < 8)
    out[tile.thread_rank()] = s[tile.thread_rank()];
}
__global__ void tileRanksBarrier(float *out) {
  __shared__ float s[8];
  cooperative_groups::thread_block block = cooperative_groups::this_thread_block();
  cooperative_groups::thread_block_tile<32> tile = cooperative_groups::tiled_partition<32>(block);
  if (tile.thread_rank() == 0)
    s[tile.meta_group_rank()] = 1.0f;
  block.sync();
  if (tile.meta_group_rank() == 0 && tile.thread_rank() < 8)
    out[tile.thread_rank()] = s[tile.thread_rank()];
}

// 16. A double buffer whose index depends on the iteration of a loop with a
//     run-time trip count: the buffer is not known, but it is the same one
//     for every thread in one iteration, so the tile's store races with the
//     reads of the other warps. The index written twice (the "next" buffer
//     meant to be the other one) is one value; the fix writes the other one.
__global__ void iterBufferNoBarrier(const float *in, float *out, int k) {
  __shared__ float sb[2][8][32];
  int tx = threadIdx.x % 32, ty = threadIdx.x / 32;
  float acc = 0.0f;
  for (int k0 = 0; k0 < k; k0 += 8) {
    int cur = (k0 / 8) & 1;
    int next = (k0 / 8) & 1;
    if (k0 + 8 < k)
      sb[next][ty][tx] = in[k0 + ty * 32 + tx];
    // CHECK-NOTES: :[[@LINE-1]]:7: warning: data race on __shared__ 'sb': thread 0 writes byte 0 past a start both threads share here and thread 32 reads it at line {{[0-9]+}} with no barrier between them [cudagraph-shared-race]
    // CHECK-NOTES: :[[@LINE+3]]:14: note: the conflicting read by thread 32
    // CHECK-NOTES: :{{[0-9]+}}:{{[0-9]+}}: note: with block (256,1,1) from this launch
    for (int r = 0; r < 8; ++r)
      acc += sb[cur][r][tx];
    __syncthreads();
  }
  out[threadIdx.x] = acc;
}
__global__ void iterBufferOther(const float *in, float *out, int k) {
  __shared__ float sb[2][8][32];
  int tx = threadIdx.x % 32, ty = threadIdx.x / 32;
  float acc = 0.0f;
  for (int k0 = 0; k0 < k; k0 += 8) {
    int cur = (k0 / 8) & 1;
    int next = (k0 / 8 + 1) & 1;
    if (k0 + 8 < k)
      sb[next][ty][tx] = in[k0 + ty * 32 + tx];
    for (int r = 0; r < 8; ++r)
      acc += sb[cur][r][tx];
    __syncthreads();
  }
  out[threadIdx.x] = acc;
}

// 17. `c ? s[i] : carry` with two lvalue arms is one read of the chosen arm:
//     thread 31 reads what thread 32 writes, with no barrier.
__global__ void selectReadNoBarrier(const float *in, float *out, float carry) {
  __shared__ float s[2 * N];
  int t = threadIdx.x;
  s[2 * t] = in[2 * t];
  // CHECK-NOTES: :[[@LINE-1]]:3: warning: data race on __shared__ 's': thread 32 writes byte 256 here and thread 31 reads it at line {{[0-9]+}} with no barrier between them [cudagraph-shared-race]
  // CHECK-NOTES: :[[@LINE+2]]:24: note: the conflicting read by thread 31
  // CHECK-NOTES: :{{[0-9]+}}:{{[0-9]+}}: note: with block (256,1,1) from this launch
  out[t] = t < N - 1 ? s[2 * t + 2] : carry;
}
__global__ void selectReadBarrier(const float *in, float *out, float carry) {
  __shared__ float s[2 * N];
  int t = threadIdx.x;
  s[2 * t] = in[2 * t];
  __syncthreads();
  out[t] = t < N - 1 ? s[2 * t + 2] : carry;
}

// 18. A test on a floating-point parameter is the same in every thread:
//     what runs under it is judged like the code around it.
__global__ void floatParamTestNoBarrier(const float *in, float *out, float scale) {
  __shared__ float s[N];
  int t = threadIdx.x;
  s[t] = in[t];
  __syncthreads();
  if (scale != 1.0f)
    s[t] *= scale;
  // CHECK-NOTES: :[[@LINE-1]]:5: warning: data race on __shared__ 's': thread 0 writes byte 0 here and thread 255 reads it at line {{[0-9]+}} with no barrier between them [cudagraph-shared-race]
  // CHECK-NOTES: :[[@LINE+2]]:12: note: the conflicting read by thread 255
  // CHECK-NOTES: :{{[0-9]+}}:{{[0-9]+}}: note: with block (256,1,1) from this launch
  out[t] = s[N - 1 - t];
}
__global__ void floatParamTestBarrier(const float *in, float *out, float scale) {
  __shared__ float s[N];
  int t = threadIdx.x;
  s[t] = in[t];
  __syncthreads();
  if (scale != 1.0f)
    s[t] *= scale;
  __syncthreads();
  out[t] = s[N - 1 - t];
}

// 19. A 128-thread tile's sync orders the tile's four warps (a named
//     barrier of its own): the tile's lane 0 writes the slot every thread of
//     that tile reads after it. The race before the sync is still found.
__global__ void wideTileSync(float *out) {
  __shared__ float s[2];
  cooperative_groups::thread_block_tile<128> tile =
      cooperative_groups::tiled_partition<128>(cooperative_groups::this_thread_block());
  if (tile.thread_rank() == 0)
    s[tile.meta_group_rank()] = 1.0f;
  tile.sync();
  out[threadIdx.x] = s[tile.meta_group_rank()];
}
__global__ void wideTileRaceBeforeSync(float *out) {
  __shared__ float s[2];
  cooperative_groups::thread_block_tile<128> tile =
      cooperative_groups::tiled_partition<128>(cooperative_groups::this_thread_block());
  if (tile.thread_rank() == 0)
    s[tile.meta_group_rank()] = 1.0f;
  // CHECK-NOTES: :[[@LINE-1]]:5: warning: data race on __shared__ 's': thread 0 writes byte 0 here and thread 32 reads it at line {{[0-9]+}} with no barrier between them [cudagraph-shared-race]
  // CHECK-NOTES: :[[@LINE+2]]:13: note: the conflicting read by thread 32
  // CHECK-NOTES: :{{[0-9]+}}:{{[0-9]+}}: note: with block (256,1,1) from this launch
  float v = s[tile.meta_group_rank()];
  tile.sync();
  out[threadIdx.x] = v;
}

// 20. cg::reduce reads its operand, which it takes by reference: every warp
//     stores its partial sum in its own slot and warp 0 sums the slots with
//     no barrier between.
__global__ void collectiveOperandNoBarrier(const float *in, float *out) {
  namespace cg = cooperative_groups;
  cg::thread_block block = cg::this_thread_block();
  cg::thread_block_tile<32> warp = cg::tiled_partition<32>(block);
  __shared__ float acc[N / 32];
  float v = cg::reduce(warp, in[block.thread_rank()], cg::plus<float>());
  if (warp.thread_rank() == 0)
    acc[warp.meta_group_rank()] = v;
  // CHECK-NOTES: :[[@LINE-1]]:5: warning: data race on __shared__ 'acc': thread 32 writes byte 4 here and thread 1 reads it at line {{[0-9]+}} with no barrier between them [cudagraph-shared-race]
  // CHECK-NOTES: :[[@LINE+3]]:31: note: the conflicting read by thread 1
  // CHECK-NOTES: :{{[0-9]+}}:{{[0-9]+}}: note: with block (256,1,1) from this launch
  if (warp.meta_group_rank() == 0)
    out[0] = cg::reduce(warp, acc[warp.thread_rank() % (N / 32)], cg::plus<float>());
}
__global__ void collectiveOperandBarrier(const float *in, float *out) {
  namespace cg = cooperative_groups;
  cg::thread_block block = cg::this_thread_block();
  cg::thread_block_tile<32> warp = cg::tiled_partition<32>(block);
  __shared__ float acc[N / 32];
  float v = cg::reduce(warp, in[block.thread_rank()], cg::plus<float>());
  if (warp.thread_rank() == 0)
    acc[warp.meta_group_rank()] = v;
  block.sync();
  if (warp.meta_group_rank() == 0)
    out[0] = cg::reduce(warp, acc[warp.thread_rank() % (N / 32)], cg::plus<float>());
}

// 21. The same reduction in a loop: the reads of one round race with the
//     stores of the next without a barrier at the end of the round.
__global__ void collectiveRoundsNoBarrier(const float *in, float *out, int rounds) {
  namespace cg = cooperative_groups;
  cg::thread_block block = cg::this_thread_block();
  cg::thread_block_tile<32> warp = cg::tiled_partition<32>(block);
  __shared__ float acc[N / 32];
  for (int r = 0; r < rounds; ++r) {
    float v = cg::reduce(warp, in[r * N + block.thread_rank()], cg::plus<float>());
    if (warp.thread_rank() == 0)
      acc[warp.meta_group_rank()] = v;
    // CHECK-NOTES: :[[@LINE-1]]:7: warning: data race on __shared__ 'acc': thread 0 writes byte 0 here and thread 32 reads it at line {{[0-9]+}} in the next iteration with no barrier between them [cudagraph-shared-race]
    // CHECK-NOTES: :[[@LINE+3]]:31: note: the conflicting read by thread 32
    // CHECK-NOTES: :{{[0-9]+}}:{{[0-9]+}}: note: with block (256,1,1) from this launch
    block.sync();
    out[r] = cg::reduce(warp, acc[warp.thread_rank() % (N / 32)], cg::plus<float>());
  }
}
__global__ void collectiveRoundsBarrier(const float *in, float *out, int rounds) {
  namespace cg = cooperative_groups;
  cg::thread_block block = cg::this_thread_block();
  cg::thread_block_tile<32> warp = cg::tiled_partition<32>(block);
  __shared__ float acc[N / 32];
  for (int r = 0; r < rounds; ++r) {
    float v = cg::reduce(warp, in[r * N + block.thread_rank()], cg::plus<float>());
    if (warp.thread_rank() == 0)
      acc[warp.meta_group_rank()] = v;
    block.sync();
    out[r] = cg::reduce(warp, acc[warp.thread_rank() % (N / 32)], cg::plus<float>());
    block.sync();
  }
}

// 22. One warp clears the slots while the other warps store their sums in
//     them (llm.c pull request 847): a sum may be cleared after it is
//     stored. 0 against an unknown sum may differ, so the two stores race;
//     the twin clears them behind a barrier.
__global__ void clearWhileStoring(const float *in, float *out) {
  __shared__ float acc[N / 32];
  int warp = threadIdx.x / 32, lane = threadIdx.x % 32;
  if (warp == 0 && lane < N / 32)
    acc[lane] = 0.f;
  // CHECK-NOTES: :[[@LINE-1]]:5: warning: data race on __shared__ 'acc': thread 1 writes byte 4 here and thread 32 writes it at line {{[0-9]+}} with no barrier between them [cudagraph-shared-race]
  // CHECK-NOTES: :[[@LINE+6]]:5: note: the conflicting write by thread 32
  // CHECK-NOTES: :{{[0-9]+}}:{{[0-9]+}}: note: with block (256,1,1) from this launch
  float v = in[threadIdx.x];
  for (int o = 16; o > 0; o /= 2)
    v += __shfl_xor_sync(0xffffffff, v, o);
  if (lane == 0)
    acc[warp] = v;
  __syncthreads();
  if (threadIdx.x == 0) {
    float t = 0.f;
    for (int w = 0; w < N / 32; ++w)
      t += acc[w];
    out[blockIdx.x] = t;
  }
}
__global__ void clearThenStore(const float *in, float *out) {
  __shared__ float acc[N / 32];
  int warp = threadIdx.x / 32, lane = threadIdx.x % 32;
  if (warp == 0 && lane < N / 32)
    acc[lane] = 0.f;
  __syncthreads();
  float v = in[threadIdx.x];
  for (int o = 16; o > 0; o /= 2)
    v += __shfl_xor_sync(0xffffffff, v, o);
  if (lane == 0)
    acc[warp] = v;
  __syncthreads();
  if (threadIdx.x == 0) {
    float t = 0.f;
    for (int w = 0; w < N / 32; ++w)
      t += acc[w];
    out[blockIdx.x] = t;
  }
}

void launchAll(const float *in, float *out, int *iout, const int *idx, int n) {
  neighbourNoBarrier<<<4, N>>>(in, out);
  neighbourBarrier<<<4, N>>>(in, out);
  reuseUnrolled<<<1, N>>>(in, out);
  reuseUnrolledFixed<<<1, N>>>(in, out);
  reuseSymbolic<<<1, N>>>(in, out, n);
  reuseSymbolicFixed<<<1, N>>>(in, out, n);
  broadcastNoBarrier<<<1, N>>>(in, out);
  broadcastBarrier<<<1, N>>>(in, out);
  warpReduceLockstep<<<1, N>>>(in, out);
  warpReduceSyncwarp<<<1, N>>>(in, out);
  lastWriterWins<<<1, N>>>(iout);
  oneWriter<<<1, N>>>(iout);
  helperNoBarrier<<<1, N>>>(in, out);
  helperBarrier<<<1, N>>>(in, out);
  helperBothAccesses<<<1, N>>>(in, out);
  externAlias<<<1, N, N * sizeof(float)>>>(in, out);
  externAliasBarrier<<<1, N, N * sizeof(float)>>>(in, out);
  uniformArms<<<1, N>>>(in, out, n);
  undecidedGuard<<<1, N>>>(in, out, n);
  dataDependent<<<1, N>>>(idx, out);
  opaqueCallee<<<1, N>>>(out);
  asyncCopy<<<1, N>>>(in, out);
  atomicCounter<<<1, N>>>(iout);
  resetRacesAtomics<<<1, N>>>(iout);
  warpSumsPerWarp<<<1, N>>>(in, out);
  pollCounter<<<1, N>>>(iout, n);
  asyncCopyOtherArray<<<1, N>>>(in, out);
  asyncCopyOtherArrayFixed<<<1, N>>>(in, out);
  asmOtherArray<<<1, N>>>(in, out);
  raceBeforeNamedBarrier<<<1, N>>>(in, out);
  raceBeforeNamedBarrierFixed<<<1, N>>>(in, out);
  asmUnknownTarget<<<1, N>>>(in, out, n);
  exitArmThenRace<<<1, N>>>(in, out, idx, n);
  exitArmThenBarrier<<<1, N>>>(in, out, idx, n);
  exitArmReads<<<1, N>>>(in, out, n);
  exitArmReadsFixed<<<1, N>>>(in, out, n);
  tileRanksNoBarrier<<<1, N>>>(out);
  tileRanksBarrier<<<1, N>>>(out);
  wideTileSync<<<1, N>>>(out);
  wideTileRaceBeforeSync<<<1, N>>>(out);
  iterBufferNoBarrier<<<1, N>>>(in, out, n);
  iterBufferOther<<<1, N>>>(in, out, n);
  selectReadNoBarrier<<<1, N>>>(in, out, 1.0f);
  selectReadBarrier<<<1, N>>>(in, out, 1.0f);
  floatParamTestNoBarrier<<<1, N>>>(in, out, 2.0f);
  floatParamTestBarrier<<<1, N>>>(in, out, 2.0f);
  collectiveOperandNoBarrier<<<1, N>>>(in, out);
  collectiveOperandBarrier<<<1, N>>>(in, out);
  collectiveRoundsNoBarrier<<<1, N>>>(in, out, n);
  collectiveRoundsBarrier<<<1, N>>>(in, out, n);
  clearWhileStoring<<<1, N>>>(in, out);
  clearThenStore<<<1, N>>>(in, out);
}
