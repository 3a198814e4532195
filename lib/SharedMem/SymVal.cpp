//===- SymVal.cpp - linear forms over uniform symbols ---------------------===//
#include "SharedMem/SymVal.h"

#include "llvm/ADT/Hashing.h"

namespace cgt::smem {

uint64_t SymVal::hash() const {
  if (Top)
    return 0x70b;
  llvm::hash_code H = llvm::hash_value(C);
  for (const auto &T : Terms)
    H = llvm::hash_combine(H, T.first, T.second);
  return static_cast<uint64_t>(H);
}

static SymVal combine(const SymVal &A, const SymVal &B, int64_t KB) {
  if (A.Top || B.Top)
    return SymVal::top();
  SymVal R;
  R.C = A.C + KB * B.C;
  R.ShapeDep = A.ShapeDep || B.ShapeDep;
  R.ThreadDep = A.ThreadDep || B.ThreadDep;
  R.BlockDep = A.BlockDep || B.BlockDep;
  size_t I = 0, J = 0;
  while (I < A.Terms.size() || J < B.Terms.size()) {
    if (J == B.Terms.size() ||
        (I < A.Terms.size() && A.Terms[I].first < B.Terms[J].first)) {
      R.Terms.push_back(A.Terms[I++]);
    } else if (I == A.Terms.size() || B.Terms[J].first < A.Terms[I].first) {
      R.Terms.push_back({B.Terms[J].first, KB * B.Terms[J].second});
      ++J;
    } else {
      int64_t Coef = A.Terms[I].second + KB * B.Terms[J].second;
      if (Coef != 0)
        R.Terms.push_back({A.Terms[I].first, Coef});
      ++I, ++J;
    }
  }
  return R;
}

SymVal add(const SymVal &A, const SymVal &B) { return combine(A, B, 1); }
SymVal sub(const SymVal &A, const SymVal &B) { return combine(A, B, -1); }

SymVal scale(const SymVal &A, int64_t K) {
  if (A.Top)
    return A;
  if (K == 0) {
    SymVal Z = SymVal::constant(0);
    Z.ShapeDep = A.ShapeDep;
    Z.ThreadDep = A.ThreadDep;
    Z.BlockDep = A.BlockDep;
    return Z;
  }
  SymVal R = A;
  R.C *= K;
  for (auto &T : R.Terms)
    T.second *= K;
  return R;
}

SymVal opaque(uint64_t Key, const SymVal &A, const SymVal &B) {
  if (A.Top || B.Top)
    return SymVal::top();
  uint64_t Id = static_cast<uint64_t>(llvm::hash_combine(Key, A.hash(), B.hash()));
  SymVal R = SymVal::symbol(Id | 1); // never 0
  R.ShapeDep = A.ShapeDep || B.ShapeDep;
  R.ThreadDep = A.ThreadDep || B.ThreadDep;
  R.BlockDep = A.BlockDep || B.BlockDep;
  return R;
}

SymVal mul(const SymVal &A, const SymVal &B, uint64_t Key) {
  if (A.Top || B.Top)
    return SymVal::top();
  SymVal R;
  if (A.isConst())
    R = scale(B, A.C);
  else if (B.isConst())
    R = scale(A, B.C);
  else
    R = opaque(Key, A, B);
  R.ShapeDep = A.ShapeDep || B.ShapeDep;
  R.ThreadDep = A.ThreadDep || B.ThreadDep;
  R.BlockDep = A.BlockDep || B.BlockDep;
  return R;
}

} // namespace cgt::smem
