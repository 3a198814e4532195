//===- Constraints.cpp - what one path knows about program values ---------===//
//
// Ranges, equalities and disequalities of symbols (Constraints.h). The
// invariants: a symbol's range is the same for every member of its
// equality class (narrowing one narrows all), Equal is transitively closed,
// and no range is empty (an empty one means the caller drops the path).
//
//===----------------------------------------------------------------------===//
#include "Values/Constraints.h"

#include "llvm/ADT/STLExtras.h"
#include <algorithm>

namespace cgt {
namespace values {

const RangeSet *Constraints::find(Symbol S) const {
  auto It = std::lower_bound(Ranges.begin(), Ranges.end(), S,
                             [](const auto &E, Symbol V) { return E.first < V; });
  return It != Ranges.end() && It->first == S ? &It->second : nullptr;
}

RangeSet Constraints::rangeOf(Symbol S) const {
  const RangeSet *R = find(S);
  return R ? *R : RangeSet::full();
}

void Constraints::setRange(Symbol S, const RangeSet &R) {
  auto It = std::lower_bound(Ranges.begin(), Ranges.end(), S,
                             [](const auto &E, Symbol V) { return E.first < V; });
  bool Present = It != Ranges.end() && It->first == S;
  if (R.isFull()) {
    if (Present)
      Ranges.erase(It);
    return;
  }
  if (Present)
    It->second = R;
  else
    Ranges.insert(It, {S, R});
}

void Constraints::insertPair(llvm::SmallVectorImpl<Pair> &V, Pair P) {
  auto It = std::lower_bound(V.begin(), V.end(), P);
  if (It == V.end() || *It != P)
    V.insert(It, P);
}

bool Constraints::equalKnown(Symbol A, Symbol B) const {
  return A == B || std::binary_search(Equal.begin(), Equal.end(), ordered(A, B));
}

bool Constraints::unequalKnown(Symbol A, Symbol B) const {
  return std::binary_search(Unequal.begin(), Unequal.end(), ordered(A, B));
}

llvm::SmallVector<Symbol, 2> Constraints::classOf(Symbol S) const {
  llvm::SmallVector<Symbol, 2> Class{S};
  for (const Pair &P : Equal)
    if (P.first == S)
      Class.push_back(P.second);
    else if (P.second == S)
      Class.push_back(P.first);
  return Class;
}

bool Constraints::mentions(Symbol S) const {
  auto Has = [&](const Pair &P) { return P.first == S || P.second == S; };
  return rangeOf(S) != RangeSet::full() || std::any_of(Equal.begin(), Equal.end(), Has) ||
         std::any_of(Unequal.begin(), Unequal.end(), Has);
}

void Constraints::forEachSymbol(llvm::function_ref<void(Symbol)> Visit) const {
  for (const auto &R : Ranges)
    Visit(R.first);
  for (const auto *V : {&Equal, &Unequal})
    for (const Pair &P : *V) {
      Visit(P.first);
      Visit(P.second);
    }
}

std::optional<bool> Constraints::evaluate(Symbol S, Relation R, int64_t C) const {
  RangeSet Known = rangeOf(S);
  RangeSet Holds = RangeSet::satisfying(R, C);
  if (Known.isSubsetOf(Holds))
    return true;
  if (Known.disjointFrom(Holds))
    return false;
  return std::nullopt;
}

std::optional<bool> Constraints::evaluateSymbols(Symbol L, Relation R, Symbol Rt) const {
  RangeSet A = rangeOf(L), B = rangeOf(Rt);
  std::optional<int64_t> VA = A.singleValue(), VB = B.singleValue();
  switch (R) {
  case Relation::EQ:
  case Relation::NE: {
    std::optional<bool> Eq;
    if (equalKnown(L, Rt) || (VA && VB && *VA == *VB))
      Eq = true;
    else if (unequalKnown(L, Rt) || A.disjointFrom(B))
      Eq = false;
    if (!Eq)
      return std::nullopt;
    return R == Relation::EQ ? *Eq : !*Eq;
  }
  case Relation::GT:
  case Relation::GE:
    return evaluateSymbols(Rt, swapSides(R), L);
  case Relation::LT:
    if (equalKnown(L, Rt) || A.min() >= B.max())
      return false;
    if (A.max() < B.min())
      return true;
    return std::nullopt;
  case Relation::LE:
    if (equalKnown(L, Rt) || A.max() <= B.min())
      return true;
    if (A.min() > B.max())
      return false;
    return std::nullopt;
  }
  return std::nullopt;
}

bool Constraints::narrow(Symbol S, const RangeSet &To) {
  RangeSet R = rangeOf(S).intersect(To);
  if (R.isEmpty())
    return false;
  for (Symbol M : classOf(S))
    setRange(M, R);
  return applyDisequalities(S);
}

bool Constraints::applyDisequalities(Symbol S) {
  if (Unequal.empty())
    return true;
  const RangeSet *Known = find(S);
  std::optional<int64_t> V = Known ? Known->singleValue() : std::nullopt;
  if (!V)
    return true;
  // By index: narrowing the other side may add to nothing here, but may
  // reallocate nothing either; the pairs it reads stay where they are.
  for (size_t I = 0; I < Unequal.size(); ++I) {
    Pair P = Unequal[I];
    if (P.first != S && P.second != S)
      continue;
    Symbol Other = P.first == S ? P.second : P.first;
    RangeSet R = rangeOf(Other);
    if (!R.contains(*V))
      continue;
    if (!narrow(Other, R.without(*V)))
      return false;
  }
  return true;
}

bool Constraints::assume(Symbol S, Relation R, int64_t C) {
  return narrow(S, RangeSet::satisfying(R, C));
}

bool Constraints::assumeEqual(Symbol L, Symbol Rt) {
  if (equalKnown(L, Rt))
    return true;
  if (unequalKnown(L, Rt))
    return false;
  RangeSet Both = rangeOf(L).intersect(rangeOf(Rt));
  if (Both.isEmpty())
    return false;
  auto CL = classOf(L), CR = classOf(Rt);
  for (Symbol A : CL)
    for (Symbol B : CR) {
      if (unequalKnown(A, B))
        return false;
      if (A != B)
        insertPair(Equal, ordered(A, B));
    }
  return narrow(L, Both);
}

bool Constraints::assumeUnequal(Symbol L, Symbol Rt) {
  if (equalKnown(L, Rt))
    return false;
  std::optional<bool> Known = evaluateSymbols(L, Relation::NE, Rt);
  if (Known)
    return *Known;
  for (Symbol A : classOf(L))
    for (Symbol B : classOf(Rt))
      insertPair(Unequal, ordered(A, B));
  return applyDisequalities(L) && applyDisequalities(Rt);
}

bool Constraints::assumeSymbols(Symbol L, Relation R, Symbol Rt) {
  if (std::optional<bool> Known = evaluateSymbols(L, R, Rt))
    return *Known;
  switch (R) {
  case Relation::EQ:
    return assumeEqual(L, Rt);
  case Relation::NE:
    return assumeUnequal(L, Rt);
  case Relation::GT:
  case Relation::GE:
    return assumeSymbols(Rt, swapSides(R), L);
  case Relation::LT:
  case Relation::LE: {
    // L < Rt: L is below Rt's largest value, Rt above L's smallest.
    // The order itself is not kept (only == and != are relations here):
    // loop bounds (`i < n`) would pile up pairs no later test reads.
    RangeSet A = rangeOf(L), B = rangeOf(Rt);
    bool Strict = R == Relation::LT;
    return narrow(L, RangeSet::satisfying(R, B.max())) &&
           narrow(Rt, RangeSet::satisfying(Strict ? Relation::GT : Relation::GE, A.min()));
  }
  }
  return true;
}

void Constraints::bindRange(Symbol S, const RangeSet &Range) {
  forget(S);
  setRange(S, Range);
}

void Constraints::bindCopy(Symbol Dst, Symbol Src) {
  if (Dst == Src)
    return;
  forget(Dst);
  setRange(Dst, rangeOf(Src));
  for (Symbol M : classOf(Src))
    insertPair(Equal, ordered(Dst, M));
  for (const Pair &P : llvm::SmallVector<Pair, 1>(Unequal))
    if (P.first == Src || P.second == Src)
      insertPair(Unequal, ordered(Dst, P.first == Src ? P.second : P.first));
}

void Constraints::forget(Symbol S) {
  forgetIf([S](Symbol X) { return X == S; });
}

void Constraints::forgetIf(llvm::function_ref<bool(Symbol)> Pred) {
  llvm::erase_if(Ranges, [&](const auto &E) { return Pred(E.first); });
  auto Touches = [&](const Pair &P) { return Pred(P.first) || Pred(P.second); };
  llvm::erase_if(Equal, Touches);
  llvm::erase_if(Unequal, Touches);
}

bool Constraints::widenWith(const Constraints &O) {
  return joinWith(O, /*Widen=*/true);
}

bool Constraints::joinWith(const Constraints &O, bool Widen) {
  if (*this == O)
    return false;
  bool Lost = false;
  // Both sorted: one walk. A symbol only this side knows becomes unknown.
  size_t Out = 0, J = 0;
  for (size_t I = 0; I < Ranges.size(); ++I) {
    while (J < O.Ranges.size() && O.Ranges[J].first < Ranges[I].first)
      ++J;
    if (J == O.Ranges.size() || O.Ranges[J].first != Ranges[I].first) {
      Lost = true;
      continue;
    }
    if (O.Ranges[J].second != Ranges[I].second) {
      RangeSet U = Ranges[I].second.unite(O.Ranges[J].second);
      if (Widen)
        U = U.widenedFrom(Ranges[I].second);
      Lost |= U != Ranges[I].second;
      if (U.isFull()) {
        Lost = true;
        continue;
      }
      Ranges[I].second = std::move(U);
    }
    if (Out != I)
      Ranges[Out] = std::move(Ranges[I]);
    ++Out;
  }
  Ranges.truncate(Out);
  auto KeepShared = [&](llvm::SmallVectorImpl<Pair> &Mine, const llvm::SmallVectorImpl<Pair> &Theirs) {
    size_t Before = Mine.size();
    llvm::erase_if(Mine, [&](const Pair &P) {
      return !std::binary_search(Theirs.begin(), Theirs.end(), P);
    });
    Lost |= Mine.size() != Before;
  };
  KeepShared(Equal, O.Equal);
  KeepShared(Unequal, O.Unequal);
  return Lost;
}

} // namespace values
} // namespace cgt
