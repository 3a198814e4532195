// RUN: %cudagraph_tidy --format=text-plain --result-cache=off --quiet %s -- %cuda_args 2>&1 | FileCheck %s --check-prefix=CLEAN --allow-empty
// RUN: %cudagraph_tidy --format=text-plain --result-cache=off --quiet %s -- %cuda_args -DBUGGY 2>&1 | FileCheck %s --check-prefix=CLEAN --allow-empty
// CLEAN-NOT: warning:
// A reduction of false alarms on real code: both variants stay silent.
// Reduction realcode/class09.cu of ../shared/shapes/2026-12-04 (issues 35, 36).
// Real-code class 9: one handle returned through two out-parameters
// FP: a mapping helper returns the same IPC pointer through two out-parameters
// (`*ipcPtr = *devMem`); the second one is a member of the caller's resources, which the free
// function closes. The first one is reported as a leaked IPC mapping (nccl transport/p2p.cc:594).
#include <cuda_runtime.h>
struct SendMem { unsigned long head; unsigned long tail; };
struct Resources { void *memIpc; };
struct Conn { unsigned long *head; };

static cudaError_t map_peer(cudaIpcMemHandle_t h, void **devMem, void **ipcPtr) {
  cudaError_t e = cudaIpcOpenMemHandle(devMem, h, cudaIpcMemLazyEnablePeerAccess);
  if (e != cudaSuccess) return e;
  *ipcPtr = *devMem;                                 // same mapping, owned by the resources
  return cudaSuccess;
}
int recv_connect(Resources *res, Conn *conn, cudaIpcMemHandle_t h) {
  SendMem *rem = nullptr;
  if (map_peer(h, (void **)&rem, &res->memIpc) != cudaSuccess) return 1;
  conn->head = &rem->head;
  return 0;                                          // reported: 'rem' not released
}
void recv_free(Resources *res) {
  if (res->memIpc) cudaIpcCloseMemHandle(res->memIpc);
}
