// Included before each GPUVerify testsuite kernel that run_gpuverify.py compiles with
// clang as plain CUDA (GPUVerify's own "cuda.h" is then the real one): cooperative groups
// and GPUVerify's specification annotations (preconditions, loop invariants, assertions)
// made inert.
// The annotations state what GPUVerify may assume or must prove; cudagraph-tidy reads
// none of them, so a kernel is judged on its code alone (a `__requires` that rules a
// race out is not seen: run_gpuverify.py reports such kernels separately).
#pragma once
#include <cuda_runtime.h>
#include <cooperative_groups.h>

#define __requires(...) ((void)0)
#define __ensures(...) ((void)0)
#define __assert(...) ((void)0)
#define __assume(...) ((void)0)
#define __axiom(...)
#define __global_invariant(...) ((void)0)
#define __function_wide_invariant(...) ((void)0)
#define __requires_fresh_array(...) ((void)0)
// Invariants sit inside a loop's condition, joined by commas to the real test.
#define __invariant(...) 0
#define __implies(a, b) 0
#define __read_implies(...) 0
#define __write_implies(...) 0
#define __no_read(...) 0
#define __no_write(...) 0
#define __read(...) 0
#define __write(...) 0
#define __read_offset_bytes(...) 0
#define __write_offset_bytes(...) 0
#define __ptr_offset_bytes(...) 0
#define __enabled() 1
#define __uniform_int(...) 1
#define __uniform_bool(...) 1
#define __distinct_int(...) 1
#define __other_int(x) (x)

#define __return_val_int() 0
#define __return_val_ptr() 0
#define __return_val_funptr(...) 0

// GPUVerify's cooperative-groups model names the block barrier `synchronize(g)`.
namespace cooperative_groups {
template <class Group> __device__ inline void synchronize(Group& g) { g.sync(); }
}  // namespace cooperative_groups
