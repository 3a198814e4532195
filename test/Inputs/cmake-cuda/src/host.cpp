// Compiled by the host C++ compiler, not nvcc: the database mixes both.
#include "graphdemo.h"

int host_only(int x) { return x + 1; }
