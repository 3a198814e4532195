//===- SymVal.h - per-thread values of the shared-memory evaluator -*- C++ -*-===//
//
// The evaluator runs a kernel body once per thread of a known block shape, so
// every thread-dependent quantity (threadIdx, blockDim, loop counters of
// loops it can unroll) is a concrete integer. What stays unknown is either
//   * warp-uniform (kernel parameters, blockIdx, gridDim, counters of loops
//     it cannot unroll): kept as a linear form C + sum(coef_i * sym_i) over
//     opaque uniform symbols, so `tid + k*TILE` keeps its lane-varying part
//     exact and the uniform offset drops out when lanes are compared, or
//   * Top: anything else (values of mutable variables after a join, calls).
// Two marks say where a value came from, for the barrier checks: ThreadDep
// (threadIdx, lane-dependent loads) and BlockDep (blockIdx). They follow the
// value through arithmetic, comparisons and opaque symbols, never its
// identity (== and hash ignore them).
// Non-linear operations on symbolic operands produce a fresh opaque symbol
// keyed by (expression, operands): lanes whose operands differ get different
// symbols, so the bank model then sees "lane-dependent unknown" and stays
// silent, exactly as the design asks for unknown thread-dependent terms.
//
//===----------------------------------------------------------------------===//
#ifndef CUDAGRAPH_TIDY_SHAREDMEM_SYMVAL_H
#define CUDAGRAPH_TIDY_SHAREDMEM_SYMVAL_H

#include "llvm/ADT/SmallVector.h"

#include <cstdint>
#include <optional>
#include <utility>

namespace cgt::smem {

struct SymVal {
  bool Top = false;
  int64_t C = 0;
  /// Sorted by symbol id, no zero coefficients. Inline: almost every value
  /// has at most two symbols, and the interpreter copies values per thread.
  using TermList = llvm::SmallVector<std::pair<uint64_t, int64_t>, 2>;
  TermList Terms;
  /// Depends on blockDim or threadIdx.y/z: meaningless under an assumed
  /// 1-D block shape.
  bool ShapeDep = false;
  /// Derived from threadIdx (or from a lane-dependent load): an undecided
  /// condition on such a value can select threads; one on a uniform value
  /// cannot, so it does not make the path "guarded".
  bool ThreadDep = false;
  /// Derived from blockIdx: the same in every thread of a block, but an
  /// undecided condition on it can send blocks different ways, which only a
  /// barrier spanning blocks (a grid sync) cares about.
  bool BlockDep = false;
  /// For an undecided condition: its value in the interior blocks of a
  /// large enough problem (-1 unknown, 0 false, 1 true). See InterpreterRanges.cpp.
  int8_t Interior = -1;

  static SymVal top() { SymVal V; V.Top = true; return V; }
  static SymVal constant(int64_t C) { SymVal V; V.C = C; return V; }
  static SymVal symbol(uint64_t Id) {
    SymVal V; V.Terms.push_back({Id, 1}); return V;
  }
  bool isConst() const { return !Top && Terms.empty(); }
  std::optional<int64_t> asConst() const {
    return isConst() ? std::optional<int64_t>(C) : std::nullopt;
  }
  /// Same symbolic part: the difference of the two values is a constant.
  bool sameTerms(const SymVal &O) const {
    return !Top && !O.Top && Terms == O.Terms;
  }
  bool operator==(const SymVal &O) const {
    return Top == O.Top && (Top || (C == O.C && Terms == O.Terms));
  }
  bool operator!=(const SymVal &O) const { return !(*this == O); }
  uint64_t hash() const;
};

SymVal add(const SymVal &A, const SymVal &B);
SymVal sub(const SymVal &A, const SymVal &B);
SymVal scale(const SymVal &A, int64_t K);
/// A * B; linear when one side is constant, otherwise an opaque symbol.
SymVal mul(const SymVal &A, const SymVal &B, uint64_t Key);
/// Opaque uniform symbol for a non-linear operation of (Key, A, B).
SymVal opaque(uint64_t Key, const SymVal &A, const SymVal &B);

} // namespace cgt::smem

#endif
