#pragma once
#include <cuda_runtime.h>

void run_leaky(cudaGraph_t g, cudaStream_t s);
void run_clean(cudaGraph_t g, cudaStream_t s);
int host_only(int x);
