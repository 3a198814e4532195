//===- StreamOrder.cpp - the stream-order dataflow over one function ------===//
//
// Runs the lattice of StreamEngine.h to its fixpoint over the function's
// CFG (every subexpression an element, so reads of a status variable are
// seen where they happen), then walks each block once more from its fixed
// entry state with reporting on: a finding is never made from a state the
// fixpoint later widens. What each call does is CallTransfer.cpp's.
//
//===----------------------------------------------------------------------===//
#include "Streams/StreamEngine.h"
#include "AstWalk/WrittenStatements.h"
#include "ApiModel/ParameterSignature.h"

#include "clang/AST/RecursiveASTVisitor.h"

namespace cgt {
namespace streams {

using namespace clang;

StreamStats &streamStats() {
  static StreamStats Stats;
  return Stats;
}

namespace {
template <typename K, typename V, typename F>
void mergeMaps(std::map<K, V> &Into, const std::map<K, V> &From, F Merge) {
  for (const auto &[Key, Val] : From) {
    auto [It, Fresh] = Into.try_emplace(Key, Val);
    if (!Fresh)
      Merge(It->second, Val);
  }
}

template <typename K, typename V, typename F>
void intersectMaps(std::map<K, V> &Into, const std::map<K, V> &From, F Merge) {
  for (auto It = Into.begin(); It != Into.end();) {
    auto O = From.find(It->first);
    if (O == From.end()) {
      It = Into.erase(It);
      continue;
    }
    Merge(It->second, O->second);
    ++It;
  }
}

template <typename T> void unite(std::set<T> &Into, const std::set<T> &From) {
  Into.insert(From.begin(), From.end());
}

template <typename T> void intersect(std::set<T> &Into, const std::set<T> &From) {
  for (auto It = Into.begin(); It != Into.end();)
    It = From.count(*It) ? std::next(It) : Into.erase(It);
}
} // namespace

void OrderState::joinWith(const OrderState &O, bool AlongBackEdge) {
  if (!O.Reached)
    return;
  if (!Reached) {
    *this = O;
    return;
  }
  mergeMaps(Holds, O.Holds, unite<const Stmt *>);
  // A token one side lacks is work that side never enqueued: what holds
  // of it on every path is what the other side says.
  mergeMaps(Tokens, O.Tokens, [AlongBackEdge](TokenFacts &A, const TokenFacts &B) {
    A.Ordered |= B.Ordered;
    A.HostDone |= B.HostDone;
    if (AlongBackEdge) {
      A.MustOrdered |= B.MustOrdered;
      A.MustHostDone |= B.MustHostDone;
    } else {
      A.MustOrdered &= B.MustOrdered;
      A.MustHostDone &= B.MustHostDone;
    }
  });
  mergeMaps(TokenStream, O.TokenStream, [](unsigned &A, unsigned B) {
    if (A != B)
      A = Unknown;
  });
  mergeMaps(UsesOf, O.UsesOf, unite<const Stmt *>);
  mergeMaps(UsesOfPlace, O.UsesOfPlace, unite<const Stmt *>);
  mergeMaps(Events, O.Events, [AlongBackEdge](EventFacts &A, const EventFacts &B) {
    unite(A.Tokens, B.Tokens);
    if (AlongBackEdge)
      unite(A.MustTokens, B.MustTokens);
    else
      intersect(A.MustTokens, B.MustTokens);
    unite(A.RecordedIn, B.RecordedIn);
    unite(A.RecordSites, B.RecordSites);
  });
  mergeMaps(LastWork, O.LastWork, unite<const Stmt *>);
  intersectMaps(Captures, O.Captures, [](CaptureFacts &A, const CaptureFacts &B) {
    A.Members |= B.Members;
    A.ForkedAt.insert(B.ForkedAt.begin(), B.ForkedAt.end());
  });
  intersectMaps(Unchecked, O.Unchecked, [](UncheckedGraph &A, const UncheckedGraph &B) {
    if (!(A == B))
      A.StatusVar = A.StatusVar ? A.StatusVar : B.StatusVar;
  });
  for (auto It = PollHeld.begin(); It != PollHeld.end();) {
    auto Other = O.PollHeld.find(It->first);
    It = Other != O.PollHeld.end() && Other->second == It->second ? std::next(It)
                                                                   : PollHeld.erase(It);
  }
}

//===----------------------------------------------------------------------===//
// The analyzer and its per-translation-unit state
//===----------------------------------------------------------------------===//

StreamOrderAnalyzer::StreamOrderAnalyzer(const ApiModel &Model, ASTContext &Ctx,
                                         std::shared_ptr<WrittenCallsIndex> Calls)
    : P(std::make_unique<Impl>(Model, Ctx, std::move(Calls))) {}
StreamOrderAnalyzer::~StreamOrderAnalyzer() = default;

std::vector<LifetimeFinding> StreamOrderAnalyzer::analyze(const FunctionDecl *FD, bool Pattern) {
  if (!FD || !FD->hasBody() || (FD->isDependentContext() && !Pattern) || !P->isInteresting(FD))
    return {};
  return FunctionRun(*P, FD).run();
}

const FunctionModel *StreamOrderAnalyzer::Impl::modelFor(const CallExpr *Call) const {
  const FunctionDecl *Callee = Call->getDirectCallee();
  if (!Callee || !Callee->getIdentifier())
    return nullptr;
  return Model.lookup(Callee->getName(), Call->getNumArgs(),
                      [Callee] { return parameterSignature(Callee); });
}

bool StreamOrderAnalyzer::Impl::isInteresting(const FunctionDecl *FD) {
  // Only functions that allocate, free or capture can have a finding; the
  // walk is cheap next to the dataflow the others would cost.
  auto Interesting = [&](const CallExpr *C) {
    if (const FunctionModel *M = modelFor(C))
      return M->Order.Role == OrderRole::Alloc || M->Order.Role == OrderRole::Free ||
             M->Capture == CaptureRole::Begin || M->Capture == CaptureRole::End;
    if (const HelperSummary *H = helperOf(C))
      for (const HelperStep &Step : H->Steps)
        if (Step.Role == OrderRole::Alloc || Step.Role == OrderRole::Free)
          return true;
    return false;
  };
  // The calls in the body's lambdas count with it.
  return llvm::any_of(Calls->of(FD->getBody()).Calls, [&](const WrittenCall &W) {
    const CallExpr *C = W.Call;
    const FunctionDecl *Callee = C->getDirectCallee();
    if (!Callee)
      return false;
    auto Key = std::make_pair(Callee->getFirstDecl(), C->getNumArgs());
    if (auto It = CallIsInteresting.find(Key); It != CallIsInteresting.end())
      return It->second;
    bool Result = Interesting(C);
    CallIsInteresting[Key] = Result;
    return Result;
  });
}

//===----------------------------------------------------------------------===//
// One function
//===----------------------------------------------------------------------===//

namespace {
/// CUDA_API_PER_THREAD_DEFAULT_STREAM renames the runtime API
/// (cudaStreamSynchronize_ptsz, cudaMemcpy_ptds): a body that calls such a
/// name was built with per-thread default streams.
bool callsPerThreadApi(const FunctionDecl *FD) {
  struct Finder : RecursiveASTVisitor<Finder> {
    bool Found = false;
    bool VisitCallExpr(CallExpr *C) {
      if (const FunctionDecl *F = C->getDirectCallee(); F && F->getIdentifier())
        Found |= F->getName().ends_with("_ptsz") || F->getName().ends_with("_ptds");
      return !Found;
    }
  } F;
  F.TraverseStmt(FD->getBody());
  return F.Found;
}
/// The edges of a depth-first walk from the entry that go back to a block
/// still on the walk's stack: each loop's way round, as (from, to) ids.
std::set<std::pair<unsigned, unsigned>> backEdgesOf(const CFG &Cfg) {
  std::set<std::pair<unsigned, unsigned>> Back;
  std::vector<char> Color(Cfg.getNumBlockIDs(), 0); // 0 new, 1 on stack, 2 done
  std::vector<std::pair<const CFGBlock *, CFGBlock::const_succ_iterator>> Stack;
  Stack.push_back({&Cfg.getEntry(), Cfg.getEntry().succ_begin()});
  Color[Cfg.getEntry().getBlockID()] = 1;
  while (!Stack.empty()) {
    auto &[B, It] = Stack.back();
    if (It == B->succ_end()) {
      Color[B->getBlockID()] = 2;
      Stack.pop_back();
      continue;
    }
    const CFGBlock *Succ = (It++)->getReachableBlock();
    if (!Succ)
      continue;
    if (Color[Succ->getBlockID()] == 1)
      Back.insert({B->getBlockID(), Succ->getBlockID()});
    else if (Color[Succ->getBlockID()] == 0) {
      Color[Succ->getBlockID()] = 1;
      Stack.push_back({Succ, Succ->succ_begin()});
    }
  }
  return Back;
}

/// Which of From's successors To is (a block can reach another one way).
unsigned successorIndex(const CFGBlock *From, const CFGBlock *To) {
  unsigned Index = 0;
  for (const CFGBlock *Succ : From->succs()) {
    if (Succ == To)
      return Index;
    ++Index;
  }
  return Index;
}
} // namespace

FunctionRun::FunctionRun(StreamOrderAnalyzer::Impl &A, const FunctionDecl *FD)
    : A(A), FD(FD), Ctx(A.Ctx), PM(FD->getBody()) {
  Streams.push_back({{}, "the legacy default stream", Blocking::Yes, false});
  Streams.push_back({{}, "the per-thread default stream", Blocking::Yes, false});
  Streams[LegacyStream].Key.Index = -2;
  Streams[PerThreadStream].Key.Index = -3;
  scanStreamCreations();
  // Built with --default-stream per-thread, the headers rename the API
  // (cudaMemcpyAsync_ptsz) and clang records the mode.
  PerThreadDefault = Ctx.getLangOpts().GPUDefaultStream ==
                         LangOptions::GPUDefaultStreamKind::PerThread ||
                     callsPerThreadApi(FD);
}

std::vector<LifetimeFinding> FunctionRun::run() {
  CFG::BuildOptions BO;
  BO.setAllAlwaysAdd();
  std::unique_ptr<CFG> Cfg = CFG::buildCFG(FD, FD->getBody(), &Ctx, BO);
  if (!Cfg)
    return {};
  BackEdges = backEdgesOf(*Cfg);
  auto IsBack = [&](const CFGBlock *From, const CFGBlock *To) {
    return BackEdges.count({From->getBlockID(), To->getBlockID()}) > 0;
  };
  std::vector<OrderState> In(Cfg->getNumBlockIDs()), Out(Cfg->getNumBlockIDs());
  In[Cfg->getEntry().getBlockID()].Reached = true;
  std::vector<unsigned> Visits(Cfg->getNumBlockIDs(), 0);
  std::vector<const CFGBlock *> Work = {&Cfg->getEntry()};
  auto Transfer = [&](const CFGBlock *B) {
    OrderState St = In[B->getBlockID()];
    for (const CFGElement &E : *B)
      if (auto S = E.getAs<CFGStmt>())
        transfer(St, S->getStmt());
    return St;
  };
  // Each block is revisited a bounded number of times: the masks and sets
  // only grow, so the bound is never reached on code that converges.
  while (!Work.empty()) {
    const CFGBlock *B = Work.back();
    Work.pop_back();
    if (++Visits[B->getBlockID()] > 64)
      continue;
    OrderState St = Transfer(B);
    if (St == Out[B->getBlockID()] && Visits[B->getBlockID()] > 1)
      continue;
    Out[B->getBlockID()] = St;
    unsigned Index = 0;
    for (const CFGBlock *Succ : B->succs()) {
      auto Edge = alongEdge(B, Index++, St);
      if (!Succ)
        continue;
      OrderState Joined = In[Succ->getBlockID()];
      Joined.joinWith(Edge ? *Edge : St, IsBack(B, Succ));
      if (!(Joined == In[Succ->getBlockID()]) || Visits[Succ->getBlockID()] == 0) {
        In[Succ->getBlockID()] = std::move(Joined);
        Work.push_back(Succ);
      }
    }
  }
  // The fixpoint's entry states, every predecessor joined once more (a
  // block reached first along one edge saw only that edge's state): the
  // ways in from before a loop first, then its ways round.
  for (const CFGBlock *B : *Cfg) {
    if (B == &Cfg->getEntry())
      continue;
    OrderState Joined;
    for (bool Round : {false, true})
      for (const CFGBlock *Pred : B->preds()) {
        if (!Pred || IsBack(Pred, B) != Round)
          continue;
        const OrderState &PredOut = Out[Pred->getBlockID()];
        auto Edge = alongEdge(Pred, successorIndex(Pred, B), PredOut);
        Joined.joinWith(Edge ? *Edge : PredOut, Round);
      }
    In[B->getBlockID()] = std::move(Joined);
  }
  Reporting = true;
  for (const CFGBlock *B : *Cfg)
    if (In[B->getBlockID()].Reached)
      Out[B->getBlockID()] = Transfer(B);
  Reporting = false;
  FixedOut = std::move(Out);
  confirmPathGaps(*Cfg);
  return std::move(Findings);
}

void FunctionRun::transfer(OrderState &St, const Stmt *S) {
  if (const auto *Launch = dyn_cast<CUDAKernelCallExpr>(S))
    return applyLaunch(St, Launch);
  if (const auto *Call = dyn_cast<CallExpr>(S))
    return applyCall(St, Call);
  if (const auto *Cast = dyn_cast<ImplicitCastExpr>(S)) {
    if (Cast->getCastKind() == CK_LValueToRValue)
      readsValue(St, Cast);
    return;
  }
  // `p = q`: p holds what q holds; `p = alloc(n, s)`: what the helper
  // allocated; any other value, nothing followed.
  if (const auto *BO = dyn_cast<BinaryOperator>(S); BO && BO->isAssignmentOp()) {
    notePollAssignment(St, BO);
    unsigned To = pointerOf(BO->getLHS());
    if (To == Unknown)
      return;
    St.Unchecked.erase(To);
    St.UsesOfPlace.erase(To);
    if (BO->getOpcode() == BO_Assign)
      bindReturned(St, To, BO->getRHS());
    return;
  }
  if (const auto *DS = dyn_cast<DeclStmt>(S))
    for (const Decl *D : DS->decls()) {
      const auto *VD = dyn_cast<VarDecl>(D);
      if (!VD || !VD->getInit())
        continue;
      if (VD->getType()->isPointerType()) {
        PlaceKey K;
        K.Base = VD;
        bindReturned(St, idFor(K, VD->getNameAsString(), false), VD->getInit());
      } else if (VD->isLocalVarDecl()) {
        notePollStatus(St, VD, VD->getInit());
      }
    }
}

void FunctionRun::report(FindingKind K, const Stmt *At, std::string Var, std::string Called,
                         std::string Detail, std::vector<PathNote> Notes) {
  if (!Reporting || !Reported.insert({At, Var + "\n" + Detail}).second)
    return;
  LifetimeFinding F;
  F.Kind = K;
  F.Loc = locOf(At);
  F.Range = At->getSourceRange();
  F.VarName = std::move(Var);
  F.CalledFunction = std::move(Called);
  F.Detail = std::move(Detail);
  F.Notes = std::move(Notes);
  Findings.push_back(std::move(F));
}

SourceLocation FunctionRun::locOf(const Stmt *S) const {
  if (const auto *Launch = dyn_cast_or_null<CUDAKernelCallExpr>(S))
    return Launch->getBeginLoc();
  if (const auto *Call = dyn_cast_or_null<CallExpr>(S))
    return Call->getExprLoc();
  return S ? S->getBeginLoc() : SourceLocation();
}

std::string FunctionRun::calleeName(const CallExpr *Call) const {
  const FunctionDecl *F = Call ? Call->getDirectCallee() : nullptr;
  if (!F || !F->getIdentifier())
    return "the call";
  return ApiModel::canonicalName(F->getName()).str();
}

} // namespace streams
} // namespace cgt
