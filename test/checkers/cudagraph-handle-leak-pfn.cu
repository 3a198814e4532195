// RUN: %check_cudagraph_tidy %s cudagraph-handle-leak %t -check-suffixes=DEF
// RUN: %check_cudagraph_tidy %s cudagraph-handle-leak %t -check-suffixes=USER -config="{CheckOptions: {cudagraph-handle-leak.ApiModelFiles: '%S/Inputs/pfn-model.json'}}"
//
// Driver entry points fetched with cuGetProcAddress and called through
// function pointers (issue 36 item 5): `pfn_cuMemCreate`, nccl's
// `CUPFN(cuMemCreate)`, a `PFN_cuMemCreate_v10020` variable are the calls
// they point to. An ApiModelFiles entry named after the pointer applies.
#include <cuda.h>
#include <cudaTypedefs.h>

PFN_cuMemCreate_v10020 pfn_cuMemCreate = nullptr;
PFN_cuMemRelease_v10020 pfn_cuMemRelease = nullptr;
#define CUPFN(symbol) pfn_##symbol

CUresult bug_pfn_create(size_t bytes, const CUmemAllocationProp *prop, bool probe_only) {
  CUmemGenericAllocationHandle h;
  CUresult r = pfn_cuMemCreate(&h, bytes, prop, 0);
  // CHECK-MESSAGES-DEF: :[[@LINE-1]]:16: warning: physical memory allocation 'h' created by 'cuMemCreate' is not released on every path{{.*}} [cudagraph-handle-leak]
  // CHECK-MESSAGES-USER: :[[@LINE-2]]:16: warning: physical memory allocation 'h' created by 'cuMemCreate' is not released on every path{{.*}} [cudagraph-handle-leak]
  if (r != CUDA_SUCCESS)
    return r;
  if (probe_only)
    return CUDA_SUCCESS;
  CUPFN(cuMemRelease)(h);
  return CUDA_SUCCESS;
}

CUresult ok_pfn_create(size_t bytes, const CUmemAllocationProp *prop, bool probe_only) {
  CUmemGenericAllocationHandle h;
  CUresult r = CUPFN(cuMemCreate)(&h, bytes, prop, 0);
  if (r != CUDA_SUCCESS)
    return r;
  CUPFN(cuMemRelease)(h);
  return CUDA_SUCCESS;
}

struct DriverTable {
  PFN_cuMemCreate_v10020 create;
  PFN_cuMemRelease_v10020 release;
};

CUresult bug_table_create(const DriverTable &t, size_t bytes, const CUmemAllocationProp *prop,
                          int n) {
  CUmemGenericAllocationHandle h;
  if (t.create(&h, bytes, prop, 0) != CUDA_SUCCESS)
    return CUDA_ERROR_OUT_OF_MEMORY;
  // CHECK-MESSAGES-DEF: :[[@LINE-2]]:7: warning: physical memory allocation 'h' created by {{.*}} is not released on every path{{.*}} [cudagraph-handle-leak]
  // CHECK-MESSAGES-USER: :[[@LINE-3]]:7: warning: physical memory allocation 'h' created by {{.*}} is not released on every path{{.*}} [cudagraph-handle-leak]
  if (n == 0)
    return CUDA_ERROR_INVALID_VALUE;
  t.release(h);
  return CUDA_SUCCESS;
}

// A user entry named after a pointer the program defines itself.
typedef int (*alloc_fn)(void **, size_t);
typedef int (*free_fn)(void *);
alloc_fn my_pool_alloc = nullptr;
free_fn my_pool_free = nullptr;
int bug_user_pointer(size_t n, bool fail) {
  void *p = nullptr;
  if (my_pool_alloc(&p, n) != 0)
    return -1;
  // CHECK-MESSAGES-USER: :[[@LINE-2]]:7: warning: device memory 'p' created by 'my_pool_alloc' is not released on every path{{.*}} [cudagraph-handle-leak]
  if (fail)
    return -1;
  my_pool_free(p);
  return 0;
}
