//===- InterpreterLoops.cpp - loops and unmodelled regions ------------------===//
//
// A loop is unrolled while its condition is decided, up to MaxUnroll
// iterations; then it runs once more symbolically: every variable it writes is
// havocked, and a counter with a loop-invariant step becomes
// `current + step*K` with K >= 0 an iteration-count symbol whose upper bound
// the loop condition gives (narrow). Regions whose control flow is not modelled
// (switch, range-for) run once, guarded, with what they write havocked.
//
//===----------------------------------------------------------------------===//
#include "SharedMem/Interpreter/InterpreterScanners.h"
#include "SharedMem/Interpreter/InterpreterState.h"

using namespace clang;

namespace cgt::smem::detail {

/// Runs a region whose control flow is not modelled (switch, range-for):
/// once, guarded, with everything it writes havocked.
Flow Interp::opaqueRegion(const Stmt *Body, const Stmt *Key) {
  bool Saved = Guarded;
  Guarded = true;
  havoc(Key, Body, nullptr, nullptr, /*Induction=*/false);
  ++LoopDepth;
  Iters.push_back(-1);
  GridCursor G0 = Grid;
  exec(Body);
  forgetGrid(G0);
  Iters.pop_back();
  --LoopDepth;
  havoc(Key, Body, nullptr, nullptr, false);
  Guarded = Saved;
  return Flow::Normal;
}

LoopInfo &Interp::loopInfo(const Stmt *Loop, const Stmt *Body, const Expr *Cond,
                   const Expr *Inc) {
  auto It = Loops.find(Loop);
  if (It != Loops.end())
    return It->second;
  LoopScanner S;
  S.TraverseStmt(const_cast<Stmt *>(Body));
  if (Cond)
    S.TraverseStmt(const_cast<Expr *>(Cond));
  if (Inc)
    S.TraverseStmt(const_cast<Expr *>(Inc));
  LoopInfo LI;
  LI.Written = S.Order;
  LI.Exits = S.Exits;
  for (const VarDecl *V : S.Order) {
    if (S.Complex.count(V) || !S.Step.count(V))
      continue;
    auto St = S.Step[V];
    // the step must not change inside the loop
    LoopScanner Inner;
    if (!isa<UnaryOperator>(St.first))
      Inner.TraverseStmt(const_cast<Expr *>(St.first));
    bool Stable = true;
    for (const VarDecl *W : S.Order)
      if (Inner.Refs.count(W))
        Stable = false;
    if (Stable)
      LI.Step[V] = St;
  }
  auto steppedBy = [](const Expr *E) -> const VarDecl * {
    E = E->IgnoreParenImpCasts();
    if (const auto *U = dyn_cast<UnaryOperator>(E))
      return U->isIncrementDecrementOp() ? LoopScanner::varOf(U->getSubExpr()) : nullptr;
    if (const auto *B = dyn_cast<BinaryOperator>(E))
      return B->isCompoundAssignmentOp() ? LoopScanner::varOf(B->getLHS()) : nullptr;
    return nullptr;
  };
  std::vector<const Expr *> Updates;
  for (const Expr *I = Inc; I;) { // `++t, w += 32`
    const auto *Comma = dyn_cast<BinaryOperator>(I->IgnoreParens());
    if (!Comma || Comma->getOpcode() != BO_Comma) {
      Updates.push_back(I);
      break;
    }
    Updates.push_back(Comma->getRHS());
    I = Comma->getLHS();
  }
  if (const auto *CS = dyn_cast<CompoundStmt>(Body); CS && !S.Continues)
    for (const Stmt *Child : CS->body())
      if (const auto *E = dyn_cast<Expr>(Child))
        Updates.push_back(E);
  for (const Expr *E : Updates)
    if (const VarDecl *V = steppedBy(E); V && LI.Step.count(V))
      LI.EveryIteration.insert(V);
  return Loops.emplace(Loop, std::move(LI)).first->second;
}

SymVal Interp::stepOf(const std::pair<const Expr *, int> &Step) {
  SymVal StepV;
  if (isa<UnaryOperator>(Step.first)) {
    StepV = SymVal::constant(1);
  } else {
    bool SavedNR = NoRecord;
    NoRecord = true;
    StepV = eval(Step.first);
    NoRecord = SavedNR;
  }
  return scale(StepV, Step.second);
}

SymVal Interp::iterationCount(const Stmt *Loop, const VarDecl *V,
                              const LoopInfo &LI) {
  uint64_t KId = LI.EveryIteration.count(V) ? key(Loop, 7) | 1
                                            : (key(Loop, 7) ^ key(V, 9)) | 1;
  // The number of further iterations: at least 0; its upper bound comes
  // from the loop condition (narrow). The bound is reached when nothing
  // but the condition leaves the loop.
  IterSyms.insert(KId);
  unsigned &Depth = SymDepth[KId]; // another count in each outer iteration
  Depth = std::max(Depth, static_cast<unsigned>(Iters.size()));
  if (!SymRanges.count(KId)) {
    Bound KB;
    KB.Lo = 0;
    KB.Attainable = !LI.Exits;
    SymRanges[KId] = KB;
  }
  return SymVal::symbol(KId);
}

void Interp::havoc(const Stmt *Loop, const Stmt *Body, const Expr *Cond,
           const Expr *Inc, bool Induction) {
  LoopInfo &LI = loopInfo(Loop, Body, Cond, Inc);
  for (const VarDecl *V : LI.Written) {
    if (isStatic(V))
      continue;
    auto St = LI.Step.find(V);
    bool Counter = Induction && St != LI.Step.end();
    if (V->getType()->isPointerType()) {
      // A pointer stepped every iteration (`w += 32`) keeps its array and
      // advances by the iteration count, in bytes.
      PtrVal P = Counter ? lookupPtr(V) : PtrVal();
      if (P.VD) {
        SymVal StepBytes = scale(stepOf(St->second), pointeeBytes(V->getType()));
        P.Off = add(P.Off, mul(StepBytes, iterationCount(Loop, V, LI), key(Loop, 13)));
      }
      ptrSlot(V) = P;
      continue;
    }
    if (!Counter) {
      envSlot(V) = SymVal::top();
      continue;
    }
    SymVal StepV = stepOf(St->second);
    SymVal K = iterationCount(Loop, V, LI);
    envSlot(V) = add(loadVar(V), mul(StepV, K, key(Loop, 11)));
  }
}

Flow Interp::execLoop(const Stmt *Loop, const Stmt *Init, const Expr *Cond,
              const Expr *Inc, const Stmt *Body, bool IsDo,
              const DeclStmt *CondVar) {
  if (Init)
    exec(Init);
  if (inertForThread(Loop)) {
    step();
    havoc(Loop, Body, Cond, Inc, /*Induction=*/false);
    return Flow::Normal;
  }
  ++LoopDepth;
  Iters.push_back(0);
  Flow Result = Flow::Normal;
  bool Symbolic = false, EntryInterior = false;
  bool SavedShape = PathShapeDep;
  for (unsigned I = 0;; ++I) {
    if (I >= MaxUnroll || Exhausted) {
      Symbolic = true;
      break;
    }
    // A decided test of a loop whose body holds a block barrier: which
    // threads stay in it matters to barrier divergence.
    bool Log = false, TestShape = false;
    if (!IsDo || I > 0) {
      if (CondVar)
        exec(CondVar);
      Tri C = Cond ? cond(Cond) : Tri::True;
      TestShape = Cond && LastCondShape;
      if (Cond)
        PathShapeDep |= LastCondShape;
      Log = Cond && C != Tri::Unknown && !Guarded && (barrierBits(Body) & 1);
      if (C == Tri::False) {
        if (Log)
          logDecision(Loop, llvm::hash_combine(iterHash(Iters.size() - 1), I), 0,
                      TS->Trace.size(), Flow::Normal, TestShape);
        break;
      }
      if (C == Tri::Unknown) {
        // Every thread of an interior block enters the loop.
        EntryInterior = I == 0 && LastInterior == 1;
        Symbolic = true;
        break;
      }
    }
    Iters.back() = static_cast<int>(I);
    size_t Before = TS->Trace.size();
    Flow F = exec(Body);
    if (Log)
      logDecision(Loop, llvm::hash_combine(iterHash(Iters.size() - 1), I), 1, Before, F,
                  TestShape);
    if (F == Flow::Return) {
      Result = Flow::Return;
      break;
    }
    if (F == Flow::Break)
      break;
    if (Inc)
      evalAny(Inc);
  }
  if (Symbolic && !Exhausted) {
    bool Saved = Guarded;
    havoc(Loop, Body, Cond, Inc, /*Induction=*/true);
    Iters.back() = -1;
    if (CondVar)
      exec(CondVar);
    Tri C = Cond ? cond(Cond) : Tri::Unknown;
    if (!Cond)
      LastCondDep = true; // an unrolled-out infinite loop: who stays is unknown
    if (C != Tri::False) {
      Guarded = Saved || (C == Tri::Unknown && LastCondDep && !EntryInterior &&
                          LastInterior != 1);
      chargeCopy(SymRanges.size());
      RangeMap R0 = SymRanges;
      if (Cond)
        narrow(Cond, true);
      // One symbolic iteration stands for any: when it may meet a barrier,
      // markers keep it apart from the code around the loop, and its last
      // interval meets its first (the next iteration's), see SyncModel.h.
      bool Bracket = barrierBits(Body) & 5;
      if (Bracket)
        pushEvent(Body, /*Barrier=*/false);
      uint32_t Head = Cur.Phase, EntryArm = ArmId;
      GridCursor G0 = Grid;
      exec(Body);
      forgetGrid(G0); // any number of iterations
      if (Bracket && Cur.Phase != Head)
        Sync->Wraps.insert(WrapLoop{Head, Cur.Phase, EntryArm});
      if (Bracket)
        pushEvent(Loop, /*Barrier=*/false);
      SymRanges = std::move(R0);
    }
    if (Inc)
      evalAny(Inc);
    havoc(Loop, Body, Cond, Inc, /*Induction=*/false);
    Guarded = Saved;
  }
  Iters.pop_back();
  --LoopDepth;
  PathShapeDep = SavedShape || (PathShapeDep && Result != Flow::Normal);
  return Result;
}

} // namespace cgt::smem::detail
