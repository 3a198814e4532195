// TensorRT-LLM style plugin lifecycle: initialize() allocates device weights,
// terminate() frees them, clone() copies host state, destroy() deletes this.
// The workspace pointer given to enqueue() belongs to the caller.
#include <cuda_runtime.h>
#include <cstring>
#include <cstdlib>
#include <vector>
#include <cstdio>

namespace plugin {

void check(cudaError_t result, const char *func, const char *file, int line) {
  if (result) {
    std::fprintf(stderr, "CUDA error %s at %s:%d\n", func, file, line);
    std::abort();
  }
}
#define check_cuda_error(val) check((val), #val, __FILE__, __LINE__)

__global__ void biasKernel(float *out, const float *in, const float *bias, int n, int c) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = in[i] + bias[i % c];
}

class IPluginV2 {
 public:
  virtual ~IPluginV2() = default;
  virtual int initialize() noexcept = 0;
  virtual void terminate() noexcept = 0;
  virtual IPluginV2 *clone() const noexcept = 0;
  virtual void destroy() noexcept = 0;
  virtual size_t getWorkspaceSize(int batch) const noexcept = 0;
  virtual int enqueue(int batch, const void *const *inputs, void *const *outputs,
                      void *workspace, cudaStream_t stream) noexcept = 0;
};

class BiasPlugin : public IPluginV2 {
 public:
  BiasPlugin(const float *bias, int channels) : mChannels(channels), mHostBias(bias, bias + channels) {}
  BiasPlugin(const BiasPlugin &o) : mChannels(o.mChannels), mHostBias(o.mHostBias) {}

  int initialize() noexcept override {
    if (mInitialized) return 0;
    check_cuda_error(cudaMalloc(&mDeviceBias, mChannels * sizeof(float)));
    check_cuda_error(cudaMemcpy(mDeviceBias, mHostBias.data(), mChannels * sizeof(float),
                                cudaMemcpyHostToDevice));
    mInitialized = true;
    return 0;
  }

  void terminate() noexcept override {
    if (!mInitialized) return;
    check_cuda_error(cudaFree(mDeviceBias));
    mDeviceBias = nullptr;
    mInitialized = false;
  }

  IPluginV2 *clone() const noexcept override {
    auto *p = new BiasPlugin(*this);
    p->initialize();
    return p;
  }

  void destroy() noexcept override {
    terminate();
    delete this;
  }

  size_t getWorkspaceSize(int batch) const noexcept override {
    return size_t(batch) * mChannels * sizeof(float);
  }

  int enqueue(int batch, const void *const *inputs, void *const *outputs, void *workspace,
              cudaStream_t stream) noexcept override {
    const float *in = static_cast<const float *>(inputs[0]);
    float *tmp = static_cast<float *>(workspace);
    float *out = static_cast<float *>(outputs[0]);
    int n = batch * mChannels;
    biasKernel<<<(n + 255) / 256, 256, 0, stream>>>(tmp, in, mDeviceBias, n, mChannels);
    cudaMemcpyAsync(out, tmp, n * sizeof(float), cudaMemcpyDeviceToDevice, stream);
    return cudaGetLastError() == cudaSuccess ? 0 : 1;
  }

 private:
  int mChannels;
  std::vector<float> mHostBias;
  float *mDeviceBias = nullptr;
  bool mInitialized = false;
};

}  // namespace plugin

int run_engine(plugin::IPluginV2 *p, int batch) {
  size_t ws = p->getWorkspaceSize(batch);
  void *workspace = nullptr;
  float *in = nullptr, *out = nullptr;
  cudaStream_t stream;
  if (cudaStreamCreate(&stream) != cudaSuccess) return -1;
  int rc = -1;
  if (cudaMalloc(&workspace, ws) != cudaSuccess) goto done_stream;
  if (cudaMalloc(&in, ws) != cudaSuccess) goto done_ws;
  if (cudaMalloc(&out, ws) != cudaSuccess) goto done_in;
  {
    const void *inputs[] = {in};
    void *outputs[] = {out};
    rc = p->enqueue(batch, inputs, outputs, workspace, stream);
    cudaStreamSynchronize(stream);
  }
  cudaFree(out);
done_in:
  cudaFree(in);
done_ws:
  cudaFree(workspace);
done_stream:
  cudaStreamDestroy(stream);
  return rc;
}

int main() {
  float bias[16];
  for (int i = 0; i < 16; ++i) bias[i] = 0.5f * i;
  plugin::IPluginV2 *p = new plugin::BiasPlugin(bias, 16);
  p->initialize();
  plugin::IPluginV2 *c = p->clone();
  int rc = run_engine(p, 4) | run_engine(c, 8);
  c->destroy();
  p->destroy();
  return rc;
}
