// The other program: the same names, defined differently.
#include <cuda_runtime.h>

int blockFor() { return 256; }

void drop(float *p) { cudaFreeHost(p); }

#define TILE_WIDTH 64
#include "tile.h"
