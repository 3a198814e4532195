// Driver-API module loader in C style with goto cleanup. The first function
// releases everything on every path; the second forgets the stream when the
// module load fails after it was created.
#include <cuda.h>
#include <stddef.h>

typedef struct {
  CUdeviceptr dbuf;
  CUstream stream;
  size_t bytes;
} job_t;

int run_job_ok(CUcontext ctx, const char *image, size_t bytes) {
  int rc = -1;
  CUdeviceptr dbuf = 0;
  CUstream stream = NULL;
  CUmodule mod = NULL;
  CUfunction fn;
  if (cuCtxSetCurrent(ctx) != CUDA_SUCCESS) return -1;
  if (cuMemAlloc(&dbuf, bytes) != CUDA_SUCCESS) goto out;
  if (cuStreamCreate(&stream, CU_STREAM_NON_BLOCKING) != CUDA_SUCCESS) goto out;
  if (cuModuleLoadData(&mod, image) != CUDA_SUCCESS) goto out;
  if (cuModuleGetFunction(&fn, mod, "fill") != CUDA_SUCCESS) goto out;
  {
    void *args[] = {&dbuf, &bytes};
    if (cuLaunchKernel(fn, 1, 1, 1, 128, 1, 1, 0, stream, args, NULL) != CUDA_SUCCESS)
      goto out;
  }
  if (cuStreamSynchronize(stream) != CUDA_SUCCESS) goto out;
  rc = 0;
out:
  if (mod) cuModuleUnload(mod);
  if (stream) cuStreamDestroy(stream);
  if (dbuf) cuMemFree(dbuf);
  return rc;
}

int run_job_leaky(CUcontext ctx, const char *image, size_t bytes) {
  int rc = -1;
  CUdeviceptr dbuf = 0;
  CUstream stream;
  CUmodule mod = NULL;
  CUfunction fn;
  if (cuCtxSetCurrent(ctx) != CUDA_SUCCESS) return -1;
  if (cuMemAlloc(&dbuf, bytes) != CUDA_SUCCESS) return -1;
  if (cuStreamCreate(&stream, CU_STREAM_NON_BLOCKING) != CUDA_SUCCESS) goto free_mem; // EXPECT: cudagraph-handle-leak
  if (cuModuleLoadData(&mod, image) != CUDA_SUCCESS) goto free_mem;
  if (cuModuleGetFunction(&fn, mod, "fill") != CUDA_SUCCESS) goto unload;
  {
    void *args[] = {&dbuf, &bytes};
    cuLaunchKernel(fn, 1, 1, 1, 128, 1, 1, 0, stream, args, NULL);
  }
  cuStreamSynchronize(stream);
  rc = 0;
unload:
  cuModuleUnload(mod);
  cuStreamDestroy(stream);
free_mem:
  cuMemFree(dbuf);
  return rc;
}

// Correct: ownership handed to the caller's struct.
int job_open(job_t *job, size_t bytes) {
  if (cuMemAlloc(&job->dbuf, bytes) != CUDA_SUCCESS) return -1;
  if (cuStreamCreate(&job->stream, 0) != CUDA_SUCCESS) {
    cuMemFree(job->dbuf);
    job->dbuf = 0;
    return -1;
  }
  job->bytes = bytes;
  return 0;
}

void job_close(job_t *job) {
  cuStreamDestroy(job->stream);
  cuMemFree(job->dbuf);
  job->dbuf = 0;
}
