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

#include "llvm/ADT/FoldingSet.h"
#include <limits>

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

/// Integers, enums and bools. Pointers and handles are left to the resource
/// lattice (its null facts and refinement), and statuses to Status.cpp: in
/// handle-heavy code they are most of the variables, and a range of them
/// would say nothing the disjunct does not already know.
bool isScalarValueType(QualType T) {
  if (T.isNull() || T.isVolatileQualified() || T->isReferenceType())
    return false;
  return T->isIntegralOrEnumerationType();
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
  auto [Typed, New] = ValueTyped.try_emplace(K, false);
  if (New) {
    QualType T = K->Member ? K->Member->getType() : K->Decl->getType();
    Typed->second = isScalarValueType(T) && !isStatusTypeName(T);
  }
  if (!Typed->second)
    return false;
  // An alias may write it, unless nothing can (`const Opts &o` captured by
  // a task: its members keep their values).
  return !addressEscaped(K) ||
         (isReadOnlyObject(K->Decl) && (!K->Member || !K->Member->isMutable()));
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
  if (dependsOnTemplateArguments(Bare))
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

namespace {

/// `a` and `b` are the same expression (`v[r] > 0 ? v[r] : 1`).
bool sameExpr(const Expr *A, const Expr *B, const ASTContext &Ctx) {
  llvm::FoldingSetNodeID IA, IB;
  A->IgnoreParenImpCasts()->Profile(IA, Ctx, /*Canonical=*/true);
  B->IgnoreParenImpCasts()->Profile(IB, Ctx, /*Canonical=*/true);
  return IA == IB;
}

} // namespace

/// The values `E` may have on this path: a term's, or for `c ? a : b` the
/// union of its arms', each under what `c` says of it when `c` compares the
/// arm itself with a constant (`n > 0 ? n : 1` is positive). Full when
/// nothing is known.
values::RangeSet Analysis::rangeOfExpr(const Expr *E, const PathState &P, unsigned Depth) {
  if (std::optional<ValueTerm> V = valueTerm(E); V && !V->CaptureStream)
    return V->Sym ? P.Values.rangeOf(symbolOf(V->Sym)) : values::RangeSet::point(V->Const);
  const auto *CO = dyn_cast<ConditionalOperator>(E->IgnoreParenImpCasts());
  if (!CO || Depth > 3)
    return values::RangeSet::full();
  const auto *Cmp = dyn_cast<BinaryOperator>(CO->getCond()->IgnoreParenImpCasts());
  std::optional<values::Relation> Rel = Cmp ? relationOf(Cmp->getOpcode()) : std::nullopt;
  const Expr *Tested = nullptr;
  std::optional<int64_t> C;
  if (Rel && (C = constantValue(Cmp->getRHS()))) {
    Tested = Cmp->getLHS();
  } else if (Rel && (C = constantValue(Cmp->getLHS()))) {
    Tested = Cmp->getRHS();
    Rel = values::swapSides(*Rel);
  }
  auto Arm = [&](const Expr *A, bool CondHolds) {
    values::RangeSet R = rangeOfExpr(A, P, Depth + 1);
    if (Tested && sameExpr(A, Tested, Ctx))
      R = R.intersect(values::RangeSet::satisfying(CondHolds ? *Rel : values::negate(*Rel), *C));
    return R;
  };
  return Arm(CO->getTrueExpr(), true).unite(Arm(CO->getFalseExpr(), false));
}

/// What a step of `K` (`++i`, `i -= 2`, `i = i + 1`) moves it by; nullopt
/// when `Step` is no such step.
std::optional<int64_t> Analysis::stepOf(Key K, const Expr *Step) {
  Step = Step->IgnoreParens();
  if (const auto *UO = dyn_cast<UnaryOperator>(Step); UO && UO->isIncrementDecrementOp())
    return storageOf(UO->getSubExpr()) == K ? std::optional<int64_t>(UO->isIncrementOp() ? 1 : -1)
                                            : std::nullopt;
  const auto *BO = dyn_cast<BinaryOperator>(Step);
  if (!BO || storageOf(BO->getLHS()) != K)
    return std::nullopt;
  auto Signed = [](BinaryOperatorKind Op, std::optional<int64_t> C) -> std::optional<int64_t> {
    if (!C || *C == std::numeric_limits<int64_t>::min())
      return std::nullopt;
    return Op == BO_Sub || Op == BO_SubAssign ? -*C : *C;
  };
  if (BO->getOpcode() == BO_AddAssign || BO->getOpcode() == BO_SubAssign)
    return Signed(BO->getOpcode(), constantValue(BO->getRHS()));
  if (BO->getOpcode() != BO_Assign)
    return std::nullopt;
  const auto *Arith = dyn_cast<BinaryOperator>(BO->getRHS()->IgnoreParenImpCasts());
  if (!Arith || !Arith->isAdditiveOp())
    return std::nullopt;
  if (storageOf(Arith->getLHS()) == K)
    return Signed(Arith->getOpcode(), constantValue(Arith->getRHS()));
  if (Arith->getOpcode() == BO_Add && storageOf(Arith->getRHS()) == K)
    return constantValue(Arith->getLHS());
  return std::nullopt;
}

/// The range `K` has after `Step`, computed before the step forgets it.
std::optional<values::RangeSet> Analysis::rangeAfterStep(Key K, const Expr *Step,
                                                         const PathState &P) {
  if (!isValueSymbol(K) || !P.Values.mentions(symbolOf(K)))
    return std::nullopt;
  std::optional<int64_t> Delta = stepOf(K, Step);
  if (!Delta)
    return std::nullopt;
  return P.Values.rangeOf(symbolOf(K)).shifted(*Delta);
}

/// On a loop's way back: a counter stepped up keeps its lower bound and
/// may grow without end, so the header's fixpoint is reached at once (the
/// iteration after the first knows `step >= 1`); one stepped otherwise is
/// forgotten.
void Analysis::widenCounter(Key K, int Direction, PathState &P) {
  values::RangeSet R = P.Values.rangeOf(symbolOf(K));
  if (R.isFull())
    return;
  constexpr int64_t Min = std::numeric_limits<int64_t>::min();
  constexpr int64_t Max = std::numeric_limits<int64_t>::max();
  if (Direction > 0)
    P.Values.bindRange(symbolOf(K), values::RangeSet::between(R.min(), Max));
  else if (Direction < 0)
    P.Values.bindRange(symbolOf(K), values::RangeSet::between(Min, R.max()));
  else
    P.Values.forget(symbolOf(K));
}

void Analysis::bindValue(Key Target, const Expr *Src, PathState &P) {
  if (!isValueSymbol(Target))
    return;
  std::optional<ValueTerm> V = valueTerm(Src);
  if (!V || V->CaptureStream) {
    // invalidateFacts already made it unknown; a `?:` may say more.
    if (values::RangeSet R = rangeOfExpr(Src, P); !R.isFull())
      P.Values.bindRange(symbolOf(Target), R);
    return;
  }
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
