// RUN: %check_cudagraph_tidy %s cudagraph-handle-leak %t -check-suffixes=LEAK
// RUN: %check_cudagraph_tidy %s cudagraph-mismatched-dealloc %t -check-suffixes=MISMATCH
//
// The IPC, imported-allocation, graphics-mapping and host-callback entries
// of the API model (issue 22 item 3): data, no code of their own.
#include <cuda_runtime.h>
#include <cuda.h>

__global__ void consume(const float *p, int n) {}

// vLLM's leak: a peer's buffer opened per call and never closed.
void bug_ipc_open_per_call(cudaIpcMemHandle_t h, int n, cudaStream_t s) {
  void *peer = nullptr;
  if (cudaIpcOpenMemHandle(&peer, h, cudaIpcMemLazyEnablePeerAccess) != cudaSuccess)
    return;
  // CHECK-MESSAGES-LEAK: :[[@LINE-2]]:7: warning: IPC memory mapping 'peer' created by 'cudaIpcOpenMemHandle' is not released on every path; {{.*}} [cudagraph-handle-leak]
  consume<<<1, 32, 0, s>>>((const float *)peer, n);
  cudaStreamSynchronize(s);
}

void ok_ipc_closed(cudaIpcMemHandle_t h, int n, cudaStream_t s) {
  void *peer = nullptr;
  if (cudaIpcOpenMemHandle(&peer, h, cudaIpcMemLazyEnablePeerAccess) != cudaSuccess)
    return;
  consume<<<1, 32, 0, s>>>((const float *)peer, n);
  cudaStreamSynchronize(s);
  cudaIpcCloseMemHandle(peer);
}

void bug_ipc_freed(cudaIpcMemHandle_t h) {
  void *peer = nullptr;
  if (cudaIpcOpenMemHandle(&peer, h, cudaIpcMemLazyEnablePeerAccess) != cudaSuccess)
    return;
  cudaFree(peer);
  // CHECK-MESSAGES-MISMATCH: :[[@LINE-1]]:3: warning: {{.*}}'peer'{{.*}}cudaIpcCloseMemHandle{{.*}} [cudagraph-mismatched-dealloc]
}

void bug_ipc_event(cudaIpcEventHandle_t h, cudaStream_t s) {
  cudaEvent_t e;
  if (cudaIpcOpenEventHandle(&e, h) != cudaSuccess)
    return;
  // CHECK-MESSAGES-LEAK: :[[@LINE-2]]:7: warning: event 'e' created by 'cudaIpcOpenEventHandle' is not released on every path; {{.*}} [cudagraph-handle-leak]
  cudaStreamWaitEvent(s, e, 0);
}

void ok_ipc_event(cudaIpcEventHandle_t h, cudaStream_t s) {
  cudaEvent_t e;
  if (cudaIpcOpenEventHandle(&e, h) != cudaSuccess)
    return;
  cudaStreamWaitEvent(s, e, 0);
  cudaEventDestroy(e);
}

void bug_imported_allocation(int fd) {
  CUmemGenericAllocationHandle handle;
  if (cuMemImportFromShareableHandle(&handle, (void *)(long)fd,
                                     CU_MEM_HANDLE_TYPE_POSIX_FILE_DESCRIPTOR) != CUDA_SUCCESS)
    return;
  // CHECK-MESSAGES-LEAK: :[[@LINE-3]]:7: warning: physical memory allocation 'handle' created by 'cuMemImportFromShareableHandle' is not released on every path; {{.*}} [cudagraph-handle-leak]
}

void ok_imported_allocation(int fd) {
  CUmemGenericAllocationHandle handle;
  if (cuMemImportFromShareableHandle(&handle, (void *)(long)fd,
                                     CU_MEM_HANDLE_TYPE_POSIX_FILE_DESCRIPTOR) != CUDA_SUCCESS)
    return;
  cuMemRelease(handle);
}

// A graphics resource mapped for a frame and not unmapped on the error path.
void bug_mapped_not_unmapped(cudaGraphicsResource_t res, cudaStream_t s, bool skip) {
  if (cudaGraphicsMapResources(1, &res, s) != cudaSuccess)
    return;
  // CHECK-MESSAGES-LEAK: :[[@LINE-2]]:7: warning: graphics resource mapping 'res' created by 'cudaGraphicsMapResources' is not released on every path; {{.*}} [cudagraph-handle-leak]
  if (skip)
    return;
  cudaGraphicsUnmapResources(1, &res, s);
}

void ok_mapped_and_unmapped(cudaGraphicsResource_t res, cudaStream_t s, bool skip) {
  if (cudaGraphicsMapResources(1, &res, s) != cudaSuccess)
    return;
  if (!skip) {
    void *p = nullptr;
    size_t bytes = 0;
    cudaGraphicsResourceGetMappedPointer(&p, &bytes, res);
  }
  cudaGraphicsUnmapResources(1, &res, s);
}

// The host function owns its user data: no leak where it is handed over.
struct Payload {
  float *host;
};
void free_payload(void *data) {
  Payload *p = static_cast<Payload *>(data);
  cudaFreeHost(p->host);
  delete p;
}
void ok_host_func_owns_data(cudaStream_t s, int n) {
  float *host = nullptr;
  if (cudaMallocHost(&host, n * sizeof(float)) != cudaSuccess)
    return;
  cudaLaunchHostFunc(s, free_payload, host);
}

// A custom all-reduce's peer mappings kept in a fixed array member: each
// element stands for the member. The first class never closes them; its
// twin closes them in the destructor; the third hands them out.
#include <cstdlib>
constexpr int kMaxPeers = 8;
class PeerSignals {
public:
  PeerSignals(int world, const cudaIpcMemHandle_t *handles) : world_(world) {
    for (int r = 1; r < world_; ++r) {
      void *sig = nullptr;
      if (cudaIpcOpenMemHandle(&sig, handles[r], cudaIpcMemLazyEnablePeerAccess) != cudaSuccess)
      // CHECK-MESSAGES-LEAK: :[[@LINE-1]]:11: warning: IPC memory mapping 'sigs_' created by 'cudaIpcOpenMemHandle' and kept in a member of 'PeerSignals' is not released on every path; {{.*}} [cudagraph-handle-leak]
        abort();
      sigs_[r] = sig;
    }
  }
  ~PeerSignals() {}

private:
  int world_;
  void *sigs_[kMaxPeers] = {};
};

class PeerSignalsOk {
public:
  PeerSignalsOk(int world, const cudaIpcMemHandle_t *handles) : world_(world) {
    for (int r = 1; r < world_; ++r)
      if (cudaIpcOpenMemHandle(&sigs_[r], handles[r], cudaIpcMemLazyEnablePeerAccess) != cudaSuccess)
        abort();
  }
  ~PeerSignalsOk() {
    for (int r = 1; r < world_; ++r)
      cudaIpcCloseMemHandle(sigs_[r]);
  }

private:
  int world_;
  void *sigs_[kMaxPeers] = {};
};

class PeerSignalsLent {
public:
  PeerSignalsLent(int world, const cudaIpcMemHandle_t *handles) : world_(world) {
    for (int r = 1; r < world_; ++r)
      if (cudaIpcOpenMemHandle(&sigs_[r], handles[r], cudaIpcMemLazyEnablePeerAccess) != cudaSuccess)
        abort();
  }
  void *peer(int r) const { return sigs_[r]; }

private:
  int world_;
  void *sigs_[kMaxPeers] = {};
};
