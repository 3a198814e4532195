//===- PathFormulaLoops.cpp - iterations a path may skip ------------------===//
//
// A witness search (Lifetime/Witness.cpp) unrolls each loop a few times.
// Counting loops run longer than that: `for (r = 0; r < n; r++) if (r == k)
// free(p);` frees in iteration k, and a search cut after three iterations
// can neither find a path that frees twice nor prove there is none. When an
// iteration changed no resource (the engine's states at the loop head are
// the ones of the previous visit), every further such iteration can only
// change the values the loop writes; `accelerate` lets the path skip any
// number of them at once:
//
//   place written since the previous visit      after acceleration
//   a local only ever written by ++, += c > 0    a fresh x >= its value now
//   a local only ever written by --, -= c > 0    a fresh x <= its value now
//   anything else the iteration wrote            unknown (a fresh symbol)
//
// The monotone bounds are what refutes: the second `r == k` needs r >= k+1.
// Only signed counters get bounds (their overflow is undefined behaviour),
// and only locals whose address never leaves the function (stable places),
// so no write the formula does not see can move them backwards. This is the
// counter abstraction of loop acceleration (e.g. Bozga, Iosif, Konecny,
// "Fast acceleration of ultimately periodic relations", 2010) reduced to
// the case that refutes lifetime reports.
//
// A bound alone lets a counter jump: `for (d = n - 1; d >= 0; --d) if (d ==
// 0) free(p);` could skip from n-2 straight to -1 and leave without the
// free. A unit-step counter (the `for`'s only write is its increment, by 1,
// so each iteration moves it by at most one) starts every value between
// where it was and where it lands. So the skip may not pass a "pivot", a
// value the loop tests the counter against (`d == 0`, `d < k`): it lands at
// most ON the pivot, and the iteration that starts there is walked. The
// skipped range then holds no pivot, so every test on the counter came out
// the same way throughout it. The next head visit is one the skip already
// stood for (PathFormula::startedOnPivot) only when the iteration in
// between cannot have started on a pivot; otherwise it is walked on. A
// comparison with a local of the loop's body is no pivot: each iteration
// computes it anew, and its value at the head is a stale one; nor is one
// with a term the encoding cannot follow (an unknown anew at each reading).
//
// `forgetWritesOf` is the same abstraction for a region the search crosses
// in one step (Lifetime/MergedRegions.cpp): whatever the region may write
// is unknown afterwards, monotone locals keep their direction.
//
//===----------------------------------------------------------------------===//
#include "Values/PathFormula.h"

#include "clang/AST/Expr.h"
#include "clang/AST/StmtVisitor.h"
#include "clang/Basic/SourceManager.h"

using namespace clang;

namespace cgt {
namespace values {

namespace {

const VarDecl *writtenLocal(const Expr *E) {
  const auto *DRE = dyn_cast<DeclRefExpr>(E->IgnoreParenImpCasts());
  return DRE ? dyn_cast<VarDecl>(DRE->getDecl()) : nullptr;
}

/// +1 or -1 for a compound assignment by a positive constant, 0 otherwise.
int stepOf(const CompoundAssignOperator *CA, ASTContext &Ctx) {
  Expr::EvalResult Step;
  if (CA->getRHS()->isValueDependent() || !CA->getRHS()->EvaluateAsInt(Step, Ctx))
    return 0;
  const llvm::APSInt &V = Step.Val.getInt();
  if (V.isZero())
    return 0;
  int Sign = V.isNegative() ? -1 : 1;
  if (CA->getOpcode() == BO_AddAssign)
    return Sign;
  if (CA->getOpcode() == BO_SubAssign)
    return -Sign;
  return 0;
}

} // namespace

/// The direction of every write to each local of the function: +1 or -1
/// when all its writes (after its initialiser) step that way, 0 otherwise.
void PathFormula::scanMonotoneLocals() {
  if (MonotoneScanned)
    return;
  MonotoneScanned = true;
  if (!FD->hasBody())
    return;
  llvm::SmallVector<const Stmt *, 64> Work{FD->getBody()};
  auto Note = [&](const VarDecl *VD, int Step) {
    if (!VD)
      return;
    auto [It, New] = Monotone.try_emplace(VD, Step);
    if (!New && It->second != Step)
      It->second = 0;
  };
  while (!Work.empty()) {
    const Stmt *S = Work.pop_back_val();
    if (!S)
      continue;
    if (const auto *UO = dyn_cast<UnaryOperator>(S); UO && UO->isIncrementDecrementOp())
      Note(writtenLocal(UO->getSubExpr()), UO->isIncrementOp() ? 1 : -1);
    else if (const auto *CA = dyn_cast<CompoundAssignOperator>(S))
      Note(writtenLocal(CA->getLHS()), stepOf(CA, Ctx));
    else if (const auto *BO = dyn_cast<BinaryOperator>(S); BO && BO->isAssignmentOp())
      Note(writtenLocal(BO->getLHS()), 0);
    for (const Stmt *Child : S->children())
      Work.push_back(Child);
  }
}

/// A local declared in `Loop`'s body: dead at the loop's head, where every
/// iteration declares it again before it is read.
bool PathFormula::declaredInBody(PlaceId P, const Stmt *Loop) const {
  const Stmt *Body = nullptr;
  if (const auto *For = dyn_cast_or_null<ForStmt>(Loop))
    Body = For->getBody();
  else if (const auto *While = dyn_cast_or_null<WhileStmt>(Loop))
    Body = While->getBody();
  else if (const auto *Do = dyn_cast_or_null<DoStmt>(Loop))
    Body = Do->getBody();
  else if (const auto *Range = dyn_cast_or_null<CXXForRangeStmt>(Loop))
    Body = Range->getBody();
  const PlaceInfo &Info = Places[P];
  if (!Body || Info.Path.size() != 1 || !Info.Path.front())
    return false;
  const auto *VD = dyn_cast<VarDecl>(static_cast<const Decl *>(Info.Path.front()));
  if (!VD || isa<ParmVarDecl>(VD) || !VD->hasLocalStorage())
    return false;
  const SourceManager &SM = Ctx.getSourceManager();
  SourceRange R = Body->getSourceRange();
  SourceLocation L = VD->getLocation();
  return !SM.isBeforeInTranslationUnit(L, R.getBegin()) &&
         !SM.isBeforeInTranslationUnit(R.getEnd(), L);
}

std::vector<unsigned> PathFormula::placesWrittenSince(Mark Since, const Stmt *LiveAtHeadOf) const {
  std::vector<unsigned> Written;
  for (size_t I = Since.Undo; I < Undo.size(); ++I)
    if (!Undo[I].IsCall && !Undo[I].FirstRead) {
      PlaceId P = static_cast<PlaceId>(reinterpret_cast<uintptr_t>(Undo[I].Key));
      if (!llvm::is_contained(Written, P) && !(LiveAtHeadOf && declaredInBody(P, LiveAtHeadOf)))
        Written.push_back(P);
    }
  return Written;
}

/// The counter of `Loop` when it is a `for` whose increment steps a signed
/// local by exactly one and nothing else in the function writes it but
/// that `for`'s initialisation: then every iteration moves it by at most
/// one, in the direction `Step`.
const VarDecl *PathFormula::unitCounterOf(const Stmt *Loop, int &Step) {
  const auto *For = dyn_cast_or_null<ForStmt>(Loop);
  if (!For || !For->getInc())
    return nullptr;
  const Expr *Inc = For->getInc()->IgnoreParens();
  const VarDecl *VD = nullptr;
  Step = 0;
  if (const auto *UO = dyn_cast<UnaryOperator>(Inc); UO && UO->isIncrementDecrementOp()) {
    VD = writtenLocal(UO->getSubExpr());
    Step = UO->isIncrementOp() ? 1 : -1;
  } else if (const auto *CA = dyn_cast<CompoundAssignOperator>(Inc)) {
    Expr::EvalResult By;
    if (!CA->getRHS()->isValueDependent() && CA->getRHS()->EvaluateAsInt(By, Ctx) &&
        By.Val.getInt().abs() == 1) {
      VD = writtenLocal(CA->getLHS());
      Step = stepOf(CA, Ctx);
    }
  }
  if (!VD || !Step || !VD->hasLocalStorage() || !VD->getType()->isSignedIntegerType())
    return nullptr;
  return writtenOnlyBy(VD, For) ? VD : nullptr;
}

/// Every write of `VD` in the function is `For`'s increment or a plain
/// assignment that is `For`'s initialisation.
bool PathFormula::writtenOnlyBy(const VarDecl *VD, const ForStmt *For) {
  const Stmt *Inc = For->getInc()->IgnoreParens();
  const auto *Init = dyn_cast_or_null<Expr>(For->getInit());
  llvm::SmallVector<const Stmt *, 64> Work{FD->getBody()};
  while (!Work.empty()) {
    const Stmt *S = Work.pop_back_val();
    if (!S)
      continue;
    const Expr *Target = nullptr;
    if (const auto *UO = dyn_cast<UnaryOperator>(S); UO && UO->isIncrementDecrementOp())
      Target = UO->getSubExpr();
    else if (const auto *BO = dyn_cast<BinaryOperator>(S); BO && BO->isAssignmentOp())
      Target = BO->getLHS();
    if (Target && writtenLocal(Target) == VD && S != Inc &&
        !(Init && S == Init->IgnoreParens() && !isa<CompoundAssignOperator>(S)))
      return false;
    for (const Stmt *Child : S->children())
      Work.push_back(Child);
  }
  return true;
}

/// The values `For` (its test and body) compares `Counter` with, as they
/// are now, in the counter's width: the other side of `==`, `!=`, `<`,
/// `<=`, `>`, `>=` when it has no side effects.
std::vector<llvm::SMTExprRef> PathFormula::pivotsOf(const ForStmt *For, const VarDecl *Counter,
                                                    const Val &Now) {
  std::vector<llvm::SMTExprRef> Pivots;
  llvm::SmallVector<const Stmt *, 32> Work{For->getCond(), For->getBody()};
  while (!Work.empty()) {
    const Stmt *S = Work.pop_back_val();
    if (!S)
      continue;
    for (const Stmt *Child : S->children())
      Work.push_back(Child);
    const auto *BO = dyn_cast<BinaryOperator>(S);
    if (!BO || !BO->isComparisonOp())
      continue;
    const Expr *Other = writtenLocal(BO->getLHS()) == Counter   ? BO->getRHS()
                        : writtenLocal(BO->getRHS()) == Counter ? BO->getLHS()
                                                                : nullptr;
    if (!Other || Other->HasSideEffects(Ctx) || !Other->getType()->isIntegerType() ||
        readsLocalOf(Other, For->getBody()))
      continue;
    // A term the encoding cannot follow (`n % ndev`) is a new unknown at
    // every encoding: no value the skipped iterations shared.
    std::optional<Val> V = encode(Other), Again = encode(Other);
    if (V && V->Width && Again && *V->E == *Again->E)
      Pivots.push_back(asBits(*V, Now.Width, Now.Signed).E);
  }
  return Pivots;
}

/// `E` reads a local declared in `Body`: every iteration computes it
/// anew, so its value at the head (the last iteration's) is no pivot of
/// the iterations a skip stands for.
bool PathFormula::readsLocalOf(const Expr *E, const Stmt *Body) const {
  const SourceManager &SM = Ctx.getSourceManager();
  SourceRange R = Body ? Body->getSourceRange() : SourceRange();
  llvm::SmallVector<const Stmt *, 8> Work{E};
  while (!Work.empty()) {
    const Stmt *S = Work.pop_back_val();
    if (!S)
      continue;
    if (const auto *DRE = dyn_cast<DeclRefExpr>(S))
      if (const auto *VD = dyn_cast<VarDecl>(DRE->getDecl());
          VD && R.isValid() && VD->hasLocalStorage() &&
          !SM.isBeforeInTranslationUnit(VD->getLocation(), R.getBegin()) &&
          !SM.isBeforeInTranslationUnit(R.getEnd(), VD->getLocation()))
        return true;
    for (const Stmt *Child : S->children())
      Work.push_back(Child);
  }
  return false;
}

bool PathFormula::startedOnPivot(const Skip &S) {
  if (!S.After || S.Pivots.empty())
    return false;
  llvm::SMTExprRef Any = Solver->mkBoolean(false);
  for (llvm::SMTExprRef P : S.Pivots)
    Any = Solver->mkOr(Any, Solver->mkEqual(S.After, P));
  Solver->push();
  ++Scopes;
  Solver->addConstraint(Any);
  ++Queries;
  std::optional<bool> Sat = Solver->check();
  if (!Sat || *Sat)
    return true; // unknown: walked on, as a pivot start would be
  Solver->pop();
  --Scopes;
  return false;
}

std::vector<const void *> PathFormula::accelerate(Mark Since, const Stmt *Loop, Skip *Out) {
  scanMonotoneLocals();
  std::vector<unsigned> Written = placesWrittenSince(Since);
  int UnitStep = 0;
  const VarDecl *Counter = unitCounterOf(Loop, UnitStep);
  std::vector<llvm::SMTExprRef> Pivots;
  if (Counter) {
    // Read before anything is made unknown: the pivots as this visit has them.
    auto Id = PlaceIds.find({Counter});
    auto Now = Id == PlaceIds.end() ? Env.end() : Env.find(Id->second);
    if (Now != Env.end() && Now->second.Width)
      Pivots = pivotsOf(cast<ForStmt>(Loop), Counter, Now->second);
  }
  return makeUnknown(Written, Counter, UnitStep, Pivots, Out);
}

std::vector<const void *> PathFormula::forgetWritesOf(llvm::ArrayRef<const Stmt *> Region) {
  Mark Before = mark();
  for (const Stmt *S : Region)
    apply(S);
  std::vector<unsigned> Written = placesWrittenSince(Before);
  backTo(Before);
  return makeUnknown(Written, nullptr, 0, {}, nullptr);
}

/// What `accelerate` and `forgetWritesOf` share: each written place becomes
/// unknown, a monotone local keeps its direction, and the unit-step
/// `Counter` does not pass its `Pivots`.
std::vector<const void *> PathFormula::makeUnknown(const std::vector<unsigned> &Written,
                                                   const VarDecl *Counter, int UnitStep,
                                                   const std::vector<llvm::SMTExprRef> &Pivots,
                                                   Skip *Out) {
  scanMonotoneLocals();
  Solver->push();
  ++Scopes;
  std::vector<const void *> Roots;
  for (PlaceId P : Written) {
    const PlaceInfo &Info = Places[P];
    Roots.push_back(Info.Path.back());
    auto Now = Env.find(P);
    std::optional<Val> Bound;
    if (Now != Env.end())
      Bound = Now->second;
    write(P, std::nullopt);
    int Step = 0;
    bool IsCounter = false;
    if (Info.Path.size() == 1 && Info.Stable)
      if (const auto *VD = static_cast<const VarDecl *>(Info.Path.front())) {
        IsCounter = Counter && VD == Counter;
        Step = IsCounter ? UnitStep : Monotone.lookup(VD);
      }
    if (!Bound || !Step || Bound->Width == 0 || !Bound->Signed)
      continue;
    std::string Name = "v" + std::to_string(Fresh++);
    Val X{Solver->mkSymbol(Name.c_str(), Solver->getBitvectorSort(Bound->Width)), Bound->Width,
          true};
    Solver->addConstraint(Step > 0 ? Solver->mkBVSge(X.E, Bound->E)
                                   : Solver->mkBVSle(X.E, Bound->E));
    if (IsCounter && Out) {
      Out->Pivots = Pivots;
      Out->After = X.E;
      for (llvm::SMTExprRef Pv : Pivots) {
        // The skipped iterations started on [Bound, X) going up, (X, Bound]
        // going down: none of them on a pivot.
        llvm::SMTExprRef In =
            Step > 0 ? Solver->mkAnd(Solver->mkBVSle(Bound->E, Pv), Solver->mkBVSlt(Pv, X.E))
                     : Solver->mkAnd(Solver->mkBVSlt(X.E, Pv), Solver->mkBVSle(Pv, Bound->E));
        Solver->addConstraint(Solver->mkNot(In));
      }
    }
    write(P, X);
  }
  return Roots;
}

} // namespace values
} // namespace cgt
