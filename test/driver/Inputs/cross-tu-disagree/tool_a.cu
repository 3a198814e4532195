// One of two programs built from one source tree: it defines blockFor()
// and drop() its own way.
#include <cuda_runtime.h>

int blockFor() { return 128; }

void drop(float *p) { cudaFree(p); }

#define TILE_WIDTH 128
#include "tile.h"
