//===- LifetimeAnalysis.cpp - per-function CUDA resource lifetimes --------===//
//
// A forward dataflow over clang::CFG (built with scope-end elements) that
// follows each resource a function acquires through the ApiModel.
//
// One resource = one acquisition site. Its state on a path is a set of bits:
//
//                 acquire (status unchecked: "pending")
//     (absent) ------------------------------------------> Live
//        ^                                                  |  |  \
//        | failure edge of a status test,                   |  |   \ returned, stored to a
//        | null edge of a handle test                       |  |    \ field/global/out-param,
//        +--------------------------------------------------+  |     \ passed to an unknown call,
//                                                 release call  |      \ captured, moved into RAII
//                                                               v       v
//                                                         Released    Escaped
//
//   Live where its last variable's scope ends, at the function exit, or
//   when its variable is overwritten                  -> Leak / Overwrite
//   use, launch or release while (only) Released       -> UseAfterRelease /
//                                                         DoubleRelease
//   release by a function whose kinds exclude it       -> MismatchedRelease
//   release of a handle a getter lent ("owned": false,
//   Escaped from the start, Transfer/Borrowed.cpp)     -> MismatchedRelease
//
// Places: a resource is held by a local variable or parameter, a member of
// `this` (never leaks at exit: the object owns it), a member of a local plain
// struct, or the elements of a local array (one place for all elements).
//
// Path sensitivity follows ESP's property simulation (Join.h): the
// state at a point is a set of disjuncts, one per distinct state of each
// resource, each with the branch facts its paths share (`if (use_graph)`
// taken true). A branch whose fact contradicts a disjunct's facts is
// infeasible for it, so `if (c) acquire; ... if (c) release;` is not a leak,
// however many unrelated branches lie between. At joins, disjuncts of a
// resource in the same state merge and keep only the facts they share;
// there is no bound that ordinary code reaches (Disjuncts.cpp keeps the set
// sparse, docs/architecture.md says why this design).
//
// Paths that end in exit/abort/[[noreturn]] calls are sinks: their state is
// dropped, as the Clang Static Analyzer's SuppressOnSink does. A throw (or a
// helper that always throws) that leaves the function leaks the local
// resources live there (Exceptions.cpp); one inside a try of this function
// continues at its handlers.
//
// Templates the unit never instantiates are analysed in their pattern, with
// what is type-dependent unknown (Templates.cpp).
//
// Members of a class or of a struct behind a pointer are followed across the
// functions of the translation unit (Ownership.h): a member no function
// releases, a destructor whose release implicit copies repeat, and a method
// that acquires into a member another method may have left live.
//
// Helpers defined in the same translation unit are summarised by running the
// same analysis on them (what happens to each parameter on every path) and
// applied at call sites like model entries. A local lambda that is only
// called acts, at each call, as its body does on the variables it captures.
//
//===----------------------------------------------------------------------===//
//
// This file is the public face: LifetimeAnalyzer, the state shared by the
// analyses of one translation unit (LifetimeAnalyzer::Impl, declared in
// AnalyzerImpl.h: model lookup, the cache of helper summaries) and the cheap
// pre-filter. The analysis of one function is the class Analysis, declared
// in Analysis.h and implemented by concern in Dataflow.cpp, Places.cpp and
// the folders Paths/, Transfer/, Callees/, Containers/, Capture/,
// Ownership/ and Reports/ (Analysis.h lists what each file holds).
//
//===----------------------------------------------------------------------===//
#include "Lifetime/Analysis.h"
#include "AstWalk/WrittenCalls.h"
#include "Lifetime/Ownership/Ownership.h"

#include "clang/AST/RecursiveASTVisitor.h"
#include "llvm/ADT/SmallPtrSet.h"

using namespace clang;

namespace cgt {
using namespace lifetime;

LifetimeAnalyzer::Impl::Impl(const ApiModel &M, ASTContext &C, LifetimeOptions O,
                             std::shared_ptr<WrittenCallsIndex> Shared)
    : Model(M), Ctx(C), Opts(O),
      Calls(Shared ? std::move(Shared) : std::make_shared<WrittenCallsIndex>()) {}

LifetimeAnalyzer::Impl::~Impl() = default;

const ParentIndex &LifetimeAnalyzer::Impl::parentsOf(const Stmt *Body, unsigned SizeHint) {
  auto [It, New] = Parents.try_emplace(Body);
  if (New) {
    It->second = std::make_unique<ParentIndex>();
    It->second->build(Body, SizeHint);
  }
  return *It->second;
}

OwnershipIndex &LifetimeAnalyzer::Impl::ownership() {
  if (!Ownership)
    Ownership = std::make_unique<OwnershipIndex>(*this);
  return *Ownership;
}

bool LifetimeAnalyzer::Impl::isInteresting(const FunctionDecl *FD) {
  auto Cached = Interesting.find(FD);
  if (Cached != Interesting.end())
    return Cached->second;
  Interesting[FD] = false; // recursion guard
  if (!FD->hasBody())
    return false;
  // A move assignment may overwrite an owned member with no call at all
  // (Ownership/MovedOwners.cpp moveAssignOverwrites).
  if (const auto *MD = dyn_cast<CXXMethodDecl>(FD);
      MD && MD->isMoveAssignmentOperator() && MD->isUserProvided())
    return Interesting[FD] = true;
  // The walk stops at the first call that makes the function interesting:
  // most bodies worth analysing say so early.
  auto MakesInteresting = [&](const CallExpr *Call) {
    if (lifetime::dropsMemberContainerElements(Call))
      return true; // an eviction from a member cache (ContainerFlow.cpp)
    const FunctionDecl *Callee = calleeOf(Call);
    const FunctionModel *M =
        Callee ? entryFor(Callee, Call->getNumArgs()) : pointerModel(Call); // FunctionPointers.cpp
    if (!Callee && !M)
      return false;
    if (M)
      return !M->Acquires.empty() || !M->Releases.empty() || !M->Uses.empty() ||
             !M->LegalDuringCapture;
    if (attributeModel(Callee))
      return true;
    const FunctionDecl *Def = Callee->getDefinition();
    if (!Opts.UseHelperSummaries || !Def || Def == FD || Depth >= 4 ||
        Ctx.getSourceManager().isInSystemHeader(Def->getLocation()))
      return false;
    ++Depth;
    bool HelperIsInteresting = isInteresting(Def);
    --Depth;
    return HelperIsInteresting;
  };
  // Lambdas are analysed on their own: their calls do not count here.
  bool Result = llvm::any_of(Calls->of(FD->getBody()).Calls, [&](const WrittenCall &C) {
    return !C.InLambda && MakesInteresting(C.Call);
  });
  Interesting[FD] = Result;
  return Result;
}

const FunctionSummary *LifetimeAnalyzer::Impl::summaryOf(const FunctionDecl *Callee) {
  const FunctionDecl *Def = Callee ? Callee->getDefinition() : nullptr;
  if (!Def || !Def->hasBody() || Def->isDependentContext() || isDeviceCode(Def) ||
      Ctx.getSourceManager().isInSystemHeader(Def->getLocation()) || bodyIsIncomplete(Def))
    return nullptr;
  auto It = Summaries.find(Def);
  if (It != Summaries.end())
    return It->second.get();
  if (InProgress.count(Def) || Depth >= 4)
    return nullptr;
  const BodyCalls &Written = Calls->of(Def->getBody());
  bool MayNotReturn = Written.Throws || llvm::any_of(Written.Calls, [](const WrittenCall &C) {
    const FunctionDecl *F = C.Call->getDirectCallee();
    return !C.InLambda && F && F->isNoReturn();
  });
  // A helper that calls nothing the model knows may still be handed a
  // resource: its summary says whether it only uses it (launches kernels on
  // it, reads it) or lets it escape. Without one the call is unknown and
  // the caller's resource escapes there.
  if (!MayNotReturn && !isInteresting(Def) && !mayReceiveResource(Def)) {
    Summaries[Def] = nullptr;
    return nullptr;
  }
  std::unique_ptr<FunctionSummary> S = runSummary(Def, {});
  return (Summaries[Def] = std::move(S)).get();
}

std::unique_ptr<FunctionSummary>
LifetimeAnalyzer::Impl::runSummary(const FunctionDecl *Def, ConstantArgs Constants) {
  InProgress.insert(Def);
  ++Depth;
  Analysis An(*this, Def, /*SummaryMode=*/true, std::move(Constants));
  std::unique_ptr<FunctionSummary> S;
  if (An.run())
    S = An.summary();
  --Depth;
  InProgress.erase(Def);
  return S;
}

/// The summary of the helper a call reaches, specialised to the constants
/// the call passes for parameters the helper branches on: `allocate(&p, n,
/// HOST)` takes only the HOST arm of `switch (space)`, so its caller learns
/// that `p` is pinned host memory, not the union of every arm.
const FunctionSummary *LifetimeAnalyzer::Impl::summaryFor(const CallExpr *Call,
                                                          const FunctionDecl *Callee) {
  const FunctionSummary *Generic = summaryOf(Callee);
  if (!Generic)
    return nullptr;
  const FunctionDecl *Def = Callee->getDefinition();
  ConstantArgs Constants = constantArgsOf(Call, Def);
  if (Constants.empty() || InProgress.count(Def) || Depth >= 4)
    return Generic;
  auto Key = std::make_pair(Def, Constants);
  auto It = SpecialisedSummaries.find(Key);
  if (It == SpecialisedSummaries.end())
    It = SpecialisedSummaries.emplace(Key, runSummary(Def, Constants)).first;
  return It->second ? It->second.get() : Generic;
}

/// The (parameter, value) pairs of a call's constant arguments for the
/// parameters its callee's conditions read.
LifetimeAnalyzer::Impl::ConstantArgs
LifetimeAnalyzer::Impl::constantArgsOf(const CallExpr *Call, const FunctionDecl *Def) {
  ConstantArgs Out;
  for (unsigned I : branchedOnParams(Def)) {
    if (I >= Call->getNumArgs())
      continue;
    const Expr *Arg = Call->getArg(I);
    Expr::EvalResult V;
    if (!Arg->isValueDependent() && Arg->EvaluateAsInt(V, Ctx))
      Out.push_back({I, V.Val.getInt().getExtValue()});
  }
  return Out;
}

namespace {

/// Collects the parameters named in the conditions of a body's branches.
struct ConditionParams : RecursiveASTVisitor<ConditionParams> {
  llvm::SmallPtrSet<const ParmVarDecl *, 4> Read;
  void readsIn(const Expr *Cond) {
    if (!Cond)
      return;
    llvm::SmallVector<const Stmt *, 8> Stack{Cond};
    while (!Stack.empty()) {
      const Stmt *S = Stack.pop_back_val();
      if (const auto *DRE = dyn_cast_or_null<DeclRefExpr>(S))
        if (const auto *PVD = dyn_cast<ParmVarDecl>(DRE->getDecl()))
          Read.insert(PVD);
      if (S)
        for (const Stmt *Child : S->children())
          Stack.push_back(Child);
    }
  }
  bool VisitIfStmt(IfStmt *S) { readsIn(S->getCond()); return true; }
  bool VisitSwitchStmt(SwitchStmt *S) { readsIn(S->getCond()); return true; }
  bool VisitConditionalOperator(ConditionalOperator *C) { readsIn(C->getCond()); return true; }
  bool TraverseLambdaExpr(LambdaExpr *) { return true; }
};

} // namespace

const llvm::SmallVector<unsigned, 2> &
LifetimeAnalyzer::Impl::branchedOnParams(const FunctionDecl *Def) {
  auto [It, New] = BranchedOnParams.try_emplace(Def);
  if (!New)
    return It->second;
  ConditionParams V;
  V.TraverseStmt(Def->getBody());
  llvm::SmallVector<unsigned, 2> Params;
  for (const ParmVarDecl *PVD : Def->parameters()) {
    QualType T = PVD->getType();
    if (V.Read.count(PVD) && (T->isIntegerType() || T->isEnumeralType() || T->isBooleanType()))
      Params.push_back(PVD->getFunctionScopeIndex());
  }
  return BranchedOnParams[Def] = std::move(Params);
}

/// A kernel or a `__device__` function: a launch reads its arguments
/// (onUnknownCall), and device code neither releases nor keeps host handles.
bool LifetimeAnalyzer::Impl::isDeviceCode(const FunctionDecl *Def) {
  return Def->hasAttr<CUDAGlobalAttr>() ||
         (Def->hasAttr<CUDADeviceAttr>() && !Def->hasAttr<CUDAHostAttr>());
}

/// A parameter through which a caller's resource can reach the helper: a
/// pointer (device memory, `cudaStream_t`, `cudaGraphExec_t*`) or an integer
/// handle the model names (`CUdeviceptr`).
bool LifetimeAnalyzer::Impl::mayReceiveResource(const FunctionDecl *Def) const {
  return llvm::any_of(Def->parameters(), [&](const ParmVarDecl *PVD) {
    QualType T = PVD->getType().getNonReferenceType();
    if (T->isPointerType())
      return !T->getPointeeType()->isFunctionType();
    const auto *TT = T->getAs<TypedefType>();
    return TT && T->isIntegerType() && Model.kindOfType(TT->getDecl()->getName().str());
  });
}

/// The function a call reaches: its direct callee, or the function a local
/// or const global pointer was initialised with (`auto inst =
/// cudaGraphInstantiate; inst(&e, g, 0)`). The initialiser is trusted: a
/// later reassignment of a local pointer is not seen.
const FunctionDecl *LifetimeAnalyzer::Impl::calleeOf(const CallExpr *Call) {
  if (const FunctionDecl *Direct = Call->getDirectCallee())
    return Direct;
  const auto *Ref = dyn_cast<DeclRefExpr>(Call->getCallee()->IgnoreParenImpCasts());
  const auto *VD = Ref ? dyn_cast<VarDecl>(Ref->getDecl()) : nullptr;
  if (!VD || !VD->getInit() || VD->getType()->isReferenceType() ||
      !(VD->getType().isConstQualified() || VD->hasLocalStorage()))
    return nullptr;
  const Expr *Init = VD->getInit()->IgnoreParenCasts();
  if (const auto *AddrOf = dyn_cast<UnaryOperator>(Init); AddrOf && AddrOf->getOpcode() == UO_AddrOf)
    Init = AddrOf->getSubExpr()->IgnoreParenCasts();
  const auto *Target = dyn_cast<DeclRefExpr>(Init);
  return Target ? dyn_cast<FunctionDecl>(Target->getDecl()) : nullptr;
}

const FunctionModel *LifetimeAnalyzer::Impl::modelFor(const CallExpr *Call) {
  if (auto Cached = CallModels.find(Call); Cached != CallModels.end())
    return Cached->second;
  const FunctionDecl *Callee = calleeOf(Call);
  const FunctionModel *M = nullptr;
  // The body this translation unit has, if any, is summarised below.
  if (Callee)
    M = entryFor(Callee, Call->getNumArgs());
  if (!Callee)
    M = pointerModel(Call); // FunctionPointers.cpp
  if (Callee && !M)
    M = attributeModel(Callee);
  if (Callee && !M && Opts.UseHelperSummaries) {
    const FunctionSummary *S = summaryFor(Call, Callee);
    M = S ? &S->Model : nullptr;
    // No summary yet because the callee is being summarised (recursion) or
    // is past the depth bound: another caller may get one later.
    const FunctionDecl *Def = Callee->getDefinition();
    if (!M && Def && !Summaries.count(Def) && (InProgress.count(Def) || Depth >= 4))
      return nullptr;
  }
  CallModels[Call] = M;
  return M;
}

LifetimeStats &lifetimeStats() {
  static LifetimeStats Stats;
  return Stats;
}

LifetimeAnalyzer::LifetimeAnalyzer(const ApiModel &Model, ASTContext &Ctx,
                                   LifetimeOptions Opts,
                                   std::shared_ptr<WrittenCallsIndex> Calls)
    : P(std::make_unique<Impl>(Model, Ctx, Opts, std::move(Calls))) {}

LifetimeAnalyzer::~LifetimeAnalyzer() = default;

bool LifetimeAnalyzer::isInteresting(const FunctionDecl *FD) {
  return P->analyzable(FD) && P->isInteresting(FD);
}

std::vector<LifetimeFinding> LifetimeAnalyzer::analyze(const FunctionDecl *FD) {
  if (!FD->hasBody() || !P->analyzable(FD))
    return {};
  Analysis An(*P, FD, /*SummaryMode=*/false);
  if (!An.run())
    return {};
  An.recordStats(lifetimeStats());
  std::vector<LifetimeFinding> Out = An.takeFindings();
  // The index's conclusions, where the function's own dataflow has none of
  // the same kind at the same place.
  size_t Own = Out.size();
  // A function that is no method and names no member has nothing in the
  // index; not asking spares building it for units of free functions.
  std::vector<LifetimeFinding> FromIndex;
  if (An.mayUseOwnership())
    FromIndex = P->ownership().findingsIn(FD);
  for (LifetimeFinding &F : FromIndex)
    if (std::none_of(Out.begin(), Out.begin() + Own, [&](const LifetimeFinding &G) {
          return G.Kind == F.Kind && G.Loc == F.Loc;
        }))
      Out.push_back(std::move(F));
  dropMismatchesNamedInside(Out);
  const SourceManager &SM = P->Ctx.getSourceManager();
  llvm::sort(Out, [&](const LifetimeFinding &L, const LifetimeFinding &R) {
    return SM.isBeforeInTranslationUnit(L.Loc, R.Loc);
  });
  return Out;
}

/// One wrong release, one finding: a helper of this unit that releases with
/// the wrong family reports the call inside it, so the calls of the helper
/// (whose summary carries the release) say nothing more. Where the helper
/// cannot tell (it does not know what its argument holds), the caller's
/// finding is the only one and stays.
void LifetimeAnalyzer::dropMismatchesNamedInside(std::vector<LifetimeFinding> &Out) {
  llvm::erase_if(Out, [&](const LifetimeFinding &F) {
    const FunctionDecl *Helper = F.ThroughHelper ? F.ThroughHelper->getDefinition() : nullptr;
    if (F.Kind != FindingKind::MismatchedRelease || !Helper ||
        !P->HelpersAsked.insert(Helper).second)
      return false;
    std::vector<LifetimeFinding> Inner = analyze(Helper);
    P->HelpersAsked.erase(Helper);
    return llvm::any_of(Inner, [](const LifetimeFinding &G) {
      return G.Kind == FindingKind::MismatchedRelease;
    });
  });
}

bool LifetimeAnalyzer::analyzable(const FunctionDecl *FD) { return P->analyzable(FD); }

const FunctionSummary *LifetimeAnalyzer::summaryOf(const FunctionDecl *FD) {
  return P->summaryOf(FD);
}

const FunctionModel *LifetimeAnalyzer::modelFor(const CallExpr *Call) {
  return P->modelFor(Call);
}

} // namespace cgt
