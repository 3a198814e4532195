/* Multi-GPU halo-exchange context of a stencil code, C style. Each device slot
 * holds a compute stream, a halo stream, a "halo ready" event and the field
 * buffers. mgpu_free walks the slots and destroys streams and buffers, but not
 * the halo events. The peer-access table is plain host memory. */
#include <cuda_runtime.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_DEV 8

typedef struct {
  int device;
  cudaStream_t compute;
  cudaStream_t halo;
  cudaEvent_t halo_ready;
  float *d_field;
  float *d_next;
} dev_slot;

typedef struct {
  int ndev;
  int nx, ny;
  dev_slot slot[MAX_DEV];
  int *peer_ok;
} mgpu_ctx;

int mgpu_init(mgpu_ctx *m, int ndev, int nx, int ny) {
  memset(m, 0, sizeof(*m));
  if (ndev > MAX_DEV) ndev = MAX_DEV;
  m->ndev = ndev;
  m->nx = nx;
  m->ny = ny;
  m->peer_ok = (int *)calloc((size_t)ndev * ndev, sizeof(int));
  if (!m->peer_ok) return -1;
  for (int d = 0; d < ndev; ++d) {
    dev_slot *s = &m->slot[d];
    size_t bytes = (size_t)nx * (ny / ndev + 2) * sizeof(float);
    s->device = d;
    if (cudaSetDevice(d) != cudaSuccess) return -1;
    if (cudaStreamCreateWithFlags(&s->compute, cudaStreamNonBlocking) != cudaSuccess) return -1;
    if (cudaStreamCreateWithFlags(&s->halo, cudaStreamNonBlocking) != cudaSuccess) return -1;
    if (cudaEventCreateWithFlags(&s->halo_ready, cudaEventDisableTiming) != cudaSuccess) return -1; // EXPECT: cudagraph-handle-leak
    if (cudaMalloc((void **)&s->d_field, bytes) != cudaSuccess) return -1;
    if (cudaMalloc((void **)&s->d_next, bytes) != cudaSuccess) return -1;
    for (int p = 0; p < ndev; ++p) {
      int ok = 0;
      if (p != d && cudaDeviceCanAccessPeer(&ok, d, p) == cudaSuccess && ok) {
        if (cudaDeviceEnablePeerAccess(p, 0) == cudaSuccess) m->peer_ok[d * ndev + p] = 1;
      }
    }
  }
  return 0;
}

void mgpu_exchange(mgpu_ctx *m) {
  size_t row = (size_t)m->nx * sizeof(float);
  int rows = m->ny / m->ndev;
  for (int d = 0; d + 1 < m->ndev; ++d) {
    dev_slot *a = &m->slot[d], *b = &m->slot[d + 1];
    cudaSetDevice(d);
    cudaMemcpyPeerAsync(b->d_field, d + 1, a->d_field + (size_t)rows * m->nx, d, row, a->halo);
    cudaEventRecord(a->halo_ready, a->halo);
    cudaSetDevice(d + 1);
    cudaStreamWaitEvent(b->compute, a->halo_ready, 0);
  }
}

void mgpu_free(mgpu_ctx *m) {
  for (int d = 0; d < m->ndev; ++d) {
    dev_slot *s = &m->slot[d];
    cudaSetDevice(s->device);
    if (s->compute) cudaStreamSynchronize(s->compute);
    cudaFree(s->d_next);
    cudaFree(s->d_field);
    if (s->halo) cudaStreamDestroy(s->halo);
    if (s->compute) cudaStreamDestroy(s->compute);
  }
  free(m->peer_ok);
  memset(m, 0, sizeof(*m));
}

int run_stencil(int ndev, int nx, int ny, int steps) {
  mgpu_ctx m;
  int rc = 0;
  if (mgpu_init(&m, ndev, nx, ny) != 0) {
    fprintf(stderr, "init failed\n");
    rc = 1;
  }
  for (int t = 0; rc == 0 && t < steps; ++t) mgpu_exchange(&m);
  mgpu_free(&m);
  return rc;
}
