#define CFG_RELEASE(p) cudaFree(p)
