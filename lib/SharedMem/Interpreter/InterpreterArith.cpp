//===- InterpreterArith.cpp - arithmetic and comparison of values ---------===//
//
// One binary operation on two symbolic values of a thread: constants fold;
// sums, differences and products by constants stay linear forms (SymVal);
// masks, modulo, min and max of unknowns become ranged symbols
// (InterpreterRanges.cpp, rangedOp); any other operation of unknowns is an
// opaque symbol keyed by its site, lane-dependent when an operand is. A
// comparison also says whether it holds in every interior block
// (SymVal::Interior), which the overflow check uses to call a guard
// definite, and whether it is known to split the blocks of a grid
// (SymVal::BlockDep: derived from blockIdx and compared with constants
// only), which grid barriers ask. Expressions are walked in
// InterpreterExpr.cpp.
//
//===----------------------------------------------------------------------===//
#include "SharedMem/Interpreter/InterpreterState.h"

using namespace clang;

namespace cgt::smem::detail {

uint64_t Interp::opKey(BinaryOperatorKind Op, const void *Site) const {
  // Every caller's site is the operator (compound assignments included).
  const auto *BO = static_cast<const BinaryOperator *>(Site);
  QualType T = BO ? BO->getLHS()->getType() : QualType();
  bool Int = !T.isNull() && T->isIntegerType();
  unsigned Width = Int ? static_cast<unsigned>(Ctx.getIntWidth(T)) : 0;
  bool Unsigned = Int && T->isUnsignedIntegerType();
  return static_cast<uint64_t>(llvm::hash_combine(static_cast<unsigned>(Op), Width,
                                                  Unsigned, 0x0b5eu));
}

SymVal Interp::arith(BinaryOperatorKind Op, const SymVal &A, const SymVal &B,
             const void *Site) {
  if (auto R = rangedOp(Op, A, B, Site))
    return *R;
  if (A.Top || B.Top)
    return SymVal::top();
  uint64_t K = opKey(Op, Site);
  auto CA = A.asConst(), CB = B.asConst();
  SymVal R;
  switch (Op) {
  case BO_Add:
    return add(A, B);
  case BO_Sub:
    return sub(A, B);
  case BO_Mul: {
    SymVal M = mul(A, B, K);
    if (!CA && !CB) {
      classify(M, A, B);
      inheritLane(M, A, B);
      noteDepth(M, A, B);
    }
    return M;
  }
  case BO_Shl:
    if (CB && *CB >= 0 && *CB < 62)
      return scale(A, int64_t(1) << *CB);
    return opq(K, A, B);
  default:
    break;
  }
  if (!CA || !CB)
    return opq(K, A, B);
  int64_t X = *CA, Y = *CB;
  switch (Op) {
  case BO_Div:
    if (Y == 0)
      return SymVal::top();
    R = SymVal::constant(X / Y);
    break;
  case BO_Rem:
    if (Y == 0)
      return SymVal::top();
    R = SymVal::constant(X % Y);
    break;
  case BO_Shr:
    if (Y < 0 || Y >= 63)
      return SymVal::top();
    R = SymVal::constant(X >> Y);
    break;
  case BO_And:
    R = SymVal::constant(X & Y);
    break;
  case BO_Or:
    R = SymVal::constant(X | Y);
    break;
  case BO_Xor:
    R = SymVal::constant(X ^ Y);
    break;
  case BO_LT: R = SymVal::constant(X < Y); break;
  case BO_GT: R = SymVal::constant(X > Y); break;
  case BO_LE: R = SymVal::constant(X <= Y); break;
  case BO_GE: R = SymVal::constant(X >= Y); break;
  case BO_EQ: R = SymVal::constant(X == Y); break;
  case BO_NE: R = SymVal::constant(X != Y); break;
  default:
    return SymVal::top();
  }
  R.ShapeDep = A.ShapeDep || B.ShapeDep;
  R.ThreadDep = A.ThreadDep || B.ThreadDep;
  R.BlockDep = A.BlockDep || B.BlockDep;
  return R;
}

SymVal Interp::compare(BinaryOperatorKind Op, const SymVal &A, const SymVal &B,
               const void *Site) {
  if (A.isConst() && B.isConst())
    return arith(Op, A, B, Site);
  if (A.sameTerms(B)) { // difference is a constant: decide on it
    SymVal R = arith(Op, SymVal::constant(A.C), SymVal::constant(B.C), Site);
    R.ThreadDep = A.ThreadDep || B.ThreadDep;
    R.BlockDep = A.BlockDep || B.BlockDep;
    return R;
  }
  if (!A.Top && !B.Top) {
    // The ranges of the difference's symbols may decide it.
    Bound D = boundOf(sub(A, B));
    std::optional<bool> T;
    if (D.finiteHi() && D.Hi < 0)
      T = Op == BO_LT || Op == BO_LE || Op == BO_NE;
    else if (D.finiteLo() && D.Lo > 0)
      T = Op == BO_GT || Op == BO_GE || Op == BO_NE;
    else if (D.finiteHi() && D.Hi == 0 && (Op == BO_LE || Op == BO_GT))
      T = Op == BO_LE;
    else if (D.finiteLo() && D.Lo == 0 && (Op == BO_GE || Op == BO_LT))
      T = Op == BO_GE;
    if (T) {
      SymVal R = SymVal::constant(*T);
      R.ThreadDep = A.ThreadDep || B.ThreadDep;
      R.BlockDep = A.BlockDep || B.BlockDep;
      return R;
    }
  }
  SymVal R = opq(opKey(Op, Site), A, B);
  if (!A.Top && !B.Top) {
    SymVal D = sub(A, B);
    R.Interior = interiorTruth(Op, D);
    // `blockIdx.x < n`: whether blocks fall on both sides depends on the
    // problem size and the grid, not on the code (a grid sized to the
    // problem keeps every block on one side). Only a comparison with
    // constants (`blockIdx.x == 0`, `b % 2 == 0`) is known to split them.
    if (R.BlockDep && llvm::any_of(D.Terms, [&](const auto &T) {
          return ParamSyms.count(T.first) > 0;
        }))
      R.BlockDep = false;
  }
  return R;
}

} // namespace cgt::smem::detail
