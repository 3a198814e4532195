/* C contexts written defensively: init returns early when already initialised
 * (tested on the field itself), reinit calls the free function first, free
 * tests every field and zeroes it, and a setter releases the old stream before
 * installing a new one. Correct throughout. */
#include <cuda_runtime.h>
#include <stddef.h>
#include <stdio.h>

typedef struct {
  cudaStream_t stream;
  cudaEvent_t evt;
  void *d_scratch;
  size_t scratch_bytes;
  cudaMemPool_t pool;
  int owns_stream;
} dev_ctx;

void dev_ctx_free(dev_ctx *c) {
  if (c->pool) {
    cudaMemPoolDestroy(c->pool);
    c->pool = NULL;
  }
  if (c->d_scratch) {
    cudaFree(c->d_scratch);
    c->d_scratch = NULL;
    c->scratch_bytes = 0;
  }
  if (c->evt) {
    cudaEventDestroy(c->evt);
    c->evt = NULL;
  }
  if (c->stream && c->owns_stream) cudaStreamDestroy(c->stream);
  c->stream = NULL;
  c->owns_stream = 0;
}

int dev_ctx_init(dev_ctx *c, size_t scratch) {
  if (c->stream != NULL) return 0;
  if (cudaStreamCreateWithFlags(&c->stream, cudaStreamNonBlocking) != cudaSuccess) return -1;
  c->owns_stream = 1;
  if (cudaEventCreateWithFlags(&c->evt, cudaEventDisableTiming) != cudaSuccess) {
    dev_ctx_free(c);
    return -1;
  }
  if (cudaMalloc(&c->d_scratch, scratch) != cudaSuccess) {
    dev_ctx_free(c);
    return -1;
  }
  c->scratch_bytes = scratch;
  return 0;
}

int dev_ctx_reinit(dev_ctx *c, size_t scratch) {
  dev_ctx_free(c);
  return dev_ctx_init(c, scratch);
}

int dev_ctx_use_pool(dev_ctx *c, int device) {
  cudaMemPoolProps props;
  if (c->pool) return 0;
  props = cudaMemPoolProps();
  props.allocType = cudaMemAllocationTypePinned;
  props.location.type = cudaMemLocationTypeDevice;
  props.location.id = device;
  return cudaMemPoolCreate(&c->pool, &props) == cudaSuccess ? 0 : -1;
}

void dev_ctx_set_stream(dev_ctx *c, cudaStream_t borrowed) {
  if (c->stream && c->owns_stream) cudaStreamDestroy(c->stream);
  c->stream = borrowed;
  c->owns_stream = 0;
}

int dev_ctx_grow(dev_ctx *c, size_t bytes) {
  void *bigger = NULL;
  if (bytes <= c->scratch_bytes) return 0;
  if (cudaMalloc(&bigger, bytes) != cudaSuccess) return -1;
  cudaFree(c->d_scratch);
  c->d_scratch = bigger;
  c->scratch_bytes = bytes;
  return 0;
}

int run_ctx(size_t scratch, cudaStream_t user) {
  dev_ctx c = {NULL, NULL, NULL, 0, NULL, 0};
  if (dev_ctx_init(&c, scratch) != 0) return 1;
  if (dev_ctx_init(&c, scratch) != 0) return 1;
  if (dev_ctx_grow(&c, scratch * 2) != 0) fprintf(stderr, "grow failed\n");
  if (dev_ctx_use_pool(&c, 0) != 0) fprintf(stderr, "no pool\n");
  if (dev_ctx_reinit(&c, scratch) != 0) return 2;
  dev_ctx_set_stream(&c, user);
  cudaEventRecord(c.evt, c.stream);
  dev_ctx_free(&c);
  return 0;
}
