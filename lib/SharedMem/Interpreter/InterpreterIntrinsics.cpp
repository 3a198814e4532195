//===- InterpreterIntrinsics.cpp - integer intrinsics with known results ----===//
//
// CUDA's integer intrinsics live in system headers, which the interpreter
// does not run (InterpreterCalls.cpp): without a model an index built with
// one is opaque and gets no verdict. One table says what each computes:
//   * min/max (and umin, llmax, ...): folded, or bounded by the constant side;
//   * __popc/__ffs/__clz (and the ll forms): a bit count in [0, width];
//   * __mul24/__umul24: the product (operands are 24-bit by contract, so it
//     stays linear: `__umul24(blockIdx.x, blockDim.x) + threadIdx.x` is a
//     global coordinate);
//   * __umulhi(x, K): the high word of x * K, in [0, K - 1];
//   * __shfl*_sync: another lane's value, within the range of a ranged operand.
// A bound reached by some data is attainable as the operand's is.
// Cooperative groups' value collectives (cg::reduce, cg::inclusive_scan,
// cg::exclusive_scan) take their operand by forwarding reference, which
// would hand the storage over as to any opaque callee: they read it
// (`cg::reduce(warp, acc[warp.thread_rank()], cg::plus<float>())` is a
// load of `acc`) and write nothing the caller names; the result is unknown.
//
//===----------------------------------------------------------------------===//
#include "SharedMem/Interpreter/InterpreterState.h"

#include "clang/AST/ExprCXX.h"
#include "llvm/ADT/StringMap.h"

using namespace clang;

namespace cgt::smem::detail {

namespace {

enum class Model : uint8_t { Min, Max, Popc, Ffs, Clz, Mul24, MulHi, Lane };

struct IntrinsicModel {
  Model Kind;
  uint8_t Width = 32; ///< bits of the operand (bit counts, high words)
  uint8_t Value = 0;  ///< the argument a lane value is read from
};

struct Entry {
  const char *Name;
  IntrinsicModel M;
};

// clang-format off
constexpr Entry Table[] = {
    {"min", {Model::Min}},          {"umin", {Model::Min}},
    {"llmin", {Model::Min}},        {"ullmin", {Model::Min}},
    {"max", {Model::Max}},          {"umax", {Model::Max}},
    {"llmax", {Model::Max}},        {"ullmax", {Model::Max}},
    {"__popc", {Model::Popc, 32}},  {"__popcll", {Model::Popc, 64}},
    {"__ffs", {Model::Ffs, 32}},    {"__ffsll", {Model::Ffs, 64}},
    {"__clz", {Model::Clz, 32}},    {"__clzll", {Model::Clz, 64}},
    {"__mul24", {Model::Mul24}},    {"__umul24", {Model::Mul24}},
    {"__umulhi", {Model::MulHi, 32}}, {"__umul64hi", {Model::MulHi, 64}},
    {"__shfl_sync", {Model::Lane, 32, 1}},     {"__shfl_up_sync", {Model::Lane, 32, 1}},
    {"__shfl_down_sync", {Model::Lane, 32, 1}}, {"__shfl_xor_sync", {Model::Lane, 32, 1}},
    {"__shfl", {Model::Lane, 32, 0}},          {"__shfl_up", {Model::Lane, 32, 0}},
    {"__shfl_down", {Model::Lane, 32, 0}},     {"__shfl_xor", {Model::Lane, 32, 0}},
};
// clang-format on

/// Looked up by name once per call of an opaque function: a hash lookup,
/// built on first use.
const IntrinsicModel *modelOf(const FunctionDecl *F) {
  static const llvm::StringMap<IntrinsicModel> Models = [] {
    llvm::StringMap<IntrinsicModel> M;
    for (const Entry &E : Table)
      M[E.Name] = E.M;
    return M;
  }();
  if (!F || !F->getIdentifier())
    return nullptr;
  auto It = Models.find(F->getName());
  return It == Models.end() ? nullptr : &It->second;
}

/// Bits needed for a non-negative value: 0 for 0, 32 for 0xffffffff.
int64_t bitsOf(int64_t V) { return V <= 0 ? 0 : 64 - __builtin_clzll(uint64_t(V)); }

uint64_t truncated(int64_t V, unsigned Width) {
  return Width >= 64 ? uint64_t(V) : uint64_t(V) & ((uint64_t(1) << Width) - 1);
}

/// A bit count of a constant, in the intrinsic's width.
int64_t foldBits(Model K, int64_t V, unsigned Width) {
  uint64_t U = truncated(V, Width);
  if (K == Model::Popc)
    return __builtin_popcountll(U);
  if (K == Model::Ffs)
    return U ? __builtin_ctzll(U) + 1 : 0;
  return U ? __builtin_clzll(U) - (64 - int(Width)) : int(Width);
}

} // namespace

/// What a call of a modelled intrinsic yields; nullopt for any other call.
std::optional<SymVal> Interp::intrinsicValue(const CallExpr *C,
                                             llvm::ArrayRef<SymVal> Args) {
  const IntrinsicModel *M = modelOf(C->getDirectCallee());
  if (!M || !C->getType()->isIntegerType())
    return std::nullopt;
  switch (M->Kind) {
  case Model::Min:
  case Model::Max:
    return Args.size() == 2 ? minMax(C, M->Kind == Model::Min, Args[0], Args[1])
                            : std::nullopt;
  case Model::Popc:
  case Model::Ffs:
  case Model::Clz:
    return Args.size() == 1 ? bitCount(C, static_cast<int>(M->Kind) -
                                              static_cast<int>(Model::Popc),
                                       M->Width, Args[0])
                            : std::nullopt;
  case Model::Mul24: {
    if (Args.size() != 2)
      return std::nullopt;
    SymVal P = mul(Args[0], Args[1], key(C, 0x24));
    if (!Args[0].isConst() && !Args[1].isConst())
      classify(P, Args[0], Args[1]); // as arith's BO_Mul
    return P;
  }
  case Model::MulHi:
    return Args.size() == 2 ? mulHigh(C, M->Width, Args[0], Args[1]) : std::nullopt;
  case Model::Lane:
    return M->Value < Args.size() ? laneValue(C, Args[M->Value]) : std::nullopt;
  }
  return std::nullopt;
}

/// min(x, K) <= K, max(x, K) >= K whatever x is. The constant side is the
/// result in every interior block when x is a problem size less a global
/// coordinate (`min(n - blockIdx.x * T, T)`, a tile's valid count): it is
/// reached then, as a guard on such a coordinate is decided there.
std::optional<SymVal> Interp::minMax(const CallExpr *C, bool Min, const SymVal &A,
                                     const SymVal &B) {
  if (A.isConst() && B.isConst())
    return SymVal::constant(Min ? std::min(A.C, B.C) : std::max(A.C, B.C));
  if (A.isConst() == B.isConst())
    return std::nullopt;
  const SymVal &X = A.isConst() ? B : A;
  int64_t K = A.isConst() ? A.C : B.C;
  Bound XB = boundOf(X), R = XB;
  R.Attainable = X.Top || XB.Attainable;
  if (!X.Top &&
      interiorTruth(Min ? BO_GE : BO_LE, sub(X, SymVal::constant(K))) == 1)
    R.Attainable = true;
  if (Min) {
    R.Hi = XB.finiteHi() ? std::min(K, XB.Hi) : K;
    R.Lo = XB.finiteLo() ? std::min(K, XB.Lo) : INT64_MIN;
  } else {
    R.Lo = XB.finiteLo() ? std::max(K, XB.Lo) : K;
    R.Hi = XB.finiteHi() ? std::max(K, XB.Hi) : INT64_MAX;
  }
  return rangedSym(key(C, 0x313), X, R);
}

/// __popc/__ffs/__clz (Which 0/1/2): at most the operand's width, and for
/// popc and ffs at most the bits of the operand's upper bound.
std::optional<SymVal> Interp::bitCount(const CallExpr *C, int Which, unsigned Width,
                                       const SymVal &X) {
  Model K = static_cast<Model>(static_cast<int>(Model::Popc) + Which);
  if (X.isConst())
    return SymVal::constant(foldBits(K, X.C, Width));
  Bound XB = boundOf(X), R;
  R.Attainable = X.Top || XB.Attainable;
  R.Lo = 0;
  R.Hi = Width;
  bool Small = !X.Top && XB.finiteLo() && XB.Lo >= 0 && XB.finiteHi() &&
               bitsOf(XB.Hi) < int64_t(Width);
  if (Small && K != Model::Clz)
    R.Hi = bitsOf(XB.Hi);
  else if (Small)
    R.Lo = Width - bitsOf(XB.Hi);
  return rangedSym(key(C, 0xb17), X, R);
}

/// __umulhi(x, K) = (x * K) >> 32 < K for any 32-bit x: the hashing idiom
/// `bins[__umulhi(hash, nbins)]` stays below nbins.
std::optional<SymVal> Interp::mulHigh(const CallExpr *C, unsigned Width, const SymVal &A,
                                      const SymVal &B) {
  if (A.isConst() && B.isConst()) {
    unsigned __int128 P = static_cast<unsigned __int128>(truncated(A.C, Width)) *
                          truncated(B.C, Width);
    return SymVal::constant(static_cast<int64_t>(truncated(int64_t(P >> Width), Width)));
  }
  if (A.isConst() == B.isConst())
    return std::nullopt;
  const SymVal &X = A.isConst() ? B : A;
  int64_t K = A.isConst() ? A.C : B.C;
  if (K <= 0 || (Width < 64 && K >> Width))
    return std::nullopt;
  Bound XB = boundOf(X), R;
  R.Attainable = X.Top || XB.Attainable;
  R.Lo = 0;
  R.Hi = K - 1;
  return rangedSym(key(C, 0x417), X, R);
}

/// __shfl*_sync(mask, v, ...): some other lane's v, so nothing of this
/// lane's value is kept but its range (a constant here may be this lane's
/// own, `threadIdx.x & 31` folded per thread).
std::optional<SymVal> Interp::laneValue(const CallExpr *C, const SymVal &V) {
  if (V.Top || V.isConst())
    return std::nullopt;
  Bound B = boundOf(V);
  if (!B.finiteLo() && !B.finiteHi())
    return std::nullopt;
  return rangedSym(key(C, 0x5f1), SymVal::top(), B);
}

namespace {

bool isValueCollective(const FunctionDecl *F) {
  if (!F || !F->getIdentifier())
    return false;
  StringRef N = F->getName();
  if (N != "reduce" && N != "inclusive_scan" && N != "exclusive_scan")
    return false;
  // cooperative_groups::__v1::reduce: the ABI namespace is not inline.
  std::string Q = qualifiedName(F);
  return StringRef(Q).starts_with("cooperative_groups::") &&
         !StringRef(Q).contains("details::");
}

} // namespace

std::optional<SymVal> Interp::collectiveValue(const CallExpr *C) {
  if (!isValueCollective(C->getDirectCallee()))
    return std::nullopt;
  for (const Expr *A : C->arguments()) {
    const Expr *E = A->IgnoreParenImpCasts();
    if (const auto *M = dyn_cast<MaterializeTemporaryExpr>(E)) {
      evalAny(M->getSubExpr()); // a value computed for the call
      continue;
    }
    if (E->isGLValue() && E->getType()->isArithmeticType()) {
      load(E);
      continue;
    }
    // The group and the operator; anything else is handed over.
    evalAny(A);
    skipArraysNamedBy({A}, SkipReason::OpaqueCallee);
  }
  return SymVal::top();
}

} // namespace cgt::smem::detail
