//===- InterpreterRanges.cpp - ranges of unknown values ---------------------===//
//
// What is known of a symbol that is not a constant: an interval [Lo, Hi] per
// symbol (per thread, narrowed by the conditions on the path) and whether the
// bound is attainable for some data or only for some value of a kernel
// parameter (ParamSyms). The model: masks, modulo, shifts and divisions by a
// constant bound their result whatever the operand; comparisons narrow the one
// symbol of `L - R` (a loop's iteration count first); a linear form is bounded
// by interval arithmetic over its symbols. The interior-block rule decides
// comparisons of a global coordinate with a problem size.
//
//===----------------------------------------------------------------------===//
#include "SharedMem/Interpreter/InterpreterState.h"

using namespace clang;

namespace cgt::smem::detail {

/// An opaque result; one computed from kernel parameters only is a
/// parameter value itself (a bound it reaches depends on the parameter).
SymVal Interp::opq(uint64_t Key, const SymVal &A, const SymVal &B) {
  SymVal R = opaque(Key, A, B);
  classify(R, A, B);
  inheritLane(R, A, B);
  noteDepth(R, A, B);
  return R;
}

unsigned Interp::symDepth(const SymVal &V) const {
  unsigned D = 0;
  for (const auto &T : V.Terms)
    if (auto It = SymDepth.find(T.first); It != SymDepth.end())
      D = std::max(D, It->second);
  return D;
}

void Interp::noteDepth(const SymVal &R, const SymVal &A, const SymVal &B) {
  if (R.Terms.size() != 1)
    return;
  unsigned D = std::max(symDepth(A), symDepth(B));
  if (D == 0)
    return;
  unsigned &Slot = SymDepth[R.Terms[0].first];
  Slot = std::max(Slot, D);
}

void Interp::noteDepthHere(const SymVal &R) {
  if (R.Terms.size() != 1 || Iters.empty())
    return;
  unsigned &Slot = SymDepth[R.Terms[0].first];
  Slot = std::max(Slot, static_cast<unsigned>(Iters.size()));
}

bool Interp::hasLaneTerm(const SymVal &V) const {
  return llvm::any_of(V.Terms, [&](const auto &T) { return LaneSyms.count(T.first) > 0; });
}

void Interp::inheritLane(const SymVal &R, const SymVal &A, const SymVal &B) {
  if (R.Terms.size() == 1 && (hasLaneTerm(A) || hasLaneTerm(B)))
    LaneSyms.insert(R.Terms[0].first);
}

void Interp::classify(const SymVal &R, const SymVal &A, const SymVal &B) {
  if (R.Top || R.Terms.size() != 1 || (A.Terms.empty() && B.Terms.empty()))
    return;
  for (const SymVal *X : {&A, &B})
    for (const auto &T : X->Terms)
      if (!ParamSyms.count(T.first))
        return;
  ParamSyms.insert(R.Terms[0].first);
}

int64_t Interp::satAdd(int64_t A, int64_t B) {
  int64_t R;
  if (__builtin_add_overflow(A, B, &R))
    return B > 0 ? INT64_MAX : INT64_MIN;
  return R;
}

/// Range of a linear form from the ranges of its symbols.
Bound Interp::boundOf(const SymVal &V) {
  Bound B;
  if (V.Top)
    return B;
  B.Lo = B.Hi = V.C;
  B.Attainable = true;
  for (const auto &[Id, Coef] : V.Terms) {
    auto It = SymRanges.find(Id);
    Bound S = It != SymRanges.end() ? It->second : Bound();
    if (It == SymRanges.end())
      S.Attainable = !ParamSyms.count(Id);
    B.Attainable &= S.Attainable;
    auto mulSat = [](int64_t X, int64_t C) -> int64_t {
      if (X == INT64_MIN || X == INT64_MAX)
        return (X > 0) == (C > 0) ? INT64_MAX : INT64_MIN;
      int64_t R;
      if (__builtin_mul_overflow(X, C, &R))
        return (X > 0) == (C > 0) ? INT64_MAX : INT64_MIN;
      return R;
    };
    int64_t A = mulSat(S.Lo, Coef), Z = mulSat(S.Hi, Coef);
    if (A > Z)
      std::swap(A, Z);
    B.Lo = (B.Lo == INT64_MIN || A == INT64_MIN) ? INT64_MIN : satAdd(B.Lo, A);
    B.Hi = (B.Hi == INT64_MAX || Z == INT64_MAX) ? INT64_MAX : satAdd(B.Hi, Z);
  }
  return B;
}

/// A fresh symbol in [Lo, Hi]. Derived from a known operand it is keyed
/// by that operand (uniform stays uniform); from an unknown one it differs
/// per evaluation (lane-dependent unknown).
SymVal Interp::rangedSym(uint64_t Key, const SymVal &From, Bound R) {
  uint64_t Id = From.Top ? static_cast<uint64_t>(llvm::hash_combine(
                               Key, Tid, ++Fresh, 0xf7e5u)) | 1
                         : static_cast<uint64_t>(llvm::hash_combine(
                               Key, From.hash(), 0x7a9u)) | 1;
  SymVal V = SymVal::symbol(Id);
  if (From.Top || hasLaneTerm(From))
    LaneSyms.insert(Id);
  if (From.Top)
    noteDepthHere(V);
  else
    noteDepth(V, From, SymVal());
  V.ThreadDep = From.Top || From.ThreadDep;
  V.BlockDep = !From.Top && From.BlockDep;
  V.ShapeDep = From.ShapeDep;
  if (!From.Top) {
    bool Param = !From.Terms.empty();
    for (const auto &T : From.Terms)
      Param &= ParamSyms.count(T.first) > 0;
    if (Param)
      ParamSyms.insert(Id);
  }
  SymRanges[Id] = R;
  return V;
}

/// `(32*b + t) % 2` is `t % 2` whatever b: a residue modulo K (or a mask
/// K = 2^n - 1) of a value whose symbols all have coefficients divisible by
/// the modulus is that of its constant part. `%` needs the value
/// non-negative (C++ rounds toward zero): a known lower bound or an unsigned
/// operation; a mask does not.
/// `C + sum(k_i * blockIdx_i)` with C, k_i >= 0 (a global coordinate such as
/// `blockDim.x * blockIdx.x + threadIdx.x` under a known shape) is never
/// negative, even in a signed `int`: blockIdx has no range of its own.
bool Interp::globalCoordinate(const SymVal &X) const {
  if (X.Top || X.C < 0)
    return false;
  for (const auto &[Id, Coef] : X.Terms)
    if (Coef < 0 || !BlockSyms.count(Id))
      return false;
  return true;
}

std::optional<int64_t> Interp::residue(BinaryOperatorKind Op, const SymVal &X,
                                       const Bound &XB, int64_t K, bool Unsigned) {
  if (X.Top || K <= 0 || X.Terms.empty())
    return std::nullopt;
  int64_t M = 0;
  if (Op == BO_Rem && (Unsigned || (XB.finiteLo() && XB.Lo >= 0) || globalCoordinate(X)))
    M = K;
  else if (Op == BO_And && K < INT64_MAX && ((K + 1) & K) == 0)
    M = K + 1;
  if (M <= 1)
    return std::nullopt;
  for (const auto &T : X.Terms)
    if (T.second % M != 0)
      return std::nullopt;
  return ((X.C % M) + M) % M;
}

/// Masks, modulo, shifts and divisions by constants of a value that is not
/// a constant: `data & 63` lies in [0, 63] whatever the data.
std::optional<SymVal> Interp::rangedOp(BinaryOperatorKind Op, const SymVal &A,
                               const SymVal &B, const void *Site) {
  bool AC = A.isConst(), BC = B.isConst();
  if (AC == BC)
    return std::nullopt;
  const SymVal &X = AC ? B : A;
  int64_t K = AC ? A.C : B.C;
  bool Commutes = Op == BO_And || Op == BO_Or || Op == BO_Xor;
  if (AC && !Commutes) // only `x op K` has the constant on the right
    return std::nullopt;
  Bound XB = boundOf(X);
  // Every caller's site is the operator (compound assignments included); an
  // unsigned operation's left operand is never negative.
  const auto *BO = static_cast<const BinaryOperator *>(Site);
  bool Unsigned = BO && BO->getLHS()->getType()->isUnsignedIntegerType();
  if (auto Folded = residue(Op, X, XB, K, Unsigned)) {
    SymVal R = SymVal::constant(*Folded);
    R.ShapeDep = X.ShapeDep; // `blockDim.x * b` is a multiple only of that shape
    return R;
  }
  bool XAtt = X.Top || XB.Attainable;
  Bound R;
  R.Attainable = XAtt;
  switch (Op) {
  case BO_And:
    if (K < 0)
      return std::nullopt;
    R.Lo = 0;
    R.Hi = (XB.finiteLo() && XB.Lo >= 0 && XB.finiteHi()) ? std::min(K, XB.Hi) : K;
    break;
  case BO_Rem:
    if (K <= 0)
      return std::nullopt;
    // Indices are taken modulo a size from non-negative values; a negative
    // dividend is not assumed.
    R.Lo = 0;
    R.Hi = (XB.finiteLo() && XB.Lo >= 0 && XB.finiteHi()) ? std::min(K - 1, XB.Hi)
                                                         : K - 1;
    break;
  case BO_Or:
  case BO_Xor:
    if (!rangeOfBits(Op, XB, XAtt, K, R))
      return std::nullopt;
    break;
  case BO_Shr:
  case BO_Div:
    if (K < 0 || (Op == BO_Div && K == 0) || (Op == BO_Shr && K >= 63))
      return std::nullopt;
    if (!XB.finiteLo() || !XB.finiteHi())
      return std::nullopt;
    R.Lo = Op == BO_Shr ? XB.Lo >> K : XB.Lo / K;
    R.Hi = Op == BO_Shr ? XB.Hi >> K : XB.Hi / K;
    break;
  default:
    return std::nullopt;
  }
  return rangedSym(opKey(Op, Site), X, R);
}

/// `x | K` and `x ^ K` for x in [Lo, Hi] with Lo >= 0: the result keeps x's
/// bits below the top bit of Hi and takes K's above, so it lies within
/// [K & ~M, K | M] with M = Hi with every lower bit set (`(v & 7) | 32` is in
/// [32, 39]). The bound is reached when x takes every value of [0, M] (a mask
/// of data); otherwise it only proves accesses in bounds.
bool Interp::rangeOfBits(BinaryOperatorKind Op, const Bound &XB, bool XAtt,
                         int64_t K, Bound &R) {
  if (K < 0 || !XB.finiteLo() || XB.Lo < 0 || !XB.finiteHi() ||
      XB.Hi >= (int64_t(1) << 62))
    return false;
  int64_t M = XB.Hi;
  for (int Shift = 1; Shift < 64; Shift <<= 1)
    M |= M >> Shift;
  R.Lo = Op == BO_Or ? std::max(XB.Lo, K) : K & ~M;
  R.Hi = K | M;
  R.Attainable = XAtt && XB.Lo == 0 && XB.Hi == M;
  return true;
}

/// A value of a narrow integer type that is otherwise unknown lies in the
/// type's range (`unsigned char c = data[i]`). The bound proves accesses
/// in bounds; it is not taken as reached (a byte often holds a small code
/// the program knows the range of), so past it is only "possible".
SymVal Interp::typeBounded(SymVal V, QualType T, const void *Site) {
  if (V.isConst() || !T->isIntegerType() || T->isBooleanType())
    return V;
  unsigned W = Ctx.getIntWidth(T);
  if (W > 16)
    return V;
  Bound R;
  R.Attainable = true;
  if (T->isUnsignedIntegerType()) {
    R.Lo = 0;
    R.Hi = (int64_t(1) << W) - 1;
  } else {
    R.Lo = -(int64_t(1) << (W - 1));
    R.Hi = (int64_t(1) << (W - 1)) - 1;
  }
  Bound Old = boundOf(V);
  if (!V.Top && Old.finiteLo() && Old.finiteHi() && Old.Lo >= R.Lo && Old.Hi <= R.Hi)
    return V; // already within the type
  R.Attainable = false;
  return rangedSym(key(Site, 0x7e), V, R);
}

/// Interior blocks of a large enough problem: a comparison of a global
/// coordinate (a blockIdx term) with a kernel parameter (a problem size)
/// holds as `coordinate < size`; one with a constant as `coordinate >
/// constant`. -1 when the difference has other unknowns.
int8_t Interp::interiorTruth(BinaryOperatorKind Op, const SymVal &D) {
  int PSign = 0, BSign = 0;
  for (const auto &[Id, Coef] : D.Terms) {
    int Sg = Coef > 0 ? 1 : -1;
    int &Slot = BlockSyms.count(Id) ? BSign : ParamSyms.count(Id) ? PSign : BSign;
    if (!BlockSyms.count(Id) && !ParamSyms.count(Id))
      return -1;
    if (Slot && Slot != Sg)
      return -1;
    Slot = Sg;
  }
  if (!BSign)
    return -1; // no global coordinate: depends on the parameter's value
  int Sign = PSign ? PSign : BSign;
  switch (Op) {
  case BO_LT: case BO_LE: return Sign < 0;
  case BO_GT: case BO_GE: return Sign > 0;
  case BO_EQ: return 0;
  case BO_NE: return 1;
  default: return -1;
  }
}

/// Narrows the range of the one symbol of `L - R` when `L op R` is known
/// to be `Holds` (inside a branch or a loop body).
void Interp::narrow(const Expr *Cond, bool Holds) {
  const auto *B = dyn_cast<BinaryOperator>(Cond->IgnoreParenImpCasts());
  if (!B)
    return;
  if (B->getOpcode() == BO_LAnd && Holds) {
    narrow(B->getLHS(), true);
    narrow(B->getRHS(), true);
    return;
  }
  if (B->getOpcode() == BO_LOr && !Holds) {
    narrow(B->getLHS(), false);
    narrow(B->getRHS(), false);
    return;
  }
  if (!B->isComparisonOp() || B->getLHS()->HasSideEffects(Ctx) ||
      B->getRHS()->HasSideEffects(Ctx) || B->getLHS()->getType()->isPointerType())
    return;
  bool SavedNR = NoRecord;
  NoRecord = true;
  SymVal D = sub(eval(B->getLHS()), eval(B->getRHS()));
  NoRecord = SavedNR;
  if (D.Top || D.Terms.empty())
    return;
  BinaryOperatorKind Op = B->getOpcode();
  if (!Holds)
    Op = BinaryOperator::negateComparisonOp(Op);
  // The symbol to narrow: a loop's iteration count if there is one, else
  // the only symbol; the rest of the difference contributes its range.
  size_t Pick = 0;
  if (D.Terms.size() > 1) {
    Pick = D.Terms.size();
    for (size_t I = 0; I < D.Terms.size(); ++I)
      if (IterSyms.count(D.Terms[I].first))
        Pick = I;
    if (Pick == D.Terms.size())
      return;
  }
  auto [Id, A] = D.Terms[Pick];
  SymVal Rest = D;
  Rest.Terms.erase(Rest.Terms.begin() + Pick);
  Rest.C = 0;
  Bound RB = boundOf(Rest);
  int64_t C = D.C;
  // A*s + C op 0  ->  bounds on s.
  auto floorDiv = [](int64_t N, int64_t M) {
    int64_t Q = N / M;
    return (N % M != 0 && ((N < 0) != (M < 0))) ? Q - 1 : Q;
  };
  auto ceilDiv = [&](int64_t N, int64_t M) { return -floorDiv(-N, M); };
  std::optional<int64_t> Hi, Lo;
  // Normalise to A*s op' -C with A > 0.
  // A*s + Rest + C op 0 with Rest in [RB.Lo, RB.Hi]; negated when A < 0.
  if (A < 0) {
    A = -A;
    C = -C;
    Op = BinaryOperator::reverseComparisonOp(Op);
    int64_t L = RB.Hi == INT64_MAX ? INT64_MIN : -RB.Hi;
    int64_t H = RB.Lo == INT64_MIN ? INT64_MAX : -RB.Lo;
    RB.Lo = L;
    RB.Hi = H;
  }
  bool Small = std::abs(C) < (int64_t(1) << 40);
  if (!Small)
    return;
  switch (Op) {
  case BO_LT:
  case BO_LE:
    if (Rest.Terms.empty() || RB.finiteLo())
      Hi = floorDiv(-C - (Rest.Terms.empty() ? 0 : RB.Lo) - (Op == BO_LT), A);
    break;
  case BO_GT:
  case BO_GE:
    if (Rest.Terms.empty() || RB.finiteHi())
      Lo = ceilDiv(-C - (Rest.Terms.empty() ? 0 : RB.Hi) + (Op == BO_GT), A);
    break;
  default:
    return;
  }
  bool Had = SymRanges.count(Id);
  Bound &R = SymRanges[Id];
  if (!Had)
    R.Attainable = !ParamSyms.count(Id);
  if (!Rest.Terms.empty())
    R.Attainable &= RB.Attainable;
  if (Hi && *Hi < R.Hi)
    R.Hi = *Hi;
  if (Lo && *Lo > R.Lo)
    R.Lo = *Lo;
}

} // namespace cgt::smem::detail
