//===- Status.cpp - where a status lives ----------------------------------===//
//
// Finds what holds the status of an acquiring call (the call itself, a
// status variable, a checking wrapper, a boolean chain, an out-parameter)
// and follows copies of it, so that testing any of them tests the
// acquisition.
//
// Part of the Analysis class declared in Analysis.h.
//
//===----------------------------------------------------------------------===//
#include "Lifetime/Analysis.h"

namespace cgt {
namespace lifetime {

/// Finds what holds the status of an acquiring call: the call itself when a
/// condition tests it directly, a variable it is stored in, or a checking
/// wrapper such as `if (!cudaOk(cudaGraphInstantiate(...)))`.
void Analysis::bindStatus(const CallExpr *Call, bool SuccessIsZero, ResState &RS) {
  RS.StatusExpr = Call;
  RS.StatusVar = nullptr;
  RS.StatusCopy = nullptr;
  RS.StatusDerefOf = nullptr;
  RS.SuccessIsZero = SuccessIsZero;
  const Stmt *Cur = Call;
  unsigned Wrappers = 0;
  while (const Stmt *Parent = PM->getParent(Cur)) {
    if (isa<ParenExpr>(Parent) || isa<ImplicitCastExpr>(Parent) ||
        isa<ExplicitCastExpr>(Parent) || isa<ExprWithCleanups>(Parent)) {
      Cur = Parent;
      continue;
    }
    // `st = flags ? cudaGraphInstantiateWithFlags(...) : cudaGraphInstantiate(...)`
    if (const auto *CO = dyn_cast<AbstractConditionalOperator>(Parent);
        CO && CO->getCond() != Cur) {
      Cur = Parent;
      RS.StatusExpr = CO;
      continue;
    }
    if (const auto *DS = dyn_cast<DeclStmt>(Parent)) {
      for (const Decl *D : DS->decls())
        if (const auto *VD = dyn_cast<VarDecl>(D))
          if (VD->getInit() && strip(VD->getInit()) == strip(cast<Expr>(Cur)))
            RS.StatusVar = VD;
      return;
    }
    if (const auto *BO = dyn_cast<BinaryOperator>(Parent);
        BO && BO->getOpcode() == BO_Assign && BO->getRHS() == Cur) {
      if (Key K = storageOf(BO->getLHS())) {
        RS.StatusVar = plainVar(K);
        if (!RS.StatusVar) // `st.err = call()`: a member of a local struct
          RS.StatusCopy = K;
      }
      RS.StatusDerefOf = derefOf(BO->getLHS()); // `*err = call()`
      return;
    }
    if (bindThroughBooleanChain(Cur, RS))
      return;
    const auto *Wrapper = dyn_cast<CallExpr>(Parent);
    if (!Wrapper || isa<CUDAKernelCallExpr>(Wrapper) || ++Wrappers > 2 ||
        Wrapper->getBuiltinCallee() == Builtin::BI__builtin_expect)
      return;
    QualType Ret = Wrapper->getCallReturnType(Ctx);
    const FunctionDecl *W = Wrapper->getDirectCallee();
    if (Ret->isBooleanType()) {
      // `ok(st)` is true on success; `failed(st)` / `isError(st)` on failure.
      std::string Name = W ? StringRef(W->getNameAsString()).lower() : "";
      bool TrueMeansFailure = StringRef(Name).contains("fail") ||
                              StringRef(Name).contains("err");
      RS.SuccessIsZero = TrueMeansFailure;
    } else if (!isStatusTypeName(Ret)) {
      return; // the wrapper swallows the status (void check(...))
    }
    RS.StatusExpr = Wrapper;
    Cur = Wrapper;
  }
}

/// `ok = ok && (cudaGraphInstantiate(...) == cudaSuccess);` and
/// `bool failed = ... || call() != cudaSuccess;`: a boolean computed from
/// the status and stored in a variable is that variable's status, with the
/// polarity the comparisons and `!` give it. Only `&&` on a success boolean
/// and `||` on a failure boolean keep the meaning (the call runs only where
/// the other operand lets it). Changes nothing unless a variable is reached.
bool Analysis::bindThroughBooleanChain(const Stmt *From, ResState &RS) {
  bool SuccessIsZero = RS.SuccessIsZero;
  const Stmt *Cur = From;
  while (const Stmt *Parent = PM->getParent(Cur)) {
    if (isa<ParenExpr>(Parent) || isa<ImplicitCastExpr>(Parent) ||
        isa<ExprWithCleanups>(Parent)) {
      Cur = Parent;
      continue;
    }
    if (const auto *UO = dyn_cast<UnaryOperator>(Parent); UO && UO->getOpcode() == UO_LNot) {
      SuccessIsZero = !SuccessIsZero;
      Cur = Parent;
      continue;
    }
    if (const auto *BO = dyn_cast<BinaryOperator>(Parent)) {
      const Expr *Other = BO->getLHS() == Cur ? BO->getRHS() : BO->getLHS();
      if ((BO->getOpcode() == BO_EQ || BO->getOpcode() == BO_NE) && isZero(Other)) {
        if (BO->getOpcode() == BO_EQ)
          SuccessIsZero = !SuccessIsZero; // `st == 0` is true on success
        Cur = Parent;
        continue;
      }
      bool KeepsMeaning = BO->getRHS() == Cur &&
                          ((BO->getOpcode() == BO_LAnd && !SuccessIsZero) ||
                           (BO->getOpcode() == BO_LOr && SuccessIsZero));
      if (KeepsMeaning) {
        Cur = Parent;
        continue;
      }
      if (BO->getOpcode() == BO_Assign && BO->getRHS() == Cur && Cur != From)
        if (const VarDecl *VD = plainVar(storageOf(BO->getLHS()))) {
          RS.StatusExpr = cast<Expr>(Cur); // what the variable is assigned
          RS.StatusVar = VD;
          RS.SuccessIsZero = SuccessIsZero;
          return true;
        }
      return false;
    }
    if (const auto *DS = dyn_cast<DeclStmt>(Parent); DS && Cur != From) {
      for (const Decl *D : DS->decls())
        if (const auto *VD = dyn_cast<VarDecl>(D))
          if (VD->getInit() && strip(VD->getInit()) == strip(cast<Expr>(Cur))) {
            RS.StatusExpr = cast<Expr>(Cur);
            RS.StatusVar = VD;
            RS.SuccessIsZero = SuccessIsZero;
            return true;
          }
      return false;
    }
    return false;
  }
  return false;
}

bool Analysis::isStatusTypeName(QualType T) const {
  if (const auto *TT = T->getAs<TypedefType>())
    if (A.Model.isStatusType(TT->getDecl()->getName()))
      return true;
  if (const auto *ET = T->getAs<EnumType>())
    if (const auto *ED = ET->getDecl(); ED && ED->getIdentifier())
      return A.Model.isStatusType(ED->getName());
  return A.Model.isStatusType(T.getUnqualifiedType().getAsString());
}

/// `cudaGraphInstantiateWithParams(&e, g, &params)`: `params.result_out`.
Key Analysis::statusOutPlace(const CallExpr *Call, const FunctionModel &M) {
  if (M.StatusOutArg < 0 || M.StatusOutArg >= static_cast<int>(Call->getNumArgs()))
    return nullptr;
  const auto *AddrOf = dyn_cast<UnaryOperator>(strip(Call->getArg(M.StatusOutArg)));
  if (!AddrOf || AddrOf->getOpcode() != UO_AddrOf)
    return nullptr;
  Key Params = storageOf(AddrOf->getSubExpr());
  const auto *VD = plainVar(Params);
  const auto *RD = VD ? VD->getType()->getAsRecordDecl() : nullptr;
  if (!RD || !isPlainLocalAggregate(VD))
    return nullptr;
  for (const FieldDecl *F : RD->fields())
    if (F->getName() == M.StatusOutField)
      return placeOf(VD, F);
  return nullptr;
}

/// `cudaGraphInstantiate(&e, g, 0); if (cudaGetLastError() != cudaSuccess)`:
/// the later call reports the status nobody read from the acquisition.
void Analysis::takeOverUncheckedStatus(const CallExpr *Call, PathState &P) {
  for (auto &Entry : P.Res) {
    ResState &RS = Entry.second;
    if (!(RS.Bits & Live) || !RS.StatusExpr || RS.StatusVar || RS.StatusCopy ||
        !isa<CallExpr>(RS.StatusExpr) || !isDiscarded(cast<CallExpr>(RS.StatusExpr)))
      continue;
    bindStatus(Call, /*SuccessIsZero=*/true, RS);
  }
}

/// A call whose result nobody uses (an expression statement).
bool Analysis::isDiscarded(const CallExpr *Call) const {
  const Stmt *Cur = Call;
  const Stmt *Parent = PM->getParent(Cur);
  while (Parent && (isa<ParenExpr>(Parent) || isa<ImplicitCastExpr>(Parent) ||
                    isa<ExprWithCleanups>(Parent) ||
                    (isa<CStyleCastExpr>(Parent) &&
                     cast<CStyleCastExpr>(Parent)->getType()->isVoidType()))) {
    Cur = Parent;
    Parent = PM->getParent(Cur);
  }
  if (const auto *If = dyn_cast_or_null<IfStmt>(Parent))
    return If->getCond() != Cur;
  if (const auto *While = dyn_cast_or_null<WhileStmt>(Parent))
    return While->getCond() != Cur;
  if (const auto *Do = dyn_cast_or_null<DoStmt>(Parent))
    return Do->getCond() != Cur;
  if (const auto *For = dyn_cast_or_null<ForStmt>(Parent))
    return For->getCond() != Cur;
  return !Parent || isa<CompoundStmt>(Parent) || isa<LabelStmt>(Parent) ||
         isa<CaseStmt>(Parent) || isa<DefaultStmt>(Parent);
}

/// `cudaError_t status_ = (st);` inside a checking macro, or
/// `ok = (st == cudaSuccess);`: testing the copy tests the acquisition.
/// Overwriting a status variable forgets it.
void Analysis::trackStatusCopy(Key Target, const Expr *Src, PathState &P) {
  bool Inverted = false;
  Key From = storageOf(statusSource(Src, Inverted));
  const VarDecl *FromVar = plainVar(From);
  for (auto &Entry : P.Res) {
    ResState &RS = Entry.second;
    bool FromStatus = FromVar && FromVar == RS.StatusVar;
    bool FromCopy = From && From == RS.StatusCopy;
    if (FromStatus || FromCopy) {
      RS.CopyInverted = Inverted != (FromCopy && RS.CopyInverted);
      RS.StatusCopy = Target;
      continue;
    }
    bool AssignsThisStatus = RS.StatusExpr && strip(RS.StatusExpr) == Src;
    if (RS.StatusCopy == Target && !AssignsThisStatus)
      RS.StatusCopy = nullptr;
    if (RS.StatusVar && RS.StatusVar == plainVar(Target) &&
        !isa_and_nonnull<CallExpr>(Src) && !AssignsThisStatus)
      RS.StatusVar = nullptr; // the variable now holds another status
  }
}

/// The status an expression is computed from: `st`, `(st)`, `st == 0`
/// (inverted: true on success), `st != cudaSuccess`, `!st` (inverted).
const Expr *Analysis::statusSource(const Expr *E, bool &Inverted) const {
  E = E->IgnoreParenImpCasts();
  while (true) {
    if (const auto *UO = dyn_cast<UnaryOperator>(E); UO && UO->getOpcode() == UO_LNot) {
      Inverted = !Inverted;
      E = UO->getSubExpr()->IgnoreParenImpCasts();
      continue;
    }
    const auto *BO = dyn_cast<BinaryOperator>(E);
    if (!BO || (BO->getOpcode() != BO_EQ && BO->getOpcode() != BO_NE))
      return E;
    const Expr *Other = isZero(BO->getRHS()) ? BO->getLHS()
                        : isZero(BO->getLHS()) ? BO->getRHS()
                                               : nullptr;
    if (!Other)
      return E;
    if (BO->getOpcode() == BO_EQ)
      Inverted = !Inverted;
    E = Other->IgnoreParenImpCasts();
  }
}

} // namespace lifetime
} // namespace cgt
