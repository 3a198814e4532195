//===- ElementReleases.cpp - whether an array's release code has run ------===//
//
// An array's (or container's) elements are one place, and so are the
// captures a loop begins on several streams (`streams[i]`): the loops that
// fill them and the loops that release them are not paired by count. A path
// that skipped the release loop is usually one on which the fill loop did
// not run either, so a live element is lost only on a path on which no code
// that releases the place's elements may have run.
//
// That is part of the resource's state on each path (the places whose
// release code ran for it, ResState::ReleaseRanFor), not a fact of the
// path, because facts are intersected where disjuncts merge and states are
// not (Join.h): after `if (e) { destroy loop; return; }` the two arms stay
// apart. It is noted per place, so that a loop moving `used` into `spare`
// is release code for `used` only. A place is noted
//
//   * where a call that releases the place runs (for the resources it does
//     not release itself: the other sites' elements), and
//   * where a loop around such a call is left: the loop may have run zero
//     times, or released every element.
//
// A loop around an error exit that holds the call sets nothing: the exit
// may have been skipped on every round. Nor does `do { ... } while (0)`.
//
//     acquired into e[i] --- release of e[*] runs, or its loop is left ---> ran
//           |                                                                |
//      function leaves: leak                                   function leaves: silent
//
// Part of the Analysis class declared in Analysis.h.
//
//===----------------------------------------------------------------------===//
#include "Lifetime/Analysis.h"
#include "Lifetime/Containers/Containers.h"

namespace cgt {
namespace lifetime {

/// What the release code of an element place is noted under: the capture
/// place itself, or the array's or container's declaration.
static const void *releasePlaceOf(Key K) {
  return K->Capture ? static_cast<const void *>(K) : static_cast<const void *>(K->Decl);
}

/// `create N, destroy N` stays silent, an early return inside the create
/// loop does not, nor a return after an error exit that destroyed them and
/// returned. A capture on several streams likewise, with its end calls.
bool Analysis::isLeakedAtEnd(Key K, const ResState &RS) const {
  if (!(RS.Bits & Live))
    return false;
  if (!K->Element)
    return true;
  if (RS.Bits & Released)
    return false;
  return !RS.releaseRanFor(releasePlaceOf(K));
}

namespace {

/// `do { ... } while (0)`: a macro's body, run once.
bool runsOnce(const Stmt *Loop, const ASTContext &Ctx) {
  const auto *Do = dyn_cast<DoStmt>(Loop);
  bool False = false;
  return Do && !Do->getCond()->isValueDependent() &&
         Do->getCond()->EvaluateAsBooleanCondition(False, Ctx) && !False;
}

/// Whether `S` never completes normally: it ends in a return, a throw, a
/// goto, a break or continue, or a call that does not return.
bool cannotFallThrough(const Stmt *S, const ASTContext &Ctx) {
  if (!S)
    return false;
  if (const auto *EWC = dyn_cast<ExprWithCleanups>(S))
    S = EWC->getSubExpr();
  if (isa<ReturnStmt, GotoStmt, BreakStmt, ContinueStmt, CXXThrowExpr>(S))
    return true;
  if (const auto *Call = dyn_cast<CallExpr>(S))
    return Call->getDirectCallee() && Call->getDirectCallee()->isNoReturn();
  if (const auto *CS = dyn_cast<CompoundStmt>(S))
    return !CS->body_empty() && cannotFallThrough(CS->body_back(), Ctx);
  if (const auto *If = dyn_cast<IfStmt>(S))
    return If->getElse() && cannotFallThrough(If->getThen(), Ctx) &&
           cannotFallThrough(If->getElse(), Ctx);
  if (runsOnce(S, Ctx))
    return cannotFallThrough(cast<DoStmt>(S)->getBody(), Ctx);
  return false;
}

/// `Child` is an arm of `Parent` that a run may skip and that leaves (an
/// error exit): an if's then or else, a switch's body, an arm of `?:`, the
/// right side of `&&` or `||`. A loop around it may have run while the arm
/// was skipped on every round. An arm that falls through (`if (e[i])
/// destroy(e[i])`) is skipped only where it had nothing to do.
bool isExitingArm(const Stmt *Parent, const Stmt *Child, const ASTContext &Ctx) {
  bool Arm = false;
  if (const auto *If = dyn_cast<IfStmt>(Parent))
    Arm = Child == If->getThen() || Child == If->getElse();
  else if (const auto *Switch = dyn_cast<SwitchStmt>(Parent))
    Arm = Child == Switch->getBody();
  else if (const auto *CO = dyn_cast<AbstractConditionalOperator>(Parent))
    Arm = Child != CO->getCond();
  else if (const auto *BO = dyn_cast<BinaryOperator>(Parent))
    Arm = BO->isLogicalOp() && Child == BO->getRHS();
  return Arm && (isa<SwitchStmt>(Parent) || cannotFallThrough(Child, Ctx));
}

/// The `break`s that leave `Loop` itself (not an inner loop or switch): a
/// way out of it, as its condition's false edge is (`for (;;) { if (i ==
/// n) break; destroy(e[i++]); }`).
void collectBreaksOf(const Stmt *S, llvm::SmallVectorImpl<const Stmt *> &Out) {
  for (const Stmt *Child : S->children()) {
    if (!Child || isa<ForStmt, WhileStmt, DoStmt, CXXForRangeStmt, SwitchStmt, LambdaExpr>(Child))
      continue;
    if (isa<BreakStmt>(Child))
      Out.push_back(Child);
    else
      collectBreaksOf(Child, Out);
  }
}

} // namespace

/// `Call` releases what `Of` stands for (an array's or container's
/// declaration, or a capture place on several streams): the call, and the
/// ways out of the loops around it up to the first error exit (the loop's
/// own exit edge, its `break`s), set the bit (markReleaseRan).
void Analysis::noteReleaseSite(const void *Of, const CallExpr *Call) {
  auto Add = [&](const Stmt *S) {
    auto &Places = ReleaseRanAt[S];
    if (!llvm::is_contained(Places, Of))
      Places.push_back(Of);
  };
  Add(Call);
  const Stmt *Child = Call;
  for (const Stmt *Up = PM ? PM->getParent(Child) : nullptr; Up;
       Child = Up, Up = PM->getParent(Up)) {
    if (isa<LambdaExpr, CXXCatchStmt>(Up) || isExitingArm(Up, Child, Ctx))
      break;
    if (!isa<ForStmt, WhileStmt, DoStmt, CXXForRangeStmt>(Up) || runsOnce(Up, Ctx))
      continue;
    Add(Up);
    llvm::SmallVector<const Stmt *, 2> Breaks;
    collectBreaksOf(Up, Breaks);
    for (const Stmt *Break : Breaks)
      Add(Break);
  }
}

/// Whether the release code of `Of` releases what place `K` holds: the
/// capture place itself, or any element place of the declaration.
static bool releaseCodeCovers(const void *Of, Key K) {
  return K->Element && releasePlaceOf(K) == Of;
}

/// `S` (a release call, or a loop around one at its exit edge, or a break
/// out of such a loop) has run on path `P`: the resources bound to the places it releases carry the bit.
void Analysis::markReleaseRan(const Stmt *S, PathState &P) const {
  if (ReleaseRanAt.empty())
    return;
  auto It = ReleaseRanAt.find(S);
  if (It == ReleaseRanAt.end())
    return;
  for (const void *Of : It->second)
    for (const auto &B : P.Bind) {
      if (!releaseCodeCovers(Of, B.first))
        continue;
      for (unsigned R : B.second)
        if (auto RS = P.Res.find(R); RS != P.Res.end())
          RS->second.noteReleaseRan(Of);
    }
}

/// Where each local array's elements are released. Moving them into
/// another container (`for (auto e : used_) free_.push_back(e)`) is such
/// code too: the loop ran or had nothing to move.
void Analysis::scanElementReleases() {
  auto Note = [&](const ValueDecl *Of, const CallExpr *Call) { noteReleaseSite(Of, Call); };
  for (const CallExpr *Call : BodyCalls) {
    if (auto [Op, Into] = containers().opOf(Call); Op == ContainerOp::Insert)
      for (const Expr *Arg : Call->arguments()) {
        llvm::SmallVector<const Expr *, 4> Parts;
        collectInsertionParts(Arg, Parts);
        for (const Expr *Part : Parts)
          if (const ValueDecl *From = containers().elementOf(Part); From && From != Into)
            Note(From, Call);
      }
    const FunctionModel *M = A.modelFor(Call);
    if (!M)
      continue;
    for (const ReleaseEffect &R : M->Releases) {
      if (R.Arg < 0 || R.Arg >= static_cast<int>(Call->getNumArgs()))
        continue;
      const Expr *Arg = strip(Call->getArg(R.Arg));
      if (const auto *AddrOf = dyn_cast<UnaryOperator>(Arg);
          R.ThroughPointer && AddrOf && AddrOf->getOpcode() == UO_AddrOf)
        Arg = AddrOf->getSubExpr();
      Key K = storageOf(Arg);
      if (Key Elem = containerElementPlace(Arg))
        K = Elem; // a container's elements (ContainerFlow.cpp)
      if (!K || !K->Element || releasesOneConstantElement(Arg))
        continue;
      Note(K->Decl, Call);
    }
  }
}

} // namespace lifetime
} // namespace cgt
