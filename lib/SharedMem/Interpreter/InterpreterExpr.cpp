//===- InterpreterExpr.cpp - values of expressions --------------------------===//
//
// Evaluation of integer expressions for one thread: constants fold, the
// builtins come from InterpreterGeometry.cpp, variables from the thread's
// environment; binary operations are InterpreterArith.cpp's (linear forms,
// opaque and ranged symbols). Assignments update the environment; loads
// and stores through __shared__ locations are recorded (InterpreterMemory.cpp).
// Calls of __device__ functions of the file run in place (InterpreterCalls.cpp);
// other calls are opaque (Top) except atomic*() on a shared pointee and the
// intrinsics of InterpreterIntrinsics.cpp (min/max, bit counts, __umul24...).
//
//===----------------------------------------------------------------------===//
#include "SharedMem/Interpreter/InterpreterState.h"
#include <cstring>

#include "clang/AST/ExprCXX.h"

using namespace clang;

namespace cgt::smem::detail {

/// Asked once per expression and run: factsOf keeps the answer. Calls of
/// constexpr functions fold here (only definite side effects, assignments
/// and increments, are refused up front): ggml's `constexpr int nwarps =
/// ggml_cuda_mmq_get_nthreads(type, J)` and `if (mmq_get_config(...).type
/// == ...)` walk large constexpr tables, which the interpreter would
/// otherwise run in place for every thread (11K steps a call).
std::optional<int64_t> Interp::constantOf(const Expr *E) const {
  QualType T = E->getType();
  if (E->isValueDependent() || E->isTypeDependent() ||
      !T->isIntegralOrEnumerationType() ||
      E->HasSideEffects(Ctx, /*IncludePossibleEffects=*/false))
    return std::nullopt;
  Expr::EvalResult ER;
  if (E->EvaluateAsInt(ER, Ctx) && ER.Val.getInt().getSignificantBits() <= 64)
    return ER.Val.getInt().getExtValue();
  return std::nullopt;
}

Interp::ExprFacts Interp::factsOf(const Expr *E) {
  if (auto It = Facts.find(E); It != Facts.end())
    return It->second;
  ExprFacts F;
  F.Bare = E->IgnoreParens();
  F.Const = constantOf(F.Bare);
  if (!F.Const)
    std::tie(F.Var, F.Dim) = builtinOf(F.Bare);
  return Facts[E] = F;
}

const Interp::IntType &Interp::intType(QualType T) {
  auto [It, New] = IntTypes.try_emplace(T.getTypePtr());
  if (New) {
    IntType &I = It->second;
    I.Integral = T->isIntegralOrEnumerationType();
    I.Bool = T->isBooleanType();
    I.Unsigned = T->isUnsignedIntegerOrEnumerationType();
    I.Width = I.Integral ? static_cast<unsigned>(Ctx.getIntWidth(T)) : 0;
  }
  return It->second;
}

SymVal Interp::normalize(SymVal V, QualType T) {
  if (!V.isConst())
    return V;
  const IntType &I = intType(T);
  if (!I.Integral)
    return V;
  if (I.Bool) {
    V.C = V.C != 0;
    return V;
  }
  unsigned W = I.Width;
  if (W >= 64)
    return V;
  uint64_t Mask = (uint64_t(1) << W) - 1;
  uint64_t U = static_cast<uint64_t>(V.C) & Mask;
  if (I.Unsigned)
    V.C = static_cast<int64_t>(U);
  else
    V.C = (U >> (W - 1)) ? static_cast<int64_t>(U | ~Mask) : static_cast<int64_t>(U);
  return V;
}

Tri Interp::truth(const SymVal &V) {
  LastCondDep = V.Top || V.ThreadDep;
  LastCondBlock = !V.Top && V.BlockDep;
  LastCondShape = V.Top || V.ShapeDep;
  LastInterior = V.Interior;
  if (V.isConst())
    return V.C ? Tri::True : Tri::False;
  return Tri::Unknown;
}

SymVal Interp::evalAny(const Expr *E) {
  // Error recovery leaves expressions without a type (the ParenListExpr
  // under a RecoveryExpr of `UnknownType v(a, b);`): nothing to learn.
  if (!E || E->getType().isNull())
    return SymVal::top();
  QualType T = E->getType();
  if (T->isPointerType() || T->isArrayType()) {
    PtrVal P = evalPtr(E);
    (void)P;
    return SymVal::top();
  }
  return eval(E);
}

Interp::VarClass Interp::varClass(const VarDecl *V) {
  auto [It, New] = VarClasses.try_emplace(V, VarClass::Local);
  if (New) {
    if (V->hasAttr<CUDASharedAttr>())
      It->second = VarClass::Shared;
    else if (V->hasGlobalStorage())
      It->second = VarClass::Global;
    else if (isa<ParmVarDecl>(V))
      It->second = VarClass::Param;
  }
  return It->second;
}

SymVal Interp::loadVar(const VarDecl *V) {
  noteAccess(V);
  if (Escaped.count(V))
    return SymVal::top();
  auto It = Env.find(V);
  if (It != Env.end())
    return It->second;
  // Parameters, globals and __shared__ scalars are uniform over the block;
  // the first two are problem values (ParamSyms).
  VarClass Class = varClass(V);
  if (Class == VarClass::Local)
    return SymVal::top();
  uint64_t Id = key(V, 1) | 1;
  if (Class != VarClass::Shared)
    ParamSyms.insert(Id);
  return SymVal::symbol(Id);
}

SymVal Interp::eval(const Expr *E) {
  if (!step())
    return SymVal::top();
  const ExprFacts F = factsOf(E);
  if (F.Const)
    return SymVal::constant(*F.Const);
  if (F.Var != Builtin::None)
    return builtinValue(F.Var, F.Dim);
  E = F.Bare;
  if (const auto *CE = dyn_cast<CastExpr>(E))
    return evalCast(CE);
  if (const auto *U = dyn_cast<UnaryOperator>(E))
    return evalUnary(U);
  if (const auto *B = dyn_cast<BinaryOperator>(E))
    return evalBinary(B);
  if (const auto *C = dyn_cast<ConditionalOperator>(E))
    return evalConditional(C->getCond(), C->getTrueExpr(), C->getFalseExpr());
  if (const auto *FL = dyn_cast<FloatingLiteral>(E)) {
    // A value every thread has: keyed by the number, so that equal
    // literals are one value (floating-point values are never indices).
    double D = FL->getValueAsApproximateDouble();
    uint64_t Bits;
    static_assert(sizeof(Bits) == sizeof(D));
    std::memcpy(&Bits, &D, sizeof(D));
    return SymVal::symbol(static_cast<uint64_t>(llvm::hash_combine(Bits, 0xf1u)) | 1);
  }
  if (const auto *C = dyn_cast<CallExpr>(E))
    return evalCall(C);
  if (const auto *D = dyn_cast<DeclRefExpr>(E)) {
    if (const auto *V = dyn_cast<VarDecl>(D->getDecl()))
      return loadVar(V);
    return SymVal::top();
  }
  if (const auto *P = dyn_cast<PseudoObjectExpr>(E))
    return eval(P->getResultExpr() ? P->getResultExpr() : P->getSyntacticForm());
  if (const auto *EW = dyn_cast<ExprWithCleanups>(E))
    return eval(EW->getSubExpr());
  if (const auto *M = dyn_cast<MaterializeTemporaryExpr>(E))
    return eval(M->getSubExpr());
  if (const auto *CC = dyn_cast<CXXConstructExpr>(E)) {
    if (CC->getNumArgs() == 1 && CC->getConstructor() &&
        CC->getConstructor()->isCopyOrMoveConstructor())
      recordRead(CC->getArg(0));
    else
      for (const Expr *A : CC->arguments())
        evalAny(A);
    return SymVal::top();
  }
  if (isa<ArraySubscriptExpr>(E) || isa<MemberExpr>(E)) {
    // an lvalue used as such (reference binding, class copy)
    Loc L = resolve(E);
    (void)L;
    return SymVal::top();
  }
  for (const Stmt *Child : E->children())
    if (const auto *CE = dyn_cast_or_null<Expr>(Child))
      evalAny(CE);
  return SymVal::top();
}

SymVal Interp::evalCast(const CastExpr *CE) {
  const Expr *Sub = CE->getSubExpr();
  switch (CE->getCastKind()) {
  case CK_LValueToRValue: {
    SymVal V = load(Sub);
    // Data read from memory: unknown, but within its type.
    if (!isa<DeclRefExpr>(Sub->IgnoreParens()))
      return typeBounded(V, CE->getType(), CE);
    return V;
  }
  case CK_FloatingCast: {
    // Widening keeps the value (`scale != 1.0` on a float); narrowing
    // rounds it to another one.
    SymVal V = eval(Sub);
    if (V.Top || Ctx.getTypeSize(CE->getType()) >= Ctx.getTypeSize(Sub->getType()))
      return V;
    return opq(key(CE), V, SymVal());
  }
  case CK_IntegralCast:
  case CK_NoOp:
  case CK_IntegralToBoolean:
  case CK_BooleanToSignedIntegral: {
    SymVal V = eval(Sub);
    if (CE->getCastKind() == CK_BooleanToSignedIntegral && V.isConst())
      V.C = V.C ? -1 : 0;
    if (CE->getCastKind() == CK_IntegralToBoolean && !V.isConst() && !V.Top)
      return opq(key(CE), V, SymVal());
    if (CE->getCastKind() == CK_IntegralCast && !V.isConst() &&
        intType(CE->getType()).Width < intType(Sub->getType()).Width)
      return typeBounded(V, CE->getType(), CE);
    return normalize(V, CE->getType());
  }
  default:
    evalAny(Sub);
    return SymVal::top();
  }
}

SymVal Interp::load(const Expr *Sub) {
  Sub = Sub->IgnoreParens();
  if (const auto *C = dyn_cast<ConditionalOperator>(Sub))
    return evalConditional(C->getCond(), C->getTrueExpr(), C->getFalseExpr(),
                           /*Glvalue=*/true);
  if (const auto *D = dyn_cast<DeclRefExpr>(Sub)) {
    const auto *V = dyn_cast<VarDecl>(D->getDecl());
    if (!V)
      return SymVal::top();
    // A __shared__ scalar read by name is an access like any other (the
    // race check pairs it with the writes; it is never out of bounds and
    // always a broadcast, so the other checks find nothing in it).
    if (varClass(V) == VarClass::Shared && !V->getType()->isArrayType()) {
      Loc L;
      L.VD = V;
      L.Direct = true;
      record(L, Sub, /*Load=*/true, /*Store=*/false);
    }
    if (V->getType()->isIntegralOrEnumerationType())
      return loadVar(V);
    // A floating-point parameter, global or __shared__ scalar is the same
    // for every thread: `if (scale != 1.f)` is a block-uniform test.
    if (V->getType()->isRealFloatingType() && varClass(V) != VarClass::Local)
      return loadVar(V);
    return SymVal::top();
  }
  // A field of a by-value struct parameter (`p.width`) is a kernel
  // parameter too: uniform, a problem size for the interior-block rule.
  if (const auto *M = dyn_cast<MemberExpr>(Sub);
      M && !M->isArrow() && M->getType()->isIntegralOrEnumerationType())
    if (const auto *D = dyn_cast<DeclRefExpr>(M->getBase()->IgnoreParenImpCasts()))
      if (const auto *P = dyn_cast<ParmVarDecl>(D->getDecl());
          P && !P->getType()->isReferenceType() && !Escaped.count(P)) {
        noteAccess(P);
        auto It = Env.find(P);
        if (It == Env.end() || !It->second.Top) {
          uint64_t Id = (key(M->getMemberDecl(), 13) ^ key(P, 17)) | 1;
          ParamSyms.insert(Id);
          return SymVal::symbol(Id);
        }
      }
  Loc L = resolve(Sub);
  if (!L.VD)
    return SymVal::top();
  record(L, Sub, /*Load=*/true, /*Store=*/false);
  // The loaded value is uniform when the address is (same symbol for every
  // lane), lane-dependent otherwise. What memory holds is not known to
  // differ between blocks, whatever the address: not block-dependent.
  SymVal V = opaque(key(Sub, 2), L.Off, SymVal());
  inheritLane(V, L.Off, SymVal());
  noteDepthHere(V); // what the address holds may change in the next iteration
  V.BlockDep = false;
  return V;
}

SymVal Interp::evalUnary(const UnaryOperator *U) {
  const Expr *Sub = U->getSubExpr();
  switch (U->getOpcode()) {
  case UO_PreInc:
  case UO_PreDec:
  case UO_PostInc:
  case UO_PostDec: {
    int D = U->isIncrementOp() ? 1 : -1;
    if (const VarDecl *V = localVar(Sub)) {
      if (V->getType()->isPointerType()) {
        PtrVal P = lookupPtr(V);
        if (P.VD)
          P.Off = add(P.Off, SymVal::constant(D * pointeeBytes(V->getType())));
        ptrSlot(V) = P;
        return SymVal::top();
      }
      SymVal Old = loadVar(V);
      SymVal New = normalize(add(Old, SymVal::constant(D)), V->getType());
      envSlot(V) = New;
      return U->isPrefix() ? New : Old;
    }
    Loc L = resolve(Sub);
    if (L.VD)
      record(L, Sub, true, true);
    return SymVal::top();
  }
  case UO_Minus:
    return normalize(scale(eval(Sub), -1), U->getType());
  case UO_Plus:
    return eval(Sub);
  case UO_Not: {
    SymVal V = eval(Sub);
    if (V.isConst())
      return normalize(SymVal::constant(~V.C), U->getType());
    return opq(key(U), V, SymVal());
  }
  case UO_LNot: {
    SymVal V = evalAny(Sub);
    if (V.isConst()) {
      SymVal R = V;
      R.C = !V.C;
      return R;
    }
    SymVal R = V.Top ? SymVal::top() : opq(key(U), V, SymVal());
    R.ThreadDep = V.Top || V.ThreadDep;
    R.BlockDep = !V.Top && V.BlockDep;
    R.Interior = V.Interior < 0 ? -1 : !V.Interior;
    return R;
  }
  case UO_AddrOf:
  case UO_Deref:
    evalPtr(U);
    return SymVal::top();
  default:
    return evalAny(Sub);
  }
}

SymVal Interp::evalBinary(const BinaryOperator *B) {
  if (B->isAssignmentOp())
    return assign(B);
  BinaryOperatorKind Op = B->getOpcode();
  if (Op == BO_Comma) {
    evalAny(B->getLHS());
    return evalAny(B->getRHS());
  }
  if (Op == BO_LAnd || Op == BO_LOr) {
    Tri L = cond(B->getLHS());
    bool Short = (Op == BO_LAnd) ? L == Tri::False : L == Tri::True;
    if (Short)
      return SymVal::constant(Op == BO_LOr);
    int IL = L == Tri::Unknown ? LastInterior : L == Tri::True;
    bool DL = LastCondDep;
    // The right side runs only where the left one did not decide: under
    // `L` for `&&`, under `!L` for `||`.
    std::optional<OperandArm> Arm;
    if (L == Tri::Unknown)
      Arm = enterOperand(B->getLHS(), Op == BO_LAnd, DL, IL);
    Tri R = cond(B->getRHS());
    int IR = R == Tri::Unknown ? LastInterior : R == Tri::True;
    bool DR = LastCondDep;
    if (Arm)
      leaveOperand(*Arm);
    SymVal U = SymVal::top();
    U.ThreadDep = DL || DR;
    // In the interior blocks: both sides' interior values combined.
    if (Op == BO_LAnd)
      U.Interior = (IL == 0 || IR == 0) ? 0 : (IL == 1 && IR == 1) ? 1 : -1;
    else
      U.Interior = (IL == 1 || IR == 1) ? 1 : (IL == 0 && IR == 0) ? 0 : -1;
    if (L != Tri::Unknown)
      return R == Tri::Unknown ? U : SymVal::constant(R == Tri::True);
    // L unknown: decided only when R forces the result.
    if (Op == BO_LAnd && R == Tri::False)
      return SymVal::constant(0);
    if (Op == BO_LOr && R == Tri::True)
      return SymVal::constant(1);
    return U;
  }
  if (B->getLHS()->getType()->isPointerType() ||
      B->getRHS()->getType()->isPointerType()) {
    // Pointer comparisons and differences: only their operands matter.
    evalAny(B->getLHS());
    evalAny(B->getRHS());
    return SymVal::top();
  }
  SymVal L = eval(B->getLHS()), R = eval(B->getRHS());
  if (B->isComparisonOp())
    return compare(Op, L, R, B);
  return normalize(arith(Op, L, R, B), B->getType());
}

SymVal Interp::evalConditional(const Expr *C, const Expr *T, const Expr *F,
                               bool Glvalue) {
  auto arm = [&](const Expr *X) { return Glvalue ? load(X) : evalAny(X); };
  Tri Cd = cond(C);
  if (Cd == Tri::True)
    return arm(T);
  if (Cd == Tri::False)
    return arm(F);
  bool Dep = LastCondDep;
  int Interior = LastInterior;
  OperandArm Arm = enterOperand(C, true, Dep, Interior);
  SymVal A = arm(T);
  leaveOperand(Arm);
  Arm = enterOperand(C, false, Dep, Interior);
  SymVal B = arm(F);
  leaveOperand(Arm);
  return A == B ? A : SymVal::top();
}

/// `i + 1 < n ? s[t + 1] : 0.f` is `if (i + 1 < n) ... s[t + 1]`: in every
/// interior block the condition holds, so the arm is no more guarded than
/// the `if`'s (Interpreter.cpp's execBranch); its ranges are narrowed alike.
Interp::OperandArm Interp::enterOperand(const Expr *Cond, bool Holds, bool Dep,
                                        int Interior) {
  OperandArm Saved{Guarded, std::nullopt};
  Guarded = Guarded || (Dep && Interior != (Holds ? 1 : 0));
  // Only comparisons narrow: the ranges are copied for them alone (every
  // thread evaluates every `?:`).
  const auto *B = dyn_cast<BinaryOperator>(Cond->IgnoreParenImpCasts());
  if (B && (B->isComparisonOp() || B->isLogicalOp())) {
    chargeCopy(SymRanges.size());
    Saved.Ranges = SymRanges;
    narrow(Cond, Holds);
  }
  return Saved;
}

void Interp::leaveOperand(OperandArm &Saved) {
  Guarded = Saved.Guarded;
  if (Saved.Ranges)
    SymRanges = std::move(*Saved.Ranges);
}

/// A class-type glvalue read as a whole (copy constructor / assignment
/// source): `float4 v = tile[i];`.
void Interp::recordRead(const Expr *E) {
  E = E->IgnoreParenImpCasts();
  if (const auto *M = dyn_cast<MaterializeTemporaryExpr>(E))
    E = M->getSubExpr()->IgnoreParenImpCasts();
  if (E->isGLValue() && (isa<ArraySubscriptExpr>(E) || isa<MemberExpr>(E) ||
                         isa<UnaryOperator>(E))) {
    Loc L = resolve(E);
    if (L.VD)
      record(L, E, /*Load=*/true, /*Store=*/false);
    return;
  }
  evalAny(E);
}

SymVal Interp::evalCall(const CallExpr *C) {
  // Trivial struct assignment (float2/float4/...) is an operator= call.
  if (const auto *Op = dyn_cast<CXXOperatorCallExpr>(C)) {
    if (Op->getOperator() == OO_Equal && Op->getNumArgs() == 2) {
      recordRead(Op->getArg(1));
      const Expr *LHS = Op->getArg(0)->IgnoreParens();
      if (!localVar(LHS)) {
        Loc L = resolve(LHS);
        if (L.VD)
          record(L, LHS, /*Load=*/false, /*Store=*/true);
      }
      return SymVal::top();
    }
  }
  // atomicAdd(&hist[bin], 1) and friends read and write the pointee.
  if (const FunctionDecl *F = C->getDirectCallee();
      F && F->getIdentifier() && F->getName().starts_with("atomic") &&
      C->getNumArgs() >= 1 && C->getArg(0)->getType()->isPointerType()) {
    const Expr *A0 = C->getArg(0)->IgnoreParenImpCasts();
    Loc L;
    const Expr *Site = A0;
    if (const auto *U = dyn_cast<UnaryOperator>(A0);
        U && U->getOpcode() == UO_AddrOf) {
      Site = U->getSubExpr()->IgnoreParens();
      L = resolve(Site);
    } else {
      PtrVal P = evalPtr(A0);
      L.VD = P.VD;
      L.Off = P.Off;
      L.Carve = P.Carve;
      L.CarveStart = P.CarveStart;
    }
    if (L.VD) {
      AtomicSite = true;
      record(L, Site, /*Load=*/true, /*Store=*/true);
      AtomicSite = false;
    }
    for (unsigned I = 1; I < C->getNumArgs(); ++I)
      evalAny(C->getArg(I));
    return SymVal::top();
  }
  // Barriers and warp syncs: their arguments are evaluated as for any
  // opaque call, then the thread's phase moves (InterpreterSync.cpp).
  if (syncKindCached(C) != SyncKind::None) {
    for (const Expr *A : C->arguments())
      evalAny(A);
    syncCall(C);
    return SymVal::top();
  }
  if (const FunctionDecl *F = C->getDirectCallee(); F && inlinable(C, F))
    return inlineCall(C, F);
  if (auto V = collectiveValue(C))
    return *V;
  std::vector<SymVal> Args;
  for (const Expr *A : C->arguments())
    Args.push_back(evalAny(A));
  opaqueCall(C);
  if (auto V = intrinsicValue(C, Args))
    return *V;
  if (auto V = groupRankValue(C))
    return *V;
  return SymVal::top();
}

SymVal Interp::assign(const BinaryOperator *B) {
  BinaryOperatorKind Op = B->getOpcode();
  bool Plain = Op == BO_Assign;
  const Expr *LHS = B->getLHS()->IgnoreParens();
  if (const VarDecl *V = localVar(LHS)) {
    QualType T = V->getType();
    if (T->isPointerType()) {
      if (Plain) {
        ptrSlot(V) = evalPtr(B->getRHS());
      } else {
        SymVal I = eval(B->getRHS());
        PtrVal P = lookupPtr(V);
        if (P.VD) {
          SymVal D = scale(I, pointeeBytes(T));
          P.Off = Op == BO_AddAssign ? add(P.Off, D)
                  : Op == BO_SubAssign ? sub(P.Off, D) : SymVal::top();
        }
        ptrSlot(V) = P;
      }
      return SymVal::top();
    }
    if (T->isIntegralOrEnumerationType()) {
      SymVal R = eval(B->getRHS());
      SymVal New = Plain ? R
                         : arith(BinaryOperator::getOpForCompoundAssignment(Op),
                                 loadVar(V), R, B);
      New = normalize(New, T);
      envSlot(V) = New;
      return New;
    }
    evalAny(B->getRHS());
    envSlot(V) = SymVal::top();
    return SymVal::top();
  }
  SymVal Stored = evalAny(B->getRHS());
  Loc L = resolve(LHS);
  if (L.VD) {
    PendingValue = Plain ? valueKey(Stored, B->getRHS()) : 0;
    record(L, LHS, /*Load=*/!Plain, /*Store=*/true);
    PendingValue = 0;
  }
  return SymVal::top();
}

} // namespace cgt::smem::detail
