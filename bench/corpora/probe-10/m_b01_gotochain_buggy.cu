#define BUGGY
// PLANTED(BUGGY): handle-leak line 15
// Image pipeline setup with a goto-cleanup chain; BUGGY: stream-failure jumps past the event's cleanup.
#include <cuda_runtime.h>
#include <stdio.h>

typedef struct pipe_s *pipe_t;
struct pipe_s { cudaEvent_t ev; cudaStream_t st; unsigned char *dimg; size_t bytes; };

int pipe_open(pipe_t p, int w, int h) {
  int err = 1;
  p->bytes = (size_t)w * h * 4;
  cudaEvent_t ev;
  cudaStream_t st;
  unsigned char *dimg;
  if (cudaEventCreateWithFlags(&ev, cudaEventDisableTiming) != cudaSuccess) /*BUGLINE*/ goto out;  // EXPECT: cudagraph-handle-leak
  if (cudaStreamCreateWithFlags(&st, cudaStreamNonBlocking) != cudaSuccess)
#ifdef BUGGY
    goto out;
#else
    goto out_ev;
#endif
  if (cudaMalloc((void **)&dimg, p->bytes) != cudaSuccess) goto out_st;
  p->ev = ev; p->st = st; p->dimg = dimg;
  return 0;
out_st:
  cudaStreamDestroy(st);
out_ev:
  cudaEventDestroy(ev);
out:
  return err;
}

void pipe_close(pipe_t p) {
  cudaStreamSynchronize(p->st);
  cudaFree(p->dimg);
  cudaStreamDestroy(p->st);
  cudaEventDestroy(p->ev);
}

int main(void) {
  struct pipe_s p;
  if (pipe_open(&p, 1920, 1080)) { fprintf(stderr, "open failed\n"); return 1; }
  cudaMemsetAsync(p.dimg, 0, p.bytes, p.st);
  cudaEventRecord(p.ev, p.st);
  cudaEventSynchronize(p.ev);
  pipe_close(&p);
  return 0;
}
