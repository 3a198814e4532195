// Device queries and block-size helpers other files call (faiss's
// DeviceUtils.cu): the export records what each returns whatever its
// arguments.
#include <cuda_runtime.h>

// 32 on every device: the API model's constant field.
int warpSizeOf(int device) {
  cudaDeviceProp prop;
  cudaGetDeviceProperties(&prop, device);
  return prop.warpSize;
}

int currentWarpSize() {
  int device = 0;
  cudaGetDevice(&device);
  return warpSizeOf(device);
}

// Two values, both known.
int rowsPerBlock(bool wide) { return wide ? 8 : 4; }

// Depends on its argument: nothing is known of it.
int threadsFor(int n) { return n < 256 ? n : 256; }

#include "tiles.h"

void Tiles::resize(int w) { width_ = w; }
