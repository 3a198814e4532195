//===- RangeSet.cpp - a set of integers as disjoint intervals -------------===//
//
// Interval arithmetic for RangeSet.h. Bounds are inclusive, so `x < C` is
// `[min, C-1]`, with care at the ends of int64_t.
//
//===----------------------------------------------------------------------===//
#include "Values/RangeSet.h"

#include <algorithm>
#include <limits>

namespace cgt {
namespace values {

namespace {
constexpr int64_t Min = std::numeric_limits<int64_t>::min();
constexpr int64_t Max = std::numeric_limits<int64_t>::max();
} // namespace

Relation negate(Relation R) {
  switch (R) {
  case Relation::EQ: return Relation::NE;
  case Relation::NE: return Relation::EQ;
  case Relation::LT: return Relation::GE;
  case Relation::LE: return Relation::GT;
  case Relation::GT: return Relation::LE;
  case Relation::GE: return Relation::LT;
  }
  return R;
}

Relation swapSides(Relation R) {
  switch (R) {
  case Relation::LT: return Relation::GT;
  case Relation::LE: return Relation::GE;
  case Relation::GT: return Relation::LT;
  case Relation::GE: return Relation::LE;
  default: return R;
  }
}

RangeSet RangeSet::full() { return between(Min, Max); }

RangeSet RangeSet::between(int64_t Lo, int64_t Hi) {
  RangeSet S;
  if (Lo <= Hi)
    S.Iv.push_back({Lo, Hi});
  return S;
}

RangeSet RangeSet::satisfying(Relation Rel, int64_t C) {
  switch (Rel) {
  case Relation::EQ: return point(C);
  case Relation::NE: return point(C).complement();
  case Relation::LT: return C == Min ? empty() : between(Min, C - 1);
  case Relation::LE: return between(Min, C);
  case Relation::GT: return C == Max ? empty() : between(C + 1, Max);
  case Relation::GE: return between(C, Max);
  }
  return full();
}

bool RangeSet::isFull() const {
  return Iv.size() == 1 && Iv[0].Lo == Min && Iv[0].Hi == Max;
}

bool RangeSet::contains(int64_t V) const {
  return std::any_of(Iv.begin(), Iv.end(),
                     [&](const Interval &I) { return I.Lo <= V && V <= I.Hi; });
}

std::optional<int64_t> RangeSet::singleValue() const {
  if (Iv.size() == 1 && Iv[0].Lo == Iv[0].Hi)
    return Iv[0].Lo;
  return std::nullopt;
}

RangeSet RangeSet::intersect(const RangeSet &O) const {
  RangeSet S;
  for (const Interval &A : Iv)
    for (const Interval &B : O.Iv) {
      int64_t Lo = std::max(A.Lo, B.Lo), Hi = std::min(A.Hi, B.Hi);
      if (Lo <= Hi)
        S.Iv.push_back({Lo, Hi});
    }
  S.normalize();
  return S;
}

RangeSet RangeSet::unite(const RangeSet &O) const {
  RangeSet S = *this;
  S.Iv.append(O.Iv.begin(), O.Iv.end());
  S.normalize();
  return S;
}

RangeSet RangeSet::complement() const {
  RangeSet S;
  int64_t Next = Min;
  bool NextValid = true; // false once an interval ended at Max
  for (const Interval &I : Iv) {
    if (I.Lo > Next)
      S.Iv.push_back({Next, I.Lo - 1});
    if (I.Hi == Max) {
      NextValid = false;
      break;
    }
    Next = I.Hi + 1;
  }
  if (NextValid)
    S.Iv.push_back({Next, Max});
  return S;
}

RangeSet RangeSet::shifted(int64_t Delta) const {
  RangeSet S;
  // An end of int64_t stands for "no bound" (a counter widened upwards):
  // it stays where it is; a finite bound that would pass it gives up.
  auto Move = [&](int64_t V, bool &Overflow) {
    if (V == Min || V == Max)
      return V;
    int64_t Out;
    Overflow |= __builtin_add_overflow(V, Delta, &Out);
    return Out;
  };
  bool Overflow = false;
  for (const Interval &I : Iv)
    S.Iv.push_back({Move(I.Lo, Overflow), Move(I.Hi, Overflow)});
  if (Overflow)
    return full();
  S.normalize();
  return S;
}

RangeSet RangeSet::widenedFrom(const RangeSet &Old) const {
  RangeSet S = *this;
  if (S.isEmpty() || Old.isEmpty())
    return S;
  if (S.min() < Old.min())
    S.Iv.front().Lo = Min;
  if (S.max() > Old.max())
    S.Iv.back().Hi = Max;
  return S;
}

void RangeSet::normalize() {
  std::sort(Iv.begin(), Iv.end(),
            [](const Interval &L, const Interval &R) { return L.Lo < R.Lo; });
  llvm::SmallVector<Interval, 2> Out;
  for (const Interval &I : Iv) {
    // Overlapping or adjacent (`Hi + 1 == Lo`) intervals are one.
    if (!Out.empty() && (Out.back().Hi == Max || I.Lo <= Out.back().Hi + 1)) {
      Out.back().Hi = std::max(Out.back().Hi, I.Hi);
      continue;
    }
    Out.push_back(I);
  }
  // Past the cap, close the smallest gap: the set only grows, so a value
  // once possible stays possible (a sound over-approximation).
  while (Out.size() > MaxIntervals) {
    size_t Best = 0;
    uint64_t BestGap = std::numeric_limits<uint64_t>::max();
    for (size_t I = 0; I + 1 < Out.size(); ++I) {
      uint64_t Gap = static_cast<uint64_t>(Out[I + 1].Lo) - static_cast<uint64_t>(Out[I].Hi);
      if (Gap < BestGap) {
        BestGap = Gap;
        Best = I;
      }
    }
    Out[Best].Hi = Out[Best + 1].Hi;
    Out.erase(Out.begin() + Best + 1);
  }
  Iv = std::move(Out);
}

std::string RangeSet::str() const {
  auto Bound = [](int64_t V) {
    return V == Min ? std::string("min") : V == Max ? std::string("max") : std::to_string(V);
  };
  std::string S = "{";
  for (size_t I = 0; I < Iv.size(); ++I)
    S += (I ? ", [" : "[") + Bound(Iv[I].Lo) + ", " + Bound(Iv[I].Hi) + "]";
  return S + "}";
}

} // namespace values
} // namespace cgt
