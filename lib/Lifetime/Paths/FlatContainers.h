//===- FlatContainers.h - small sorted containers --------------*- C++ -*-===//
//
// The maps and sets of a disjunct (PathState.h). Disjuncts are copied on
// CFG edges and hold a handful of entries, so sorted small vectors that do
// not allocate for those few beat node-based maps.
//
//===----------------------------------------------------------------------===//
#ifndef CUDAGRAPH_TIDY_LIFETIME_FLATCONTAINERS_H
#define CUDAGRAPH_TIDY_LIFETIME_FLATCONTAINERS_H

#include "llvm/ADT/SmallVector.h"
#include <algorithm>
#include <initializer_list>
#include <iterator>
#include <utility>

namespace cgt {
namespace lifetime {

/// A sorted vector used as a map: path states are copied on every CFG edge,
/// and with a handful of entries this never allocates, unlike std::map.
template <typename K, typename V, unsigned N = 4> class FlatMap {
public:
  using Item = std::pair<K, V>;
  using iterator = Item *;
  using const_iterator = const Item *;
  iterator begin() { return Items.begin(); }
  iterator end() { return Items.end(); }
  const_iterator begin() const { return Items.begin(); }
  const_iterator end() const { return Items.end(); }
  bool empty() const { return Items.empty(); }
  size_t size() const { return Items.size(); }
  iterator find(const K &Key) {
    iterator It = lower(Key);
    return It != end() && It->first == Key ? It : end();
  }
  const_iterator find(const K &Key) const {
    return const_cast<FlatMap *>(this)->find(Key);
  }
  size_t count(const K &Key) const { return find(Key) != end() ? 1 : 0; }
  V &operator[](const K &Key) {
    iterator It = lower(Key);
    if (It == end() || It->first != Key)
      It = Items.insert(It, Item(Key, V()));
    return It->second;
  }
  void insert(const Item &I) {
    if (!count(I.first))
      (*this)[I.first] = I.second;
  }
  iterator erase(iterator It) { return Items.erase(It); }
  void erase(const K &Key) {
    iterator It = find(Key);
    if (It != end())
      Items.erase(It);
  }
  /// Erases every item `Pred` holds for, in one pass (erasing them one by
  /// one shifts the tail once each).
  template <typename Pred> void eraseIf(Pred P) {
    Items.erase(std::remove_if(Items.begin(), Items.end(), P), Items.end());
  }
  /// Sets the key of each of `Sorted` (sorted by key, each key once) to its
  /// value, as many `(*this)[K] = V` would, in one merge: a switch's edge
  /// sets a fact per case, ninety on ggml's `switch (op)`.
  template <typename Range> void assignSorted(const Range &Sorted) {
    llvm::SmallVector<Item, N> Out;
    Out.reserve(Items.size() + std::size(Sorted));
    auto A = Items.begin();
    for (const Item &New : Sorted) {
      while (A != Items.end() && A->first < New.first)
        Out.push_back(*A++);
      if (A != Items.end() && A->first == New.first)
        ++A;
      Out.push_back(New);
    }
    Out.append(A, Items.end());
    Items = std::move(Out);
  }
  bool operator==(const FlatMap &O) const { return Items == O.Items; }

private:
  iterator lower(const K &Key) {
    return std::lower_bound(Items.begin(), Items.end(), Key,
                            [](const Item &I, const K &Probe) { return I.first < Probe; });
  }
  llvm::SmallVector<Item, N> Items;
};

/// A small sorted set of resource ids.
class IdSet {
public:
  IdSet() = default;
  IdSet(std::initializer_list<unsigned> L) {
    for (unsigned X : L)
      insert(X);
  }
  void insert(unsigned X) {
    auto It = std::lower_bound(Ids.begin(), Ids.end(), X);
    if (It == Ids.end() || *It != X)
      Ids.insert(It, X);
  }
  bool insertAll(const IdSet &O) {
    size_t Before = Ids.size();
    for (unsigned X : O.Ids)
      insert(X);
    return Ids.size() != Before;
  }
  void erase(unsigned X) {
    auto It = std::lower_bound(Ids.begin(), Ids.end(), X);
    if (It != Ids.end() && *It == X)
      Ids.erase(It);
  }
  size_t count(unsigned X) const { return std::binary_search(Ids.begin(), Ids.end(), X); }
  bool empty() const { return Ids.empty(); }
  const unsigned *begin() const { return Ids.begin(); }
  const unsigned *end() const { return Ids.end(); }
  bool operator==(const IdSet &O) const { return Ids == O.Ids; }

private:
  llvm::SmallVector<unsigned, 2> Ids;
};

} // namespace lifetime
} // namespace cgt

#endif
