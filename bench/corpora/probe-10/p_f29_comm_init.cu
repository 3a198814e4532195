// Communicator-style init (as in a collective library): a C struct receives
// resources released from unique_ptr owners once the whole init succeeded;
// commDestroy releases them.
#include <cuda_runtime.h>
#include <cstdio>
#include <cstdlib>
#include <memory>

struct CommC {
  int rank, nranks;
  cudaStream_t stream;
  void *sendbuf, *recvbuf;
  int *host_flags;  // cudaHostAlloc, mapped
  int *dev_flags;   // device alias of host_flags (not owned)
};

namespace {
struct DevFree { void operator()(void *p) const { cudaFree(p); } };
struct HostFree { void operator()(int *p) const { cudaFreeHost(p); } };
struct StreamDel { void operator()(cudaStream_t s) const { cudaStreamDestroy(s); } };
using DevPtr = std::unique_ptr<void, DevFree>;
using HostPtr = std::unique_ptr<int, HostFree>;
using StreamPtr = std::unique_ptr<std::remove_pointer_t<cudaStream_t>, StreamDel>;
}  // namespace

extern "C" int commInit(CommC **out, int rank, int nranks, size_t bytes) {
  if (out == nullptr) return 1;
  cudaStream_t raw_s;
  if (cudaStreamCreateWithFlags(&raw_s, cudaStreamNonBlocking) != cudaSuccess) return 2;
  StreamPtr stream(raw_s);
  void *raw = nullptr;
  if (cudaMalloc(&raw, bytes) != cudaSuccess) return 2;
  DevPtr send(raw);
  raw = nullptr;
  if (cudaMalloc(&raw, bytes) != cudaSuccess) return 2;
  DevPtr recv(raw);
  int *hf = nullptr;
  if (cudaHostAlloc(reinterpret_cast<void **>(&hf), 64 * sizeof(int), cudaHostAllocMapped) != cudaSuccess) return 2;
  HostPtr flags(hf);
  int *df = nullptr;
  if (cudaHostGetDevicePointer(reinterpret_cast<void **>(&df), flags.get(), 0) != cudaSuccess) return 2;

  CommC *c = static_cast<CommC *>(std::calloc(1, sizeof(CommC)));
  if (!c) return 3;
  c->rank = rank;
  c->nranks = nranks;
  c->stream = stream.release();
  c->sendbuf = send.release();
  c->recvbuf = recv.release();
  c->host_flags = flags.release();
  c->dev_flags = df;
  *out = c;
  return 0;
}

extern "C" void commDestroy(CommC *c) {
  if (c == nullptr) return;
  cudaStreamSynchronize(c->stream);
  cudaFreeHost(c->host_flags);
  cudaFree(c->recvbuf);
  cudaFree(c->sendbuf);
  cudaStreamDestroy(c->stream);
  std::free(c);
}

__global__ void signal(int *flags, int rank) { flags[rank] = 1; }

int main() {
  CommC *comm = nullptr;
  int st = commInit(&comm, 0, 1, 1 << 20);
  if (st != 0) {
    std::fprintf(stderr, "commInit: %d\n", st);
    return 1;
  }
  cudaMemcpyAsync(comm->recvbuf, comm->sendbuf, 1 << 20, cudaMemcpyDeviceToDevice, comm->stream);
  signal<<<1, 1, 0, comm->stream>>>(comm->dev_flags, comm->rank);
  cudaStreamSynchronize(comm->stream);
  std::printf("flag=%d\n", comm->host_flags[0]);
  commDestroy(comm);
  return 0;
}
