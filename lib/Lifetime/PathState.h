//===- PathState.h - the lattice of the lifetime dataflow -------*- C++ -*-===//
//
// What the lifetime analysis knows at a program point, in the manner of ESP's
// property simulation (Das, Lerner, Seigle, PLDI 2002): a set of disjuncts,
// each the projection of some paths onto ONE resource (or onto none: the
// base disjunct). A disjunct holds the resource's state bits (Live,
// Released, Escaped, Absent), what its success depends on, the places that
// hold it, and the branch facts common to the paths it stands for.
//
//   * At a join, disjuncts of the same resource whose tracked state agrees
//     merge and their facts are intersected; disjuncts that disagree stay
//     apart. Branches that do not change a resource's state cost nothing,
//     and the facts that tie an acquisition to its release (the flag tested
//     around both) survive because every path that holds the resource
//     agrees on them.
//   * Resources are followed one by one, so k independent resources cost k
//     small state machines, not 2^k paths.
//   * The base disjunct stands for every path (its facts are those all paths
//     share); new resources are born in it and split off at the end of the
//     block that acquired them.
//
// A resource with more than a bound of distinct states at one point (never
// reached by ordinary code) is widened: its disjuncts merge by union and the
// resource is marked, and no finding is reported for it (recall is lost,
// never precision).
//
//===----------------------------------------------------------------------===//
#ifndef CUDAGRAPH_TIDY_LIFETIME_PATHSTATE_H
#define CUDAGRAPH_TIDY_LIFETIME_PATHSTATE_H

#include "ApiModel/ApiModel.h"
#include "clang/AST/Decl.h"
#include "clang/AST/Expr.h"
#include "llvm/ADT/SmallVector.h"
#include <algorithm>
#include <array>
#include <string>
#include <vector>

namespace cgt {
namespace lifetime {

enum StateBit : uint8_t {
  Live = 1,
  Released = 2,
  Escaped = 4,
  Absent = 8,
};

/// Static facts about one acquisition (one per site and per summary param).
struct Resource {
  const clang::Expr *Site = nullptr;     ///< acquiring call; null for parameters
  std::string Kind;               ///< model kind; empty for parameters
  std::string AcquiredBy;
  std::string VarName;
  bool IntoField = false;         ///< lives in a field: never leaks at exit
  int ParamIndex = -1;            ///< >= 0: summary resource of a parameter
};

/// What one path knows about one resource.
struct Place;

struct ResState {
  uint8_t Bits = 0;
  const clang::Expr *StatusExpr = nullptr;   ///< the call whose result says success
  const clang::VarDecl *StatusVar = nullptr; ///< or the variable that holds it
  /// Or a copy (`status_ = (st)` in a macro, `ok = (st == cudaSuccess)`),
  /// inverted when the copy is true on success.
  const Place *StatusCopy = nullptr;
  bool CopyInverted = false;
  /// Or what a pointer points to (`*err = cudaGraphInstantiate(...)`).
  const clang::ValueDecl *StatusDerefOf = nullptr;
  bool SuccessIsZero = true;          ///< cudaSuccess == 0; false for bool helpers
  /// A second status the call writes through an argument, zero on success
  /// (cudaGraphInstantiateWithParams's `params.result_out`).
  const Place *StatusOut = nullptr;
  bool OlderLive = false;             ///< array element from an earlier iteration
  uint64_t ReleasedElements = 0;      ///< array: constant indices released so far
  uint64_t AcquiredElements = 0;      ///< array: constant indices filled so far
  bool ElementsKnown = true;          ///< every fill used a constant index
  const clang::Expr *ReleaseSite = nullptr;
  const FunctionModel *ReleasedBy = nullptr;
  const ReleaseEffect *ReleasedAs = nullptr;
  /// Branch decisions taken while the resource was live (for notes); kept
  /// as AST pointers so that copying a path state never allocates.
  struct Step {
    const clang::Expr *Cond;
    bool Taken;
  };
  std::array<Step, 4> Trail{};
  unsigned TrailSize = 0;

  bool operator==(const ResState &O) const {
    return Bits == O.Bits && StatusExpr == O.StatusExpr &&
           StatusVar == O.StatusVar && StatusCopy == O.StatusCopy &&
           CopyInverted == O.CopyInverted && StatusDerefOf == O.StatusDerefOf &&
           StatusOut == O.StatusOut &&
           ReleaseSite == O.ReleaseSite;
  }
};

/// Where a handle lives: a local variable or parameter, a member of `this`,
/// a member of a local plain struct (`h.exec`), or any element of a local
/// array (`execs[i]`, all elements as one place). A capture place is the
/// stream capture open on the stream that Decl.Member holds (Capture.cpp):
/// it is bound and dies with that variable but is not the handle itself.
struct Place {
  const clang::ValueDecl *Decl = nullptr;   ///< VarDecl, or FieldDecl of `this`
  const clang::FieldDecl *Member = nullptr; ///< Decl.Member
  bool Element = false;              ///< Decl[i]
  bool Capture = false;              ///< the capture open on the stream here
  bool whole() const { return !Member && !Element && !Capture; }
  std::string name() const {
    std::string N = Decl->getNameAsString();
    if (Member)
      N += "." + Member->getNameAsString();
    if (Element)
      N += "[]";
    return N;
  }
};
using Key = const Place *;

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
  size_t count(unsigned X) const { return std::binary_search(Ids.begin(), Ids.end(), X); }
  bool empty() const { return Ids.empty(); }
  const unsigned *begin() const { return Ids.begin(); }
  const unsigned *end() const { return Ids.end(); }
  bool operator==(const IdSet &O) const { return Ids == O.Ids; }

private:
  llvm::SmallVector<unsigned, 2> Ids;
};

/// One disjunct: the projection of some paths onto the resource `Tracked`
/// (0: onto no resource, the base). Inside a block's transfer a disjunct may
/// briefly hold more resources (those it acquires); the block's end splits
/// them off.
struct PathState {
  FlatMap<Key, IdSet> Bind;            ///< variable -> resources it may hold
  FlatMap<unsigned, ResState, 1> Res;
  FlatMap<uintptr_t, bool> Facts;      ///< condition key -> truth
  unsigned Tracked = 0;

  bool operator==(const PathState &O) const {
    return Bind == O.Bind && Res == O.Res && Facts == O.Facts;
  }
  bool boundElsewhere(unsigned R, Key Except) const {
    for (const auto &B : Bind)
      if (B.first != Except && B.second.count(R))
        return true;
    return false;
  }
};

using StateSet = std::vector<PathState>;

/// Merges `Src` into `Dst` by union (statuses kept only where both agree);
/// returns whether `Dst` changed. Trails are left to the caller.
inline bool mergeInto(PathState &Dst, const PathState &Src) {
  bool Changed = false;
  for (const auto &B : Src.Bind) {
    auto It = Dst.Bind.find(B.first);
    if (It == Dst.Bind.end()) {
      Dst.Bind[B.first] = B.second;
      Changed = true;
    } else {
      Changed |= It->second.insertAll(B.second);
    }
  }
  for (const auto &R : Src.Res) {
    auto It = Dst.Res.find(R.first);
    if (It == Dst.Res.end()) {
      Dst.Res.insert(R);
      Changed = true;
      continue;
    }
    ResState &D = It->second;
    const ResState &S = R.second;
    if ((D.Bits | S.Bits) != D.Bits) {
      D.Bits |= S.Bits;
      Changed = true;
    }
    if (D.StatusExpr && D.StatusExpr != S.StatusExpr) {
      D.StatusExpr = nullptr;
      Changed = true;
    }
    if (D.StatusVar && D.StatusVar != S.StatusVar) {
      D.StatusVar = nullptr;
      Changed = true;
    }
    if (D.StatusOut && D.StatusOut != S.StatusOut) {
      D.StatusOut = nullptr;
      Changed = true;
    }
    if (D.StatusDerefOf && D.StatusDerefOf != S.StatusDerefOf) {
      D.StatusDerefOf = nullptr;
      Changed = true;
    }
    if (D.StatusCopy && (D.StatusCopy != S.StatusCopy || D.CopyInverted != S.CopyInverted)) {
      D.StatusCopy = nullptr;
      Changed = true;
    }
    D.ReleasedElements |= S.ReleasedElements;
    D.AcquiredElements |= S.AcquiredElements;
    D.ElementsKnown = D.ElementsKnown && S.ElementsKnown;
    if (!D.ReleaseSite && S.ReleaseSite) {
      D.ReleaseSite = S.ReleaseSite;
      D.ReleasedBy = S.ReleasedBy;
      D.ReleasedAs = S.ReleasedAs;
      Changed = true;
    }
  }
  return Changed;
}

/// Keeps the facts both disjuncts agree on; returns whether `Dst` lost any.
inline bool intersectFacts(PathState &Dst, const PathState &Src) {
  bool Changed = false;
  for (auto It = Dst.Facts.begin(); It != Dst.Facts.end();) {
    auto F = Src.Facts.find(It->first);
    if (F == Src.Facts.end() || F->second != It->second) {
      It = Dst.Facts.erase(It);
      Changed = true;
    } else {
      ++It;
    }
  }
  return Changed;
}

/// The facts of a disjunct about members of `this` ("`h_` is non-null").
/// They stand for the resource a member held on entry, which no disjunct
/// tracks, so the base keeps them apart like a tracked state.
inline llvm::SmallVector<std::pair<uintptr_t, bool>, 2> memberFacts(const PathState &P) {
  llvm::SmallVector<std::pair<uintptr_t, bool>, 2> Out;
  for (const auto &F : P.Facts)
    if (!(F.first & 1) && llvm::isa<clang::FieldDecl>(reinterpret_cast<const Place *>(F.first)->Decl))
      Out.push_back(F);
  return Out;
}

/// The branch notes of a merged disjunct must describe a path that reaches
/// whatever it reports later. A side whose facts survive the merge whole
/// reaches everything the merged disjunct reaches, so its trail stands for
/// both; when both sides lose facts, only the steps they share are kept.
inline void chooseTrail(PathState &Dst, const PathState &Src, bool DstLost, bool SrcLost) {
  auto D = Dst.Res.find(Dst.Tracked);
  auto S = Src.Res.find(Src.Tracked);
  if (Dst.Tracked == 0 || D == Dst.Res.end() || S == Src.Res.end() || !DstLost)
    return;
  ResState &DS = D->second;
  const ResState &SS = S->second;
  if (!SrcLost) {
    DS.Trail = SS.Trail;
    DS.TrailSize = SS.TrailSize;
    return;
  }
  unsigned Common = 0;
  while (Common < DS.TrailSize && Common < SS.TrailSize &&
         DS.Trail[Common].Cond == SS.Trail[Common].Cond &&
         DS.Trail[Common].Taken == SS.Trail[Common].Taken)
    ++Common;
  DS.TrailSize = Common;
}

/// Whether two disjuncts are in the same tracked state (ESP's property
/// state): then they merge and only their facts are intersected.
inline bool sameTrackedState(const PathState &L, const PathState &R) {
  if (L.Tracked != R.Tracked || !(L.Res == R.Res) || !(L.Bind == R.Bind))
    return false;
  return L.Tracked != 0 || memberFacts(L) == memberFacts(R);
}

/// ESP's join: `Src`'s disjuncts into `Dst` (both sorted by Tracked). A
/// disjunct merges into one of the same resource and state (facts
/// intersected) or is added. `KeepFactsApart` also keeps disjuncts with
/// different facts apart, where the block decides on them right away (the
/// join of `ok ? e : nullptr` returns `e` only on the paths where `ok`). A resource left with more than `MaxPerResource`
/// states is widened: merged by union into one, and reported through
/// `Widened`. Returns whether `Dst` changed, which decides revisits.
inline bool joinInto(StateSet &Dst, StateSet &&Src, unsigned MaxPerResource,
                     std::vector<unsigned> &Widened, bool KeepFactsApart = false) {
  bool Changed = false;
  auto ByTracked = [](const PathState &P, unsigned T) { return P.Tracked < T; };
  for (PathState &P : Src) {
    auto First = std::lower_bound(Dst.begin(), Dst.end(), P.Tracked, ByTracked);
    auto Last = First;
    while (Last != Dst.end() && Last->Tracked == P.Tracked)
      ++Last;
    auto Same = std::find_if(First, Last, [&](const PathState &O) {
      return sameTrackedState(O, P) && (!KeepFactsApart || O.Facts == P.Facts);
    });
    if (Same != Last) {
      bool DstLost = intersectFacts(*Same, P);
      bool SrcLost = P.Facts.size() != Same->Facts.size();
      chooseTrail(*Same, P, DstLost, SrcLost);
      Changed |= DstLost;
      mergeInto(*Same, P); // element sets; the state is equal
      continue;
    }
    size_t Count = (Last - First) + 1;
    size_t At = Dst.insert(Last, std::move(P)) - Dst.begin();
    Changed = true;
    if (Count <= MaxPerResource)
      continue;
    auto GroupBegin = Dst.begin() + (At + 1 - Count);
    PathState All = *GroupBegin;
    for (auto It = GroupBegin + 1; It != Dst.begin() + At + 1; ++It) {
      intersectFacts(All, *It);
      mergeInto(All, *It);
    }
    if (All.Tracked != 0) // the base tracks no resource: it only loses facts
      Widened.push_back(All.Tracked);
    Dst.erase(GroupBegin + 1, Dst.begin() + At + 1);
    *GroupBegin = std::move(All);
  }
  return Changed;
}

} // namespace lifetime
} // namespace cgt

#endif
