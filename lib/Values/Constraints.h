//===- Constraints.h - what one path knows about program values -*- C++ -*-===//
//
// The value facts of one disjunct of the lifetime dataflow, kept apart from
// its resource lattice as the Clang Static Analyzer keeps its constraint
// manager apart from the checkers' state. Symbols are opaque (the lifetime
// engine uses its place keys: a variable, a member path); this component
// knows nothing of clang's AST.
//
// What it follows from CSA (RangeConstraintManager, and the equivalence
// classes of its EquivalenceClass / DisequalityMap):
//   * a range per symbol, refined by every branch (`assume`) and emptied
//     range = infeasible path: `if (bs <= 0) continue;` leaves bs in
//     [1, max], so a later `bs != cached` with cached = -1 is decided;
//   * equalities between symbols (`cached = bs` makes them one class: a
//     range learned for one is learned for the other) and disequalities
//     (`bs != cached` taken);
//   * assignments rebind: a constant, a copy of another symbol (its range
//     and its class), or unknown (`forget`).
//
// Where it deliberately differs:
//   * CSA never joins: it keeps one state per path. The lifetime engine
//     merges disjuncts that agree on a resource (ESP), so constraints have a
//     join: ranges unite per symbol, a symbol unknown on one side is
//     unknown, equalities and disequalities are kept only where both sides
//     have them. Ranges are capped (RangeSet::MaxIntervals) so the join has
//     finite height, and at loop headers a range that grows past an end is
//     widened to that end (widenWith), so loops settle in a visit or two; a
//     symbol the loop keeps changing is widened on its own, the rest of the
//     disjunct is untouched.
//   * no symbolic expressions (`x + 1`, `a * b`): a value computed from
//     others is unknown. Relations other than ==/!= between two symbols
//     only refine their ranges.
//
//===----------------------------------------------------------------------===//
#ifndef CUDAGRAPH_TIDY_VALUES_CONSTRAINTS_H
#define CUDAGRAPH_TIDY_VALUES_CONSTRAINTS_H

#include "Values/RangeSet.h"
#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/ADT/SmallVector.h"
#include <cstdint>
#include <optional>
#include <utility>

namespace cgt {
namespace values {

/// An opaque, non-zero name of a program value.
using Symbol = uintptr_t;

class Constraints {
public:
  /// Full when nothing is known.
  RangeSet rangeOf(Symbol S) const;
  /// The range known for S; null when nothing is (no copy made).
  const RangeSet *find(Symbol S) const;
  std::optional<bool> evaluate(Symbol S, Relation R, int64_t C) const;
  std::optional<bool> evaluateSymbols(Symbol L, Relation R, Symbol Rt) const;

  /// Adds `S R C` (or `L R Rt`); false when that contradicts what is known
  /// (the path is infeasible; the constraints are then unspecified).
  [[nodiscard]] bool assume(Symbol S, Relation R, int64_t C);
  [[nodiscard]] bool assumeSymbols(Symbol L, Relation R, Symbol Rt);

  /// `S = V`, `S = <a value in Range>`, `Dst = Src`, `S = <unknown>`.
  void bindConstant(Symbol S, int64_t V) { bindRange(S, RangeSet::point(V)); }
  void bindRange(Symbol S, const RangeSet &Range);
  void bindCopy(Symbol Dst, Symbol Src);
  void forget(Symbol S);
  void forgetIf(llvm::function_ref<bool(Symbol)> Pred);

  /// This := this joined with O; returns whether this lost information.
  bool joinWith(const Constraints &O, bool Widen = false);
  /// The join at a loop header: a range that grows past an end goes to
  /// that end of int64_t (interval widening), so a variable the loop keeps
  /// stepping (`++n_empty`) settles in one more visit.
  bool widenWith(const Constraints &O);

  bool empty() const { return Ranges.empty() && Equal.empty() && Unequal.empty(); }
  bool mentions(Symbol S) const;
  void forEachSymbol(llvm::function_ref<void(Symbol)> Visit) const;
  bool operator==(const Constraints &O) const {
    return Ranges == O.Ranges && Equal == O.Equal && Unequal == O.Unequal;
  }
  bool operator!=(const Constraints &O) const { return !(*this == O); }

private:
  using Pair = std::pair<Symbol, Symbol>; ///< ordered: first < second
  static Pair ordered(Symbol A, Symbol B) { return A < B ? Pair{A, B} : Pair{B, A}; }
  bool equalKnown(Symbol A, Symbol B) const;
  bool unequalKnown(Symbol A, Symbol B) const;
  /// S and every symbol known equal to it.
  llvm::SmallVector<Symbol, 2> classOf(Symbol S) const;
  /// Narrows the range of S's whole class; false when it becomes empty.
  bool narrow(Symbol S, const RangeSet &To);
  bool assumeEqual(Symbol L, Symbol Rt);
  bool assumeUnequal(Symbol L, Symbol Rt);
  /// A disequality with a symbol of one known value excludes that value.
  bool applyDisequalities(Symbol S);
  void setRange(Symbol S, const RangeSet &R);
  static void insertPair(llvm::SmallVectorImpl<Pair> &V, Pair P);

  /// Sorted by symbol; a symbol with the full range is absent.
  llvm::SmallVector<std::pair<Symbol, RangeSet>, 2> Ranges;
  llvm::SmallVector<Pair, 1> Equal;   ///< sorted, transitively closed
  llvm::SmallVector<Pair, 1> Unequal; ///< sorted
};

} // namespace values
} // namespace cgt

#endif
