//===- CapturedMemory.cpp - memory referenced by graph execs --------------===//
//
// A kernel launch or copy recorded while a stream captures does not read its
// pointers then: it becomes a node of the captured graph, and every exec
// instantiated from that graph reads them again at each cudaGraphLaunch.
// Freeing such a buffer and then launching the exec is a use after free
// (undefined behaviour: the exec reads freed, possibly reallocated, memory),
// the bug of serving code that grows a buffer but keeps the exec captured
// over the old one.
//
//   static, once per function (scanCapturedMemory):
//     BeginCapture(s) ... call(..., buf, ...) ... EndCapture(s, &g)
//        buf is captured into g (every call between the two on some CFG
//        path, kernel launches included, and its pointer arguments)
//     Instantiate(&exec, g)        (the model's "instantiates" use)
//        exec references buf                 -> ReferencedByExecs[buf]
//
//   along paths, in the freed buffer's own disjunct:
//     free(buf) (or an alias)      buffer Released; also bound to the shadow
//                                  place "memory exec references" of exec
//     exec = ..., Instantiate(&exec, ...), ExecDestroy(exec),
//     ExecUpdate(exec, ...)        the shadow binding goes: exec no longer
//                                  references the freed memory
//     GraphLaunch(exec)            still bound: UseAfterRelease at the launch,
//                                  notes at the captured use and the free
//
//   graph allocations (cudaMallocAsync and other "streamOrdered" acquires
//   inside a capture, not freed by a node of the same graph):
//     owned by the graph; the function's own path leak check does not apply,
//     unless the function frees the memory after a launch (then followed as
//     usual). An exec instantiated from the graph is launched and nothing
//     frees the memory (outside a capture, or by a free node of another
//     graph whose exec is launched): a Leak at the allocation. Without
//     cudaGraphInstantiateFlagAutoFreeOnLaunch relaunching fails while it is
//     allocated; with it, the last launch's memory stays allocated (graph
//     allocations outlive the exec and the graph).
//
// The shadow place keeps the freed buffer's disjunct alive (and relevant) for
// as long as the exec variable may be named, even after `buf` is given new
// memory. Linking graphs to execs is flow-insensitive (any instantiation
// from a variable an EndCapture wrote); the path-sensitive part is the free
// and what happens to the exec after it.
//
// Part of the Analysis class declared in Analysis.h.
//
//===----------------------------------------------------------------------===//
#include "Lifetime/Analysis.h"

namespace cgt {
namespace lifetime {

namespace {

/// `buf`, `buf + off`, `&buf[i]`: the pointer variable the argument is
/// derived from.
const Expr *pointerBase(const Expr *E) {
  for (;;) {
    E = strip(E);
    if (const auto *BO = dyn_cast<BinaryOperator>(E);
        BO && (BO->getOpcode() == BO_Add || BO->getOpcode() == BO_Sub))
      E = BO->getLHS()->getType()->isPointerType() ? BO->getLHS() : BO->getRHS();
    else if (const auto *UO = dyn_cast<UnaryOperator>(E); UO && UO->getOpcode() == UO_AddrOf) {
      const auto *ASE = dyn_cast<ArraySubscriptExpr>(strip(UO->getSubExpr()));
      if (!ASE)
        return E;
      E = ASE->getBase();
    } else
      return E;
  }
}

} // namespace

/// The place of a pointer a captured call is given, when it may hold
/// device memory (a pointer, or an integer such as CUdeviceptr).
Key Analysis::capturedBufferOf(const Expr *Arg) {
  Key K = storageOf(pointerBase(Arg));
  if (!K || K->Element)
    return nullptr;
  QualType T = K->Member ? K->Member->getType() : K->Decl->getType();
  return T->isPointerType() || T->isIntegerType() ? K : nullptr;
}

/// `&x` given to a call: the place of x.
Key Analysis::addressedPlace(const Expr *Arg) {
  const auto *AddrOf = dyn_cast<UnaryOperator>(strip(Arg));
  return AddrOf && AddrOf->getOpcode() == UO_AddrOf ? storageOf(AddrOf->getSubExpr()) : nullptr;
}

/// Whether `Call` begins or ends a capture on `Stream`.
Analysis::CaptureBoundary Analysis::captureBoundary(const CallExpr *Call, Key Stream) {
  const FunctionModel *M = A.modelFor(Call);
  if (!M || (M->Capture != CaptureRole::Begin && M->Capture != CaptureRole::End) ||
      captureStreamOf(Call, *M) != Stream)
    return CaptureBoundary::None;
  return M->Capture == CaptureRole::End ? CaptureBoundary::End : CaptureBoundary::Begin;
}

/// The first begin or end of a capture on `Stream` at or after element
/// `From` of `B`.
Analysis::CaptureBoundary Analysis::firstCaptureBoundary(const CFGBlock *B, unsigned From,
                                                         Key Stream) {
  for (unsigned I = From; I < B->size(); ++I)
    if (const auto CS = (*B)[I].getAs<CFGStmt>())
      if (const auto *Call = dyn_cast<CallExpr>(CS->getStmt()))
        if (CaptureBoundary Seen = captureBoundary(Call, Stream); Seen != CaptureBoundary::None)
          return Seen;
  return CaptureBoundary::None;
}

/// The blocks from whose start some path meets an end of the capture on
/// `Stream` before any other begin or end of it.
llvm::BitVector Analysis::blocksReachingCaptureEnd(Key Stream) {
  unsigned N = Cfg->getNumBlockIDs();
  std::vector<CaptureBoundary> First(N, CaptureBoundary::None);
  for (const CFGBlock *B : *Cfg)
    First[B->getBlockID()] = firstCaptureBoundary(B, 0, Stream);
  llvm::BitVector Reach(N);
  for (bool Changed = true; Changed;) {
    Changed = false;
    for (const CFGBlock *B : *Cfg) {
      unsigned Id = B->getBlockID();
      if (Reach.test(Id) || First[Id] == CaptureBoundary::Begin)
        continue;
      bool Reaches = First[Id] == CaptureBoundary::End;
      for (const CFGBlock::AdjacentBlock &Succ : B->succs())
        if (const CFGBlock *To = Succ.getReachableBlock())
          Reaches |= Reach.test(To->getBlockID());
      if (Reaches) {
        Reach.set(Id);
        Changed = true;
      }
    }
  }
  return Reach;
}

/// Whether `Call`, reachable from element `From` of the begin's block, lies
/// on a path that goes on to end the capture: a call only the paths that
/// skip the end reach (`if (flag) begin; ...; if (flag) end; call`) runs
/// outside any capture, since the flag that skipped the end skipped the
/// begin too, or the capture would never end.
bool Analysis::inCaptureRegion(const CallExpr *Call, const CFGBlock *Begin, unsigned From,
                               Key Stream, const llvm::BitVector &ReachEnd) {
  auto Pos = CallPositions.find(Call);
  if (Pos == CallPositions.end())
    return true;
  auto [B, I] = Pos->second;
  if (B != Begin || I < From)
    return ReachEnd.test(B->getBlockID());
  CaptureBoundary Next = firstCaptureBoundary(B, I, Stream);
  if (Next != CaptureBoundary::None)
    return Next == CaptureBoundary::End;
  return llvm::any_of(B->succs(), [&](const CFGBlock::AdjacentBlock &Succ) {
    const CFGBlock *To = Succ.getReachableBlock();
    return To && ReachEnd.test(To->getBlockID());
  });
}

/// The calls reachable from element `From` of `B` before the capture on
/// `Stream` ends and on the way to ending it, and the end calls that close
/// it. A capture whose end this function does not reach (a helper ends it)
/// keeps every reachable call.
void Analysis::collectCaptureRegion(const CFGBlock *B, unsigned From, Key Stream,
                                    CaptureRegion &Region) {
  std::vector<const CallExpr *> Reached;
  forEachCallAfter(B, From, [&](const CallExpr *Call) {
    switch (captureBoundary(Call, Stream)) {
    case CaptureBoundary::End:
      Region.Ends.push_back(Call);
      return false;
    case CaptureBoundary::Begin:
      return false;
    case CaptureBoundary::None:
      Reached.push_back(Call);
      return true;
    }
    return true;
  });
  llvm::BitVector ReachEnd;
  if (!Region.Ends.empty())
    ReachEnd = blocksReachingCaptureEnd(Stream);
  for (const CallExpr *Call : Reached)
    if (Region.Ends.empty() || inCaptureRegion(Call, B, From, Stream, ReachEnd))
      addToCaptureRegion(Call, Region);
  // Memory the capture allocates is the graph's own, allocated again by
  // each launch: freeing it between launches frees nothing the exec keeps.
  llvm::erase_if(Region.Used, [&](const std::pair<Key, const Expr *> &Use) {
    return llvm::any_of(Region.Allocations,
                        [&](const auto &Alloc) { return Alloc.first == Use.first; });
  });
}

/// What a call recorded into a capture adds to its graph: memory nodes,
/// free nodes, and the pointers its other nodes read.
void Analysis::addToCaptureRegion(const CallExpr *Call, CaptureRegion &Region) {
  const FunctionModel *M = A.modelFor(Call);
  if (M)
    for (const AcquireEffect &Acq : M->Acquires)
      if (Acq.StreamOrdered && Acq.Arg >= 0 && Acq.Arg < static_cast<int>(Call->getNumArgs()))
        if (Key K = addressedPlace(Call->getArg(Acq.Arg)))
          Region.Allocations.push_back({K, Call});
  if (M && !M->Acquires.empty())
    AllocationsInCaptures.insert(Call); // may be the graph's (a helper's cudaMallocAsync)
  if (M && !M->Releases.empty()) {
    // A free node of the graph; not a use of the memory.
    for (const ReleaseEffect &Rel : M->Releases)
      if (Rel.Arg >= 0 && Rel.Arg < static_cast<int>(Call->getNumArgs()))
        if (Key K = storageOf(Call->getArg(Rel.Arg)))
          Region.Freed.insert(K);
    FreesInCaptures.insert(Call);
    return;
  }
  for (const Expr *Arg : Call->arguments())
    if (Key K = capturedBufferOf(Arg))
      Region.Used.push_back({K, Call});
}

void Analysis::scanCapturedMemory() {
  // What each graph (the place an end call writes) captured.
  std::map<Key, CaptureRegion> Graphs;
  EndRegions ByEnd;
  for (auto [B, I, Call] : CallElements) {
    const FunctionModel *M = A.modelFor(Call);
    if (!M || M->Capture != CaptureRole::Begin)
      continue;
    Key Stream = captureStreamOf(Call, *M);
    if (!Stream)
      continue;
    CaptureRegion Region;
    collectCaptureRegion(B, I + 1, Stream, Region);
    for (const CallExpr *End : Region.Ends)
      for (const AcquireEffect &Acq : A.modelFor(End)->Acquires)
        if (Acq.Arg >= 0 && Acq.Arg < static_cast<int>(End->getNumArgs()))
          if (Key Graph = addressedPlace(End->getArg(Acq.Arg))) {
            ByEnd[Graph].push_back({End, Region});
            CaptureRegion &G = Graphs[Graph];
            llvm::append_range(G.Used, Region.Used);
            llvm::append_range(G.Allocations, Region.Allocations);
            G.Freed.insert(Region.Freed.begin(), Region.Freed.end());
          }
  }
  if (Graphs.empty())
    return;
  for (const auto &[Graph, Region] : Graphs)
    for (const auto &[Place, Site] : Region.Allocations)
      if (!Region.Freed.count(Place))
        GraphAllocations[Site].Place = Place;
  std::set<Key> Launched;
  std::function<void(const Stmt *)> Walk = [&](const Stmt *S) {
    if (!S || isa<LambdaExpr>(S))
      return;
    for (const Stmt *Child : S->children())
      Walk(Child);
    const auto *Call = dyn_cast<CallExpr>(S);
    const FunctionModel *M = Call ? A.modelFor(Call) : nullptr;
    if (!M)
      return;
    auto ArgPlace = [&](int I) {
      return I >= 0 && I < static_cast<int>(Call->getNumArgs()) ? storageOf(Call->getArg(I))
                                                                : nullptr;
    };
    for (const UseEffect &U : M->Uses)
      if (Key K = U.Launch ? ArgPlace(U.Arg) : nullptr)
        Launched.insert(K);
    if (!FreesInCaptures.count(Call))
      for (const ReleaseEffect &Rel : M->Releases)
        if (Key K = ArgPlace(Rel.Arg))
          FreedOutsideCaptures.insert(K);
    noteInstantiation(Call, *M, Graphs, ByEnd);
  };
  Walk(FD->getBody());
  // A graph allocation that nothing frees, in an exec that is launched. A
  // free node of another graph whose exec is launched frees it (the guide's
  // allocate-in-one-graph, free-in-another pattern).
  auto FreedByALaunchedExec = [&](Key Place) {
    auto It = ExecsFreeing.find(Place);
    return It != ExecsFreeing.end() &&
           llvm::any_of(It->second, [&](Key Exec) { return Launched.count(Exec) > 0; });
  };
  for (auto &[Site, Alloc] : GraphAllocations)
    if (Alloc.Exec && Launched.count(Alloc.Exec) && !FreedOutsideCaptures.count(Alloc.Place) &&
        !FreedByALaunchedExec(Alloc.Place))
      Alloc.Report = true;
}

/// An instantiation from a captured graph: its exec references the memory
/// the graph's nodes use, and allocates the graph's memory nodes at each
/// launch.
std::set<const CallExpr *> Analysis::endsReaching(const CallExpr *At,
                                                  const std::set<const CallExpr *> &Ends) {
  using EndSet = std::set<const CallExpr *>;
  std::vector<EndSet> Out(Cfg->getNumBlockIDs());
  auto In = [&](const CFGBlock *B) {
    EndSet S;
    for (const CFGBlock::AdjacentBlock &Pred : B->preds())
      if (const CFGBlock *P = Pred.getReachableBlock())
        S.insert(Out[P->getBlockID()].begin(), Out[P->getBlockID()].end());
    return S;
  };
  auto Through = [&](const CFGBlock *B, EndSet Cur, unsigned Upto) {
    for (unsigned I = 0; I < Upto && I < B->size(); ++I)
      if (const CallExpr *C = callOfElement((*B)[I]); C && Ends.count(C))
        Cur = {C};
    return Cur;
  };
  for (bool Changed = true; Changed;) {
    Changed = false;
    for (const CFGBlock *B : *Cfg) {
      EndSet O = Through(B, In(B), B->size());
      if (O != Out[B->getBlockID()]) {
        Out[B->getBlockID()] = std::move(O);
        Changed = true;
      }
    }
  }
  auto Pos = CallPositions.find(At);
  if (Pos == CallPositions.end())
    return {};
  return Through(Pos->second.first, In(Pos->second.first), Pos->second.second);
}

void Analysis::noteInstantiation(const CallExpr *Call, const FunctionModel &M,
                                 const std::map<Key, CaptureRegion> &Graphs,
                                 const EndRegions &ByEnd) {
  if (M.Acquires.empty() || M.Acquires.front().Arg < 0 ||
      M.Acquires.front().Arg >= static_cast<int>(Call->getNumArgs()))
    return;
  Key Exec = addressedPlace(Call->getArg(M.Acquires.front().Arg));
  if (!Exec || Exec->Element)
    return;
  for (const UseEffect &U : M.Uses) {
    if (!U.Instantiates || U.Arg >= static_cast<int>(Call->getNumArgs()))
      continue;
    auto Graph = Graphs.find(storageOf(Call->getArg(U.Arg)));
    if (Graph == Graphs.end())
      continue;
    const CaptureRegion *Captured = &Graph->second;
    // `g` captured again and instantiated again: each instantiation holds
    // what the capture that last wrote `g` on its way captured.
    CaptureRegion Reaching;
    auto Ends = ByEnd.find(Graph->first);
    std::set<const CallExpr *> EndCalls;
    if (Ends != ByEnd.end())
      for (const auto &[End, Region] : Ends->second)
        EndCalls.insert(End);
    if (EndCalls.size() > 1) {
      std::set<const CallExpr *> Reach = endsReaching(Call, EndCalls);
      for (const auto &[End, Region] : Ends->second)
        if (Reach.count(End)) {
          llvm::append_range(Reaching.Used, Region.Used);
          llvm::append_range(Reaching.Allocations, Region.Allocations);
          Reaching.Freed.insert(Region.Freed.begin(), Region.Freed.end());
        }
      if (!Reach.empty())
        Captured = &Reaching;
    }
    for (const auto &[Buffer, Use] : Captured->Used)
      ReferencedByExecs[Buffer].push_back({Exec, Use});
    for (Key Freed : Captured->Freed)
      ExecsFreeing[Freed].insert(Exec);
    bool AutoFrees = autoFreesOnLaunch(Call, M);
    for (const auto &[Place, Site] : Captured->Allocations) {
      auto It = GraphAllocations.find(Site);
      if (It == GraphAllocations.end())
        continue; // freed by a node of the same graph
      GraphAllocation &Alloc = It->second;
      Alloc.AutoFreed |= AutoFrees;
      if (!Alloc.Exec) {
        Alloc.Exec = Exec;
        Alloc.Instantiation = Call;
      }
    }
  }
}

/// Whether the instantiation's flags free the graph's allocations at the
/// next launch; unknown flags count as yes (no finding without proof).
bool Analysis::autoFreesOnLaunch(const CallExpr *Call, const FunctionModel &M) const {
  if (M.NoAutoFree)
    return false;
  if (M.AutoFreeArg < 0 || M.AutoFreeArg >= static_cast<int>(Call->getNumArgs()))
    return true;
  const Expr *Flags = Call->getArg(M.AutoFreeArg);
  Expr::EvalResult V;
  if (Flags->isValueDependent() || !Flags->EvaluateAsInt(V, Ctx))
    return true;
  return (V.Val.getInt().getExtValue() & M.AutoFreeBit) != 0;
}

/// `Call` allocates inside a capture: the graph owns what it allocates
/// unless this function frees it after a launch, and an exec that is
/// relaunched with the memory still allocated fails (and keeps it reserved).
void Analysis::onGraphAllocation(const CallExpr *Call, unsigned R, ResState &RS) {
  auto It = GraphAllocations.find(Call);
  if (It == GraphAllocations.end())
    return;
  const GraphAllocation &Alloc = It->second;
  if (Alloc.Report) {
    const Resource &Res = Resources[R];
    report(FindingKind::Leak, R, Call,
           {{loc(Call), "'" + Res.VarName +
                            "' is allocated inside the capture: the graph allocates it at "
                            "every launch, and no node of the graph frees it"},
            {loc(Alloc.Instantiation),
             Alloc.AutoFreed
                 ? "'" + varName(Alloc.Exec) +
                       "' is instantiated here with cudaGraphInstantiateFlagAutoFreeOnLaunch "
                       "and launched, and nothing frees '" + Res.VarName +
                       "': what the last launch allocates stays allocated (destroying the "
                       "exec does not free it)"
                 : "'" + varName(Alloc.Exec) +
                       "' is instantiated here without cudaGraphInstantiateFlagAutoFreeOnLaunch "
                       "and launched, and nothing frees '" + Res.VarName +
                       "': relaunching it fails while the memory is allocated, which stays "
                       "reserved in the pool"}});
    RS.Bits = Escaped;
    return;
  }
  if (Alloc.AutoFreed || !FreedOutsideCaptures.count(Alloc.Place)) {
    RS.Bits = Escaped; // the graph's: freed at the next launch, or by its owner
    return;
  }
  // Freed by this function after launches: nothing exists until the exec is
  // launched (relaunchGraphAllocations), and each launch allocates again.
  if (Alloc.Exec)
    RS.Bits = Absent;
}

/// The graph allocations a launch of `Call` allocates again (see
/// relaunchGraphAllocations): the launch changes their state.
std::vector<const Decl *> Analysis::memoryAllocatedByLaunch(const CallExpr *Call,
                                                            const FunctionModel *M) {
  std::vector<const Decl *> Allocated;
  if (!M || GraphAllocations.empty())
    return Allocated;
  for (const UseEffect &U : M->Uses) {
    if (!U.Launch || U.Arg < 0 || U.Arg >= static_cast<int>(Call->getNumArgs()))
      continue;
    Key Exec = storageOf(Call->getArg(U.Arg));
    for (const auto &[Site, Alloc] : GraphAllocations)
      if (Exec && Alloc.Exec == Exec && Alloc.Place)
        Allocated.push_back(Alloc.Place->Decl);
  }
  return Allocated;
}

/// `cudaGraphLaunch(exec)` of an exec whose graph allocates memory that
/// this function frees after launches: the launch allocates it again, and
/// fails while the previous launch's allocation is still live.
void Analysis::relaunchGraphAllocations(const CallExpr *Call, Key Exec, PathState &P) {
  for (const auto &[Site, Alloc] : GraphAllocations) {
    if (Alloc.Exec != Exec || Alloc.Report || Alloc.AutoFreed ||
        !FreedOutsideCaptures.count(Alloc.Place))
      continue;
    auto Bound = P.Bind.find(Alloc.Place);
    if (Bound == P.Bind.end())
      continue;
    for (unsigned R : Bound->second) {
      auto RS = P.Res.find(R);
      if (RS == P.Res.end() || Resources[R].Site != Site)
        continue;
      if (RS->second.Bits == Live)
        reportRelaunchWhileAllocated(Call, R, Alloc, RS->second);
      if (RS->second.Bits & (Absent | Released)) {
        RS->second.Bits = Live;
        RS->second.ReleaseSite = nullptr;
      }
    }
  }
}

void Analysis::reportRelaunchWhileAllocated(const CallExpr *Call, unsigned R,
                                            const GraphAllocation &Alloc, const ResState &RS) {
  const Resource &Res = Resources[R];
  std::vector<PathNote> Notes = trailNotes(RS);
  Notes.push_back({loc(Res.Site), "'" + Res.VarName +
                                      "' is allocated inside the capture: each launch of '" +
                                      varName(Alloc.Exec) + "' allocates it again"});
  Notes.push_back({loc(Alloc.Instantiation),
                   "'" + varName(Alloc.Exec) +
                       "' is instantiated here without cudaGraphInstantiateFlagAutoFreeOnLaunch"});
  const FunctionDecl *Callee = Call->getDirectCallee();
  report(FindingKind::Overwrite, R, Call, std::move(Notes),
         Callee ? Callee->getNameAsString() : "");
}

/// Resource `R` was just released: each exec that may reference a place
/// holding it (the freed variable or an alias of it) now holds freed memory.
void Analysis::onFreedWhileReferenced(unsigned R, PathState &P) {
  if (ReferencedByExecs.empty())
    return;
  llvm::SmallVector<Key, 4> Holders;
  for (const auto &B : P.Bind)
    if (!B.first->shadow() && B.second.count(R))
      Holders.push_back(B.first);
  for (Key Buffer : Holders) {
    auto Refs = ReferencedByExecs.find(Buffer);
    if (Refs == ReferencedByExecs.end())
      continue;
    for (const ExecReference &Ref : Refs->second) {
      Key Shadow = placeOf(Ref.Exec->Decl, Ref.Exec->Member, false, false, /*ExecRefs=*/true);
      P.Bind[Shadow].insert(R);
      StaleUses.try_emplace({R, Shadow}, Ref.CapturedUse);
    }
  }
}

/// The exec held at `Exec` is replaced, destroyed or updated: it no longer
/// references memory freed before.
void Analysis::forgetExecReferences(Key Exec, PathState &P) {
  if (ReferencedByExecs.empty() || !Exec || Exec->shadow())
    return;
  Key Shadow = placeOf(Exec->Decl, Exec->Member, false, false, /*ExecRefs=*/true);
  auto It = P.Bind.find(Shadow);
  if (It == P.Bind.end())
    return;
  for (unsigned R : It->second)
    if (!P.boundElsewhere(R, Shadow))
      P.Res.erase(R);
  P.Bind.erase(It);
}

void Analysis::checkLaunchOfStaleExec(const CallExpr *Call, Key Exec, PathState &P) {
  if (ReferencedByExecs.empty() || !Exec)
    return;
  Key Shadow = placeOf(Exec->Decl, Exec->Member, false, false, /*ExecRefs=*/true);
  auto It = P.Bind.find(Shadow);
  if (It == P.Bind.end())
    return;
  for (unsigned R : It->second) {
    auto RS = P.Res.find(R);
    if (RS == P.Res.end() || RS->second.Bits != Released || !RS->second.ReleaseSite)
      continue;
    const Resource &Res = Resources[R];
    std::vector<PathNote> Notes;
    if (auto Use = StaleUses.find({R, Shadow}); Use != StaleUses.end())
      Notes.push_back({loc(Use->second), "'" + Res.VarName +
                                             "' is captured here into the graph '" +
                                             varName(Exec) +
                                             "' is instantiated from: every launch reads it"});
    Notes.push_back({loc(RS->second.ReleaseSite),
                     "'" + Res.VarName + "' is freed here by '" + RS->second.ReleasedBy->Name +
                         "' while '" + varName(Exec) + "' still references it"});
    const FunctionDecl *Callee = Call->getDirectCallee();
    report(FindingKind::LaunchAfterCapturedFree, R, Call, std::move(Notes),
           Callee ? Callee->getNameAsString() : "");
    auto F = Findings.find({static_cast<int>(FindingKind::LaunchAfterCapturedFree), Call});
    if (F != Findings.end())
      F->second.Detail = varName(Exec);
  }
}

} // namespace lifetime
} // namespace cgt
