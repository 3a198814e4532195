//===- BankModel.h - shared-memory bank model of sm_70..sm_90 ---*- C++ -*-===//
//
// Pure arithmetic, no clang: how many wavefronts one warp-level shared-memory
// access needs. The model was measured on an H200 (sm_90) with 47
// micro-kernels (docs/validation.md, research note anchors-sharedmem.md §2.3):
//
//   * 32 banks of 4 bytes; word w lives in bank w mod 32.
//   * An access of s bytes runs in P phases of 32/P consecutive lanes:
//     P = 1 for s <= 4, 2 for s = 8 (lanes 0-15, 16-31), 4 for s = 16.
//   * cost(phase) = max over banks of the number of DISTINCT 32-bit words the
//     phase's active lanes touch in that bank (same word = broadcast).
//   * wavefronts = sum of phase costs, except that a warp whose active lanes
//     all use one address needs 1 wavefront (2 for 16-byte accesses).
//   * ideal = number of non-empty phases (2 for the uniform 16-byte case);
//     excess = wavefronts - ideal is what ncu calls bank conflicts.
//   * Closed form for a full warp, index a*lane + c, s in {4,8,16}:
//     wavefronts = gcd(a*s/4, 32), excess = gcd(a*s/4, 32) - s/4.
//
//===----------------------------------------------------------------------===//
#ifndef CUDAGRAPH_TIDY_SHAREDMEM_BANKMODEL_H
#define CUDAGRAPH_TIDY_SHAREDMEM_BANKMODEL_H

#include <array>
#include <cstdint>
#include <optional>

namespace cgt::smem {

constexpr unsigned NumBanks = 32;
constexpr unsigned BankBytes = 4;
constexpr unsigned WarpSize = 32;

struct WarpCost {
  unsigned Wavefronts = 0; ///< what ncu counts for one warp instruction
  unsigned Ideal = 0;      ///< wavefronts without any conflict
  unsigned Degree = 0;     ///< "n-way": the worst phase's cost
  unsigned excess() const { return Wavefronts - Ideal; }
};

/// Byte address (relative to a 16-byte aligned base) per lane; nullopt for a
/// lane that does not execute the access.
using LaneAddresses = std::array<std::optional<int64_t>, WarpSize>;

/// Cost of one warp-level access of AccessBytes (1, 2, 4, 8 or 16) bytes.
/// A warp with no active lane costs nothing.
WarpCost warpCost(const LaneAddresses &Addr, unsigned AccessBytes);

/// Closed form for a full warp reading element a*lane + c of an array of
/// AccessBytes-sized elements (AccessBytes in {4, 8, 16}, a != 0).
unsigned affineWavefronts(int64_t ElementStride, unsigned AccessBytes);

/// Number of phases the hardware splits an access of this size into.
unsigned phasesFor(unsigned AccessBytes);

} // namespace cgt::smem

#endif
