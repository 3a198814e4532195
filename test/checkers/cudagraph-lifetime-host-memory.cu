// RUN: %check_cudagraph_tidy %s cudagraph-use-after-dealloc %t
// RUN: %check_cudagraph_tidy %s cudagraph-handle-leak %t
// RUN: %check_cudagraph_tidy %s cudagraph-mismatched-dealloc %t -check-suffixes=MISMATCH
//
// Plain host heap memory (malloc/calloc/free) is followed only to find a
// mismatch with a CUDA family: its leaks, double frees and uses after free
// are clang-analyzer's unix.Malloc. A helper that frees and nulls members
// called twice, a loop that frees under `if (r == k)`, a pointer parameter
// overwritten by malloc: silent. cudaFree of malloc memory and free of
// pinned memory: reported.
#include <cuda_runtime.h>
#include <cstdlib>
#include <cstring>

struct Mesh {
  float *verts = nullptr;
  int *faces = nullptr;
};

void mesh_release(Mesh &m) {
  free(m.verts);
  free(m.faces);
  m.verts = nullptr;
  m.faces = nullptr;
}

static bool mesh_alloc(Mesh &m, int n) {
  m.verts = (float *)malloc(3 * n * sizeof(float));
  m.faces = (int *)calloc(3 * n, sizeof(int));
  if (!m.verts || !m.faces) {
    mesh_release(m);
    return false;
  }
  return true;
}

bool mesh_load(Mesh &m, int n) {
  if (!mesh_alloc(m, n)) {
    mesh_release(m); // frees nullptr: a no-op
    return false;
  }
  return true;
}

struct Table {
  int *rows;
  int *spare;
};

void table_free(Table *t, int n) {
  for (int r = 0; r < n + 1; r++) {
    if (r == n)
      free(t->spare);
  }
  free(t->rows);
}

int fill(void *resp, int size, bool owned) {
  if (!owned)
    resp = malloc(size);
  memset(resp, 0, size);
  return 1;
}

void wrong_families(int n) {
  float *h = (float *)malloc(n * sizeof(float));
  cudaFree(h);
  // CHECK-MESSAGES-MISMATCH: :[[@LINE-1]]:3: warning: heap memory allocated by 'malloc' is released by 'cudaFree'; release it with free [cudagraph-mismatched-dealloc]
  float *pinned = nullptr;
  if (cudaMallocHost(&pinned, n * sizeof(float)) != cudaSuccess)
    return;
  free(pinned);
  // CHECK-MESSAGES-MISMATCH: :[[@LINE-1]]:3: warning: {{.*}}'pinned'{{.*}} [cudagraph-mismatched-dealloc]
}

// One wrong release in a free helper is one finding, at the call inside the
// helper; the helper's callers (whose summaries carry it) say nothing more.
typedef struct {
  float *h_staging;
  float *d_work;
} uploader;

void uploader_free(uploader *u) {
  free(u->h_staging);
  // CHECK-MESSAGES-MISMATCH: :[[@LINE-1]]:3: warning: pinned host memory 'u->h_staging' allocated by 'cudaMallocHost' is released by 'free'; release it with cudaFreeHost [cudagraph-mismatched-dealloc]
  cudaFree(u->d_work);
}

int uploader_init(uploader *u, size_t bytes) {
  u->h_staging = NULL;
  u->d_work = NULL;
  if (cudaMallocHost((void **)&u->h_staging, bytes) != cudaSuccess)
    return -1;
  if (cudaMalloc((void **)&u->d_work, bytes) != cudaSuccess) {
    uploader_free(u);
    return -1;
  }
  return 0;
}

int upload(const void *src, size_t bytes) {
  uploader u;
  if (uploader_init(&u, bytes) != 0)
    return -1;
  cudaMemcpy(u.d_work, src, bytes, cudaMemcpyHostToDevice);
  uploader_free(&u);
  return 0;
}
