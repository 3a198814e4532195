// Unit tests of lib/Values: RangeSet arithmetic and the constraints of one
// path (assume, evaluate, bind, join), on the shapes the lifetime engine
// meets in real code (a cache key reset to -1, a batch size tested positive,
// a flag copied into another).
#include "Values/Constraints.h"

#include <gtest/gtest.h>
#include <limits>

using namespace cgt::values;

namespace {

constexpr Symbol Bs = 0x10, Cached = 0x20, Flag = 0x30, Copy = 0x40;

TEST(RangeSet, SatisfyingAndComplement) {
  EXPECT_EQ(RangeSet::satisfying(Relation::LE, 0).str(), "{[min, 0]}");
  EXPECT_EQ(RangeSet::satisfying(Relation::NE, -1).str(), "{[min, -2], [0, max]}");
  EXPECT_TRUE(RangeSet::satisfying(Relation::LT, std::numeric_limits<int64_t>::min()).isEmpty());
  EXPECT_TRUE(RangeSet::full().complement().isEmpty());
  EXPECT_TRUE(RangeSet::empty().complement().isFull());
  EXPECT_EQ(RangeSet::point(3).complement().complement(), RangeSet::point(3));
}

TEST(RangeSet, UniteMergesAdjacentAndCapsIntervals) {
  EXPECT_EQ(RangeSet::point(1).unite(RangeSet::point(2)).str(), "{[1, 2]}");
  RangeSet S = RangeSet::empty();
  for (int64_t V : {0, 10, 20, 30, 40, 41 + 5})
    S = S.unite(RangeSet::point(V));
  EXPECT_EQ(S.str(), "{[0, 10], [20, 20], [30, 30], [40, 46]}");
  // Capping only ever adds values.
  for (int64_t V : {0, 10, 20, 30, 40, 46})
    EXPECT_TRUE(S.contains(V));
}

TEST(RangeSet, IntersectAndSubsets) {
  RangeSet Pos = RangeSet::satisfying(Relation::GT, 0);
  EXPECT_TRUE(RangeSet::point(-1).disjointFrom(Pos));
  EXPECT_TRUE(RangeSet::between(1, 64).isSubsetOf(Pos));
  EXPECT_EQ(Pos.intersect(RangeSet::satisfying(Relation::LE, 64)).str(), "{[1, 64]}");
  EXPECT_EQ(RangeSet::between(1, 5).without(3).str(), "{[1, 2], [4, 5]}");
}

TEST(RangeSet, ShiftedMovesEveryIntervalOrGivesUp) {
  EXPECT_EQ(RangeSet::between(0, 3).unite(RangeSet::point(9)).shifted(1).str(), "{[1, 4], [10, 10]}");
  EXPECT_EQ(RangeSet::point(0).shifted(-1), RangeSet::point(-1));
  EXPECT_EQ(RangeSet::satisfying(Relation::GE, 1).shifted(1).str(), "{[2, max]}");
  EXPECT_TRUE(RangeSet::between(0, std::numeric_limits<int64_t>::max() - 1).shifted(2).isFull());
}

TEST(Constraints, BranchOnConstantPrunesAndDecides) {
  Constraints C;
  ASSERT_TRUE(C.assume(Bs, Relation::GT, 0)); // `if (bs <= 0) continue;`
  EXPECT_EQ(C.evaluate(Bs, Relation::EQ, -1), std::optional<bool>(false));
  EXPECT_EQ(C.evaluate(Bs, Relation::GT, 64), std::nullopt);
  EXPECT_FALSE(C.assume(Bs, Relation::LT, 0)); // contradicts: infeasible
}

TEST(Constraints, CacheKeyResetAndCompared) {
  Constraints C;
  C.bindConstant(Cached, -1);
  ASSERT_TRUE(C.assume(Bs, Relation::GT, 0));
  // `bs != cached` cannot be false on the first iteration.
  EXPECT_EQ(C.evaluateSymbols(Bs, Relation::NE, Cached), std::optional<bool>(true));
  EXPECT_FALSE(C.assumeSymbols(Bs, Relation::EQ, Cached));
  // `cached = bs;` then `bs > 64` taken: cached is known above 64 too.
  C.bindCopy(Cached, Bs);
  EXPECT_EQ(C.evaluate(Cached, Relation::NE, -1), std::optional<bool>(true));
  ASSERT_TRUE(C.assume(Bs, Relation::GT, 64));
  EXPECT_EQ(C.rangeOf(Cached).str(), "{[65, max]}");
  EXPECT_EQ(C.evaluateSymbols(Bs, Relation::EQ, Cached), std::optional<bool>(true));
  // A new batch size: bs is reassigned, cached keeps its range alone.
  C.forget(Bs);
  EXPECT_EQ(C.evaluateSymbols(Bs, Relation::EQ, Cached), std::nullopt);
  EXPECT_EQ(C.rangeOf(Cached).str(), "{[65, max]}");
}

TEST(Constraints, DisequalityWithAKnownValueExcludesIt) {
  Constraints C;
  ASSERT_TRUE(C.assumeSymbols(Bs, Relation::NE, Cached));
  C.bindConstant(Copy, 7);
  ASSERT_TRUE(C.assumeSymbols(Cached, Relation::EQ, Copy));
  EXPECT_EQ(C.evaluate(Bs, Relation::EQ, 7), std::optional<bool>(false));
  EXPECT_FALSE(C.assume(Bs, Relation::EQ, 7));
}

TEST(Constraints, CopiedFlagLearnsFromTheOriginal) {
  Constraints C;
  C.bindCopy(Copy, Flag); // `bool capturing = use_graph;`
  ASSERT_TRUE(C.assume(Flag, Relation::NE, 0)); // `if (use_graph)` taken
  EXPECT_EQ(C.evaluate(Copy, Relation::EQ, 0), std::optional<bool>(false));
}

TEST(Constraints, OrderBetweenSymbols) {
  Constraints C;
  C.bindConstant(Cached, 10);
  ASSERT_TRUE(C.assumeSymbols(Bs, Relation::LT, Cached));
  EXPECT_EQ(C.evaluate(Bs, Relation::GE, 10), std::optional<bool>(false));
  EXPECT_FALSE(C.assumeSymbols(Bs, Relation::EQ, Cached));
}

TEST(Constraints, JoinUnitesRangesAndDropsOneSidedFacts) {
  Constraints L, R;
  L.bindConstant(Cached, -1);
  R.bindConstant(Cached, 5);
  L.bindConstant(Flag, 1);
  R.bindCopy(Copy, Bs);
  EXPECT_TRUE(L.joinWith(R));
  EXPECT_EQ(L.rangeOf(Cached).str(), "{[-1, -1], [5, 5]}");
  EXPECT_TRUE(L.rangeOf(Flag).isFull());
  EXPECT_EQ(L.evaluateSymbols(Copy, Relation::EQ, Bs), std::nullopt);
  EXPECT_EQ(L.evaluate(Cached, Relation::EQ, 0), std::optional<bool>(false));
  // Joining what is already included loses nothing: loops settle.
  Constraints Same = L;
  EXPECT_FALSE(L.joinWith(Same));
}

TEST(Constraints, WidenAtALoopHeaderSettles) {
  Constraints Header, Back;
  Header.bindConstant(Flag, 0);   // `n = 0` before the loop
  Back.bindConstant(Flag, 1);     // `++n` on the way back
  EXPECT_TRUE(Header.widenWith(Back));
  EXPECT_EQ(Header.rangeOf(Flag).str(), "{[0, max]}");
  Back.bindRange(Flag, RangeSet::satisfying(Relation::GE, 1));
  EXPECT_FALSE(Header.widenWith(Back)); // nothing new: the loop is done
  // A range that keeps its ends is not widened.
  Constraints Keys, Other;
  Keys.bindConstant(Cached, -1);
  ASSERT_TRUE(Keys.assume(Bs, Relation::GT, 0));
  Other.bindConstant(Cached, -1);
  EXPECT_TRUE(Keys.widenWith(Other));   // Bs unknown on one side
  EXPECT_EQ(Keys.rangeOf(Cached).str(), "{[-1, -1]}");
}

TEST(Constraints, JoinKeepsSharedEqualities) {
  Constraints L, R;
  L.bindCopy(Cached, Bs);
  R.bindCopy(Cached, Bs);
  R.bindConstant(Flag, 0);
  EXPECT_FALSE(L.joinWith(R));
  EXPECT_EQ(L.evaluateSymbols(Cached, Relation::EQ, Bs), std::optional<bool>(true));
}

TEST(Constraints, ForgetIfDropsEverythingAboutTheSymbols) {
  Constraints C;
  C.bindCopy(Cached, Bs);
  ASSERT_TRUE(C.assumeSymbols(Flag, Relation::NE, Copy));
  C.forgetIf([](Symbol S) { return S == Bs || S == Flag; });
  EXPECT_FALSE(C.mentions(Bs));
  EXPECT_FALSE(C.mentions(Flag));
  EXPECT_TRUE(C.empty());
}

} // namespace
