//===- ValueFacts.cpp - program values on the paths of a disjunct ---------===//
//
// Binds the value constraints of lib/Values to the places of the lifetime
// engine: which expressions are values it can name (a constant, or a
// scalar variable or member path whose address was never handed out), which
// conditions compare them, and what assignments do to them.
//
//   `cached = -1;`        cached in [-1, -1]
//   `cached = bs;`        cached takes bs's range and equals bs
//   `if (bs <= 0) continue;`  bs in [1, max] on the way on
//   `if (bs != cached)`   decided where the ranges or the classes decide it;
//                         the impossible edge is dropped for this disjunct
//
// A value is forgotten where the resource engine forgets a fact about its
// place (Branches.cpp invalidateFacts: assignments, increments, writes
// through `&x` or a non-const reference, the end of its scope, loop
// counters on the way back). A place whose address escaped is never a
// value: writes through the alias are not followed.
//
// Part of the Analysis class declared in Analysis.h.
//
//===----------------------------------------------------------------------===//
#include "Lifetime/Analysis.h"

namespace cgt {
namespace lifetime {

namespace {

std::optional<values::Relation> relationOf(BinaryOperatorKind Op) {
  switch (Op) {
  case BO_EQ: return values::Relation::EQ;
  case BO_NE: return values::Relation::NE;
  case BO_LT: return values::Relation::LT;
  case BO_LE: return values::Relation::LE;
  case BO_GT: return values::Relation::GT;
  case BO_GE: return values::Relation::GE;
  default: return std::nullopt;
  }
}

/// An APSInt as an int64_t, when it is one.
std::optional<int64_t> asInt64(const llvm::APSInt &V) {
  if (V.isSigned() ? V.getSignificantBits() > 64 : V.getActiveBits() > 63)
    return std::nullopt;
  return V.getExtValue();
}

bool isScalarValueType(QualType T) {
  if (T.isNull() || T.isVolatileQualified() || T->isReferenceType())
    return false;
  return T->isIntegralOrEnumerationType() || T->isPointerType() || T->isNullPtrType();
}

/// isNeverConstant, and members of objects (`o.n`), which no constant
/// evaluation folds either.
bool isNeverConstantValue(const Expr *E) {
  if (const auto *ME = dyn_cast<MemberExpr>(E))
    return isa<FieldDecl>(ME->getMemberDecl());
  return isNeverConstant(E);
}

values::Symbol symbolOf(Key K) { return reinterpret_cast<values::Symbol>(K); }
Key placeOfSymbol(values::Symbol S) { return reinterpret_cast<Key>(S); }

} // namespace

bool Analysis::isValueSymbol(Key K) {
  if (!K || K->Element || K->shadow())
    return false;
  QualType T = K->Member ? K->Member->getType() : K->Decl->getType();
  if (!isScalarValueType(T))
    return false;
  return !addressEscaped(K);
}

std::optional<int64_t> Analysis::constantValue(const Expr *E) {
  auto [It, New] = ConstantValues.try_emplace(E);
  if (!New)
    return It->second;
  const Expr *Bare = E->IgnoreParenCasts();
  std::optional<int64_t> V;
  if (isa<CXXNullPtrLiteralExpr>(Bare) || isa<GNUNullExpr>(Bare)) {
    V = 0;
  } else if (!E->isValueDependent() && !E->isTypeDependent() && !E->getType().isNull() &&
             (E->getType()->isIntegralOrEnumerationType() || E->getType()->isPointerType()) &&
             !isNeverConstantValue(Bare)) {
    // The converted value, as the comparison sees it (`u == -1` on an
    // unsigned compares with its largest value).
    Expr::EvalResult R;
    if (E->getType()->isIntegralOrEnumerationType() && E->EvaluateAsInt(R, Ctx))
      V = asInt64(R.Val.getInt());
    else if (E->getType()->isPointerType() && isZero(E))
      V = 0;
  }
  return It->second = V;
}

std::optional<Analysis::ValueTerm> Analysis::valueTerm(const Expr *E) {
  if (!E)
    return std::nullopt;
  E = E->IgnoreParens();
  if (std::optional<int64_t> C = constantValue(E))
    return ValueTerm{nullptr, *C};
  const Expr *Bare = E->IgnoreParenImpCasts();
  // `(int)flag`, `static_cast<long>(n)`: casts that keep every value.
  while (const auto *Cast = dyn_cast<ExplicitCastExpr>(Bare)) {
    QualType To = Cast->getType(), From = Cast->getSubExpr()->getType();
    if (!To->isIntegralOrEnumerationType() || !From->isIntegralOrEnumerationType() ||
        Ctx.getTypeSize(To) < Ctx.getTypeSize(From))
      break;
    Bare = Cast->getSubExpr()->IgnoreParenImpCasts();
  }
  if (Bare->isValueDependent() || Bare->isTypeDependent())
    return std::nullopt;
  // `is_capturing(s)`: a helper that reports whether its stream captures.
  if (const auto *Call = dyn_cast<CallExpr>(Bare))
    if (const FunctionDecl *Callee = Call->getDirectCallee())
      if (auto Query = captureQueryOf(Callee); Query && Query->first < Call->getNumArgs())
        return ValueTerm{nullptr, 0, Call->getArg(Query->first), Query->second};
  if (Bare->HasSideEffects(Ctx))
    return std::nullopt;
  if (Key K = storageOf(Bare); isValueSymbol(K))
    return ValueTerm{K, 0};
  return std::nullopt;
}

const std::optional<Analysis::ValueTest> &Analysis::valueTest(const Expr *Cond) {
  auto [It, New] = ValueTests.try_emplace(Cond);
  if (!New)
    return It->second;
  std::optional<ValueTest> T;
  const Expr *C = Cond->IgnoreParenImpCasts();
  if (const CallExpr *Expect = asBuiltinExpect(C)) {
    T = valueTest(Expect->getArg(0));
  } else if (const auto *UO = dyn_cast<UnaryOperator>(C); UO && UO->getOpcode() == UO_LNot) {
    T = valueTest(UO->getSubExpr());
    if (T)
      T->Rel = values::negate(T->Rel);
  } else if (const auto *BO = dyn_cast<BinaryOperator>(C); BO && relationOf(BO->getOpcode())) {
    const Expr *LHS = BO->getLHS();
    // `if ((n = count()) > 0)`: the test reads what was assigned.
    if (const auto *Assign = dyn_cast<BinaryOperator>(LHS->IgnoreParenImpCasts());
        Assign && Assign->getOpcode() == BO_Assign)
      LHS = Assign->getLHS();
    std::optional<ValueTerm> L = valueTerm(LHS), R = valueTerm(BO->getRHS());
    if (L && R && (L->Sym || R->Sym || L->CaptureStream || R->CaptureStream))
      T = ValueTest{*L, *relationOf(BO->getOpcode()), *R};
  } else if (std::optional<ValueTerm> V = valueTerm(C); V && (V->Sym || V->CaptureStream)) {
    T = ValueTest{*V, values::Relation::NE, ValueTerm{nullptr, 0}};
  }
  return ValueTests[Cond] = T;
}

/// A capture query's result is a constant on a path that holds its
/// stream's capture open, and unknown elsewhere.
std::optional<Analysis::ValueTerm> Analysis::resolveOnPath(const ValueTerm &T,
                                                           const PathState &P) {
  if (!T.CaptureStream)
    return T;
  if (!captureOpenOn(T.CaptureStream, P))
    return std::nullopt;
  return ValueTerm{nullptr, T.TrueWhenCapturing ? 1 : 0};
}

bool Analysis::assumeValues(const Expr *Cond, bool Taken, PathState &P) {
  const std::optional<ValueTest> &T = valueTest(Cond);
  if (!T)
    return true;
  std::optional<ValueTerm> L = resolveOnPath(T->L, P), R = resolveOnPath(T->R, P);
  if (!L || !R)
    return true;
  values::Relation Rel = Taken ? T->Rel : values::negate(T->Rel);
  if (L->Sym && R->Sym)
    return P.Values.assumeSymbols(symbolOf(L->Sym), Rel, symbolOf(R->Sym));
  if (L->Sym)
    return P.Values.assume(symbolOf(L->Sym), Rel, R->Const);
  if (R->Sym)
    return P.Values.assume(symbolOf(R->Sym), values::swapSides(Rel), L->Const);
  return values::RangeSet::point(L->Const).isSubsetOf(values::RangeSet::satisfying(Rel, R->Const));
}

std::optional<bool> Analysis::knownValue(const Expr *Cond, const PathState &P) {
  const std::optional<ValueTest> &T = valueTest(Cond);
  if (!T)
    return std::nullopt;
  std::optional<ValueTerm> L = resolveOnPath(T->L, P), R = resolveOnPath(T->R, P);
  if (!L || !R)
    return std::nullopt;
  if (L->Sym && R->Sym)
    return P.Values.evaluateSymbols(symbolOf(L->Sym), T->Rel, symbolOf(R->Sym));
  if (L->Sym)
    return P.Values.evaluate(symbolOf(L->Sym), T->Rel, R->Const);
  if (R->Sym)
    return P.Values.evaluate(symbolOf(R->Sym), values::swapSides(T->Rel), L->Const);
  return values::RangeSet::point(L->Const).isSubsetOf(values::RangeSet::satisfying(T->Rel, R->Const));
}

void Analysis::bindValue(Key Target, const Expr *Src, PathState &P) {
  if (!isValueSymbol(Target))
    return;
  std::optional<ValueTerm> V = valueTerm(Src);
  if (!V || V->CaptureStream)
    return; // invalidateFacts already made it unknown
  if (V->Sym)
    P.Values.bindCopy(symbolOf(Target), symbolOf(V->Sym));
  else
    P.Values.bindConstant(symbolOf(Target), V->Const);
}

void Analysis::forgetValues(llvm::function_ref<bool(Key)> Pred, PathState &P) {
  if (!P.Values.empty())
    P.Values.forgetIf([&](values::Symbol S) { return Pred(placeOfSymbol(S)); });
}

bool Analysis::valuesWrittenBy(const BlockMentions &M, const PathState &P) const {
  bool Written = false;
  auto In = [](const llvm::SmallVector<const Decl *, 4> &Set, const Decl *D) {
    return std::binary_search(Set.begin(), Set.end(), D);
  };
  P.Values.forEachSymbol([&](values::Symbol S) {
    const Decl *D = placeOfSymbol(S)->Decl;
    Written = Written || In(M.Written, D) || In(M.Copied, D);
  });
  return Written;
}

} // namespace lifetime
} // namespace cgt
