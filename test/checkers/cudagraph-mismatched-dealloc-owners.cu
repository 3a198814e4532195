// RUN: %check_cudagraph_tidy %s cudagraph-mismatched-dealloc %t
// Releases decided by what holds the handle: the elements of a standard
// container (one place for all of them), and the deleter of a smart pointer
// the handle is handed to (issue 36).
#include <cuda_runtime.h>
#include <memory>
#include <vector>

// --- container elements ---

void bug_ipc_elements_freed(const cudaIpcMemHandle_t *h, int n) {
  std::vector<void *> peers;
  for (int r = 0; r < n; ++r) {
    void *p = nullptr;
    if (cudaIpcOpenMemHandle(&p, h[r], cudaIpcMemLazyEnablePeerAccess) != cudaSuccess)
      break;
    peers.push_back(p);
  }
  for (size_t r = 0; r < peers.size(); ++r)
    cudaFree(peers[r]);
  // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: IPC memory mapping 'peers[r]' allocated by 'cudaIpcOpenMemHandle' is released by 'cudaFree'; release it with cudaIpcCloseMemHandle [cudagraph-mismatched-dealloc]
  // CHECK-FIXES:    cudaIpcCloseMemHandle(peers[r]);
}

void ok_ipc_elements_closed(const cudaIpcMemHandle_t *h, int n) {
  std::vector<void *> peers;
  for (int r = 0; r < n; ++r) {
    void *p = nullptr;
    if (cudaIpcOpenMemHandle(&p, h[r], cudaIpcMemLazyEnablePeerAccess) != cudaSuccess)
      break;
    peers.push_back(p);
  }
  for (void *p : peers)
    cudaIpcCloseMemHandle(p);
}

// Device and pinned buffers in one vector, each released by its own
// function under a test the element model cannot follow: no element is
// known to be of the wrong family.
void ok_mixed_elements(int n, const bool *pinned) {
  std::vector<void *> bufs;
  for (int i = 0; i < n; ++i) {
    void *p = nullptr;
    if (pinned[i])
      cudaMallocHost(&p, 64);
    else
      cudaMalloc(&p, 64);
    bufs.push_back(p);
  }
  for (int i = 0; i < n; ++i) {
    if (pinned[i])
      cudaFreeHost(bufs[i]);
    else
      cudaFree(bufs[i]);
  }
}

// A class that maps its peers' buffers in one method and unmaps them in
// another (a custom all-reduce).
class PeerMaps {
public:
  explicit PeerMaps(int world) : world_(world), peers_(world, nullptr) {}
  ~PeerMaps() { release(); }
  void open(const cudaIpcMemHandle_t *h) {
    for (int r = 0; r < world_; ++r) {
      void *p = nullptr;
      if (cudaIpcOpenMemHandle(&p, h[r], cudaIpcMemLazyEnablePeerAccess) != cudaSuccess)
        return;
      peers_[r] = static_cast<float *>(p);
    }
  }
  void release() {
    for (int r = 0; r < world_; ++r) {
      if (peers_[r] == nullptr)
        continue;
      cudaFree(peers_[r]);
      // CHECK-MESSAGES: :[[@LINE-1]]:7: warning: IPC memory mapping 'peers_[r]' allocated by 'cudaIpcOpenMemHandle' is released by 'cudaFree'; release it with cudaIpcCloseMemHandle [cudagraph-mismatched-dealloc]
      peers_[r] = nullptr;
    }
  }

private:
  int world_;
  std::vector<float *> peers_;
};

class PeerMapsClosed {
public:
  explicit PeerMapsClosed(int world) : world_(world), peers_(world, nullptr) {}
  ~PeerMapsClosed() {
    for (float *p : peers_)
      if (p)
        cudaIpcCloseMemHandle(p);
  }
  void open(const cudaIpcMemHandle_t *h) {
    for (int r = 0; r < world_; ++r) {
      void *p = nullptr;
      if (cudaIpcOpenMemHandle(&p, h[r], cudaIpcMemLazyEnablePeerAccess) != cudaSuccess)
        return;
      peers_[r] = static_cast<float *>(p);
    }
  }

private:
  int world_;
  std::vector<float *> peers_;
};

// Both families inserted by the class's methods: a release of either is
// of a family an element may be.
class MixedPool {
public:
  ~MixedPool() {
    for (void *p : bufs_)
      cudaFree(p);
  }
  void add_device() {
    void *p = nullptr;
    if (cudaMalloc(&p, 64) == cudaSuccess)
      bufs_.push_back(p);
  }
  void add_pinned() {
    void *p = nullptr;
    if (cudaMallocHost(&p, 64) == cudaSuccess)
      bufs_.push_back(p);
  }
  void drop_last() {
    cudaFreeHost(bufs_.back());
    bufs_.pop_back();
  }

private:
  std::vector<void *> bufs_;
};

// --- smart pointer deleters ---

struct DeviceDeleter {
  void operator()(void *p) const noexcept { cudaFree(p); }
};
struct PinnedDeleter {
  void operator()(void *p) const noexcept {
    if (p)
      cudaFreeHost(p);
  }
};
template <typename T> using device_ptr = std::unique_ptr<T, DeviceDeleter>;
template <typename T> using pinned_ptr = std::unique_ptr<T, PinnedDeleter>;

class Frames {
public:
  explicit Frames(size_t bytes) {
    void *host = nullptr;
    if (cudaHostAlloc(&host, bytes, cudaHostAllocMapped) != cudaSuccess)
      return;
    frames_.reset(static_cast<unsigned char *>(host));
    // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: pinned host memory 'host' allocated by 'cudaHostAlloc' is released by 'cudaFree'; release it with cudaFreeHost [cudagraph-mismatched-dealloc]
    void *dev = nullptr;
    if (cudaMalloc(&dev, bytes) != cudaSuccess)
      return;
    tensor_.reset(static_cast<float *>(dev));
  }

private:
  device_ptr<unsigned char> frames_;
  device_ptr<float> tensor_;
};

class FramesPinned {
public:
  explicit FramesPinned(size_t bytes) {
    void *host = nullptr;
    if (cudaHostAlloc(&host, bytes, cudaHostAllocMapped) != cudaSuccess)
      return;
    frames_.reset(static_cast<unsigned char *>(host));
  }

private:
  pinned_ptr<unsigned char> frames_;
};

void bug_function_deleter(size_t n) {
  float *d = nullptr;
  if (cudaMalloc(&d, n) != cudaSuccess)
    return;
  std::unique_ptr<float, decltype(&cudaFreeHost)> owner(d, &cudaFreeHost);
  // CHECK-MESSAGES: :[[@LINE-1]]:51: warning: device memory 'd' allocated by 'cudaMalloc' is released by 'cudaFreeHost'; release it with cudaFree [cudagraph-mismatched-dealloc]
}

void ok_function_deleter(size_t n) {
  float *d = nullptr;
  if (cudaMalloc(&d, n) != cudaSuccess)
    return;
  std::unique_ptr<float, decltype(&cudaFree)> owner(d, &cudaFree);
}

void bug_shared_lambda_deleter(size_t n) {
  void *h = nullptr;
  if (cudaMallocHost(&h, n) != cudaSuccess)
    return;
  std::shared_ptr<void> owner(h, [](void *p) { cudaFree(p); });
  // CHECK-MESSAGES: :[[@LINE-1]]:25: warning: pinned host memory 'h' allocated by 'cudaMallocHost' is released by 'cudaFree'; release it with cudaFreeHost [cudagraph-mismatched-dealloc]
}

void ok_shared_lambda_deleter(size_t n) {
  void *h = nullptr;
  if (cudaMallocHost(&h, n) != cudaSuccess)
    return;
  std::shared_ptr<void> owner(h, [](void *p) { cudaFreeHost(p); });
}

// A deleter that keeps the pointer for a pool of its own says nothing.
void give_back_to_pool(void *p);
struct PoolDeleter {
  void operator()(void *p) const { give_back_to_pool(p); }
};
void ok_pool_deleter(size_t n) {
  void *h = nullptr;
  if (cudaMallocHost(&h, n) != cudaSuccess)
    return;
  std::unique_ptr<void, PoolDeleter> owner(h);
}
