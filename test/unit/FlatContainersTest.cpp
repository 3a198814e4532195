//===- FlatContainersTest.cpp - the batch operations of a disjunct's maps ===//
//
// FlatMap's assignSorted and eraseIf stand in for loops of operator[] and
// erase (a switch's edge sets a fact per case; an invalidation erases the
// facts it touches): each is checked against that loop on random maps.
//
//===----------------------------------------------------------------------===//
#include "Lifetime/Paths/FlatContainers.h"

#include "gtest/gtest.h"
#include <random>
#include <vector>

using cgt::lifetime::FlatMap;

namespace {

using Map = FlatMap<unsigned, bool>;

Map randomMap(std::mt19937 &Rng, unsigned Size, unsigned KeyRange) {
  Map M;
  for (unsigned I = 0; I < Size; ++I)
    M[Rng() % KeyRange] = Rng() % 2;
  return M;
}

TEST(FlatContainersTest, AssignSortedIsASequenceOfAssignments) {
  std::mt19937 Rng(7);
  for (unsigned Round = 0; Round < 500; ++Round) {
    unsigned Range = 1 + Rng() % 40;
    Map Merged = randomMap(Rng, Rng() % 20, Range);
    Map Assigned = Merged;
    // A batch of distinct keys, sorted: some new, some already there with
    // either value, some before and after every existing key.
    std::vector<std::pair<unsigned, bool>> Batch;
    for (unsigned K = 0; K < Range + 2; ++K)
      if (Rng() % 3 == 0)
        Batch.push_back({K, Rng() % 2 == 0});
    for (const auto &[K, V] : Batch)
      Assigned[K] = V;
    Merged.assignSorted(Batch);
    ASSERT_TRUE(Merged == Assigned) << "round " << Round;
    ASSERT_TRUE(std::is_sorted(Merged.begin(), Merged.end()));
  }
}

TEST(FlatContainersTest, EraseIfErasesExactlyTheMatchingItems) {
  std::mt19937 Rng(11);
  for (unsigned Round = 0; Round < 500; ++Round) {
    Map Batch = randomMap(Rng, Rng() % 30, 50);
    Map OneByOne = Batch;
    unsigned Mod = 2 + Rng() % 4;
    auto Doomed = [&](const std::pair<unsigned, bool> &I) {
      return I.first % Mod == 0 || I.second;
    };
    for (auto It = OneByOne.begin(); It != OneByOne.end();)
      It = Doomed(*It) ? OneByOne.erase(It) : It + 1;
    Batch.eraseIf(Doomed);
    ASSERT_TRUE(Batch == OneByOne) << "round " << Round;
  }
}

TEST(FlatContainersTest, AssignSortedIntoAnEmptyMapAndAnEmptyBatch) {
  Map M;
  std::vector<std::pair<unsigned, bool>> None;
  M.assignSorted(None);
  EXPECT_TRUE(M.empty());
  std::vector<std::pair<unsigned, bool>> Two = {{3, true}, {9, false}};
  M.assignSorted(Two);
  ASSERT_EQ(M.size(), 2u);
  EXPECT_TRUE(M.find(3)->second);
  EXPECT_FALSE(M.find(9)->second);
  M.assignSorted(None);
  EXPECT_EQ(M.size(), 2u);
}

} // namespace
