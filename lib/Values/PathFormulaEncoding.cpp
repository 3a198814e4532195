//===- PathFormulaEncoding.cpp - C++ scalars as bit-vector terms ----------===//
//
// Each scalar is a bit-vector of its type's width, signedness carried with
// it (Val), so that comparisons and division pick the signed or unsigned
// operator as C++ does after the usual conversions; bools are SMT booleans
// converted at the edges; pointers are their address bits. What cannot be
// encoded (floating point, records, calls the formula does not know) is
// nullopt, and a condition on it is assumed nothing about: the formula may
// only lose constraints, never invent them. The model is in PathFormula.h.
//
//===----------------------------------------------------------------------===//
#include "Values/PathFormula.h"

#include "clang/AST/ExprCXX.h"

using namespace clang;

namespace cgt {
namespace values {

bool PathFormula::scalarShape(QualType T, unsigned &Width, bool &Signed) const {
  T = T.getNonReferenceType().getCanonicalType();
  if (T->isBooleanType()) {
    Width = 0;
    Signed = false;
    return true;
  }
  if (T->isIntegralOrEnumerationType() || T->isAnyPointerType() || T->isNullPtrType()) {
    if (T->isEnumeralType() && !cast<EnumType>(T)->getDecl()->isComplete())
      return false;
    Width = static_cast<unsigned>(Ctx.getTypeSize(T));
    Signed = T->isSignedIntegerOrEnumerationType();
    return Width > 0 && Width <= 128;
  }
  return false;
}

std::optional<PathFormula::Val> PathFormula::fresh(QualType T) {
  unsigned W;
  bool Sg;
  if (!scalarShape(T, W, Sg))
    return std::nullopt;
  std::string Name = "v" + std::to_string(Fresh++);
  return Val{Solver->mkSymbol(Name.c_str(), W == 0 ? Solver->getBoolSort()
                                                   : Solver->getBitvectorSort(W)),
             W, Sg};
}

std::optional<PathFormula::Val> PathFormula::constant(const llvm::APSInt &V, QualType T) {
  unsigned W;
  bool Sg;
  if (!scalarShape(T, W, Sg))
    return std::nullopt;
  if (W == 0)
    return Val{Solver->mkBoolean(V.getBoolValue()), 0, false};
  llvm::APSInt Bits(V.extOrTrunc(W), /*isUnsigned=*/true);
  return Val{Solver->mkBitvector(Bits, W), W, Sg};
}

llvm::SMTExprRef PathFormula::asBool(const Val &V) {
  if (V.Width == 0)
    return V.E;
  llvm::SMTExprRef Zero = Solver->mkBitvector(llvm::APSInt(llvm::APInt(V.Width, 0)), V.Width);
  return Solver->mkNot(Solver->mkEqual(V.E, Zero));
}

PathFormula::Val PathFormula::asBits(const Val &V, unsigned Width, bool Signed) {
  if (V.Width == 0) {
    llvm::SMTExprRef One = Solver->mkBitvector(llvm::APSInt(llvm::APInt(Width, 1)), Width);
    llvm::SMTExprRef Zero = Solver->mkBitvector(llvm::APSInt(llvm::APInt(Width, 0)), Width);
    return {Solver->mkIte(V.E, One, Zero), Width, Signed};
  }
  if (V.Width == Width)
    return {V.E, Width, Signed};
  if (V.Width < Width)
    return {V.Signed ? Solver->mkBVSignExt(Width - V.Width, V.E)
                     : Solver->mkBVZeroExt(Width - V.Width, V.E),
            Width, Signed};
  return {Solver->mkBVExtract(Width - 1, 0, V.E), Width, Signed};
}

std::optional<PathFormula::Val> PathFormula::read(const Expr *LValue) {
  std::optional<PlaceId> P = placeOf(LValue);
  if (!P)
    return fresh(LValue->getType());
  if (auto It = Env.find(*P); It != Env.end())
    return It->second;
  std::optional<Val> V = fresh(LValue->getType());
  if (V)
    write(*P, V, /*FirstRead=*/true); // what the path reads first, it reads again
  return V;
}

std::optional<PathFormula::Val> PathFormula::encodeCast(const CastExpr *CE) {
  const Expr *Sub = CE->getSubExpr();
  switch (CE->getCastKind()) {
  case CK_LValueToRValue:
    return read(Sub);
  case CK_NoOp:
  case CK_IntegralCast:
  case CK_IntegralToBoolean:
  case CK_PointerToBoolean:
  case CK_NullToPointer:
  case CK_BitCast:
  case CK_IntegralToPointer:
  case CK_PointerToIntegral:
  case CK_BooleanToSignedIntegral:
    break;
  default:
    return fresh(CE->getType());
  }
  std::optional<Val> V = encode(Sub);
  unsigned W;
  bool Sg;
  if (!V || !scalarShape(CE->getType(), W, Sg))
    return fresh(CE->getType());
  if (W == 0)
    return Val{asBool(*V), 0, false};
  return asBits(*V, W, Sg);
}

/// A product, quotient, remainder or shift of two values neither of which
/// is a constant (`nx * ny`, `iter % nccheck`): non-linear bit-vector
/// arithmetic, which costs Z3 tens of milliseconds a query on a long host
/// function where every size computation is one, and is never what decides
/// a lifetime report's path. Such a term is unknown (a fresh symbol).
bool PathFormula::nonLinear(const BinaryOperator *BO) const {
  switch (BO->getOpcode()) {
  case BO_Mul:
  case BO_Div:
  case BO_Rem:
  case BO_Shl:
  case BO_Shr:
    break;
  default:
    return false;
  }
  auto IsConstant = [&](const Expr *E) {
    return !E->isValueDependent() && E->isIntegerConstantExpr(Ctx);
  };
  return !IsConstant(BO->getLHS()) && !IsConstant(BO->getRHS());
}

std::optional<PathFormula::Val> PathFormula::encodeBinary(const BinaryOperator *BO) {
  BinaryOperator::Opcode Op = BO->getOpcode();
  if (BO->isAssignmentOp())
    return read(BO->getLHS()); // the element for it is already applied
  if (Op == BO_Comma)
    return encode(BO->getRHS());
  std::optional<Val> L = encode(BO->getLHS()), R = encode(BO->getRHS());
  if (!L || !R)
    return fresh(BO->getType());
  if (BO->isLogicalOp()) {
    llvm::SMTExprRef A = asBool(*L), B = asBool(*R);
    return Val{Op == BO_LAnd ? Solver->mkAnd(A, B) : Solver->mkOr(A, B), 0, false};
  }
  if (BO->isComparisonOp()) {
    if (L->Width == 0 && R->Width == 0 && BO->isEqualityOp()) {
      llvm::SMTExprRef Eq = Solver->mkEqual(L->E, R->E);
      return Val{Op == BO_EQ ? Eq : Solver->mkNot(Eq), 0, false};
    }
    unsigned W = std::max({L->Width, R->Width, 1u});
    QualType OT = BO->getLHS()->getType();
    bool Sg = OT->isSignedIntegerOrEnumerationType();
    Val A = asBits(*L, W, L->Signed), B = asBits(*R, W, R->Signed);
    llvm::SMTExprRef E = nullptr;
    switch (Op) {
    case BO_EQ: E = Solver->mkEqual(A.E, B.E); break;
    case BO_NE: E = Solver->mkNot(Solver->mkEqual(A.E, B.E)); break;
    case BO_LT: E = Sg ? Solver->mkBVSlt(A.E, B.E) : Solver->mkBVUlt(A.E, B.E); break;
    case BO_GT: E = Sg ? Solver->mkBVSgt(A.E, B.E) : Solver->mkBVUgt(A.E, B.E); break;
    case BO_LE: E = Sg ? Solver->mkBVSle(A.E, B.E) : Solver->mkBVUle(A.E, B.E); break;
    case BO_GE: E = Sg ? Solver->mkBVSge(A.E, B.E) : Solver->mkBVUge(A.E, B.E); break;
    default: return fresh(BO->getType());
    }
    return Val{E, 0, false};
  }
  unsigned W;
  bool Sg;
  if (!BO->getType()->isIntegralOrEnumerationType() || !scalarShape(BO->getType(), W, Sg) ||
      W == 0)
    return fresh(BO->getType()); // pointer arithmetic, floats
  if (nonLinear(BO))
    return fresh(BO->getType());
  if (std::optional<Val> V = arithmetic(Op, asBits(*L, W, Sg), asBits(*R, W, Sg)))
    return V;
  return fresh(BO->getType());
}

/// `A op B` on two bit-vectors of one width and signedness; none for an
/// operator without a bit-vector counterpart.
std::optional<PathFormula::Val> PathFormula::arithmetic(BinaryOperator::Opcode Op, const Val &A,
                                                        const Val &B) {
  bool Sg = A.Signed;
  llvm::SMTExprRef E = nullptr;
  switch (Op) {
  case BO_Add: E = Solver->mkBVAdd(A.E, B.E); break;
  case BO_Sub: E = Solver->mkBVSub(A.E, B.E); break;
  case BO_Mul: E = Solver->mkBVMul(A.E, B.E); break;
  case BO_Div: E = Sg ? Solver->mkBVSDiv(A.E, B.E) : Solver->mkBVUDiv(A.E, B.E); break;
  case BO_Rem: E = Sg ? Solver->mkBVSRem(A.E, B.E) : Solver->mkBVURem(A.E, B.E); break;
  case BO_And: E = Solver->mkBVAnd(A.E, B.E); break;
  case BO_Or: E = Solver->mkBVOr(A.E, B.E); break;
  case BO_Xor: E = Solver->mkBVXor(A.E, B.E); break;
  case BO_Shl: E = Solver->mkBVShl(A.E, B.E); break;
  case BO_Shr: E = Sg ? Solver->mkBVAshr(A.E, B.E) : Solver->mkBVLshr(A.E, B.E); break;
  default: return std::nullopt;
  }
  return Val{E, A.Width, Sg};
}

std::optional<PathFormula::Val> PathFormula::encode(const Expr *E) {
  E = E->IgnoreParens();
  if (const auto *FE = dyn_cast<FullExpr>(E))
    return encode(FE->getSubExpr());
  if (const auto *MTE = dyn_cast<MaterializeTemporaryExpr>(E))
    return encode(MTE->getSubExpr());
  if (isa<CallExpr>(E)) {
    if (auto It = CallValues.find(E); It != CallValues.end())
      return It->second;
    return fresh(E->getType());
  }
  if (const auto *CE = dyn_cast<CastExpr>(E)) {
    if (isa<ImplicitCastExpr>(CE) || isa<CStyleCastExpr, CXXStaticCastExpr, CXXFunctionalCastExpr>(CE))
      return encodeCast(CE);
    return fresh(E->getType());
  }
  if (isa<CXXNullPtrLiteralExpr, GNUNullExpr>(E))
    return constant(llvm::APSInt(llvm::APInt(64, 0)), E->getType());
  if (const auto *UO = dyn_cast<UnaryOperator>(E)) {
    switch (UO->getOpcode()) {
    case UO_LNot:
      if (std::optional<Val> V = encode(UO->getSubExpr()))
        return Val{Solver->mkNot(asBool(*V)), 0, false};
      return fresh(E->getType());
    case UO_Minus:
    case UO_Not: {
      std::optional<Val> V = encode(UO->getSubExpr());
      unsigned W;
      bool Sg;
      if (!V || !scalarShape(E->getType(), W, Sg) || W == 0)
        return fresh(E->getType());
      Val B = asBits(*V, W, Sg);
      return Val{UO->getOpcode() == UO_Minus ? Solver->mkBVNeg(B.E) : Solver->mkBVNot(B.E), W, Sg};
    }
    case UO_Plus:
      return encode(UO->getSubExpr());
    case UO_PreInc:
    case UO_PreDec:
      return read(UO->getSubExpr());
    case UO_PostInc:
    case UO_PostDec: {
      std::optional<Val> Now = read(UO->getSubExpr());
      if (!Now || Now->Width == 0 || !UO->getSubExpr()->getType()->isIntegerType())
        return fresh(E->getType());
      llvm::SMTExprRef One = Solver->mkBitvector(llvm::APSInt(llvm::APInt(Now->Width, 1)), Now->Width);
      return Val{UO->getOpcode() == UO_PostInc ? Solver->mkBVSub(Now->E, One)
                                               : Solver->mkBVAdd(Now->E, One),
                 Now->Width, Now->Signed};
    }
    default:
      return fresh(E->getType());
    }
  }
  if (const auto *BO = dyn_cast<BinaryOperator>(E))
    return encodeBinary(BO);
  if (const auto *CO = dyn_cast<ConditionalOperator>(E)) {
    std::optional<Val> C = encode(CO->getCond()), T = encode(CO->getTrueExpr()),
                       F = encode(CO->getFalseExpr());
    unsigned W;
    bool Sg;
    if (!C || !T || !F || !scalarShape(E->getType(), W, Sg))
      return fresh(E->getType());
    if (W == 0)
      return Val{Solver->mkIte(asBool(*C), asBool(*T), asBool(*F)), 0, false};
    return Val{Solver->mkIte(asBool(*C), asBits(*T, W, Sg).E, asBits(*F, W, Sg).E), W, Sg};
  }
  if (const auto *DRE = dyn_cast<DeclRefExpr>(E))
    if (const auto *ECD = dyn_cast<EnumConstantDecl>(DRE->getDecl()))
      return constant(ECD->getInitVal(), E->getType());
  Expr::EvalResult R;
  if (!E->isValueDependent() && !E->isTypeDependent() && E->isPRValue() &&
      E->EvaluateAsInt(R, Ctx))
    return constant(R.Val.getInt(), E->getType());
  return fresh(E->getType());
}

bool PathFormula::assume(const Expr *Cond, bool Value, bool *Unchecked) {
  bool Constant;
  if (!Cond->isValueDependent() && Cond->EvaluateAsBooleanCondition(Constant, Ctx)) {
    // `while (0)`, `if (kDebug)`: decided here, not by a query.
    Solver->push();
    ++Scopes;
    return Constant == Value;
  }
  if (!assumeUnchecked(Cond, Value))
    return true; // nothing added: the decision costs no query
  if (!feasible())
    return false;
  if (Unchecked)
    *Unchecked = false; // the query checked every earlier decision too
  return true;
}

bool PathFormula::assumeUnchecked(const Expr *Cond, bool Value) {
  Solver->push();
  ++Scopes;
  std::optional<Val> V = encode(Cond);
  if (!V)
    return false;
  llvm::SMTExprRef C = asBool(*V);
  Solver->addConstraint(Value ? C : Solver->mkNot(C));
  return true;
}

bool PathFormula::feasible() {
  ++Queries;
  std::optional<bool> Sat = Solver->check();
  return !Sat || *Sat; // unknown: an unknown never refutes
}

} // namespace values
} // namespace cgt
