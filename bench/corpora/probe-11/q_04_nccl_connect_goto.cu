// NCCL-style connection setup: NCCLCHECKGOTO chains, partial init unwound at
// a single fail label, resources owned by a connection struct on success.
#include <cuda_runtime.h>
#include <cstdlib>
#include <cstring>
#include <cstdio>

typedef enum { ncclSuccess = 0, ncclUnhandledCudaError = 1, ncclSystemError = 2, ncclInvalidArgument = 4 } ncclResult_t;

#define CUDACHECKGOTO(cmd, res, label)        \
  do {                                        \
    cudaError_t err = cmd;                    \
    if (err != cudaSuccess) {                 \
      res = ncclUnhandledCudaError;           \
      goto label;                             \
    }                                         \
  } while (0)

#define NCCLCHECKGOTO(call, res, label) \
  do {                                  \
    res = call;                         \
    if (res != ncclSuccess) goto label; \
  } while (0)

struct ncclSendMem { unsigned long long head; char pad[120]; };
struct ncclRecvMem { unsigned long long tail; char pad[120]; };

struct ncclProxyConnection {
  ncclSendMem *sendMem;
  ncclRecvMem *recvMem;
  char *devBuff;
  cudaEvent_t doneEvent;
  cudaStream_t stream;
  void *hostStage;
  int buffSize;
  bool shared;
};

static ncclResult_t ncclCalloc(void **ptr, size_t n) {
  void *p = calloc(1, n);
  if (p == nullptr) return ncclSystemError;
  *ptr = p;
  return ncclSuccess;
}

static ncclResult_t p2pSendProxySetup(ncclProxyConnection *conn, int buffSize) {
  ncclResult_t ret = ncclSuccess;
  ncclSendMem *sendMem = nullptr;
  ncclRecvMem *recvMem = nullptr;
  char *devBuff = nullptr;
  cudaEvent_t ev = nullptr;
  cudaStream_t st = nullptr;
  void *stage = nullptr;

  if (buffSize <= 0) return ncclInvalidArgument;
  CUDACHECKGOTO(cudaMallocHost((void **)&sendMem, sizeof(ncclSendMem)), ret, fail);
  CUDACHECKGOTO(cudaHostAlloc((void **)&recvMem, sizeof(ncclRecvMem), cudaHostAllocMapped), ret, fail);
  CUDACHECKGOTO(cudaMalloc((void **)&devBuff, buffSize), ret, fail);
  CUDACHECKGOTO(cudaEventCreateWithFlags(&ev, cudaEventDisableTiming), ret, fail);
  CUDACHECKGOTO(cudaStreamCreateWithFlags(&st, cudaStreamNonBlocking), ret, fail);
  NCCLCHECKGOTO(ncclCalloc(&stage, buffSize), ret, fail);

  memset(sendMem, 0, sizeof(*sendMem));
  memset(recvMem, 0, sizeof(*recvMem));
  conn->sendMem = sendMem;
  conn->recvMem = recvMem;
  conn->devBuff = devBuff;
  conn->doneEvent = ev;
  conn->stream = st;
  conn->hostStage = stage;
  conn->buffSize = buffSize;
  conn->shared = false;
  return ncclSuccess;

fail:
  free(stage);
  if (st) cudaStreamDestroy(st);
  if (ev) cudaEventDestroy(ev);
  if (devBuff) cudaFree(devBuff);
  if (recvMem) cudaFreeHost(recvMem);
  if (sendMem) cudaFreeHost(sendMem);
  return ret;
}

static ncclResult_t p2pSendProxyFree(ncclProxyConnection *conn) {
  ncclResult_t ret = ncclSuccess;
  if (conn->shared) return ncclSuccess;
  CUDACHECKGOTO(cudaStreamSynchronize(conn->stream), ret, exit);
exit:
  cudaStreamDestroy(conn->stream);
  cudaEventDestroy(conn->doneEvent);
  cudaFree(conn->devBuff);
  cudaFreeHost(conn->recvMem);
  cudaFreeHost(conn->sendMem);
  free(conn->hostStage);
  memset(conn, 0, sizeof(*conn));
  return ret;
}

static ncclResult_t p2pProxyProgress(ncclProxyConnection *conn, const char *src, size_t n) {
  ncclResult_t ret = ncclSuccess;
  if (n > (size_t)conn->buffSize) return ncclInvalidArgument;
  memcpy(conn->hostStage, src, n);
  CUDACHECKGOTO(cudaMemcpyAsync(conn->devBuff, conn->hostStage, n, cudaMemcpyHostToDevice, conn->stream), ret, out);
  CUDACHECKGOTO(cudaEventRecord(conn->doneEvent, conn->stream), ret, out);
  CUDACHECKGOTO(cudaEventSynchronize(conn->doneEvent), ret, out);
  conn->sendMem->head += 1;
out:
  return ret;
}

int main() {
  ncclProxyConnection conn;
  memset(&conn, 0, sizeof(conn));
  ncclResult_t res;
  char msg[64] = "hello";
  NCCLCHECKGOTO(p2pSendProxySetup(&conn, 1 << 16), res, end);
  NCCLCHECKGOTO(p2pProxyProgress(&conn, msg, sizeof(msg)), res, teardown);
teardown:
  {
    ncclResult_t r2 = p2pSendProxyFree(&conn);
    if (res == ncclSuccess) res = r2;
  }
end:
  return res == ncclSuccess ? 0 : 1;
}
