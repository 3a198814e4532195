//===- Interpreter.cpp - per-thread execution of a kernel body --------------===//
//
// See Interpreter.h. The statement walk: the kernel body runs once per thread
// of the block shape, over SymVal values (concrete where the thread makes them
// concrete, linear forms of warp-uniform unknowns, Top otherwise). The class
// holding the walk's state is InterpreterState.h; evaluation, ranges, memory
// and loops live in the files named there. Soundness rules that matter for
// false positives:
//   * an if/?: /&&/|| whose condition is not decided runs both sides with the
//     path marked Guarded, and joins variables (different values -> Top);
//   * a return/break under such a condition leaves the rest Guarded;
//   * loops: see InterpreterLoops.cpp;
//   * calls of __device__ functions of the file run in place (up to three
//     deep, InterpreterCalls.cpp); other calls are opaque (Top), except
//     min/max and atomic*().
//
//===----------------------------------------------------------------------===//
#include "SharedMem/Interpreter/Interpreter.h"
#include "SharedMem/Interpreter/InterpreterScanners.h"
#include "SharedMem/Interpreter/InterpreterState.h"

using namespace clang;

namespace cgt::smem {

namespace detail {

bool Interp::run() {
  {
    EscapeScanner ES;
    ES.TraverseStmt(Kernel->getBody());
    Escaped = std::move(ES.Vars);
  }
  const BlockShape &B = Cfg.Block;
  for (unsigned Z = 0; Z < B.Z; ++Z)
    for (unsigned Y = 0; Y < B.Y; ++Y)
      for (unsigned X = 0; X < B.X; ++X) {
        Tx = X, Ty = Y, Tz = Z;
        Tid = X + Y * B.X + Z * B.X * B.Y;
        Env.clear();
        Ptrs.clear();
        SymRanges.clear();
        Guarded = false;
        PathShapeDep = false;
        Iters.clear();
        LoopDepth = 0;
        // What the last condition or call left: every thread starts from the
        // same values, so that its top-level statements can be replayed
        // (InterpreterMemo.cpp).
        LastCondDep = LastCondShape = true;
        LastCondBlock = false;
        LastInterior = -1;
        LastReturnPtr = PtrVal();
        resetSyncThread();
        execKernelBody();
        if (Exhausted)
          return false;
      }
  for (AccessRecord &R : Out) {
    auto It = Carves.find(R.Array);
    if (It != Carves.end())
      R.Carves = It->second;
  }
  return true;
}

/// The values after an undecided branch: what both sides agree on, Top for
/// the rest. Built in place in the first side's maps, which are moved in.
void Interp::join(EnvT &&A, PtrEnvT &&PA, const EnvT &B, const PtrEnvT &PB) {
  Env = std::move(A);
  for (auto &KV : Env) {
    auto It = B.find(KV.first);
    if (It == B.end() || It->second != KV.second)
      KV.second = SymVal::top();
  }
  for (const auto &KV : B)
    Env.try_emplace(KV.first, SymVal::top());
  Ptrs = std::move(PA);
  for (auto &KV : Ptrs) {
    auto It = PB.find(KV.first);
    bool Same = It != PB.end() && It->second.VD == KV.second.VD &&
                It->second.Off == KV.second.Off && It->second.Carve == KV.second.Carve;
    if (!Same)
      KV.second = PtrVal();
  }
  for (const auto &KV : PB)
    Ptrs.try_emplace(KV.first, PtrVal());
}

Flow Interp::exec(const Stmt *S) {
  if (!S || Exhausted)
    return Flow::Normal;
  if (const auto *CS = dyn_cast<CompoundStmt>(S)) {
    for (const Stmt *Child : CS->body()) {
      Flow F = exec(Child);
      if (F != Flow::Normal)
        return F;
    }
    return Flow::Normal;
  }
  if (const auto *DS = dyn_cast<DeclStmt>(S)) {
    for (const Decl *D : DS->decls())
      if (const auto *V = dyn_cast<VarDecl>(D))
        declare(V);
    return Flow::Normal;
  }
  if (const auto *E = dyn_cast<Expr>(S)) {
    if (E->containsErrors()) {
      unbuiltStatement();
      return Flow::Normal;
    }
    // A thread that calls __trap()/abort()/__assert_fail() goes no further.
    if (isNoReturnCall(E)) {
      evalAny(E);
      return Flow::Return;
    }
    // assert(c) expands to `c ? void(0) : __assert_fail(...)`: a guard.
    if (const auto *CO = dyn_cast<ConditionalOperator>(
            E->IgnoreImplicit()->IgnoreParenCasts()))
      if (isNoReturnCall(CO->getTrueExpr()) || isNoReturnCall(CO->getFalseExpr()))
        return execBranch(CO->getCond(), CO->getTrueExpr(), CO->getFalseExpr(),
                          /*Consteval=*/false);
    evalAny(E);
    return Flow::Normal;
  }
  if (const auto *I = dyn_cast<IfStmt>(S))
    return execIf(I);
  if (const auto *F = dyn_cast<ForStmt>(S))
    return execLoop(F, F->getInit(), F->getCond(), F->getInc(), F->getBody(),
                    false, F->getConditionVariableDeclStmt());
  if (const auto *W = dyn_cast<WhileStmt>(S))
    return execLoop(W, nullptr, W->getCond(), nullptr, W->getBody(), false,
                    W->getConditionVariableDeclStmt());
  if (const auto *D = dyn_cast<DoStmt>(S))
    return execLoop(D, nullptr, D->getCond(), nullptr, D->getBody(), true,
                    nullptr);
  if (const auto *R = dyn_cast<ReturnStmt>(S)) {
    if (!Frames.empty())
      noteReturn(R->getRetValue());
    else if (R->getRetValue())
      evalAny(R->getRetValue());
    return Flow::Return;
  }
  if (isa<BreakStmt>(S))
    return Flow::Break;
  if (isa<ContinueStmt>(S))
    return Flow::Continue;
  if (const auto *L = dyn_cast<LabelStmt>(S))
    return exec(L->getSubStmt());
  if (const auto *A = dyn_cast<AttributedStmt>(S))
    return exec(A->getSubStmt());
  if (const auto *Sw = dyn_cast<SwitchStmt>(S)) {
    evalAny(Sw->getCond());
    return opaqueRegion(Sw->getBody(), Sw);
  }
  if (const auto *R = dyn_cast<CXXForRangeStmt>(S))
    return opaqueRegion(R->getBody(), R);
  if (const auto *A = dyn_cast<AsmStmt>(S)) {
    noteAsm(A);
    return Flow::Normal;
  }
  if (isa<NullStmt>(S))
    return Flow::Normal;
  // goto and anything unusual: give up on the rest of this thread's path.
  Guarded = true;
  return Flow::Normal;
}

void Interp::declare(const VarDecl *V) {
  if (isStatic(V))
    return;
  const Expr *Init = V->getInit();
  QualType T = V->getType();
  if (T->isPointerType()) {
    PtrVal P = Init ? evalPtr(Init) : PtrVal();
    if (P.VD && !P.Off.Top && !P.Off.ThreadDep && LoopDepth == 0 && !Guarded) {
      P.Carve = V;
      P.CarveStart = P.Off;
      auto &C = Carves[P.VD];
      if (std::find(C.begin(), C.end(), P.Off) == C.end())
        C.push_back(P.Off);
    }
    ptrSlot(V) = P;
    return;
  }
  if (T->isReferenceType()) {
    if (Init)
      evalAny(Init);
    return;
  }
  SymVal Val = Init ? evalAny(Init) : SymVal::top();
  envSlot(V) = T->isIntegralOrEnumerationType() ? normalize(Val, T) : SymVal::top();
}

Flow Interp::execIf(const IfStmt *I) {
  if (I->getInit())
    exec(I->getInit());
  if (I->getConditionVariableDeclStmt())
    exec(I->getConditionVariableDeclStmt());
  return execBranch(I->getCond(), I->getThen(), I->getElse(), I->isConsteval());
}

/// A call that does not return to the thread (noreturn, or CUDA's __trap).
bool Interp::isNoReturnCall(const Expr *E) {
  if (!E)
    return false;
  const auto *C = dyn_cast<CallExpr>(E->IgnoreImplicit()->IgnoreParenCasts());
  const FunctionDecl *F = C ? C->getDirectCallee() : nullptr;
  if (!F)
    return false;
  if (F->isNoReturn())
    return true;
  StringRef N = F->getName();
  return N == "__trap" || N == "__assert_fail" || N == "__assertfail" || N == "abort";
}

/// An arm that assigns no variable and declares none: absent, empty, or a
/// bare `return` (with a value free of side effects: it only sets the
/// frame's result), `break` or `continue`.
bool Interp::keepsVariables(const Stmt *S) {
  if (!S || isa<BreakStmt, ContinueStmt, NullStmt>(S))
    return true;
  if (const auto *CS = dyn_cast<CompoundStmt>(S))
    return CS->size() == 0 || (CS->size() == 1 && keepsVariables(CS->body_front()));
  const auto *R = dyn_cast<ReturnStmt>(S);
  if (!R)
    return false;
  const Expr *V = R->getRetValue();
  if (!V)
    return true;
  auto [It, New] = PureReturns.try_emplace(R, false);
  if (New)
    It->second = !V->HasSideEffects(Ctx);
  return It->second;
}

Flow Interp::execBranch(const Expr *Cond, const Stmt *Then, const Stmt *Else, bool Consteval) {
  Tri C = Consteval ? Tri::Unknown : cond(Cond);
  // Which threads get here depends on the block shape: under an assumed
  // shape, nothing on this path can be judged.
  bool SavedShape = PathShapeDep, Shape = LastCondShape;
  PathShapeDep |= Shape;
  if (C != Tri::Unknown) {
    // Which arm each thread takes matters to barrier divergence only when
    // the code of the branch holds a block barrier.
    bool Log = !Consteval && !Guarded && ((barrierBits(Then) | barrierBits(Else)) & 1);
    size_t Before = TS->Trace.size();
    const Stmt *Arm = C == Tri::True ? Then : Else;
    Flow F = exitsInertly(Arm) ? Flow::Return : exec(Arm);
    if (Log)
      logDecision(Cond, iterHash(Iters.size()), C == Tri::True ? 1 : 0, Before, F, Shape);
    PathShapeDep = SavedShape || (Shape && F != Flow::Normal);
    return F;
  }
  bool Saved = Guarded, Dep = LastCondDep;
  // A test derived from blockIdx sends blocks different ways: grid
  // barriers in its arms, or after an arm that leaves, split the grid
  // (InterpreterGrid.cpp).
  bool SplitsGrid = !Consteval && splitsBlocks(!Dep, Saved);
  GridCursor G0 = Grid;
  int Interior = LastInterior;
  // A guard on a global coordinate against a problem size takes one side
  // in every interior block: that side is not "guarded".
  Guarded = Saved || (Dep && Interior != 1);
  // `if (j > j_max) return;` in a loop, for every thread: neither arm can
  // change a variable, so the join below would give back what there was.
  // Copying the variables to join them was a fifth of the interpreter's
  // time on ggml's mmq units (bench/perf/README.md, issue 38).
  bool Keep = keepsVariables(Then) && keepsVariables(Else);
  chargeCopy(2 * SymRanges.size() + (Keep ? 0 : Env.size() + Ptrs.size()));
  EnvT E0 = Keep ? EnvT() : Env;
  PtrEnvT P0 = Keep ? PtrEnvT() : Ptrs;
  RangeMap R0 = SymRanges;
  // Every thread takes the same arm of a block-uniform condition: the arms
  // are exclusive worlds, each starting from the phase before the branch.
  const Stmt *ArmSite = Cond ? static_cast<const Stmt *>(Cond) : Then;
  bool Uniform = !Dep;
  SyncCursor C0 = Cur;
  if (Uniform)
    enterArm(ArmSite, 1);
  if (!Consteval)
    narrow(Cond, true);
  size_t ThenFrom = TS->Trace.size();
  Flow FT = exitsInertly(Then) ? Flow::Return : exec(Then);
  SyncCursor CT = Cur;
  GridCursor GT = Grid;
  size_t ElseFrom = TS->Trace.size();
  if (Uniform) {
    leaveArm();
    Cur = C0;
    Grid = G0;
    enterArm(ArmSite, 0);
  }
  EnvT ET = Keep ? EnvT() : std::move(Env);
  PtrEnvT PT = Keep ? PtrEnvT() : std::move(Ptrs);
  if (!Keep) {
    Env = std::move(E0);
    Ptrs = std::move(P0);
  }
  SymRanges = R0;
  Guarded = Saved || (Dep && Interior != 0);
  if (!Consteval)
    narrow(Cond, false);
  Flow FE = exitsInertly(Else) ? Flow::Return : exec(Else);
  if (Uniform) {
    leaveArm();
    joinGrid(ArmSite, SplitsGrid, G0, GT, FT, FE, ThenFrom, ElseFrom);
    joinArms(ArmSite, CT, FT, FE);
  } else {
    forgetGrid(G0); // both arms ran, each in some threads
  }
  EnvT EE = Keep ? EnvT() : std::move(Env);
  PtrEnvT PE = Keep ? PtrEnvT() : std::move(Ptrs);
  SymRanges = std::move(R0);
  // After the branch: a side that returned leaves the other's facts.
  if (!Consteval && FT != Flow::Normal && FE == Flow::Normal)
    narrow(Cond, false);
  else if (!Consteval && FE != Flow::Normal && FT == Flow::Normal)
    narrow(Cond, true);
  if (!Keep)
    join(std::move(ET), std::move(PT), EE, PE);
  // A branch that may leave keeps the rest of the path undecided, unless
  // only edge blocks take it.
  bool Leaves = Interior == 1   ? FT != Flow::Normal
                : Interior == 0 ? FE != Flow::Normal
                                : (FT != Flow::Normal || FE != Flow::Normal);
  Guarded = Saved || (Dep && Leaves);
  PathShapeDep = SavedShape || (Shape && (FT != Flow::Normal || FE != Flow::Normal));
  if (FT == Flow::Return && FE == Flow::Return)
    return Flow::Return;
  return Flow::Normal;
}

} // namespace detail

bool kernelIsInert(ASTContext &Ctx, const FunctionDecl *Kernel) {
  if (!Kernel->hasBody())
    return true;
  LaunchConfig Cfg;
  std::vector<AccessRecord> None;
  detail::Interp I(Ctx, Kernel, Cfg, 0, {}, None, 0);
  return I.kernelInert();
}

bool interpretKernel(ASTContext &Ctx, const FunctionDecl *Kernel,
                     const LaunchConfig &Cfg, unsigned MaxUnroll,
                     const std::map<const VarDecl *, uint64_t> &Pad,
                     std::vector<AccessRecord> &Out, uint64_t &Budget,
                     SyncLog *Sync) {
  if (!Kernel->hasBody())
    return true;
  detail::Interp I(Ctx, Kernel, Cfg, MaxUnroll, Pad, Out, Budget);
  I.setSyncLog(Sync);
  bool Done = I.run();
  Budget -= std::min(Budget, I.stepsTaken());
  return Done;
}

} // namespace cgt::smem