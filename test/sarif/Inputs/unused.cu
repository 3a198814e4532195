// A compiler warning reported through clang-diagnostic-unused-variable: a
// rule outside the cudagraph table must still get a SARIF rule.
#include <cuda_runtime.h>

void f() {
  int größe = 0;
}
