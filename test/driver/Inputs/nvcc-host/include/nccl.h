// The project's own collective-communication header, newer than the one
// the CUDA toolkit ships under the same name: it must win (a project's
// include folders come before the toolkit's, even where the command names
// the toolkit's first).
#pragma once
#include <cuda_runtime.h>
#include <stddef.h>

#define NCCL_MAJOR 2
#define NCCL_MINOR 99
typedef enum { ncclSuccess = 0, ncclUnhandledCudaError = 1 } ncclResult_t;
typedef struct ncclComm *ncclComm_t;

// Only in this newer header: a scratch buffer a communicator stages into.
ncclResult_t ncclCommStagingAlloc(ncclComm_t comm, void **buf, size_t bytes);
ncclResult_t ncclCommStagingFree(ncclComm_t comm, void *buf);
