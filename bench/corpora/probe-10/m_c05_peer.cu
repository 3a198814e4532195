// PLANTED: none
// Multi-GPU ring peer copy with per-device streams/events in arrays.
#include <cuda_runtime.h>
#include <stdio.h>
#define MAXDEV 8

int main(void) {
  int ndev = 0;
  if (cudaGetDeviceCount(&ndev) != cudaSuccess || ndev < 2) return 0;
  if (ndev > MAXDEV) ndev = MAXDEV;
  cudaStream_t st[MAXDEV] = {0};
  cudaEvent_t ev[MAXDEV] = {0};
  float *buf[MAXDEV] = {0};
  const size_t bytes = 1 << 24;
  int created = 0, rc = 1;
  for (int d = 0; d < ndev; ++d) {
    cudaSetDevice(d);
    if (cudaStreamCreateWithFlags(&st[d], cudaStreamNonBlocking) != cudaSuccess) break;
    if (cudaEventCreateWithFlags(&ev[d], cudaEventDisableTiming) != cudaSuccess) { cudaStreamDestroy(st[d]); break; }
    if (cudaMalloc((void **)&buf[d], bytes) != cudaSuccess) { cudaEventDestroy(ev[d]); cudaStreamDestroy(st[d]); break; }
    int nxt = (d + 1) % ndev, can = 0;
    cudaDeviceCanAccessPeer(&can, d, nxt);
    if (can) cudaDeviceEnablePeerAccess(nxt, 0);
    created++;
  }
  if (created == ndev) {
    for (int d = 0; d < ndev; ++d) {
      int nxt = (d + 1) % ndev;
      cudaSetDevice(d);
      cudaMemcpyPeerAsync(buf[nxt], nxt, buf[d], d, bytes, st[d]);
      cudaEventRecord(ev[d], st[d]);
    }
    for (int d = 0; d < ndev; ++d) cudaEventSynchronize(ev[d]);
    rc = 0;
  }
  for (int d = 0; d < created; ++d) {
    cudaSetDevice(d);
    cudaFree(buf[d]);
    cudaEventDestroy(ev[d]);
    cudaStreamDestroy(st[d]);
  }
  return rc;
}
