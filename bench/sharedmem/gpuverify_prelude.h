// Included before each GPUVerify testsuite kernel by gpuverify_recall.py: its
// specification intrinsics as no-ops, so the kernels parse as plain CUDA.
#pragma once
#include <cuda_runtime.h>
#include <cooperative_groups.h>
#define __requires(...)
#define __ensures(...)
#define __invariant(...)
#define __global_invariant(...)
#define __function_wide_invariant(...)
#define __assert(...)
#define __assume(...)
#define __axiom(...)
#define __global_assert(...)
#define __implies(a, b) (!(a) || (b))
#define __enabled() true
#define __write(...) false
#define __read(...) false
#define __no_read(...) true
#define __no_write(...) true
#define __write_implies(...) true
#define __read_implies(...) true
#define __write_offset_bytes(...) 0
#define __read_offset_bytes(...) 0
#define __ptr_offset_bytes(...) 0
#define __requires_fresh_array(...)
#define __other_int(x) (x)
#define __uniform_int(x) true
#define __uniform_bool(x) true
#define __distinct_int(x) true
#define __return_val_int() 0
#define __return_val_ptr() 0
#define __return_val_funptr(T) ((T)0)
// The suite's cooperative-groups tests use the old free function.
namespace cooperative_groups {
template <class Group> __device__ void synchronize(Group &g) { g.sync(); }
} // namespace cooperative_groups
