//===- Join.h - ESP's join of disjunct sets ---------------------*- C++ -*-===//
//
// How the states of the lifetime dataflow meet at a join, in the manner of
// ESP's property simulation (Das, Lerner, Seigle, PLDI 2002):
//
//   * Disjuncts of the same resource whose tracked state agrees merge and
//     their facts are intersected; disjuncts that disagree stay apart.
//     Branches that do not change a resource's state cost nothing, and the
//     facts that tie an acquisition to its release (the flag tested around
//     both) survive because every path that holds the resource agrees on
//     them.
//   * Resources are followed one by one, so k independent resources cost k
//     small state machines, not 2^k paths.
//   * The base disjunct stands for every path (its facts are those all paths
//     share); new resources are born in it and split off at the end of the
//     block that acquired them (Disjuncts.cpp).
//
// A resource with more than a bound of distinct states at one point (never
// reached by ordinary code) is widened: its disjuncts merge by union and the
// resource is marked, and no finding is reported for it (recall is lost,
// never precision).
//
//===----------------------------------------------------------------------===//
#ifndef CUDAGRAPH_TIDY_LIFETIME_JOIN_H
#define CUDAGRAPH_TIDY_LIFETIME_JOIN_H

#include "Lifetime/Paths/PathState.h"
#include "clang/AST/Decl.h"
#include <vector>

namespace cgt {
namespace lifetime {

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
    // Widened: a place released on either side counts, silence rather
    // than a false leak.
    if (S.AllReleaseRan && !D.AllReleaseRan) {
      D.AllReleaseRan = true;
      Changed = true;
    }
    for (const void *Of : S.ReleaseRanFor)
      if (Of && !D.releaseRanFor(Of)) {
        D.noteReleaseRan(Of);
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

/// Keeps the facts both disjuncts agree on, and joins what they know of
/// values; returns whether `Dst` lost any.
inline bool intersectFacts(PathState &Dst, const PathState &Src, bool WidenValues = false) {
  bool Changed = Dst.Values.joinWith(Src.Values, WidenValues);
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
/// `Widened`. `WidenValues` (loop headers) widens the value ranges that grow.
/// Returns whether `Dst` changed, which decides revisits.
inline bool joinInto(StateSet &Dst, StateSet &&Src, unsigned MaxPerResource,
                     std::vector<unsigned> &Widened, bool KeepFactsApart = false,
                     bool WidenValues = false) {
  bool Changed = false;
  auto ByTracked = [](const PathState &P, unsigned T) { return P.Tracked < T; };
  Dst.reserve(Dst.size() + Src.size()); // disjuncts are large: grow once
  for (PathState &P : Src) {
    auto First = std::lower_bound(Dst.begin(), Dst.end(), P.Tracked, ByTracked);
    auto Last = First;
    while (Last != Dst.end() && Last->Tracked == P.Tracked)
      ++Last;
    auto Same = std::find_if(First, Last, [&](const PathState &O) {
      return sameTrackedState(O, P) &&
             (!KeepFactsApart || (O.Facts == P.Facts && O.Values == P.Values));
    });
    if (Same != Last) {
      bool DstLost = intersectFacts(*Same, P, WidenValues);
      bool SrcLost = P.Facts.size() != Same->Facts.size() || P.Values != Same->Values;
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
