//===- Dataflow.cpp - CFG walk and worklist -------------------------------===//
//
// The dataflow driver of the lifetime analysis: builds the CFG, walks its
// blocks in reverse post-order with a worklist, applies each CFG element to
// every path state, propagates states along edges (refined by the branch
// taken) and checks what is still live where the function exits.
//
// Part of the Analysis class declared in Analysis.h.
//
//===----------------------------------------------------------------------===//
#include "Lifetime/Analysis.h"

#include <queue>

namespace cgt {
namespace lifetime {

void Analysis::transferElement(const CFGElement &E, PathState &P, bool &Dead) {
  if (auto SE = E.getAs<CFGScopeEnd>()) {
    onScopeEnd(SE->getVarDecl(), SE->getTriggerStmt(), P);
    return;
  }
  auto CS = E.getAs<CFGStmt>();
  if (!CS)
    return;
  const Stmt *S = CS->getStmt();
  if (isContainerInsertPart(S))
    return; // `{k, e}` built for `cache.insert`: the insertion's (ContainerFlow.cpp)
  escapeDependentParts(S, P);
  if (const auto *Call = dyn_cast<CallExpr>(S)) {
    onCall(Call, P, Dead);
    markReleaseRan(Call, P);
  } else if (const auto *BO = dyn_cast<BinaryOperator>(S)) {
    if (BO->getOpcode() == BO_Assign)
      onAssign(BO->getLHS(), BO->getRHS(), BO, P);
    else if (BO->isCompoundAssignmentOp())
      if (Key K = storageOf(BO->getLHS()))
        stepOrForget(K, BO, P);
  } else if (const auto *UO = dyn_cast<UnaryOperator>(S)) {
    if (UO->isIncrementDecrementOp())
      if (Key K = storageOf(UO->getSubExpr()))
        stepOrForget(K, UO, P);
  } else if (const auto *DS = dyn_cast<DeclStmt>(S)) {
    for (const Decl *D : DS->decls())
      if (const auto *VD = dyn_cast<VarDecl>(D)) {
        if (!VD->getInit())
          continue;
        if (hasOpaqueInit(VD)) { // Templates.cpp
          escapeNamedIn(VD->getInit(), P);
          continue;
        }
        if (VD->hasLocalStorage() && !VD->getType()->isReferenceType()) {
          assignTo(placeOf(VD), VD->getInit(), nullptr, P);
          continue;
        }
        if (isContainerLoopRange(VD))
          continue; // a range loop reads the container (ContainerFlow.cpp)
        if (VD->getType()->isReferenceType())
          if (Key K = storageOf(VD->getInit()))
            AddressEscaped.insert(K); // an alias we do not follow
        escapeValueRefs(VD->getInit(), P);
      }
  } else if (const auto *RS = dyn_cast<ReturnStmt>(S)) {
    if (SummaryMode)
      noteReturnedResource(RS->getRetValue(), P);
    // A lent member stays where it is: a summary then says the helper
    // leaves it acquired (a lazy getter that rebuilds `p->graph`).
    if (!returnsParamMember(RS->getRetValue()))
      escapeValueRefs(RS->getRetValue(), P);
  } else if (const auto *Cons = dyn_cast<CXXConstructExpr>(S)) {
    if (SummaryMode)
      noteReturnedCopy(Cons, P);
    checkSmartPointerHandOver(Cons, P); // SmartPointers.cpp
    escapeArgs(Cons->getConstructor(), {Cons->getArgs(), Cons->getNumArgs()}, P);
  } else if (const auto *ILE = dyn_cast<InitListExpr>(S)) {
    if (!isa_and_nonnull<InitListExpr>(PM->getParent(ILE)))
      escapeValueRefs(ILE, P);
  } else if (const auto *L = dyn_cast<LambdaExpr>(S)) {
    // A lambda that is only called here does its work at the call.
    if (!isLocalLambda(L))
      escapeValueRefs(L, P);
  } else if (isa<CXXThrowExpr>(S)) {
    // A throw caught in this function goes on to its handler; one that
    // leaves it ends the path (transferBlock reports what it leaks).
    if (A.Opts.SinkPathsAreSilent && leavesFunction(CurrentBlock))
      Dead = true;
  } else if (const auto *Temp = dyn_cast<CXXBindTemporaryExpr>(S)) {
    // The CFG has no destructors of temporaries: one that throws or ends
    // the program (TVM's ICHECK, glog's CHECK) ends the path here, where
    // the full expression's end would run it (Exceptions.cpp).
    if (A.Opts.SinkPathsAreSilent &&
        A.destructorEnd(Temp->getType()) != LifetimeAnalyzer::Impl::DestructorEnd::Returns)
      Dead = true;
  } else if (const auto *New = dyn_cast<CXXNewExpr>(S)) {
    if (New->getInitializer())
      escapeValueRefs(New->getInitializer(), P);
    onNew(New, P); // HostHeap.cpp
  } else if (const auto *Delete = dyn_cast<CXXDeleteExpr>(S)) {
    onDelete(Delete, P);
  }
}

/// `++i`, `n -= 2`: the facts about the variable are gone, its range moves.
void Analysis::stepOrForget(Key K, const Expr *Step, PathState &P) {
  std::optional<values::RangeSet> After = rangeAfterStep(K, Step, P);
  invalidateFacts(K, P);
  if (After && !After->isFull())
    P.Values.bindRange(reinterpret_cast<values::Symbol>(K), *After);
}

void Analysis::checkExit(const CFGBlock *From, const StateSet &S) {
  SourceLocation Where = SM.getExpansionLoc(FD->getBody()->getEndLoc());
  for (auto It = From->rbegin(); It != From->rend(); ++It)
    if (auto CS = It->getAs<CFGStmt>())
      if (isa<ReturnStmt>(CS->getStmt())) {
        Where = loc(CS->getStmt());
        break;
      }
  for (const PathState &P : S)
    for (const auto &Entry : P.Res) {
      const Resource &Res = Resources[Entry.first];
      // A capture is not the object's to keep: a method that ends captures
      // on a member stream must not return with one open.
      if (!(Entry.second.Bits & Live) || (Res.IntoField && !isCapture(Entry.first)) ||
          Res.ParamIndex >= 0)
        continue;
      if (llvm::any_of(P.Bind, [&](const auto &B) {
            return B.second.count(Entry.first) && !isLeakedAtEnd(B.first, Entry.second);
          }))
        continue;
      std::string Noun = A.Model.kind(Res.Kind) ? A.Model.kind(Res.Kind)->Noun : "resource";
      reportLeak(Entry.first, Entry.second, Where,
                 "the " + Noun + " is not released when the function returns here");
    }
  for (const PathState &P : S)
    noteMembersAtExit(P, Where);
  if (SummaryMode)
    ExitStates.insert(ExitStates.end(), S.begin(), S.end());
  ReachedExit = true;
}

/// A resource's disjunct that reaches a counted loop whose first test it
/// decides (`if (n <= 0) return;` before `for (i = 0; i < n; ++i)`): the
/// counter enters widened, which would let the header take the exit that
/// only a loop of zero trips takes, where a resource the first pass
/// releases would leak, and one it released before whose array elements the
/// first pass fills again would be released twice after the loop. The test
/// is recorded as a fact instead, which the counter's first step forgets
/// (the fact names it).
bool Analysis::entersLoopBody(const CFGBlock *Header, const PathState &P) {
  if (P.Tracked == 0 || Header->succ_size() != 2)
    return false;
  auto RS = P.Res.find(P.Tracked);
  if (RS == P.Res.end() || !(RS->second.Bits & (Live | Released)))
    return false;
  const Expr *Cond = Header->getLastCondition();
  std::optional<bool> Known = Cond ? knownCondition(Cond, P) : std::nullopt;
  return Known ? *Known : firstTestHoldsByConstants(Header);
}

/// `for (int j = 0; j < 4; j++)`: the counter starts at a constant that the
/// first test, against a constant, lets in, whatever the path knows.
bool Analysis::firstTestHoldsByConstants(const CFGBlock *Header) const {
  const auto *For = dyn_cast_or_null<ForStmt>(Header->getTerminatorStmt());
  const auto *Init = For ? dyn_cast_or_null<DeclStmt>(For->getInit()) : nullptr;
  const auto *Test = For ? dyn_cast_or_null<BinaryOperator>(For->getCond()) : nullptr;
  if (!Init || !Init->isSingleDecl() || !Test || !Test->isComparisonOp())
    return false;
  const auto *Counter = dyn_cast<VarDecl>(Init->getSingleDecl());
  const auto *Ref = dyn_cast<DeclRefExpr>(Test->getLHS()->IgnoreParenImpCasts());
  Expr::EvalResult Start, Bound;
  if (!Counter || !Counter->getInit() || !Ref || Ref->getDecl() != Counter ||
      Counter->getInit()->isValueDependent() || Test->getRHS()->isValueDependent() ||
      !Counter->getInit()->EvaluateAsInt(Start, Ctx) ||
      !Test->getRHS()->EvaluateAsInt(Bound, Ctx))
    return false;
  llvm::APSInt From = Start.Val.getInt(), To = Bound.Val.getInt();
  if (From.isSigned() != To.isSigned() || From.getBitWidth() != To.getBitWidth())
    return false;
  switch (Test->getOpcode()) {
  case BO_LT: return From < To;
  case BO_LE: return From <= To;
  case BO_GT: return From > To;
  case BO_GE: return From >= To;
  case BO_NE: return From != To;
  default: return false;
  }
}

/// True when the block's only way on is the function exit.
bool Analysis::leavesFunction(const CFGBlock *B) const {
  if (!B)
    return true;
  for (const CFGBlock::AdjacentBlock &Succ : B->succs())
    if (const CFGBlock *To = Succ.getReachableBlock(); To && To != &Cfg->getExit())
      return false;
  return true;
}

void Analysis::transferBlock(const CFGBlock *B, StateSet &S) {
  CurrentBlock = B;
  orderForCaptureContext(B, S); // CaptureContext.cpp
  StateSet Alive;
  Alive.reserve(S.size());
  // The base comes first and stands for every path: where it dies (a call
  // that never returns, a throw) the disjuncts this block leaves alone die
  // with it, and go where it goes.
  bool BaseDied = false;
  const CFGBlock *BaseDispatch = nullptr;
  const Stmt *BaseThrow = nullptr;
  for (PathState &P : S) {
    if (!isRelevant(B, P)) {
      if (!BaseDied)
        Alive.push_back(std::move(P));
      else if (BaseDispatch)
        Diverted.push_back({BaseDispatch, std::move(P)});
      else if (BaseThrow)
        onThrowLeaving(BaseThrow, P);
      continue;
    }
    bool Dead = false;
    const CFGBlock *Dispatch = nullptr;
    const Stmt *Thrown = nullptr;
    for (const CFGElement &E : *B) {
      transferElement(E, P, Dead);
      if (!Dead) {
        // A checking helper's failure way is taken there (Exceptions.cpp).
        if (auto CS = E.getAs<CFGStmt>())
          forkOnStatusThrow(CS->getStmt(), P, Dead);
        if (Dead)
          break;
        continue;
      }
      auto CS = E.getAs<CFGStmt>();
      if (CS && (isa<CallExpr>(CS->getStmt()) ||
                 (isa<CXXBindTemporaryExpr>(CS->getStmt()) && throwsOut(CS->getStmt()))))
        Dispatch = handlerDispatchFor(CS->getStmt());
      // An exception that leaves the function (Exceptions.cpp).
      if (CS && !Dispatch && throwsOut(CS->getStmt()))
        Thrown = CS->getStmt();
      break;
    }
    if (Thrown)
      onThrowLeaving(Thrown, P);
    if (P.Tracked == 0 && Dead) {
      BaseDied = true;
      BaseDispatch = Dispatch;
      BaseThrow = Thrown;
    }
    if (!Dead)
      Alive.push_back(std::move(P));
    else if (Dispatch)
      Diverted.push_back({Dispatch, std::move(P)});
  }
  auto ByTracked = [](const PathState &L, const PathState &R) { return L.Tracked < R.Tracked; };
  if (!std::is_sorted(Alive.begin(), Alive.end(), ByTracked)) // captures went first
    std::stable_sort(Alive.begin(), Alive.end(), ByTracked);
  S = std::move(Alive);
}

StateSet Analysis::propagateEdge(const CFGBlock *From, unsigned SuccIndex,
                                 const CFGBlock *To, StateSet Out, bool TwoWay) {
  // Leaving a loop around a release the path may have run zero times.
  if (const Stmt *Term = From->getTerminatorStmt(); Term && (SuccIndex == 1 || isa<BreakStmt>(Term)))
    for (PathState &P : Out)
      markReleaseRan(Term, P);
  const auto *Switch = dyn_cast_or_null<SwitchStmt>(From->getTerminatorStmt());
  const Expr *Cond =
      !Switch && From->succ_size() == 2 ? From->getLastCondition() : nullptr;
  if (!Switch && !Cond)
    return Out;
  noteDependentBranch(From, Out);
  llvm::erase_if(Out, [&](PathState &P) {
    bool Infeasible = false;
    if (Switch)
      refineOnSwitch(Switch, To, P, Infeasible);
    else
      refineOnBranch(Cond, SuccIndex == 0, P, Infeasible, TwoWay);
    // What the leaf decides of the `&&`/`||` around it, and of the
    // condition a tested local was bound to (Conditions.cpp).
    if (!Switch && !Infeasible)
      recordLogicalParents(Cond, SuccIndex == 0, P, Infeasible);
    if (!Switch && !Infeasible)
      assumeBoundCondition(Cond, SuccIndex == 0, P, Infeasible);
    if (!Switch && !Infeasible)
      propagateCompoundFacts(Cond, P, Infeasible);
    return Infeasible;
  });
  return Out;
}

/// The try-dispatch block of the innermost try of this function whose
/// try-block holds `S`, if any: where a throw from `S` goes.
const CFGBlock *Analysis::handlerDispatchFor(const Stmt *S) {
  for (const Stmt *Cur = S; Cur; Cur = PM->getParent(Cur)) {
    const Stmt *Up = PM->getParent(Cur);
    if (!Up || isa<LambdaExpr>(Up))
      return nullptr;
    if (const auto *Try = dyn_cast<CXXTryStmt>(Up); Try && Try->getTryBlock() == Cur) {
      for (const CFGBlock *Blk : *Cfg)
        if (Blk && Blk->getTerminatorStmt() == Try)
          return Blk;
      return nullptr;
    }
  }
  return nullptr;
}

/// One walk of the body (outside lambdas, children before parents, as the
/// recursive walks it replaces) and one pass over the CFG, for the scans.
void Analysis::indexBody() {
  std::vector<std::pair<const Stmt *, bool>> Stack{{FD->getBody(), false}};
  while (!Stack.empty()) {
    auto [S, ChildrenDone] = Stack.back();
    Stack.pop_back();
    if (const auto *ME = dyn_cast_or_null<MemberExpr>(S))
      NamesMembers |= isa<FieldDecl>(ME->getMemberDecl());
    if (!S || isa<LambdaExpr>(S)) {
      NamesMembers |= isa_and_nonnull<LambdaExpr>(S);
      continue;
    }
    if (ChildrenDone) {
      if (const auto *Call = dyn_cast<CallExpr>(S))
        BodyCalls.push_back(Call);
      else if (const auto *DS = dyn_cast<DeclStmt>(S))
        BodyDecls.push_back(DS);
      continue;
    }
    Stack.push_back({S, true});
    size_t First = Stack.size();
    for (const Stmt *Child : S->children())
      Stack.push_back({Child, false});
    std::reverse(Stack.begin() + First, Stack.end());
  }
  for (const CFGBlock *B : *Cfg)
    for (unsigned I = 0; B && I < B->size(); ++I)
      if (const CallExpr *Call = callOfElement((*B)[I])) {
        CallElements.push_back({B, I, Call});
        CallPositions[Call] = {B, I};
      }
}

/// `i = i + 1`, `i = 2 * i`, `i = i - step`: the counter an assignment
/// steps by arithmetic on its own value.
Key Analysis::steppedByArithmetic(const BinaryOperator *Assign) {
  const auto *Step = dyn_cast<BinaryOperator>(Assign->getRHS()->IgnoreParenImpCasts());
  if (!Step || !(Step->isAdditiveOp() || Step->isMultiplicativeOp() || Step->isShiftOp()))
    return nullptr;
  Key K = storageOf(Assign->getLHS());
  if (!K)
    return nullptr;
  const auto *L = dyn_cast<DeclRefExpr>(Step->getLHS()->IgnoreParenImpCasts());
  const auto *R = dyn_cast<DeclRefExpr>(Step->getRHS()->IgnoreParenImpCasts());
  if ((L && storageOf(L) == K) || (R && storageOf(R) == K))
    return K;
  return nullptr;
}

/// For each loop header, the counter every way back into it steps last
/// (`for (...; ...; ++i)`, `i = i + 1`), if there is one. The facts about
/// it that enter the loop (`i` is zero) are gone by the header's fixpoint,
/// since each back edge forgets them; forgetting them on entry already saves
/// walking the loop once with them and again without, and, in nested loops,
/// every inner loop again each time an outer header loses one (super-linear
/// in depth).
std::vector<Key> Analysis::loopCounters() {
  unsigned N = Cfg->getNumBlockIDs();
  std::vector<Key> Counter(N, nullptr);
  CounterDirection.assign(N, 0);
  const Stmt *LastStep = nullptr;
  auto SteppedLast = [&](const CFGBlock *B) -> Key {
    if (B->succ_size() != 1 || B->empty())
      return nullptr;
    auto CS = B->back().getAs<CFGStmt>();
    LastStep = CS ? CS->getStmt() : nullptr;
    const auto *UO = CS ? dyn_cast<UnaryOperator>(CS->getStmt()) : nullptr;
    if (UO && UO->isIncrementDecrementOp())
      return storageOf(UO->getSubExpr());
    const auto *BO = CS ? dyn_cast<BinaryOperator>(CS->getStmt()) : nullptr;
    if (BO && BO->isCompoundAssignmentOp())
      return storageOf(BO->getLHS());
    if (BO && BO->getOpcode() == BO_Assign)
      return steppedByArithmetic(BO);
    return nullptr;
  };
  for (const CFGBlock *H : *Cfg) {
    unsigned Id = H ? H->getBlockID() : 0;
    // A header that keeps disjuncts apart by their facts would keep the
    // entry's apart from the way back's: leave it as it was.
    if (!H || !KeepIn[Id] || Order[Id] == N || Mentions[Id].KeepFactsApart)
      continue;
    Key K = nullptr;
    bool Fits = true;
    std::optional<int> Direction;
    for (const CFGBlock::AdjacentBlock &Pred : H->preds()) {
      const CFGBlock *B = Pred.getReachableBlock();
      if (!B || Order[B->getBlockID()] < Order[Id])
        continue; // an entry edge
      Key Stepped = SteppedLast(B);
      Fits &= Stepped && (!K || K == Stepped);
      K = Stepped;
      std::optional<int64_t> Delta =
          Stepped ? stepOf(Stepped, cast<Expr>(LastStep)) : std::nullopt;
      int Dir = !Delta ? 0 : *Delta > 0 ? 1 : *Delta < 0 ? -1 : 0;
      Direction = Direction && *Direction != Dir ? 0 : Dir;
    }
    if (Fits) {
      Counter[Id] = K;
      CounterDirection[Id] = Direction.value_or(0);
      markCounterStarts(H, K);
    }
  }
  return Counter;
}

/// The blocks entering loop `H` that set its counter `K`: a disjunct that
/// knows values walks them, so that the first test sees the start.
void Analysis::markCounterStarts(const CFGBlock *H, Key K) {
  for (const CFGBlock::AdjacentBlock &Pred : H->preds()) {
    const CFGBlock *B = Pred.getReachableBlock();
    if (!B || !K || Order[B->getBlockID()] >= Order[H->getBlockID()])
      continue; // a way back
    BlockMentions &M = Mentions[B->getBlockID()];
    if (std::binary_search(M.Written.begin(), M.Written.end(), K->Decl))
      M.StartsCounter = true;
  }
}

/// The last call of a block (the noreturn call that ends it).
const Stmt *lastCall(const CFGBlock *B) {
  for (auto It = B->rbegin(); It != B->rend(); ++It)
    if (auto CS = It->getAs<CFGStmt>())
      if (isa<CallExpr>(CS->getStmt()))
        return CS->getStmt();
  return nullptr;
}

namespace {

/// Position of each block in reverse post-order (unreachable edges skipped;
/// llvm's traversal does not expect the null successors clang's CFG has).
std::vector<unsigned> reversePostOrder(const CFG &G) {
  unsigned N = G.getNumBlockIDs();
  std::vector<unsigned> Order(N, N);
  std::vector<char> Visited(N, 0);
  std::vector<const CFGBlock *> Post;
  std::vector<std::pair<const CFGBlock *, unsigned>> Stack;
  Stack.push_back({&G.getEntry(), 0});
  Visited[G.getEntry().getBlockID()] = 1;
  while (!Stack.empty()) {
    auto &[B, Next] = Stack.back();
    if (Next < B->succ_size()) {
      const CFGBlock *S = B->succ_begin()[Next++].getReachableBlock();
      if (S && !Visited[S->getBlockID()]) {
        Visited[S->getBlockID()] = 1;
        Stack.push_back({S, 0});
      }
      continue;
    }
    Post.push_back(B);
    Stack.pop_back();
  }
  unsigned Pos = 0;
  for (auto It = Post.rbegin(); It != Post.rend(); ++It)
    Order[(*It)->getBlockID()] = Pos++;
  return Order;
}

} // namespace

/// What every path knows where the function starts.
PathState Analysis::entryState() {
  PathState Entry;
  if (SummaryMode)
    for (const ParmVarDecl *PVD : FD->parameters()) {
      QualType T = PVD->getType();
      if (!T->isPointerType() && !T->isIntegerType())
        continue;
      unsigned R = resourceFor(nullptr, PVD->getFunctionScopeIndex(), "", "", placeOf(PVD));
      Entry.Bind[placeOf(PVD)] = {R};
      Entry.Res[R].Bits = Live;
    }
  for (const auto &[Index, Value] : Constants)
    if (Key K = placeOf(FD->getParamDecl(Index)); isValueSymbol(K))
      Entry.Values.bindConstant(reinterpret_cast<values::Symbol>(K), Value);
  seedMembersLiveOnEntry(Entry);
  seedContainerMembers(Entry);
  return Entry;
}

bool Analysis::run() {
  InPattern = FD->isDependentContext();
  CFG::BuildOptions BO;
  // Scope ends rather than lifetime ends: clang puts the death of every
  // variable in scope at every early return (n^2 elements for n variables
  // and n returns); a scope end is one element per scope left.
  BO.AddScopes = true;
  BO.setAllAlwaysAdd();
  Cfg = CFG::buildCFG(FD, FD->getBody(), &Ctx, BO);
  if (!Cfg)
    return false;
  // Every subexpression is an element (setAllAlwaysAdd): their number,
  // plus some slack for what the CFG leaves out, sizes the parent index.
  unsigned Elements = 0;
  for (const CFGBlock *B : *Cfg)
    Elements += B ? B->size() : 0;
  PM = &A.parentsOf(FD->getBody(), Elements + Elements / 4 + 16);
  restorePrunedSwitchDefaults();
  unsigned N = Cfg->getNumBlockIDs();
  // Reverse post-order keeps the number of revisits small, and says which
  // blocks a loop can reach again.
  Order = reversePostOrder(*Cfg);
  computeKeptStates();
  indexBody();
  scanReEvaluations();
  scanScopes();
  // Before the mentions: a launch names the memory its graph allocates.
  if (!SummaryMode)
    scanCapturedMemory();
  scanMentions();
  computeLaterMentions();
  scanElementReleases();
  scanCaptureEnds();
  scanThreadRelaxedCalls();
  scanCapturesIntoGraphs();
  std::vector<StateSet> In(N);
  std::vector<unsigned> Visits(N, 0);
  std::vector<Key> Counter = loopCounters();

  const CFGBlock *EntryBlock = &Cfg->getEntry();
  In[EntryBlock->getBlockID()].push_back(entryState());
  splitDisjuncts(In[EntryBlock->getBlockID()], EntryBlock);

  auto Cmp = [&](const CFGBlock *L, const CFGBlock *R) {
    return Order[L->getBlockID()] > Order[R->getBlockID()];
  };
  std::priority_queue<const CFGBlock *, std::vector<const CFGBlock *>, decltype(Cmp)> WL(Cmp);
  std::vector<char> Queued(N, 0);
  WL.push(EntryBlock);
  Queued[EntryBlock->getBlockID()] = 1;

  InWalk = true;
  AddressEscapedOnEntry = AddressEscaped;
  while (!WL.empty()) {
    const CFGBlock *B = WL.top();
    WL.pop();
    Queued[B->getBlockID()] = 0;
    // Only loop headers need their state again: elsewhere a later arrival
    // is transferred on its own, so only the frontier of the walk holds
    // states.
    StateSet S = KeepIn[B->getBlockID()] ? In[B->getBlockID()] : std::move(In[B->getBlockID()]);
    transferBlock(B, S);
    splitDisjuncts(S, B);
    for (auto &[Dispatch, Path] : Diverted) {
      unsigned Id = Dispatch->getBlockID();
      StateSet One;
      One.push_back(std::move(Path));
      splitDisjuncts(One, B);
      if (joinInto(In[Id], std::move(One), A.Opts.MaxStatesPerPoint, WidenedRes) && !Queued[Id]) {
        WL.push(Dispatch);
        Queued[Id] = 1;
      }
    }
    Diverted.clear();
    if (S.empty())
      continue;
    if (B->hasNoReturnElement()) {
      // A [[noreturn]] call that throws inside a try of this function goes
      // on to its handlers (TORCH_CHECK-like macros in a try block).
      if (const CFGBlock *Dispatch = handlerDispatchFor(lastCall(B))) {
        unsigned Id = Dispatch->getBlockID();
        if (joinInto(In[Id], std::move(S), A.Opts.MaxStatesPerPoint, WidenedRes) && !Queued[Id]) {
          WL.push(Dispatch);
          Queued[Id] = 1;
        }
      } else if (throwsOut(lastCall(B))) {
        for (const PathState &P : S)
          onThrowLeaving(lastCall(B), P);
      }
      continue;
    }
    bool TwoWay = B->succ_size() == 2 && B->succ_begin()[0].getReachableBlock() &&
                  B->succ_begin()[1].getReachableBlock();
    // The last way on takes the block's states; the others get copies.
    unsigned Last = 0;
    for (unsigned I = 0; I < B->succ_size(); ++I)
      if (B->succ_begin()[I].getReachableBlock())
        Last = I;
    unsigned Index = 0;
    for (const CFGBlock::AdjacentBlock &Succ : B->succs()) {
      unsigned SuccIndex = Index++;
      const CFGBlock *To = Succ.getReachableBlock();
      if (!To)
        continue;
      StateSet Refined = propagateEdge(B, SuccIndex, To,
                                       SuccIndex == Last ? std::move(S) : S, TwoWay);
      if (Refined.empty())
        continue;
      if (To == &Cfg->getExit()) {
        // An exception no handler of this function catches leaves it: a sink.
        if (A.Opts.SinkPathsAreSilent && isa_and_nonnull<CXXTryStmt>(B->getTerminatorStmt()))
          continue;
        checkExit(B, Refined);
        continue;
      }
      unsigned ToId = To->getBlockID();
      if (Counter[ToId] && Order[B->getBlockID()] < Order[ToId]) {
        // What every way back forgets (loopCounters). Its value enters
        // widened as the way back will widen it (`step` in [0, max]), so the
        // header settles at once, however deep the nest; a disjunct born
        // under `if (step == 0)` still knows it is the first iteration, and
        // the way back tells it the others are not.
        for (PathState &P : Refined) {
          bool Enters = entersLoopBody(To, P);
          forgetFactsKeepingValue(Counter[ToId], P);
          widenCounter(Counter[ToId], CounterDirection[ToId], P);
          if (Enters) // the first test holds until the counter steps
            (void)assumeWholeCondition(To->getLastCondition(), true, P);
        }
      } else if (Counter[ToId]) {
        for (PathState &P : Refined)
          widenCounter(Counter[ToId], CounterDirection[ToId], P);
      }
      if (!joinInto(In[ToId], std::move(Refined), A.Opts.MaxStatesPerPoint, WidenedRes,
                    Mentions[ToId].KeepFactsApart, /*WidenValues=*/KeepIn[ToId]))
        continue;
      // The join only grows and facts only shrink, so loops settle; the cap
      // is a budget for pathological code, and hitting it is reported.
      if (++Visits[ToId] > MaxVisitsPerBlock) {
        HitVisitBudget = true;
        continue;
      }
      if (!Queued[ToId]) {
        WL.push(To);
        Queued[ToId] = 1;
      }
    }
  }
  InWalk = false;
  return true;
}

} // namespace lifetime
} // namespace cgt
