// PLANTED: cudagraph-mismatched-dealloc line 60
// C-style peer link used by an MPI-based halo exchange: each rank imports its right
// neighbour's receive buffer once and copies its boundary into it every step.
#include <cuda_runtime.h>
#include <stdio.h>
#include <string.h>

typedef struct {
  int peer_rank;
  size_t bytes;
  void* remote;          /* neighbour's buffer, mapped through IPC */
  void* local_halo;      /* our own device staging */
  cudaStream_t stream;
} PeerLink;

#define CK(call)                                                            \
  do {                                                                      \
    cudaError_t err__ = (call);                                             \
    if (err__ != cudaSuccess) {                                             \
      fprintf(stderr, "%s:%d %s -> %s\n", __FILE__, __LINE__, #call,        \
              cudaGetErrorString(err__));                                   \
      return -1;                                                            \
    }                                                                       \
  } while (0)

__global__ void pack_halo(const float* field, float* halo, int nx, int ny) {
  int j = blockIdx.x * blockDim.x + threadIdx.x;
  if (j < ny) halo[j] = field[(size_t)j * nx + (nx - 1)];
}

int peer_link_open(PeerLink* link, int peer, const cudaIpcMemHandle_t* handle, size_t bytes) {
  memset(link, 0, sizeof(*link));
  link->peer_rank = peer;
  link->bytes = bytes;
  CK(cudaStreamCreateWithFlags(&link->stream, cudaStreamNonBlocking));
  if (cudaMalloc(&link->local_halo, bytes) != cudaSuccess) {
    cudaStreamDestroy(link->stream);
    return -1;
  }
  if (cudaIpcOpenMemHandle(&link->remote, *handle, cudaIpcMemLazyEnablePeerAccess) !=
      cudaSuccess) {
    cudaFree(link->local_halo);
    cudaStreamDestroy(link->stream);
    return -1;
  }
  return 0;
}

int peer_link_push(PeerLink* link, const float* field, int nx, int ny) {
  pack_halo<<<(ny + 127) / 128, 128, 0, link->stream>>>(field, (float*)link->local_halo, nx, ny);
  CK(cudaGetLastError());
  CK(cudaMemcpyAsync(link->remote, link->local_halo, link->bytes, cudaMemcpyDeviceToDevice,
                     link->stream));
  return 0;
}

void peer_link_close(PeerLink* link) {
  cudaStreamSynchronize(link->stream);
#ifdef BUGGY
  cudaFree(link->remote);
#else
  cudaIpcCloseMemHandle(link->remote);
#endif
  cudaFree(link->local_halo);
  cudaStreamDestroy(link->stream);
  link->remote = NULL;
  link->local_halo = NULL;
}

int halo_exchange(int peer, const cudaIpcMemHandle_t* handle, const float* field, int nx,
                  int ny, int steps) {
  PeerLink link;
  if (peer_link_open(&link, peer, handle, (size_t)ny * sizeof(float)) != 0) return -1;
  int rc = 0;
  for (int s = 0; s < steps && rc == 0; ++s) rc = peer_link_push(&link, field, nx, ny);
  peer_link_close(&link);
  return rc;
}
