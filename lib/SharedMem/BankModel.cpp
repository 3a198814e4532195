//===- BankModel.cpp - wavefront count of one warp-level shared access ----===//
//
// See BankModel.h for the model; this file only counts.
//
//===----------------------------------------------------------------------===//
#include "SharedMem/BankModel.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallVector.h"
#include <algorithm>
#include <numeric>
#include <vector>

namespace cgt::smem {

unsigned phasesFor(unsigned AccessBytes) {
  return AccessBytes <= 4 ? 1 : AccessBytes / 4;
}

static int64_t floorDiv(int64_t A, int64_t B) {
  int64_t Q = A / B;
  return (A % B != 0 && ((A < 0) != (B < 0))) ? Q - 1 : Q;
}

static int64_t floorMod(int64_t A, int64_t B) { return A - floorDiv(A, B) * B; }

/// Cost of one phase: the most distinct words any single bank must serve.
static unsigned phaseCost(const LaneAddresses &Addr, unsigned First,
                          unsigned Count, unsigned AccessBytes) {
  // The distinct words the lanes touch; a bank serves one word per wavefront.
  llvm::SmallVector<int64_t, 4 * WarpSize> Words;
  for (unsigned L = First; L < First + Count; ++L) {
    if (!Addr[L])
      continue;
    int64_t FirstWord = floorDiv(*Addr[L], BankBytes);
    int64_t LastWord = floorDiv(*Addr[L] + AccessBytes - 1, BankBytes);
    for (int64_t W = FirstWord; W <= LastWord; ++W)
      Words.push_back(W);
  }
  llvm::sort(Words);
  Words.erase(std::unique(Words.begin(), Words.end()), Words.end());
  std::array<unsigned, NumBanks> PerBank{};
  unsigned Max = 0;
  for (int64_t W : Words)
    Max = std::max(Max, ++PerBank[floorMod(W, NumBanks)]);
  return Max;
}

WarpCost warpCost(const LaneAddresses &Addr, unsigned AccessBytes) {
  WarpCost C;
  std::optional<int64_t> Common;
  bool Uniform = true, Any = false;
  for (const auto &A : Addr) {
    if (!A)
      continue;
    if (Any && *A != *Common)
      Uniform = false;
    Common = A;
    Any = true;
  }
  if (!Any)
    return C;
  // Measured: one address for the whole warp is a broadcast, whatever the
  // lanes; 16-byte accesses still need two wavefronts.
  if (Uniform) {
    C.Wavefronts = C.Ideal = AccessBytes == 16 ? 2 : 1;
    C.Degree = 1;
    return C;
  }
  unsigned P = phasesFor(AccessBytes), PerPhase = WarpSize / P;
  for (unsigned K = 0; K < P; ++K) {
    unsigned Cost = phaseCost(Addr, K * PerPhase, PerPhase, AccessBytes);
    if (Cost == 0)
      continue;
    C.Wavefronts += Cost;
    C.Ideal += 1;
    C.Degree = std::max(C.Degree, Cost);
  }
  return C;
}

unsigned affineWavefronts(int64_t ElementStride, unsigned AccessBytes) {
  int64_t WordStride = ElementStride * static_cast<int64_t>(AccessBytes / 4);
  if (WordStride < 0)
    WordStride = -WordStride;
  return static_cast<unsigned>(std::gcd(WordStride, int64_t(NumBanks)));
}

} // namespace cgt::smem
