//===- RangeSet.h - a set of integers as disjoint intervals -----*- C++ -*-===//
//
// The value domain of one program variable on one path, in the manner of
// the Clang Static Analyzer's RangeSet (clang/StaticAnalyzer/Core/
// PathSensitive/RangedConstraintManager.h): a sorted list of disjoint,
// non-adjacent closed intervals of int64_t. CSA keeps any number of
// intervals over the variable's own type; we differ in two ways:
//
//   * every value is an int64_t, whatever its C type (bools, enums, ints,
//     pointers tested for null): the facts the lifetime engine needs are
//     equalities with small constants and signs, and a value outside int64_t
//     is simply not recorded (unknown), never wrapped;
//   * at most MaxIntervals intervals: a union that would need more keeps
//     the hull of its two closest intervals, so that the lattice has finite
//     height and a loop that keeps adding points settles.
//
//===----------------------------------------------------------------------===//
#ifndef CUDAGRAPH_TIDY_VALUES_RANGESET_H
#define CUDAGRAPH_TIDY_VALUES_RANGESET_H

#include "llvm/ADT/SmallVector.h"
#include <cstdint>
#include <optional>
#include <string>

namespace cgt {
namespace values {

/// A comparison between two values: `L Rel R`.
enum class Relation { EQ, NE, LT, LE, GT, GE };

/// `!(L Rel R)` as `L negate(Rel) R`.
Relation negate(Relation R);
/// `L Rel R` as `R swapSides(Rel) L`.
Relation swapSides(Relation R);

class RangeSet {
public:
  struct Interval {
    int64_t Lo, Hi;
    bool operator==(const Interval &O) const { return Lo == O.Lo && Hi == O.Hi; }
  };
  static constexpr unsigned MaxIntervals = 4;

  static RangeSet full();
  static RangeSet empty() { return RangeSet(); }
  static RangeSet point(int64_t V) { return between(V, V); }
  static RangeSet between(int64_t Lo, int64_t Hi);
  /// Every x with `x Rel C`.
  static RangeSet satisfying(Relation Rel, int64_t C);

  bool isEmpty() const { return Iv.empty(); }
  bool isFull() const;
  bool contains(int64_t V) const;
  /// The one value of the set, if it has one.
  std::optional<int64_t> singleValue() const;
  int64_t min() const { return Iv.front().Lo; }
  int64_t max() const { return Iv.back().Hi; }
  bool isSubsetOf(const RangeSet &O) const { return intersect(O) == *this; }
  bool disjointFrom(const RangeSet &O) const { return intersect(O).isEmpty(); }

  RangeSet intersect(const RangeSet &O) const;
  RangeSet unite(const RangeSet &O) const;
  RangeSet complement() const;
  /// This set (a union that includes `Old`), its low end moved to the
  /// minimum of int64_t if it is below Old's, its high end to the maximum if
  /// above: the widening of interval analysis.
  RangeSet widenedFrom(const RangeSet &Old) const;
  RangeSet without(int64_t V) const { return intersect(point(V).complement()); }
  /// Every value moved by `Delta` (`++i`); the ends of int64_t stay (they
  /// stand for "unbounded"); full when a finite bound would pass them.
  RangeSet shifted(int64_t Delta) const;

  bool operator==(const RangeSet &O) const { return Iv == O.Iv; }
  bool operator!=(const RangeSet &O) const { return !(*this == O); }
  /// `{[-1, -1], [1, 64]}`, for tests and debugging.
  std::string str() const;

private:
  /// Sorts, merges overlapping and adjacent intervals, and caps the count.
  void normalize();
  llvm::SmallVector<Interval, 2> Iv;
};

} // namespace values
} // namespace cgt

#endif
