/* Two C-style contexts of an image pipeline, each with init/free functions.
 * pipe_free forgets the completion event that pipe_init creates; tile_free
 * releases everything, partly through a helper of this file. */
#include <cuda_runtime.h>
#include <stdlib.h>
#include <string.h>

typedef struct pipe_s {
  int width, height;
  cudaStream_t upload, compute;
  cudaEvent_t uploaded;
  cudaEvent_t finished;
  unsigned char *d_rgb;
  float *d_planar;
  unsigned char *h_staging;
} pipe_t;

int pipe_init(pipe_t *p, int w, int h) {
  size_t px = (size_t)w * h;
  memset(p, 0, sizeof(*p));
  p->width = w;
  p->height = h;
  if (cudaStreamCreateWithFlags(&p->upload, cudaStreamNonBlocking) != cudaSuccess) return -1;
  if (cudaStreamCreateWithFlags(&p->compute, cudaStreamNonBlocking) != cudaSuccess) return -1;
  if (cudaEventCreateWithFlags(&p->uploaded, cudaEventDisableTiming) != cudaSuccess) return -1;
  if (cudaEventCreateWithFlags(&p->finished, cudaEventDisableTiming) != cudaSuccess) return -1; // EXPECT: cudagraph-handle-leak
  if (cudaMalloc((void **)&p->d_rgb, px * 3) != cudaSuccess) return -1;
  if (cudaMalloc((void **)&p->d_planar, px * 3 * sizeof(float)) != cudaSuccess) return -1;
  if (cudaMallocHost((void **)&p->h_staging, px * 3) != cudaSuccess) return -1;
  return 0;
}

void pipe_free(pipe_t *p) {
  if (p->h_staging) cudaFreeHost(p->h_staging);
  if (p->d_planar) cudaFree(p->d_planar);
  if (p->d_rgb) cudaFree(p->d_rgb);
  if (p->uploaded) cudaEventDestroy(p->uploaded);
  if (p->compute) cudaStreamDestroy(p->compute);
  if (p->upload) cudaStreamDestroy(p->upload);
  memset(p, 0, sizeof(*p));
}

typedef struct tile_s {
  int tiles;
  cudaStream_t stream;
  cudaEvent_t ready;
  float *d_tiles;
  float *h_tiles;
} tile_t;

static void tile_release_buffers(tile_t *t) {
  cudaFree(t->d_tiles);
  cudaFreeHost(t->h_tiles);
  t->d_tiles = NULL;
  t->h_tiles = NULL;
}

int tile_init(tile_t *t, int tiles) {
  memset(t, 0, sizeof(*t));
  t->tiles = tiles;
  if (cudaStreamCreate(&t->stream) != cudaSuccess) return -1;
  if (cudaEventCreate(&t->ready) != cudaSuccess) return -1;
  if (cudaMalloc((void **)&t->d_tiles, (size_t)tiles * 256 * sizeof(float)) != cudaSuccess) return -1;
  if (cudaMallocHost((void **)&t->h_tiles, (size_t)tiles * 256 * sizeof(float)) != cudaSuccess) return -1;
  return 0;
}

void tile_free(tile_t *t) {
  tile_release_buffers(t);
  if (t->ready) cudaEventDestroy(t->ready);
  if (t->stream) cudaStreamDestroy(t->stream);
  t->ready = NULL;
  t->stream = NULL;
}

int process_frame(const unsigned char *frame, int w, int h) {
  pipe_t p;
  tile_t t;
  int rc = 0;
  if (pipe_init(&p, w, h) != 0) {
    pipe_free(&p);
    return 1;
  }
  if (tile_init(&t, (w / 16) * (h / 16)) != 0) {
    tile_free(&t);
    pipe_free(&p);
    return 2;
  }
  memcpy(p.h_staging, frame, (size_t)w * h * 3);
  cudaMemcpyAsync(p.d_rgb, p.h_staging, (size_t)w * h * 3, cudaMemcpyHostToDevice, p.upload);
  cudaEventRecord(p.uploaded, p.upload);
  cudaStreamWaitEvent(p.compute, p.uploaded, 0);
  cudaEventRecord(p.finished, p.compute);
  cudaStreamWaitEvent(t.stream, p.finished, 0);
  cudaEventRecord(t.ready, t.stream);
  if (cudaEventSynchronize(t.ready) != cudaSuccess) rc = 3;
  tile_free(&t);
  pipe_free(&p);
  return rc;
}
