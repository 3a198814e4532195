//===- LifetimeAnalysis.cpp - per-function CUDA resource lifetimes --------===//
//
// A forward dataflow over clang::CFG (built with lifetime-end elements) that
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
//   Live at a lifetime end of its last variable, at the function exit, or
//   when its variable is overwritten                  -> Leak / Overwrite
//   use, launch or release while (only) Released       -> UseAfterRelease /
//                                                         DoubleRelease
//   release by a function whose kinds exclude it       -> MismatchedRelease
//
// Places: a resource is held by a local variable or parameter, a member of
// `this` (never leaks at exit: the object owns it), a member of a local plain
// struct, or the elements of a local array (one place for all elements).
//
// Path sensitivity is bounded: the state at a program point is a small set of
// path states (PathState.h), each with the branch facts that led to it
// (`if (use_graph)` taken true). A branch whose fact contradicts a path's
// facts is infeasible for that path, so `if (c) acquire; ... if (c) release;`
// is not a leak. Paths with equal facts are merged; beyond a bound (16) every
// path is merged and facts are dropped. Merging loses precision: a merged
// state can carry a Live bit from one path to a leak point reached by
// another, so the bound is kept large enough that ordinary functions never
// hit it.
//
// Paths that end in exit/abort/[[noreturn]] calls or a throw that leaves the
// function are sinks: their state is dropped, as the Clang Static Analyzer's
// SuppressOnSink does. A throw, or a throwing [[noreturn]] call, inside a try
// of this function continues at its handlers.
//
// Helpers defined in the same translation unit are summarised by running the
// same analysis on them (what happens to each parameter on every path) and
// applied at call sites like model entries. A local lambda that is only
// called acts, at each call, as its body does on the variables it captures.
//
//===----------------------------------------------------------------------===//
#include "Lifetime/LifetimeAnalysis.h"
#include "Lifetime/PathState.h"

#include "clang/AST/ExprCXX.h"
#include "clang/AST/ParentMap.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/Analysis/CFG.h"
#include "clang/Basic/SourceManager.h"
#include "clang/Lex/Lexer.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/FoldingSet.h"
#include <array>
#include <functional>
#include <map>
#include <queue>
#include <set>

using namespace clang;

namespace cgt {
using namespace lifetime;
namespace {

const Expr *strip(const Expr *E) {
  while (E) {
    const Expr *N = E->IgnoreParenCasts();
    if (const auto *EWC = dyn_cast<ExprWithCleanups>(N))
      N = EWC->getSubExpr();
    else if (const auto *MT = dyn_cast<MaterializeTemporaryExpr>(N))
      N = MT->getSubExpr();
    else if (const auto *BT = dyn_cast<CXXBindTemporaryExpr>(N))
      N = BT->getSubExpr();
    if (N == E)
      return E;
    E = N;
  }
  return E;
}

bool isField(Key K) { return K && isa<FieldDecl>(K->Decl); }

/// A local whose members can be followed one by one: a plain struct that no
/// destructor looks after.
bool isPlainLocalAggregate(const VarDecl *VD) {
  if (!VD->hasLocalStorage() || VD->getType()->isReferenceType())
    return false;
  const auto *RD = VD->getType()->getAsCXXRecordDecl();
  if (RD)
    return RD->hasDefinition() && RD->hasTrivialDestructor();
  return VD->getType()->isRecordType();
}

const CallExpr *asBuiltinExpect(const Expr *E) {
  const auto *CE = dyn_cast<CallExpr>(E);
  if (CE && CE->getBuiltinCallee() == Builtin::BI__builtin_expect && CE->getNumArgs() >= 1)
    return CE;
  return nullptr;
}

/// `cond` reduced to "Subject is non-zero" (TrueMeansNonZero) or "is zero".
struct CondTest {
  const Expr *Subject = nullptr;
  bool TrueMeansNonZero = true;
};

class Analysis;

} // namespace

struct LifetimeAnalyzer::Impl {
  const ApiModel &Model;
  ASTContext &Ctx;
  LifetimeOptions Opts;
  std::map<const FunctionDecl *, std::unique_ptr<FunctionSummary>> Summaries;
  std::set<const FunctionDecl *> InProgress;
  std::map<const FunctionDecl *, bool> Interesting;
  unsigned Depth = 0;

  Impl(const ApiModel &M, ASTContext &C, LifetimeOptions O)
      : Model(M), Ctx(C), Opts(O) {}

  const FunctionModel *lookupModel(const FunctionDecl *FD, unsigned NumArgs) {
    if (!FD || !FD->getIdentifier())
      return nullptr;
    if (const FunctionModel *M = Model.lookup(FD->getQualifiedNameAsString(), NumArgs))
      return M;
    if (FD->isCXXClassMember())
      return nullptr;
    return Model.lookup(FD->getName(), NumArgs);
  }

  const FunctionModel *modelFor(const CallExpr *Call);
  const FunctionDecl *calleeOf(const CallExpr *Call);
  const FunctionSummary *summaryOf(const FunctionDecl *FD);
  bool isInteresting(const FunctionDecl *FD);
};

namespace {

/// Runs the dataflow on one function.
class Analysis {
public:
  Analysis(LifetimeAnalyzer::Impl &A, const FunctionDecl *FD, bool SummaryMode)
      : A(A), Ctx(A.Ctx), SM(A.Ctx.getSourceManager()), FD(FD),
        SummaryMode(SummaryMode), PM(FD->getBody()) {}

  bool run();
  std::vector<LifetimeFinding> takeFindings();
  /// Summary of the function's effect on its parameters (SummaryMode).
  std::unique_ptr<FunctionSummary> summary() const;

private:
  struct EdgeTest {
    bool Valid = false;
    bool TrueMeansNonZero = true;
    const Expr *Subject = nullptr;
    std::optional<uintptr_t> Fact;
    Key SubjectVar = nullptr;
    const ValueDecl *SubjectDerefOf = nullptr; ///< `*err`: err
  };

  // --- the dataflow driver ---
  void transferBlock(const CFGBlock *B, StateSet &S);
  void transferElement(const CFGElement &E, PathState &P, bool &Dead);
  void propagateEdge(const CFGBlock *From, unsigned SuccIndex, const CFGBlock *To,
                     const StateSet &Out, bool TwoWay, StateSet &Refined);
  void checkExit(const CFGBlock *From, const StateSet &S);
  bool leavesFunction(const CFGBlock *B) const;
  const CFGBlock *handlerDispatchFor(const Stmt *S);

  // --- branches: facts, status and null refinement ---
  void refineOnBranch(const Expr *Cond, bool Taken, PathState &P, bool &Infeasible,
                      bool TwoWay);
  void refineOnSwitch(const SwitchStmt *Switch, const CFGBlock *To, PathState &P,
                      bool &Infeasible);
  IdSet refineSubject(const EdgeTest &E, bool NonZero, PathState &P, bool &Infeasible);
  bool hasZeroCase(const SwitchStmt *Switch) const;
  const EdgeTest &edgeTest(const Expr *Cond);
  std::optional<CondTest> condTest(const Expr *C) const;
  std::optional<uintptr_t> factKey(const Expr *Subject);
  std::optional<bool> knownCondition(const Expr *Cond, const PathState &P);
  void invalidateFacts(Key K, PathState &P);
  void invalidateFieldFacts(PathState &P);
  void forgetFactsWrittenThrough(const CallExpr *Call, PathState &P);
  void recordConstantFact(Key Target, const Expr *Src, PathState &P);

  // --- calls ---
  void onCall(const CallExpr *Call, PathState &P, bool &Dead);
  void applyCall(const CallExpr *Call, PathState &P, bool &Dead);
  void onModeledCall(const CallExpr *Call, const FunctionModel &M, PathState &P);
  void onUnknownCall(const CallExpr *Call, PathState &P);
  void acquire(const CallExpr *Call, const FunctionModel &M, const AcquireEffect &Eff,
               PathState &P);
  void acquireElement(const CallExpr *Call, const FunctionModel &M, unsigned R, Key Target,
                      const Expr *Element, PathState &P);
  std::optional<uint64_t> constantIndex(const Expr *Element) const;
  void release(const CallExpr *Call, const FunctionModel &M, const ReleaseEffect &Eff,
               PathState &P);
  bool releasesEveryElement(Key K, const Expr *Arg, ResState &RS);
  bool releasesOneConstantElement(const Expr *Arg) const;
  void use(const CallExpr *Call, const Expr *Arg, const UseEffect *Eff, PathState &P);
  bool callMayChangeMembers(const CallExpr *Call) const;
  bool bindsReference(const CallExpr *Call, int I) const;
  Key memberPlace(Key Whole, StringRef Field);

  // --- where a status lives ---
  void bindStatus(const CallExpr *Call, bool SuccessIsZero, ResState &RS);
  bool bindThroughBooleanChain(const Stmt *From, ResState &RS);
  void trackStatusCopy(Key Target, const Expr *Src, PathState &P);
  const Expr *statusSource(const Expr *E, bool &Inverted) const;
  void takeOverUncheckedStatus(const CallExpr *Call, PathState &P);
  Key statusOutPlace(const CallExpr *Call, const FunctionModel &M);
  bool isStatusTypeName(QualType T) const;
  bool isDiscarded(const CallExpr *Call) const;
  const ValueDecl *derefOf(const Expr *E) const;

  // --- assignments and escapes ---
  void onAssign(const Expr *LHS, const Expr *RHS, const Stmt *At, PathState &P);
  void assignTo(Key Target, const Expr *RHS, const Stmt *At, PathState &P);
  void unbind(Key K, PathState &P, const Stmt *At, const char *How);
  void escapeValueRefs(const Expr *E, PathState &P);
  void escapeArgs(const FunctionDecl *Callee, llvm::ArrayRef<const Expr *> Args, PathState &P);
  void escapeUnclassifiedArgs(const CallExpr *Call, const FunctionModel &M, PathState &P);
  bool addressEscaped(Key K);

  // --- local lambdas ---
  const LambdaExpr *invokedLocalLambda(const CallExpr *Call);
  const LambdaExpr *localLambdaOf(const VarDecl *VD);
  const LambdaExpr *lambdaIn(const Expr *Init) const;
  bool onlyCalled(const VarDecl *VD);
  bool isLocalLambda(const LambdaExpr *L);
  void applyLambdaBody(const LambdaExpr *L, PathState &P, bool &Dead);

  // --- leaks and reports ---
  void onLifetimeEnd(const VarDecl *VD, const Stmt *Trigger, PathState &P);
  std::pair<SourceLocation, std::string> scopeExit(const Stmt *Trigger) const;
  bool isLeakedAtEnd(Key K, const ResState &RS, SourceLocation Where) const;
  void scanElementReleases();
  void reportOverwriteByFactory(Key Target, const CallExpr *Factory, PathState &P);
  void reportFieldKnownLive(const CallExpr *Call, const FunctionModel &M,
                            const AcquireEffect &Eff, Key Field, const PathState &P);
  void report(FindingKind Kind, unsigned R, const Expr *At, std::vector<PathNote> Notes,
              const std::string &Called = "");
  void reportLeak(unsigned R, const ResState &RS, SourceLocation Where,
                  const std::string &Why);
  std::vector<PathNote> trailNotes(const ResState &RS) const;

  // --- helper summaries (SummaryMode) ---
  void noteReleaseThroughParam(const Expr *Arg, const ReleaseEffect &Eff);
  void noteReturnedResource(const Expr *Ret, const PathState &P);
  void notePublishedThroughParam(const Expr *LHS, const Expr *RHS, const PathState &P);
  const ParmVarDecl *outParameter(const Expr *E, bool AddressTaken) const;

  // --- places, locations, text ---
  Key storageOf(const Expr *E);
  Key placeOf(const ValueDecl *D, const FieldDecl *Member = nullptr, bool Element = false);
  static const VarDecl *plainVar(Key K) {
    return K && K->whole() ? dyn_cast<VarDecl>(K->Decl) : nullptr;
  }
  unsigned resourceFor(const Expr *Site, int ParamIndex, const std::string &Kind,
                       const std::string &By, Key Var);
  bool isZero(const Expr *E) const;
  SourceLocation loc(const Stmt *S) const;
  SourceLocation endLoc(const Stmt *S) const;
  std::string text(const Expr *E) const;
  std::string spelledName(const CallExpr *Call, const std::string &Fallback) const;
  std::string varName(Key K) const { return K ? K->name() : ""; }

  LifetimeAnalyzer::Impl &A;
  ASTContext &Ctx;
  const SourceManager &SM;
  const FunctionDecl *FD;
  bool SummaryMode;
  ParentMap PM;
  std::unique_ptr<CFG> Cfg;
  const CFGBlock *CurrentBlock = nullptr;

  std::map<std::tuple<const ValueDecl *, const FieldDecl *, bool>, std::unique_ptr<Place>> Places;
  std::vector<Resource> Resources{Resource()}; // id 0 unused
  std::map<std::pair<const Expr *, int>, unsigned> ResourceIds;
  std::map<const CallExpr *, unsigned> ReturnedResource;
  llvm::DenseMap<const Expr *, EdgeTest> EdgeTests;
  std::map<uintptr_t, std::set<Key>> FactVars;
  /// Variables whose address was handed to code we do not follow.
  std::set<Key> AddressEscaped;
  std::map<const VarDecl *, const LambdaExpr *> LocalLambdas;
  unsigned LambdaDepth = 0;
  std::map<const ValueDecl *, SourceLocation> FirstElementRelease;
  /// Paths that ended in a call that never returns, inside a try: they
  /// continue at that try's handlers.
  std::vector<std::pair<const CFGBlock *, PathState>> Diverted;

  std::map<std::pair<int, const Expr *>, LifetimeFinding> Findings;
  std::set<unsigned> Leaked;

  StateSet ExitStates;
  bool ReachedExit = false;
  std::string SummaryReturnKind;
  /// SummaryMode: acquisitions into pointer or reference parameters, or
  /// into a member of what a pointer parameter points to.
  struct SummaryAcquire {
    int Param;
    std::string Kind;
    std::string Field;
  };
  std::vector<SummaryAcquire> SummaryAcquires;
  /// SummaryMode: releases of what a pointer parameter points to.
  std::vector<ReleaseEffect> SummaryDerefReleases;
};

/// Several acquisitions into one variable that leak at the same place are one
/// bug: keep the first acquisition in source order.
std::vector<LifetimeFinding> Analysis::takeFindings() {
  std::vector<LifetimeFinding> Out;
  std::map<std::pair<std::string, unsigned>, size_t> LeakAt;
  std::vector<LifetimeFinding> All;
  for (auto &F : Findings)
    All.push_back(std::move(F.second));
  llvm::sort(All, [&](const LifetimeFinding &L, const LifetimeFinding &R) {
    return SM.isBeforeInTranslationUnit(L.Loc, R.Loc);
  });
  for (LifetimeFinding &F : All) {
    if (F.Kind == FindingKind::Leak && !F.VarName.empty() && !F.Notes.empty()) {
      auto Id = std::make_pair(F.VarName, F.Notes.back().Loc.getRawEncoding());
      if (!LeakAt.emplace(Id, Out.size()).second)
        continue;
    }
    Out.push_back(std::move(F));
  }
  return Out;
}

/// Where to point in the file: inside `CUDA_CHECK(cudaGraphInstantiate(...))`
/// that is the call as written in the argument, not the macro's name.
SourceLocation Analysis::loc(const Stmt *S) const {
  return SM.getFileLoc(S->getBeginLoc());
}

SourceLocation Analysis::endLoc(const Stmt *S) const {
  SourceLocation End = SM.getFileLoc(S->getEndLoc());
  // A range must not end before it starts (call spelled in an argument,
  // closing parenthesis in the macro body).
  return SM.isBeforeInTranslationUnit(End, loc(S)) ? loc(S) : End;
}

/// The callee as the user wrote it: `cuGraphInstantiate`, not the
/// `cuGraphInstantiateWithFlags` that cuda.h's macro turns it into.
std::string Analysis::spelledName(const CallExpr *Call, const std::string &Fallback) const {
  const auto *DRE = dyn_cast<DeclRefExpr>(Call->getCallee()->IgnoreParenImpCasts());
  if (!DRE)
    return Fallback;
  SourceLocation L = SM.getFileLoc(DRE->getLocation());
  StringRef T = Lexer::getSourceText(CharSourceRange::getTokenRange(L, L), SM,
                                     Ctx.getLangOpts());
  if (T.empty() || !llvm::all_of(T, [](char C) { return isAsciiIdentifierContinue(C); }))
    return Fallback;
  if (T != Fallback && ApiModel::canonicalName(Fallback) != T &&
      !StringRef(Fallback).starts_with(T))
    return Fallback;
  return T.str();
}

std::string Analysis::text(const Expr *E) const {
  CharSourceRange R = CharSourceRange::getTokenRange(E->getSourceRange());
  StringRef T = Lexer::getSourceText(R, SM, Ctx.getLangOpts());
  if (T.empty() || T.size() > 64 || T.contains('\n'))
    return "";
  return T.str();
}

unsigned Analysis::resourceFor(const Expr *Site, int ParamIndex,
                               const std::string &Kind, const std::string &By,
                               Key Var) {
  auto Id = std::make_pair(Site, ParamIndex);
  auto It = ResourceIds.find(Id);
  if (It != ResourceIds.end())
    return It->second;
  Resource R;
  R.Site = Site;
  R.Kind = Kind;
  R.AcquiredBy = By;
  R.VarName = varName(Var);
  R.IntoField = Var && isField(Var);
  R.ParamIndex = ParamIndex;
  Resources.push_back(R);
  unsigned N = Resources.size() - 1;
  ResourceIds[Id] = N;
  return N;
}

Key Analysis::placeOf(const ValueDecl *D, const FieldDecl *Member, bool Element) {
  auto &Slot = Places[std::make_tuple(D, Member, Element)];
  if (!Slot) {
    Slot = std::make_unique<Place>();
    Slot->Decl = D;
    Slot->Member = Member;
    Slot->Element = Element;
  }
  return Slot.get();
}

/// The place an expression names, if the analysis can follow it.
Key Analysis::storageOf(const Expr *E) {
  E = strip(E);
  if (const auto *DRE = dyn_cast<DeclRefExpr>(E)) {
    if (const auto *VD = dyn_cast<VarDecl>(DRE->getDecl()))
      if (VD->hasLocalStorage() && !VD->getType()->isReferenceType())
        return placeOf(VD);
    return nullptr;
  }
  if (const auto *ME = dyn_cast<MemberExpr>(E)) {
    const Expr *Base = ME->getBase()->IgnoreParenImpCasts();
    const auto *Field = dyn_cast<FieldDecl>(ME->getMemberDecl());
    if (!Field)
      return nullptr;
    if (isa<CXXThisExpr>(Base))
      return placeOf(Field);
    if (const auto *DRE = dyn_cast<DeclRefExpr>(Base); DRE && !ME->isArrow())
      if (const auto *VD = dyn_cast<VarDecl>(DRE->getDecl()); VD && isPlainLocalAggregate(VD))
        return placeOf(VD, Field);
    return nullptr;
  }
  if (const auto *ASE = dyn_cast<ArraySubscriptExpr>(E))
    if (const auto *DRE = dyn_cast<DeclRefExpr>(ASE->getBase()->IgnoreParenImpCasts()))
      if (const auto *VD = dyn_cast<VarDecl>(DRE->getDecl());
          VD && VD->hasLocalStorage() && VD->getType()->isConstantArrayType())
        return placeOf(VD, nullptr, /*Element=*/true);
  return nullptr;
}

bool Analysis::isZero(const Expr *E) const {
  E = E->IgnoreParenCasts();
  if (isa<CXXNullPtrLiteralExpr>(E) || isa<GNUNullExpr>(E))
    return true;
  if (E->isValueDependent() || E->isTypeDependent())
    return false;
  Expr::EvalResult R;
  return E->EvaluateAsInt(R, Ctx) && R.Val.getInt() == 0;
}

std::optional<CondTest> Analysis::condTest(const Expr *C) const {
  if (!C)
    return std::nullopt;
  C = C->IgnoreParenImpCasts();
  if (const CallExpr *Expect = asBuiltinExpect(C))
    return condTest(Expect->getArg(0));
  if (const auto *UO = dyn_cast<UnaryOperator>(C); UO && UO->getOpcode() == UO_LNot) {
    auto T = condTest(UO->getSubExpr());
    if (T)
      T->TrueMeansNonZero = !T->TrueMeansNonZero;
    return T;
  }
  if (const auto *BO = dyn_cast<BinaryOperator>(C);
      BO && (BO->getOpcode() == BO_EQ || BO->getOpcode() == BO_NE)) {
    const Expr *Other = nullptr;
    if (isZero(BO->getRHS()))
      Other = BO->getLHS();
    else if (isZero(BO->getLHS()))
      Other = BO->getRHS();
    if (Other) {
      auto T = condTest(Other);
      if (!T)
        return std::nullopt;
      if (BO->getOpcode() == BO_EQ)
        T->TrueMeansNonZero = !T->TrueMeansNonZero;
      return T;
    }
  }
  if (const auto *OC = dyn_cast<CXXOperatorCallExpr>(C);
      OC && OC->getOperator() == OO_ExclaimEqual && OC->getNumArgs() == 2 &&
      isZero(OC->getArg(1)))
    return condTest(OC->getArg(0));
  CondTest T;
  T.Subject = strip(C);
  return T;
}

/// Conditions over variables and fields, without side effects, are facts
/// that later branches on the same condition can be checked against.
std::optional<uintptr_t> Analysis::factKey(const Expr *Subject) {
  if (!Subject || Subject->HasSideEffects(Ctx) || Subject->isValueDependent())
    return std::nullopt;
  if (Key K = storageOf(Subject); K && !K->Element) {
    FactVars[reinterpret_cast<uintptr_t>(K)].insert(K);
    return reinterpret_cast<uintptr_t>(K);
  }
  std::set<Key> Vars;
  bool HasCall = false;
  std::function<void(const Stmt *)> Walk = [&](const Stmt *S) {
    if (!S)
      return;
    if (isa<CallExpr>(S))
      HasCall = true;
    if (const auto *DRE = dyn_cast<DeclRefExpr>(S))
      if (isa<VarDecl>(DRE->getDecl()))
        Vars.insert(placeOf(DRE->getDecl()));
    if (const auto *ME = dyn_cast<MemberExpr>(S)) {
      Key K = storageOf(ME);
      Vars.insert(K ? K : placeOf(ME->getMemberDecl()));
    }
    for (const Stmt *Child : S->children())
      Walk(Child);
  };
  Walk(Subject);
  if (HasCall || Vars.empty())
    return std::nullopt;
  llvm::FoldingSetNodeID ID;
  Subject->Profile(ID, Ctx, /*Canonical=*/true);
  uintptr_t K = ID.ComputeHash() | 1; // odd: never equal to a pointer key
  FactVars[K].insert(Vars.begin(), Vars.end());
  return K;
}

std::vector<PathNote> Analysis::trailNotes(const ResState &RS) const {
  std::vector<PathNote> Notes;
  for (unsigned I = 0; I < RS.TrailSize; ++I) {
    std::string T = text(RS.Trail[I].Cond);
    if (!T.empty())
      Notes.push_back({loc(RS.Trail[I].Cond), "assuming '" + T + "' is " +
                                                  (RS.Trail[I].Taken ? "true" : "false")});
  }
  return Notes;
}

void Analysis::invalidateFacts(Key K, PathState &P) {
  for (auto It = P.Facts.begin(); It != P.Facts.end();) {
    auto V = FactVars.find(It->first);
    bool Touches = V != FactVars.end() &&
                   llvm::any_of(V->second, [&](Key F) {
                     return F == K || (K->whole() && F->Decl == K->Decl);
                   });
    It = Touches ? P.Facts.erase(It) : It + 1;
  }
}

void Analysis::reportLeak(unsigned R, const ResState &RS, SourceLocation Where,
                          const std::string &Why) {
  const Resource &Res = Resources[R];
  if (SummaryMode || Res.ParamIndex >= 0 || !Res.Site || !Leaked.insert(R).second)
    return;
  std::vector<PathNote> Notes = trailNotes(RS);
  Notes.push_back({Where, Why});
  report(FindingKind::Leak, R, Res.Site, std::move(Notes));
}

void Analysis::report(FindingKind Kind, unsigned R, const Expr *At,
                      std::vector<PathNote> Notes, const std::string &Called) {
  if (SummaryMode)
    return;
  auto Id = std::make_pair(static_cast<int>(Kind), At);
  if (Findings.count(Id))
    return;
  const Resource &Res = Resources[R];
  LifetimeFinding F;
  F.Kind = Kind;
  F.ResourceKind = Res.Kind;
  F.Loc = loc(At);
  F.Range = SourceRange(F.Loc, endLoc(At));
  F.AcquiredBy = Res.AcquiredBy;
  F.VarName = Res.VarName;
  F.CalledFunction = Called;
  F.Notes = std::move(Notes);
  Findings.emplace(Id, std::move(F));
}

// --- transfer functions ---------------------------------------------------

/// Finds what holds the status of an acquiring call: the call itself when a
/// condition tests it directly, a variable it is stored in, or a checking
/// wrapper such as `if (!cudaOk(cudaGraphInstantiate(...)))`.
void Analysis::bindStatus(const CallExpr *Call, bool SuccessIsZero, ResState &RS) {
  RS.StatusExpr = Call;
  RS.StatusVar = nullptr;
  RS.StatusCopy = nullptr;
  RS.StatusDerefOf = nullptr;
  RS.SuccessIsZero = SuccessIsZero;
  const Stmt *Cur = Call;
  unsigned Wrappers = 0;
  while (const Stmt *Parent = PM.getParent(Cur)) {
    if (isa<ParenExpr>(Parent) || isa<ImplicitCastExpr>(Parent) ||
        isa<ExplicitCastExpr>(Parent) || isa<ExprWithCleanups>(Parent)) {
      Cur = Parent;
      continue;
    }
    // `st = flags ? cudaGraphInstantiateWithFlags(...) : cudaGraphInstantiate(...)`
    if (const auto *CO = dyn_cast<AbstractConditionalOperator>(Parent);
        CO && CO->getCond() != Cur) {
      Cur = Parent;
      RS.StatusExpr = CO;
      continue;
    }
    if (const auto *DS = dyn_cast<DeclStmt>(Parent)) {
      for (const Decl *D : DS->decls())
        if (const auto *VD = dyn_cast<VarDecl>(D))
          if (VD->getInit() && strip(VD->getInit()) == strip(cast<Expr>(Cur)))
            RS.StatusVar = VD;
      return;
    }
    if (const auto *BO = dyn_cast<BinaryOperator>(Parent);
        BO && BO->getOpcode() == BO_Assign && BO->getRHS() == Cur) {
      if (Key K = storageOf(BO->getLHS())) {
        RS.StatusVar = plainVar(K);
        if (!RS.StatusVar) // `st.err = call()`: a member of a local struct
          RS.StatusCopy = K;
      }
      RS.StatusDerefOf = derefOf(BO->getLHS()); // `*err = call()`
      return;
    }
    if (bindThroughBooleanChain(Cur, RS))
      return;
    const auto *Wrapper = dyn_cast<CallExpr>(Parent);
    if (!Wrapper || isa<CUDAKernelCallExpr>(Wrapper) || ++Wrappers > 2 ||
        Wrapper->getBuiltinCallee() == Builtin::BI__builtin_expect)
      return;
    QualType Ret = Wrapper->getCallReturnType(Ctx);
    const FunctionDecl *W = Wrapper->getDirectCallee();
    if (Ret->isBooleanType()) {
      // `ok(st)` is true on success; `failed(st)` / `isError(st)` on failure.
      std::string Name = W ? StringRef(W->getNameAsString()).lower() : "";
      bool TrueMeansFailure = StringRef(Name).contains("fail") ||
                              StringRef(Name).contains("err");
      RS.SuccessIsZero = TrueMeansFailure;
    } else if (!isStatusTypeName(Ret)) {
      return; // the wrapper swallows the status (void check(...))
    }
    RS.StatusExpr = Wrapper;
    Cur = Wrapper;
  }
}

/// `ok = ok && (cudaGraphInstantiate(...) == cudaSuccess);` and
/// `bool failed = ... || call() != cudaSuccess;`: a boolean computed from
/// the status and stored in a variable is that variable's status, with the
/// polarity the comparisons and `!` give it. Only `&&` on a success boolean
/// and `||` on a failure boolean keep the meaning (the call runs only where
/// the other operand lets it). Changes nothing unless a variable is reached.
bool Analysis::bindThroughBooleanChain(const Stmt *From, ResState &RS) {
  bool SuccessIsZero = RS.SuccessIsZero;
  const Stmt *Cur = From;
  while (const Stmt *Parent = PM.getParent(Cur)) {
    if (isa<ParenExpr>(Parent) || isa<ImplicitCastExpr>(Parent) ||
        isa<ExprWithCleanups>(Parent)) {
      Cur = Parent;
      continue;
    }
    if (const auto *UO = dyn_cast<UnaryOperator>(Parent); UO && UO->getOpcode() == UO_LNot) {
      SuccessIsZero = !SuccessIsZero;
      Cur = Parent;
      continue;
    }
    if (const auto *BO = dyn_cast<BinaryOperator>(Parent)) {
      const Expr *Other = BO->getLHS() == Cur ? BO->getRHS() : BO->getLHS();
      if ((BO->getOpcode() == BO_EQ || BO->getOpcode() == BO_NE) && isZero(Other)) {
        if (BO->getOpcode() == BO_EQ)
          SuccessIsZero = !SuccessIsZero; // `st == 0` is true on success
        Cur = Parent;
        continue;
      }
      bool KeepsMeaning = BO->getRHS() == Cur &&
                          ((BO->getOpcode() == BO_LAnd && !SuccessIsZero) ||
                           (BO->getOpcode() == BO_LOr && SuccessIsZero));
      if (KeepsMeaning) {
        Cur = Parent;
        continue;
      }
      if (BO->getOpcode() == BO_Assign && BO->getRHS() == Cur && Cur != From)
        if (const VarDecl *VD = plainVar(storageOf(BO->getLHS()))) {
          RS.StatusExpr = cast<Expr>(Cur); // what the variable is assigned
          RS.StatusVar = VD;
          RS.SuccessIsZero = SuccessIsZero;
          return true;
        }
      return false;
    }
    if (const auto *DS = dyn_cast<DeclStmt>(Parent); DS && Cur != From) {
      for (const Decl *D : DS->decls())
        if (const auto *VD = dyn_cast<VarDecl>(D))
          if (VD->getInit() && strip(VD->getInit()) == strip(cast<Expr>(Cur))) {
            RS.StatusExpr = cast<Expr>(Cur);
            RS.StatusVar = VD;
            RS.SuccessIsZero = SuccessIsZero;
            return true;
          }
      return false;
    }
    return false;
  }
  return false;
}

bool Analysis::isStatusTypeName(QualType T) const {
  if (const auto *TT = T->getAs<TypedefType>())
    if (A.Model.isStatusType(TT->getDecl()->getName()))
      return true;
  if (const auto *ET = T->getAs<EnumType>())
    if (const auto *ED = ET->getDecl(); ED && ED->getIdentifier())
      return A.Model.isStatusType(ED->getName());
  return A.Model.isStatusType(T.getUnqualifiedType().getAsString());
}

void Analysis::unbind(Key K, PathState &P, const Stmt *At, const char *How) {
  auto It = P.Bind.find(K);
  if (It == P.Bind.end())
    return;
  for (unsigned R : It->second) {
    auto RS = P.Res.find(R);
    if (RS == P.Res.end() || P.boundElsewhere(R, K))
      continue;
    if ((RS->second.Bits & Live) && !Resources[R].IntoField && At)
      reportLeak(R, RS->second, loc(At),
                 "'" + varName(K) + "' " + How + " while it still holds the " +
                     (A.Model.kind(Resources[R].Kind)
                          ? A.Model.kind(Resources[R].Kind)->Noun
                          : std::string("resource")));
    P.Res.erase(RS);
  }
  P.Bind.erase(It);
}

void Analysis::acquire(const CallExpr *Call, const FunctionModel &M,
                       const AcquireEffect &Eff, PathState &P) {
  if (!Eff.Owned)
    return;
  if (Eff.Arg == ReturnValue) {
    unsigned R = resourceFor(Call, -1, Eff.Kind, spelledName(Call, M.Name), nullptr);
    ResState RS;
    RS.Bits = Live;
    P.Res[R] = RS;
    ReturnedResource[Call] = R;
    return;
  }
  if (Eff.Arg >= static_cast<int>(Call->getNumArgs()))
    return;
  const Expr *Arg = strip(Call->getArg(Eff.Arg));
  const auto *AddrOf = dyn_cast<UnaryOperator>(Arg);
  bool ByAddress = AddrOf && AddrOf->getOpcode() == UO_AddrOf;
  Key Target = nullptr;
  if (ByAddress)
    Target = storageOf(AddrOf->getSubExpr());
  else if (bindsReference(Call, Eff.Arg)) // a helper's `cudaGraphExec_t &out`
    Target = storageOf(Arg);
  if (Target && !Eff.Field.empty()) // a helper's `out->exec = e`
    Target = memberPlace(Target, Eff.Field);
  if (!Target) {
    // Into an out-parameter, a container element or another object: it
    // escapes. A helper's pointer or reference parameter is what its summary
    // records.
    if (SummaryMode)
      if (const ParmVarDecl *PVD = outParameter(ByAddress ? AddrOf->getSubExpr() : Arg, ByAddress))
        SummaryAcquires.push_back({static_cast<int>(PVD->getFunctionScopeIndex()), Eff.Kind, ""});
    return;
  }
  unsigned R = resourceFor(Call, -1, Eff.Kind, spelledName(Call, M.Name), Target);
  if (Target->Element) {
    acquireElement(Call, M, R, Target, AddrOf ? AddrOf->getSubExpr() : Arg, P);
    return;
  }
  // Re-acquiring into a variable that still holds a live resource loses it.
  auto Old = P.Bind.find(Target);
  if (Old != P.Bind.end()) {
    for (unsigned OldR : Old->second) {
      auto RS = P.Res.find(OldR);
      if (RS == P.Res.end() || !(RS->second.Bits & Live) || P.boundElsewhere(OldR, Target))
        continue;
      const Resource &Prev = Resources[OldR];
      std::vector<PathNote> Notes = trailNotes(RS->second);
      std::string Noun = A.Model.kind(Prev.Kind) ? A.Model.kind(Prev.Kind)->Noun : "resource";
      Notes.push_back({loc(Prev.Site),
                       Prev.Site == Call
                           ? "the " + Noun + " created here in an earlier iteration is still alive"
                           : "previous " + Noun + " created here by '" + Prev.AcquiredBy + "'"});
      // Worded with the new acquisition: its call, kind and variable.
      report(FindingKind::Overwrite, R, Call, std::move(Notes));
      Leaked.insert(OldR);
    }
    for (unsigned OldR : Old->second)
      if (!P.boundElsewhere(OldR, Target))
        P.Res.erase(OldR);
  }
  if (isField(Target) && (Old == P.Bind.end() || Old->second.empty()))
    reportFieldKnownLive(Call, M, Eff, Target, P);
  ResState RS;
  // A variable with __attribute__((cleanup(f))) is released by f at scope end.
  RS.Bits = addressEscaped(Target) || Target->Decl->hasAttr<CleanupAttr>() ? Escaped : Live;
  if (!M.StatusType.empty())
    bindStatus(Call, M.StatusType != "bool", RS);
  RS.StatusOut = statusOutPlace(Call, M);
  P.Bind[Target] = {R};
  P.Res[R] = RS;
  invalidateFacts(Target, P);
}

/// `cudaGraphInstantiateWithParams(&e, g, &params)`: `params.result_out`.
Key Analysis::statusOutPlace(const CallExpr *Call, const FunctionModel &M) {
  if (M.StatusOutArg < 0 || M.StatusOutArg >= static_cast<int>(Call->getNumArgs()))
    return nullptr;
  const auto *AddrOf = dyn_cast<UnaryOperator>(strip(Call->getArg(M.StatusOutArg)));
  if (!AddrOf || AddrOf->getOpcode() != UO_AddrOf)
    return nullptr;
  Key Params = storageOf(AddrOf->getSubExpr());
  const auto *VD = plainVar(Params);
  const auto *RD = VD ? VD->getType()->getAsRecordDecl() : nullptr;
  if (!RD || !isPlainLocalAggregate(VD))
    return nullptr;
  for (const FieldDecl *F : RD->fields())
    if (F->getName() == M.StatusOutField)
      return placeOf(VD, F);
  return nullptr;
}

bool Analysis::addressEscaped(Key K) {
  return AddressEscaped.count(K) || (!K->whole() && AddressEscaped.count(placeOf(K->Decl)));
}

/// `cudaGraphInstantiate(&execs[i], ...)`: elements accumulate, nothing is
/// overwritten; an earlier iteration's exec from the same call stays live
/// even if this iteration's call fails.
void Analysis::acquireElement(const CallExpr *Call, const FunctionModel &M, unsigned R,
                              Key Target, const Expr *Element, PathState &P) {
  ResState &RS = P.Res[R];
  bool Older = (RS.Bits & Live) != 0;
  // Which elements hold something: known while every index is a constant.
  std::optional<uint64_t> Index = constantIndex(Element);
  if (Index && *Index < 64 && RS.ElementsKnown)
    RS.AcquiredElements |= uint64_t(1) << *Index;
  else
    RS.ElementsKnown = false;
  if (addressEscaped(Target)) {
    RS.Bits = Escaped;
  } else {
    RS.Bits = Live | (RS.Bits & Released);
    RS.OlderLive = Older;
  }
  RS.StatusExpr = nullptr;
  RS.StatusVar = nullptr;
  RS.StatusCopy = nullptr;
  RS.StatusDerefOf = nullptr;
  if (!M.StatusType.empty())
    bindStatus(Call, M.StatusType != "bool", RS);
  P.Bind[Target].insert(R);
}

/// A member that this path tested non-null, and has not destroyed, passed
/// on or reassigned since, still holds whatever it held on entry.
void Analysis::reportFieldKnownLive(const CallExpr *Call, const FunctionModel &M,
                                    const AcquireEffect &Eff, Key Field,
                                    const PathState &P) {
  auto F = P.Facts.find(reinterpret_cast<uintptr_t>(Field));
  if (F == P.Facts.end() || !F->second)
    return;
  std::string Noun = A.Model.kind(Eff.Kind) ? A.Model.kind(Eff.Kind)->Noun : "resource";
  unsigned R = resourceFor(Call, -1, Eff.Kind, spelledName(Call, M.Name), Field);
  report(FindingKind::Overwrite, R, Call,
         {{loc(Call), "'" + varName(Field) + "' was tested non-null on this path and its " +
                          Noun + " was not destroyed since"}});
}

void Analysis::invalidateFieldFacts(PathState &P) {
  for (auto It = P.Facts.begin(); It != P.Facts.end();) {
    auto V = FactVars.find(It->first);
    bool OnField = V != FactVars.end() &&
                   llvm::any_of(V->second, [](Key K) { return isField(K); });
    It = OnField ? P.Facts.erase(It) : It + 1;
  }
}

void Analysis::release(const CallExpr *Call, const FunctionModel &M,
                       const ReleaseEffect &Eff, PathState &P) {
  if (Eff.Arg < 0 || Eff.Arg >= static_cast<int>(Call->getNumArgs()))
    return;
  const Expr *Arg = strip(Call->getArg(Eff.Arg));
  if (SummaryMode)
    noteReleaseThroughParam(Arg, Eff);
  if (Eff.ThroughPointer) {
    const auto *AddrOf = dyn_cast<UnaryOperator>(Arg);
    if (!AddrOf || AddrOf->getOpcode() != UO_AddrOf)
      return;
    Arg = AddrOf->getSubExpr();
  }
  Key K = storageOf(Arg);
  if (!K)
    return;
  invalidateFacts(K, P); // a destroyed handle is no longer "known live"
  auto It = P.Bind.find(K);
  if (It == P.Bind.end())
    return;
  for (unsigned R : It->second) {
    auto RSIt = P.Res.find(R);
    if (RSIt == P.Res.end())
      continue;
    ResState &RS = RSIt->second;
    const Resource &Res = Resources[R];
    if (RS.Bits == Released && RS.ReleaseSite && RS.ReleaseSite != Call) {
      report(FindingKind::DoubleRelease, R, Call,
             {{loc(RS.ReleaseSite), "'" + varName(K) + "' was released here by '" +
                                        RS.ReleasedBy->Name + "'"}},
             M.Name);
      continue;
    }
    if (!Res.Kind.empty() && !llvm::is_contained(Eff.Kinds, Res.Kind) &&
        (RS.Bits & Live))
      report(FindingKind::MismatchedRelease, R, Call,
             {{loc(Res.Site), "'" + varName(K) + "' was allocated here by '" +
                                  Res.AcquiredBy + "'"}},
             M.Name);
    if (K->Element && !releasesEveryElement(K, Arg, RS))
      continue;
    RS.Bits = Released;
    RS.ReleaseSite = Call;
    RS.ReleasedBy = &M;
    RS.ReleasedAs = &Eff;
    RS.StatusExpr = nullptr;
    RS.StatusVar = nullptr;
    RS.StatusCopy = nullptr;
    RS.StatusDerefOf = nullptr;
  }
}

bool Analysis::releasesOneConstantElement(const Expr *Arg) const {
  const auto *ASE = dyn_cast<ArraySubscriptExpr>(strip(Arg));
  Expr::EvalResult Index;
  return ASE && !ASE->getIdx()->isValueDependent() &&
         ASE->getIdx()->EvaluateAsInt(Index, Ctx);
}

/// `destroy(execs[i])` in a loop releases the array's elements;
/// `destroy(execs[2])` releases one of them, and only constant indices that
/// together cover the whole array release it all.
bool Analysis::releasesEveryElement(Key K, const Expr *Arg, ResState &RS) {
  const auto *AT = Ctx.getAsConstantArrayType(K->Decl->getType());
  std::optional<uint64_t> I = constantIndex(Arg);
  if (!I || !AT || *I >= 64 || AT->getZExtSize() > 64)
    return true;
  RS.ReleasedElements |= uint64_t(1) << *I;
  // Every element that was filled (when that is known), else every element.
  uint64_t Needed = RS.ElementsKnown && RS.AcquiredElements
                        ? RS.AcquiredElements
                        : (AT->getZExtSize() == 64 ? ~uint64_t(0)
                                                   : (uint64_t(1) << AT->getZExtSize()) - 1);
  return (RS.ReleasedElements & Needed) == Needed;
}

/// The index of `a[i]` when it is a constant.
std::optional<uint64_t> Analysis::constantIndex(const Expr *Element) const {
  const auto *ASE = dyn_cast<ArraySubscriptExpr>(strip(Element));
  Expr::EvalResult V;
  if (!ASE || ASE->getIdx()->isValueDependent() || !ASE->getIdx()->EvaluateAsInt(V, Ctx) ||
      V.Val.getInt().isNegative())
    return std::nullopt;
  return V.Val.getInt().getZExtValue();
}

/// `ag.exec` for the whole local struct `ag` and the member name "exec".
Key Analysis::memberPlace(Key Whole, StringRef Field) {
  const VarDecl *VD = plainVar(Whole);
  const auto *RD = VD && isPlainLocalAggregate(VD) ? VD->getType()->getAsRecordDecl() : nullptr;
  if (!RD)
    return nullptr;
  for (const FieldDecl *F : RD->fields())
    if (F->getName() == Field)
      return placeOf(VD, F);
  return nullptr;
}

/// Whether argument `I` of the call binds a reference parameter.
bool Analysis::bindsReference(const CallExpr *Call, int I) const {
  const FunctionDecl *Callee = Call->getDirectCallee();
  return Callee && I < static_cast<int>(Callee->getNumParams()) &&
         Callee->getParamDecl(I)->getType()->isReferenceType();
}

/// The parameter of this (helper) function through which `E` writes to the
/// caller: a pointer parameter passed on as is, or a reference parameter
/// whose address is taken.
const ParmVarDecl *Analysis::outParameter(const Expr *E, bool AddressTaken) const {
  const auto *DRE = dyn_cast<DeclRefExpr>(strip(E));
  const auto *PVD = DRE ? dyn_cast<ParmVarDecl>(DRE->getDecl()) : nullptr;
  if (!PVD)
    return nullptr;
  QualType T = PVD->getType();
  return (AddressTaken ? T->isReferenceType() : T->isPointerType()) ? PVD : nullptr;
}

/// `cudaGraphExecDestroy(*pExec)` in a helper: its callers' `&exec` is
/// released through the pointer.
void Analysis::noteReleaseThroughParam(const Expr *Arg, const ReleaseEffect &Eff) {
  const auto *Deref = dyn_cast<UnaryOperator>(Arg);
  if (!Deref || Deref->getOpcode() != UO_Deref || Eff.ThroughPointer)
    return;
  const auto *DRE = dyn_cast<DeclRefExpr>(strip(Deref->getSubExpr()));
  const auto *PVD = DRE ? dyn_cast<ParmVarDecl>(DRE->getDecl()) : nullptr;
  if (!PVD)
    return;
  int Index = PVD->getFunctionScopeIndex();
  if (llvm::none_of(SummaryDerefReleases, [&](const ReleaseEffect &R) { return R.Arg == Index; }))
    SummaryDerefReleases.push_back({Index, Eff.Kinds, /*ThroughPointer=*/true});
}

void Analysis::use(const CallExpr *Call, const Expr *Arg, const UseEffect *Eff,
                   PathState &P) {
  Key K = storageOf(Arg);
  if (!K)
    return;
  auto It = P.Bind.find(K);
  if (It == P.Bind.end())
    return;
  for (unsigned R : It->second) {
    auto RS = P.Res.find(R);
    if (RS == P.Res.end() || RS->second.Bits != Released || !RS->second.ReleaseSite)
      continue;
    const FunctionDecl *Callee = Call->getDirectCallee();
    report(FindingKind::UseAfterRelease, R, Call,
           {{loc(RS->second.ReleaseSite),
             "'" + varName(K) + "' was released here by '" + RS->second.ReleasedBy->Name + "'"}},
           Callee ? Callee->getNameAsString() : "");
  }
}

/// Values that flow out of `E` as themselves (not through a comparison or an
/// arithmetic result) escape when `E` is stored, returned or passed on.
void Analysis::escapeValueRefs(const Expr *E, PathState &P) {
  if (!E)
    return;
  E = strip(E);
  if (Key K = storageOf(E)) {
    invalidateFacts(K, P);
    // A whole struct or array handed on takes its members and elements along;
    // an array decays to the address of its elements.
    if (K->whole() && K->Decl->getType()->isArrayType())
      AddressEscaped.insert(K);
    for (auto &B : P.Bind) {
      if (B.first != K && !(K->whole() && B.first->Decl == K->Decl))
        continue;
      for (unsigned R : B.second)
        if (auto RS = P.Res.find(R); RS != P.Res.end() && (RS->second.Bits & Live))
          RS->second.Bits = (RS->second.Bits & ~Live) | Escaped;
    }
    return;
  }
  if (const auto *UO = dyn_cast<UnaryOperator>(E)) {
    // Whoever got `&e` can read whatever is acquired into `e` later.
    if (UO->getOpcode() == UO_AddrOf)
      if (Key K = storageOf(UO->getSubExpr()))
        AddressEscaped.insert(K);
    if (UO->getOpcode() == UO_AddrOf || UO->getOpcode() == UO_Deref)
      escapeValueRefs(UO->getSubExpr(), P);
    return;
  }
  if (const auto *CO = dyn_cast<AbstractConditionalOperator>(E)) {
    // `return ok ? e : nullptr;`: the path knows which arm it took.
    std::optional<bool> Arm = knownCondition(CO->getCond(), P);
    if (!Arm || *Arm)
      escapeValueRefs(CO->getTrueExpr(), P);
    if (!Arm || !*Arm)
      escapeValueRefs(CO->getFalseExpr(), P);
    return;
  }
  if (const auto *ILE = dyn_cast<InitListExpr>(E)) {
    for (const Expr *Init : ILE->inits())
      escapeValueRefs(Init, P);
    return;
  }
  if (const auto *BO = dyn_cast<BinaryOperator>(E)) {
    if (BO->getOpcode() == BO_Comma)
      escapeValueRefs(BO->getRHS(), P);
    else if (BO->isAdditiveOp()) {
      escapeValueRefs(BO->getLHS(), P);
      escapeValueRefs(BO->getRHS(), P);
    }
    return;
  }
  if (const auto *CE = dyn_cast<CallExpr>(E)) {
    auto It = ReturnedResource.find(CE);
    if (It != ReturnedResource.end())
      if (auto RS = P.Res.find(It->second); RS != P.Res.end())
        RS->second.Bits = Escaped;
    return;
  }
  if (const auto *Cons = dyn_cast<CXXConstructExpr>(E)) {
    escapeArgs(Cons->getConstructor(), {Cons->getArgs(), Cons->getNumArgs()}, P);
    return;
  }
  if (const auto *Lambda = dyn_cast<LambdaExpr>(E)) {
    if (isLocalLambda(Lambda))
      return; // its body acts where it is called
    // A by-reference capture sees what is acquired into the variable later.
    for (const LambdaCapture &C : Lambda->captures())
      if (C.capturesVariable() && C.getCaptureKind() == LCK_ByRef)
        if (const auto *VD = dyn_cast<VarDecl>(C.getCapturedVar()))
          AddressEscaped.insert(placeOf(VD));
    for (const Expr *Init : Lambda->capture_inits())
      escapeValueRefs(Init, P);
    return;
  }
  if (const auto *ASE = dyn_cast<ArraySubscriptExpr>(E))
    escapeValueRefs(ASE->getBase(), P);
}

/// `cudaGraphInstantiate(&e, g, 0); if (cudaGetLastError() != cudaSuccess)`:
/// the later call reports the status nobody read from the acquisition.
void Analysis::takeOverUncheckedStatus(const CallExpr *Call, PathState &P) {
  for (auto &Entry : P.Res) {
    ResState &RS = Entry.second;
    if (!(RS.Bits & Live) || !RS.StatusExpr || RS.StatusVar || RS.StatusCopy ||
        !isa<CallExpr>(RS.StatusExpr) || !isDiscarded(cast<CallExpr>(RS.StatusExpr)))
      continue;
    bindStatus(Call, /*SuccessIsZero=*/true, RS);
  }
}

/// A call whose result nobody uses (an expression statement).
bool Analysis::isDiscarded(const CallExpr *Call) const {
  const Stmt *Cur = Call;
  const Stmt *Parent = PM.getParent(Cur);
  while (Parent && (isa<ParenExpr>(Parent) || isa<ImplicitCastExpr>(Parent) ||
                    isa<ExprWithCleanups>(Parent) ||
                    (isa<CStyleCastExpr>(Parent) &&
                     cast<CStyleCastExpr>(Parent)->getType()->isVoidType()))) {
    Cur = Parent;
    Parent = PM.getParent(Cur);
  }
  if (const auto *If = dyn_cast_or_null<IfStmt>(Parent))
    return If->getCond() != Cur;
  if (const auto *While = dyn_cast_or_null<WhileStmt>(Parent))
    return While->getCond() != Cur;
  if (const auto *Do = dyn_cast_or_null<DoStmt>(Parent))
    return Do->getCond() != Cur;
  if (const auto *For = dyn_cast_or_null<ForStmt>(Parent))
    return For->getCond() != Cur;
  return !Parent || isa<CompoundStmt>(Parent) || isa<LabelStmt>(Parent) ||
         isa<CaseStmt>(Parent) || isa<DefaultStmt>(Parent);
}

/// A helper that returns a live resource it acquired is a factory.
void Analysis::noteReturnedResource(const Expr *Ret, const PathState &P) {
  Key K = Ret ? storageOf(Ret) : nullptr;
  auto It = K ? P.Bind.find(K) : P.Bind.end();
  if (It == P.Bind.end())
    return;
  for (unsigned R : It->second)
    if (auto RS = P.Res.find(R); RS != P.Res.end() && (RS->second.Bits & Live) &&
                                 !Resources[R].Kind.empty())
      SummaryReturnKind = Resources[R].Kind;
}

void Analysis::onModeledCall(const CallExpr *Call, const FunctionModel &M,
                             PathState &P) {
  if (M.ReturnsLastStatus)
    takeOverUncheckedStatus(Call, P);
  for (const UseEffect &U : M.Uses)
    if (U.Arg >= 0 && U.Arg < static_cast<int>(Call->getNumArgs()))
      use(Call, Call->getArg(U.Arg), &U, P);
  for (const ReleaseEffect &R : M.Releases)
    release(Call, M, R, P);
  for (const AcquireEffect &Acq : M.Acquires)
    acquire(Call, M, Acq, P);
}

/// Member functions of this object, and anything given `this`, may change
/// the members whose values the path assumed.
bool Analysis::callMayChangeMembers(const CallExpr *Call) const {
  if (const auto *MC = dyn_cast<CXXMemberCallExpr>(Call))
    if (isa<CXXThisExpr>(MC->getImplicitObjectArgument()->IgnoreParenImpCasts()))
      return true;
  return llvm::any_of(Call->arguments(), [](const Expr *Arg) {
    return isa<CXXThisExpr>(Arg->IgnoreParenImpCasts());
  });
}

/// Arguments of a call we do not follow escape; one bound to a reference
/// parameter gives away the variable itself (`ExecGuard guard(exec);` before
/// the instantiate), so later acquisitions into it escape too.
void Analysis::escapeArgs(const FunctionDecl *Callee, llvm::ArrayRef<const Expr *> Args,
                          PathState &P) {
  for (unsigned I = 0; I < Args.size(); ++I) {
    bool ByReference = !Callee || I >= Callee->getNumParams() ||
                       Callee->getParamDecl(I)->getType()->isReferenceType();
    if (ByReference)
      if (Key K = storageOf(Args[I]))
        AddressEscaped.insert(K);
    escapeValueRefs(Args[I], P);
  }
}

void Analysis::onUnknownCall(const CallExpr *Call, PathState &P) {
  // Kernel launches read their arguments; they do not take ownership.
  if (isa<CUDAKernelCallExpr>(Call)) {
    for (const Expr *Arg : Call->arguments())
      use(Call, Arg, nullptr, P);
    return;
  }
  escapeArgs(Call->getDirectCallee(), {Call->getArgs(), Call->getNumArgs()}, P);
  // A method called on a handle-holding object may hand the handle on.
  if (const auto *MC = dyn_cast<CXXMemberCallExpr>(Call))
    escapeValueRefs(MC->getImplicitObjectArgument(), P);
  if (callMayChangeMembers(Call))
    invalidateFieldFacts(P);
}

/// A helper's summary lists what it does with each parameter; an argument
/// for a parameter it does not classify may be kept, so it escapes.
void Analysis::escapeUnclassifiedArgs(const CallExpr *Call, const FunctionModel &M,
                                      PathState &P) {
  for (unsigned I = 0; I < Call->getNumArgs(); ++I) {
    int Index = static_cast<int>(I);
    // `&exec` lets the helper write the caller's handle: only an acquire or
    // a release through the pointer says what it did with it.
    const auto *AddrOf = dyn_cast<UnaryOperator>(strip(Call->getArg(I)));
    bool ByAddress = AddrOf && AddrOf->getOpcode() == UO_AddrOf;
    bool Classified =
        (!ByAddress &&
         llvm::any_of(M.Uses, [&](const UseEffect &U) { return U.Arg == Index; })) ||
        llvm::any_of(M.Releases, [&](const ReleaseEffect &R) {
          return R.Arg == Index && R.ThroughPointer == ByAddress;
        }) ||
        llvm::any_of(M.Acquires, [&](const AcquireEffect &A) { return A.Arg == Index; });
    if (!Classified)
      escapeValueRefs(Call->getArg(I), P);
  }
}

/// `int inf = 0; cudaMemcpy(&inf, flag, ...); if (inf)`: whatever a call can
/// write through an argument's address is no longer known.
void Analysis::forgetFactsWrittenThrough(const CallExpr *Call, PathState &P) {
  for (const Expr *Arg : Call->arguments()) {
    const Expr *E = strip(Arg);
    const auto *AddrOf = dyn_cast<UnaryOperator>(E);
    if (AddrOf && AddrOf->getOpcode() == UO_AddrOf)
      E = AddrOf->getSubExpr();
    else if (!E->getType()->isArrayType())
      continue;
    if (Key K = storageOf(E))
      invalidateFacts(placeOf(K->Decl), P);
  }
}

/// The lambda a call invokes, when it is a local lambda that never escapes:
/// `auto f = [&] {...}; ... f();` or `[&] {...}()`.
const LambdaExpr *Analysis::invokedLocalLambda(const CallExpr *Call) {
  const auto *Op = dyn_cast<CXXOperatorCallExpr>(Call);
  if (!Op || Op->getOperator() != OO_Call || Op->getNumArgs() < 1)
    return nullptr;
  const Expr *Obj = strip(Op->getArg(0));
  if (const auto *L = dyn_cast<LambdaExpr>(Obj))
    return L;
  if (const auto *DRE = dyn_cast<DeclRefExpr>(Obj))
    if (const auto *VD = dyn_cast<VarDecl>(DRE->getDecl()))
      if (const LambdaExpr *L = localLambdaOf(VD))
        return L;
  return nullptr;
}

/// The value of a condition on this path, when its facts decide it.
std::optional<bool> Analysis::knownCondition(const Expr *Cond, const PathState &P) {
  const EdgeTest &E = edgeTest(Cond);
  if (!E.Valid || !E.Fact)
    return std::nullopt;
  auto F = P.Facts.find(*E.Fact);
  if (F == P.Facts.end())
    return std::nullopt;
  return F->second == E.TrueMeansNonZero;
}

/// The lambda an initialiser holds: `[&] {...}` or `std::function<...>([&] {...})`.
const LambdaExpr *Analysis::lambdaIn(const Expr *Init) const {
  const Expr *E = strip(Init);
  if (const auto *Cons = dyn_cast<CXXConstructExpr>(E); Cons && Cons->getNumArgs() == 1)
    E = strip(Cons->getArg(0));
  return dyn_cast<LambdaExpr>(E);
}

/// A local variable initialised with a lambda and used only to call it.
const LambdaExpr *Analysis::localLambdaOf(const VarDecl *VD) {
  auto It = LocalLambdas.find(VD);
  if (It != LocalLambdas.end())
    return It->second;
  const LambdaExpr *L = nullptr;
  if (VD->hasLocalStorage() && VD->getInit())
    L = lambdaIn(VD->getInit());
  if (L && !onlyCalled(VD))
    L = nullptr;
  return LocalLambdas[VD] = L;
}

bool Analysis::onlyCalled(const VarDecl *VD) {
  bool Only = true;
  std::function<void(const Stmt *)> Walk = [&](const Stmt *S) {
    if (!S || !Only)
      return;
    if (const auto *DRE = dyn_cast<DeclRefExpr>(S); DRE && DRE->getDecl() == VD) {
      const Stmt *Up = PM.getParentIgnoreParenImpCasts(const_cast<DeclRefExpr *>(DRE));
      const auto *Op = dyn_cast_or_null<CXXOperatorCallExpr>(Up);
      if (!Op || Op->getOperator() != OO_Call || strip(Op->getArg(0)) != DRE)
        Only = false;
    }
    for (const Stmt *Child : S->children())
      Walk(Child);
  };
  Walk(FD->getBody());
  return Only;
}

bool Analysis::isLocalLambda(const LambdaExpr *L) {
  const Stmt *Up = PM.getParentIgnoreParenImpCasts(const_cast<LambdaExpr *>(L));
  while (Up && (isa<MaterializeTemporaryExpr>(Up) || isa<CXXBindTemporaryExpr>(Up) ||
                isa<ExprWithCleanups>(Up) || isa<CXXConstructExpr>(Up)))
    Up = PM.getParentIgnoreParenImpCasts(const_cast<Stmt *>(Up));
  if (const auto *Op = dyn_cast_or_null<CXXOperatorCallExpr>(Up))
    return Op->getOperator() == OO_Call;
  if (const auto *DS = dyn_cast_or_null<DeclStmt>(Up))
    for (const Decl *D : DS->decls())
      if (const auto *VD = dyn_cast<VarDecl>(D))
        if (localLambdaOf(VD) == L)
          return true;
  return false;
}

/// Calling a local lambda does, to the variables it captures, what the
/// calls in its body do: a cleanup lambda releases, a launch lambda uses.
void Analysis::applyLambdaBody(const LambdaExpr *L, PathState &P, bool &Dead) {
  std::function<void(const Stmt *)> Walk = [&](const Stmt *S) {
    if (!S || Dead)
      return;
    if (isa<LambdaExpr>(S))
      return;
    for (const Stmt *Child : S->children())
      Walk(Child);
    if (const auto *Call = dyn_cast<CallExpr>(S))
      onCall(Call, P, Dead);
    else if (const auto *BO = dyn_cast<BinaryOperator>(S); BO && BO->getOpcode() == BO_Assign)
      onAssign(BO->getLHS(), BO->getRHS(), nullptr, P);
    else if (const auto *RS = dyn_cast<ReturnStmt>(S))
      escapeValueRefs(RS->getRetValue(), P);
  };
  Walk(L->getBody());
}

void Analysis::onCall(const CallExpr *Call, PathState &P, bool &Dead) {
  applyCall(Call, P, Dead);
  // After the call's own effects, which may test what was known before it.
  forgetFactsWrittenThrough(Call, P);
}

void Analysis::applyCall(const CallExpr *Call, PathState &P, bool &Dead) {
  if (const LambdaExpr *L = invokedLocalLambda(Call)) {
    if (LambdaDepth < 2) {
      ++LambdaDepth;
      applyLambdaBody(L, P, Dead);
      --LambdaDepth;
    }
    for (unsigned I = 1; I < Call->getNumArgs(); ++I)
      escapeValueRefs(Call->getArg(I), P);
    return;
  }
  const FunctionDecl *Callee = Call->getDirectCallee();
  if (Callee && Callee->getBuiltinID() && !A.lookupModel(Callee, Call->getNumArgs()))
    return; // __builtin_expect and friends
  const FunctionModel *M = A.modelFor(Call);
  if (M) {
    onModeledCall(Call, *M, P);
    if (M->Origin == "summary") {
      escapeUnclassifiedArgs(Call, *M, P);
      if (callMayChangeMembers(Call))
        invalidateFieldFacts(P);
    }
  } else {
    onUnknownCall(Call, P);
  }
  if (Callee && A.Opts.SinkPathsAreSilent && A.Opts.UseHelperSummaries)
    if (const FunctionSummary *S = A.summaryOf(Callee); S && S->NeverReturns)
      Dead = true;
}

void Analysis::onAssign(const Expr *LHS, const Expr *RHS, const Stmt *At,
                        PathState &P) {
  Key Target = storageOf(LHS);
  if (!Target) {
    if (SummaryMode)
      notePublishedThroughParam(LHS, RHS, P);
    escapeValueRefs(RHS, P); // stored into memory we do not follow
    return;
  }
  assignTo(Target, RHS, At, P);
}

/// `*out = e;` (or `out = e;` for a reference) in a helper hands a live
/// resource to its caller: the summary records an acquisition into it.
void Analysis::notePublishedThroughParam(const Expr *LHS, const Expr *RHS, const PathState &P) {
  // `*out = e` through a pointer parameter, `out = e` through a reference,
  // `out->exec = e` into a member of what a pointer parameter points to.
  const auto *Deref = dyn_cast<UnaryOperator>(strip(LHS));
  const ParmVarDecl *PVD = nullptr;
  std::string Field;
  if (Deref && Deref->getOpcode() == UO_Deref)
    PVD = outParameter(Deref->getSubExpr(), /*AddressTaken=*/false);
  else if (const auto *DRE = dyn_cast<DeclRefExpr>(strip(LHS))) {
    if (const auto *Ref = dyn_cast<ParmVarDecl>(DRE->getDecl());
        Ref && Ref->getType()->isReferenceType())
      PVD = Ref;
  } else if (const auto *ME = dyn_cast<MemberExpr>(strip(LHS)); ME && ME->isArrow()) {
    PVD = outParameter(ME->getBase(), /*AddressTaken=*/false);
    Field = ME->getMemberDecl()->getNameAsString();
  }
  Key From = storageOf(RHS);
  auto It = From ? P.Bind.find(From) : P.Bind.end();
  if (!PVD || It == P.Bind.end())
    return;
  for (unsigned R : It->second)
    if (auto RS = P.Res.find(R); RS != P.Res.end() && (RS->second.Bits & Live) &&
                                 !Resources[R].Kind.empty())
      SummaryAcquires.push_back({static_cast<int>(PVD->getFunctionScopeIndex()),
                                 Resources[R].Kind, Field});
}

/// `Target = RHS`; `At` is null for a declaration, which cannot overwrite.
void Analysis::assignTo(Key Target, const Expr *RHS, const Stmt *At, PathState &P) {
  invalidateFacts(Target, P);
  const Expr *Src = strip(RHS);
  if (Target->Element) {
    // `ex[p] = nullptr` writes one slot; the other elements keep theirs.
    escapeValueRefs(Src, P);
    return;
  }
  trackStatusCopy(Target, Src, P);
  IdSet NewRes;
  if (Key From = storageOf(Src)) {
    auto It = P.Bind.find(From);
    if (It != P.Bind.end())
      NewRes = It->second;
    // Copying a struct or array copies the handles in it: not followed.
    if (From->whole() && llvm::any_of(P.Bind, [&](const auto &B) {
          return B.first->Decl == From->Decl && !B.first->whole();
        }))
      escapeValueRefs(Src, P);
  } else if (const auto *CE = dyn_cast<CallExpr>(Src);
             CE && ReturnedResource.count(CE)) {
    NewRes = {ReturnedResource[CE]};
  } else {
    escapeValueRefs(Src, P);
  }
  recordConstantFact(Target, Src, P);
  auto Old = P.Bind.find(Target);
  bool Same = Old != P.Bind.end() && Old->second == NewRes;
  const auto *Factory = dyn_cast<CallExpr>(Src);
  if (!Same && At && Factory && ReturnedResource.count(Factory))
    reportOverwriteByFactory(Target, Factory, P);
  if (!Same)
    unbind(Target, P, At, "is overwritten here");
  if (NewRes.empty())
    return;
  if (isField(Target))
    for (unsigned R : NewRes)
      if (auto RS = P.Res.find(R); RS != P.Res.end() && (RS->second.Bits & Live))
        RS->second.Bits = (RS->second.Bits & ~Live) | Escaped;
  P.Bind[Target] = NewRes;
}

/// `e = make_exec(...)` over a live exec is the same bug as instantiating
/// into it again: report it at the new acquisition.
void Analysis::reportOverwriteByFactory(Key Target, const CallExpr *Factory, PathState &P) {
  auto Old = P.Bind.find(Target);
  if (Old == P.Bind.end())
    return;
  unsigned NewR = ReturnedResource[Factory];
  for (unsigned OldR : Old->second) {
    auto RS = P.Res.find(OldR);
    if (RS == P.Res.end() || !(RS->second.Bits & Live) || P.boundElsewhere(OldR, Target) ||
        Resources[OldR].IntoField)
      continue;
    const Resource &Prev = Resources[OldR];
    std::string Noun = A.Model.kind(Prev.Kind) ? A.Model.kind(Prev.Kind)->Noun : "resource";
    std::vector<PathNote> Notes = trailNotes(RS->second);
    Notes.push_back({loc(Prev.Site), Prev.Site == Factory
                                         ? "the " + Noun + " created here in an earlier iteration is still alive"
                                         : "previous " + Noun + " created here by '" + Prev.AcquiredBy + "'"});
    Resources[NewR].VarName = varName(Target);
    report(FindingKind::Overwrite, NewR, Factory, std::move(Notes));
    Leaked.insert(OldR);
    RS->second.Bits = Absent; // reported once, here
  }
}

/// `cudaError_t status_ = (st);` inside a checking macro, or
/// `ok = (st == cudaSuccess);`: testing the copy tests the acquisition.
/// Overwriting a status variable forgets it.
void Analysis::trackStatusCopy(Key Target, const Expr *Src, PathState &P) {
  bool Inverted = false;
  Key From = storageOf(statusSource(Src, Inverted));
  const VarDecl *FromVar = plainVar(From);
  for (auto &Entry : P.Res) {
    ResState &RS = Entry.second;
    bool FromStatus = FromVar && FromVar == RS.StatusVar;
    bool FromCopy = From && From == RS.StatusCopy;
    if (FromStatus || FromCopy) {
      RS.CopyInverted = Inverted != (FromCopy && RS.CopyInverted);
      RS.StatusCopy = Target;
      continue;
    }
    bool AssignsThisStatus = RS.StatusExpr && strip(RS.StatusExpr) == Src;
    if (RS.StatusCopy == Target && !AssignsThisStatus)
      RS.StatusCopy = nullptr;
    if (RS.StatusVar && RS.StatusVar == plainVar(Target) &&
        !isa_and_nonnull<CallExpr>(Src) && !AssignsThisStatus)
      RS.StatusVar = nullptr; // the variable now holds another status
  }
}

/// The status an expression is computed from: `st`, `(st)`, `st == 0`
/// (inverted: true on success), `st != cudaSuccess`, `!st` (inverted).
const Expr *Analysis::statusSource(const Expr *E, bool &Inverted) const {
  E = E->IgnoreParenImpCasts();
  while (true) {
    if (const auto *UO = dyn_cast<UnaryOperator>(E); UO && UO->getOpcode() == UO_LNot) {
      Inverted = !Inverted;
      E = UO->getSubExpr()->IgnoreParenImpCasts();
      continue;
    }
    const auto *BO = dyn_cast<BinaryOperator>(E);
    if (!BO || (BO->getOpcode() != BO_EQ && BO->getOpcode() != BO_NE))
      return E;
    const Expr *Other = isZero(BO->getRHS()) ? BO->getLHS()
                        : isZero(BO->getLHS()) ? BO->getRHS()
                                               : nullptr;
    if (!Other)
      return E;
    if (BO->getOpcode() == BO_EQ)
      Inverted = !Inverted;
    E = Other->IgnoreParenImpCasts();
  }
}

/// `ok = false;` or `exec = nullptr;` lets later `if (ok)` be decided.
void Analysis::recordConstantFact(Key Target, const Expr *Src, PathState &P) {
  uintptr_t K = reinterpret_cast<uintptr_t>(Target);
  FactVars[K].insert(Target);
  if (isZero(Src)) {
    P.Facts[K] = false;
    return;
  }
  if (Src->isValueDependent() || Src->isTypeDependent())
    return;
  if (!Src->getType()->isIntegerType() && !Src->getType()->isBooleanType())
    return;
  Expr::EvalResult R;
  if (Src->EvaluateAsInt(R, Ctx))
    P.Facts[K] = R.Val.getInt() != 0;
}

/// Where the resource is lost when `VD`'s lifetime ends at `Trigger`.
std::pair<SourceLocation, std::string> Analysis::scopeExit(const Stmt *Trigger) const {
  if (isa_and_nonnull<ReturnStmt>(Trigger))
    return {loc(Trigger), "is not released when the function returns here"};
  if (const auto *CS = dyn_cast_or_null<CompoundStmt>(Trigger))
    return {SM.getExpansionLoc(CS->getRBracLoc()), "goes out of scope here"};
  if (Trigger)
    return {loc(Trigger), "goes out of scope here"};
  return {SM.getExpansionLoc(FD->getBody()->getEndLoc()), "goes out of scope here"};
}

/// Live resources only the dying variable (or its members and elements)
/// holds are leaked.
void Analysis::onLifetimeEnd(const VarDecl *VD, const Stmt *Trigger, PathState &P) {
  llvm::SmallVector<Key, 4> Dying;
  for (const auto &B : P.Bind)
    if (B.first->Decl == VD)
      Dying.push_back(B.first);
  if (Dying.empty())
    return;
  auto [Where, How] = scopeExit(Trigger);
  for (Key K : Dying) {
    auto It = P.Bind.find(K);
    for (unsigned R : It->second) {
      auto RS = P.Res.find(R);
      if (RS == P.Res.end() ||
          llvm::any_of(P.Bind, [&](const auto &B) { return B.first->Decl != VD && B.second.count(R); }))
        continue;
      if (isLeakedAtEnd(K, RS->second, Where) && !Resources[R].IntoField &&
          Resources[R].ParamIndex < 0) {
        const ResourceKind *RK = A.Model.kind(Resources[R].Kind);
        std::string Noun = RK ? RK->Noun : "resource";
        reportLeak(R, RS->second, Where,
                   isa_and_nonnull<ReturnStmt>(Trigger)
                       ? "'" + K->name() + "' " + How
                       : "'" + K->name() + "' " + How + " without releasing the " + Noun);
      }
      if (Resources[R].ParamIndex < 0)
        P.Res.erase(RS);
    }
  }
  if (!isa<ParmVarDecl>(VD))
    for (Key K : Dying)
      P.Bind.erase(K);
}

/// An array's elements are one place, and a path that skipped the destroy
/// loop is usually one where the create loop did not run either. So a live
/// element leaks only where the function leaves before any code that
/// destroys the array's elements: `create N, destroy N` stays silent, an
/// early return inside the create loop does not.
bool Analysis::isLeakedAtEnd(Key K, const ResState &RS, SourceLocation Where) const {
  if (!(RS.Bits & Live))
    return false;
  if (!K->Element)
    return true;
  if (RS.Bits & Released)
    return false;
  auto First = FirstElementRelease.find(K->Decl);
  return First == FirstElementRelease.end() || Where.isInvalid() ||
         SM.isBeforeInTranslationUnit(Where, First->second);
}

/// Where each local array's elements are first released, in source order.
void Analysis::scanElementReleases() {
  std::function<void(const Stmt *)> Walk = [&](const Stmt *S) {
    if (!S || isa<LambdaExpr>(S))
      return;
    for (const Stmt *Child : S->children())
      Walk(Child);
    const auto *Call = dyn_cast<CallExpr>(S);
    const FunctionModel *M = Call ? A.modelFor(Call) : nullptr;
    if (!M)
      return;
    for (const ReleaseEffect &R : M->Releases) {
      if (R.Arg < 0 || R.Arg >= static_cast<int>(Call->getNumArgs()))
        continue;
      const Expr *Arg = strip(Call->getArg(R.Arg));
      if (const auto *AddrOf = dyn_cast<UnaryOperator>(Arg);
          R.ThroughPointer && AddrOf && AddrOf->getOpcode() == UO_AddrOf)
        Arg = AddrOf->getSubExpr();
      Key K = storageOf(Arg);
      if (!K || !K->Element || releasesOneConstantElement(Arg))
        continue;
      SourceLocation L = loc(Call);
      auto [It, New] = FirstElementRelease.try_emplace(K->Decl, L);
      if (!New && SM.isBeforeInTranslationUnit(L, It->second))
        It->second = L;
    }
  };
  Walk(FD->getBody());
}

void Analysis::transferElement(const CFGElement &E, PathState &P, bool &Dead) {
  if (auto LE = E.getAs<CFGLifetimeEnds>()) {
    onLifetimeEnd(LE->getVarDecl(), LE->getTriggerStmt(), P);
    return;
  }
  auto CS = E.getAs<CFGStmt>();
  if (!CS)
    return;
  const Stmt *S = CS->getStmt();
  if (const auto *Call = dyn_cast<CallExpr>(S)) {
    onCall(Call, P, Dead);
  } else if (const auto *BO = dyn_cast<BinaryOperator>(S)) {
    if (BO->getOpcode() == BO_Assign)
      onAssign(BO->getLHS(), BO->getRHS(), BO, P);
    else if (BO->isCompoundAssignmentOp())
      if (Key K = storageOf(BO->getLHS()))
        invalidateFacts(K, P);
  } else if (const auto *UO = dyn_cast<UnaryOperator>(S)) {
    if (UO->isIncrementDecrementOp())
      if (Key K = storageOf(UO->getSubExpr()))
        invalidateFacts(K, P);
  } else if (const auto *DS = dyn_cast<DeclStmt>(S)) {
    for (const Decl *D : DS->decls())
      if (const auto *VD = dyn_cast<VarDecl>(D)) {
        if (!VD->getInit())
          continue;
        if (VD->hasLocalStorage() && !VD->getType()->isReferenceType()) {
          assignTo(placeOf(VD), VD->getInit(), nullptr, P);
          continue;
        }
        if (VD->getType()->isReferenceType())
          if (Key K = storageOf(VD->getInit()))
            AddressEscaped.insert(K); // an alias we do not follow
        escapeValueRefs(VD->getInit(), P);
      }
  } else if (const auto *RS = dyn_cast<ReturnStmt>(S)) {
    if (SummaryMode)
      noteReturnedResource(RS->getRetValue(), P);
    escapeValueRefs(RS->getRetValue(), P);
  } else if (const auto *Cons = dyn_cast<CXXConstructExpr>(S)) {
    escapeArgs(Cons->getConstructor(), {Cons->getArgs(), Cons->getNumArgs()}, P);
  } else if (const auto *ILE = dyn_cast<InitListExpr>(S)) {
    if (!isa_and_nonnull<InitListExpr>(PM.getParent(ILE)))
      escapeValueRefs(ILE, P);
  } else if (const auto *L = dyn_cast<LambdaExpr>(S)) {
    // A lambda that is only called here does its work at the call.
    if (!isLocalLambda(L))
      escapeValueRefs(L, P);
  } else if (isa<CXXThrowExpr>(S)) {
    // A throw caught in this function goes on to its handler.
    if (A.Opts.SinkPathsAreSilent && leavesFunction(CurrentBlock))
      Dead = true;
  } else if (const auto *New = dyn_cast<CXXNewExpr>(S)) {
    if (New->getInitializer())
      escapeValueRefs(New->getInitializer(), P);
  }
}

} // namespace
} // namespace cgt

// --- the dataflow driver --------------------------------------------------
namespace cgt {
namespace {

/// `p` for `*p`.
const ValueDecl *Analysis::derefOf(const Expr *E) const {
  const auto *UO = dyn_cast<UnaryOperator>(strip(E));
  if (!UO || UO->getOpcode() != UO_Deref)
    return nullptr;
  const auto *DRE = dyn_cast<DeclRefExpr>(strip(UO->getSubExpr()));
  return DRE ? DRE->getDecl() : nullptr;
}

/// The normalised form of a branch condition, computed once per condition.
const Analysis::EdgeTest &Analysis::edgeTest(const Expr *Cond) {
  auto It = EdgeTests.find(Cond);
  if (It != EdgeTests.end())
    return It->second;
  EdgeTest E;
  if (std::optional<CondTest> T = condTest(Cond); T && T->Subject) {
    E.Valid = true;
    E.TrueMeansNonZero = T->TrueMeansNonZero;
    E.Subject = T->Subject;
    if (const auto *BO = dyn_cast<BinaryOperator>(E.Subject);
        BO && BO->getOpcode() == BO_Assign)
      E.Subject = strip(BO->getLHS()); // if ((st = call()) != cudaSuccess)
    E.Fact = factKey(E.Subject);
    E.SubjectVar = storageOf(E.Subject);
    E.SubjectDerefOf = derefOf(E.Subject);
  }
  return EdgeTests[Cond] = E;
}

void Analysis::refineOnBranch(const Expr *Cond, bool Taken, PathState &P,
                              bool &Infeasible, bool TwoWay) {
  const EdgeTest &E = edgeTest(Cond);
  if (!E.Valid)
    return;
  IdSet StatusTested = refineSubject(E, Taken == E.TrueMeansNonZero, P, Infeasible);
  if (!TwoWay || Infeasible)
    return;
  for (auto &Entry : P.Res)
    if ((Entry.second.Bits & Live) && !StatusTested.count(Entry.first) &&
        Entry.second.TrailSize < Entry.second.Trail.size())
      Entry.second.Trail[Entry.second.TrailSize++] = {Cond, Taken};
}

/// `switch (cudaGraphInstantiate(...)) { case cudaSuccess: ...; default: ... }`:
/// a case of 0 is the success edge, other constant cases fail, and `default`
/// fails when a success case exists.
void Analysis::refineOnSwitch(const SwitchStmt *Switch, const CFGBlock *To, PathState &P,
                              bool &Infeasible) {
  const EdgeTest &E = edgeTest(Switch->getCond());
  if (!E.Valid)
    return;
  std::optional<bool> NonZero;
  const Stmt *Label = To->getLabel();
  if (const auto *Case = dyn_cast_or_null<CaseStmt>(Label)) {
    Expr::EvalResult V;
    if (!Case->getRHS() && !Case->getLHS()->isValueDependent() &&
        Case->getLHS()->EvaluateAsInt(V, Ctx))
      NonZero = V.Val.getInt() != 0;
  } else if (hasZeroCase(Switch)) {
    NonZero = true; // default, or past the switch with no case taken
  }
  if (NonZero)
    refineSubject(E, *NonZero, P, Infeasible);
}

bool Analysis::hasZeroCase(const SwitchStmt *Switch) const {
  for (const SwitchCase *C = Switch->getSwitchCaseList(); C; C = C->getNextSwitchCase())
    if (const auto *Case = dyn_cast<CaseStmt>(C)) {
      Expr::EvalResult V;
      if (!Case->getRHS() && !Case->getLHS()->isValueDependent() &&
          Case->getLHS()->EvaluateAsInt(V, Ctx) && V.Val.getInt() == 0)
        return true;
    }
  return false;
}

/// What the path learns when `E.Subject` is (or is not) zero: a fact, the
/// success or failure of the acquisitions whose status it is, and whether
/// a handle is null. Returns the resources whose status it tested.
IdSet Analysis::refineSubject(const EdgeTest &E, bool NonZero, PathState &P,
                              bool &Infeasible) {
  IdSet StatusTested;
  const Expr *Subject = E.Subject;
  if (E.Fact) {
    auto F = P.Facts.find(*E.Fact);
    if (F != P.Facts.end() && F->second != NonZero) {
      Infeasible = true;
      return StatusTested;
    }
    P.Facts[*E.Fact] = NonZero;
  }

  Key SubjectVar = E.SubjectVar;
  for (auto &Entry : P.Res) {
    ResState &RS = Entry.second;
    if (!(RS.Bits & Live))
      continue;
    const VarDecl *Tested = plainVar(SubjectVar);
    bool TestsCopy = RS.StatusCopy && SubjectVar == RS.StatusCopy;
    bool TestsStatus = (RS.StatusExpr && strip(RS.StatusExpr) == Subject) ||
                       (RS.StatusVar && Tested == RS.StatusVar) || TestsCopy ||
                       (RS.StatusDerefOf && E.SubjectDerefOf == RS.StatusDerefOf);
    bool TestsStatusOut = RS.StatusOut && SubjectVar == RS.StatusOut;
    if (!TestsStatus && !TestsStatusOut)
      continue;
    StatusTested.insert(Entry.first);
    bool SuccessIsZero = RS.SuccessIsZero != (TestsCopy && RS.CopyInverted);
    bool Failed = TestsStatusOut || SuccessIsZero ? NonZero : !NonZero;
    if (Failed) {
      RS.Bits = RS.OlderLive ? Live : Absent; // the call failed: nothing was acquired
    } else if (TestsStatusOut) {
      RS.StatusOut = nullptr;
    } else {
      RS.StatusExpr = nullptr;
      RS.StatusVar = nullptr;
      RS.StatusCopy = nullptr;
      RS.StatusDerefOf = nullptr;
    }
  }

  // A handle that tests null on this edge holds no live resource.
  if (SubjectVar && !SubjectVar->Element && !NonZero)
    if (auto It = P.Bind.find(SubjectVar); It != P.Bind.end())
      for (unsigned R : It->second)
        if (auto RS = P.Res.find(R); RS != P.Res.end() && (RS->second.Bits & Live)) {
          RS->second.Bits &= ~Live;
          if (!RS->second.Bits)
            RS->second.Bits = Absent;
        }

  return StatusTested;
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
      if (!(Entry.second.Bits & Live) || Res.IntoField || Res.ParamIndex >= 0)
        continue;
      if (llvm::any_of(P.Bind, [&](const auto &B) {
            return B.second.count(Entry.first) && !isLeakedAtEnd(B.first, Entry.second, Where);
          }))
        continue;
      std::string Noun = A.Model.kind(Res.Kind) ? A.Model.kind(Res.Kind)->Noun : "resource";
      reportLeak(Entry.first, Entry.second, Where,
                 "the " + Noun + " is not released when the function returns here");
    }
  if (SummaryMode)
    ExitStates.insert(ExitStates.end(), S.begin(), S.end());
  ReachedExit = true;
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
  StateSet Alive;
  for (PathState &P : S) {
    bool Dead = false;
    for (const CFGElement &E : *B) {
      transferElement(E, P, Dead);
      if (!Dead)
        continue;
      if (auto CS = E.getAs<CFGStmt>(); CS && isa<CallExpr>(CS->getStmt()))
        if (const CFGBlock *Dispatch = handlerDispatchFor(CS->getStmt()))
          Diverted.push_back({Dispatch, std::move(P)});
      break;
    }
    if (!Dead)
      Alive.push_back(std::move(P));
  }
  S = std::move(Alive);
}

void Analysis::propagateEdge(const CFGBlock *From, unsigned SuccIndex,
                             const CFGBlock *To, const StateSet &Out,
                             bool TwoWay, StateSet &Refined) {
  const auto *Switch = dyn_cast_or_null<SwitchStmt>(From->getTerminatorStmt());
  const Expr *Cond =
      !Switch && From->succ_size() == 2 ? From->getLastCondition() : nullptr;
  for (const PathState &Src : Out) {
    PathState P = Src;
    bool Infeasible = false;
    if (Switch)
      refineOnSwitch(Switch, To, P, Infeasible);
    else if (Cond)
      refineOnBranch(Cond, SuccIndex == 0, P, Infeasible, TwoWay);
    if (!Infeasible)
      Refined.push_back(std::move(P));
  }
}

/// The try-dispatch block of the innermost try of this function whose
/// try-block holds `S`, if any: where a throw from `S` goes.
const CFGBlock *Analysis::handlerDispatchFor(const Stmt *S) {
  for (const Stmt *Cur = S; Cur; Cur = PM.getParent(Cur)) {
    const Stmt *Up = PM.getParent(Cur);
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

/// The last call of a block (the noreturn call that ends it).
const Stmt *lastCall(const CFGBlock *B) {
  for (auto It = B->rbegin(); It != B->rend(); ++It)
    if (auto CS = It->getAs<CFGStmt>())
      if (isa<CallExpr>(CS->getStmt()))
        return CS->getStmt();
  return nullptr;
}

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

bool Analysis::run() {
  CFG::BuildOptions BO;
  BO.AddLifetime = true;
  BO.setAllAlwaysAdd();
  Cfg = CFG::buildCFG(FD, FD->getBody(), &Ctx, BO);
  if (!Cfg)
    return false;
  unsigned N = Cfg->getNumBlockIDs();
  scanElementReleases();
  std::vector<StateSet> In(N);
  std::vector<unsigned> Visits(N, 0);

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
  const CFGBlock *EntryBlock = &Cfg->getEntry();
  In[EntryBlock->getBlockID()].push_back(std::move(Entry));

  // Reverse post-order keeps the number of revisits small.
  std::vector<unsigned> Order = reversePostOrder(*Cfg);
  auto Cmp = [&](const CFGBlock *L, const CFGBlock *R) {
    return Order[L->getBlockID()] > Order[R->getBlockID()];
  };
  std::priority_queue<const CFGBlock *, std::vector<const CFGBlock *>, decltype(Cmp)> WL(Cmp);
  std::vector<char> Queued(N, 0);
  WL.push(EntryBlock);
  Queued[EntryBlock->getBlockID()] = 1;

  while (!WL.empty()) {
    const CFGBlock *B = WL.top();
    WL.pop();
    Queued[B->getBlockID()] = 0;
    StateSet S = In[B->getBlockID()];
    transferBlock(B, S);
    for (auto &[Dispatch, Path] : Diverted) {
      unsigned Id = Dispatch->getBlockID();
      StateSet One;
      One.push_back(std::move(Path));
      if (joinInto(In[Id], std::move(One), A.Opts.MaxStatesPerPoint) && !Queued[Id]) {
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
        if (joinInto(In[Id], std::move(S), A.Opts.MaxStatesPerPoint) && !Queued[Id]) {
          WL.push(Dispatch);
          Queued[Id] = 1;
        }
      }
      continue;
    }
    bool TwoWay = B->succ_size() == 2 && B->succ_begin()[0].getReachableBlock() &&
                  B->succ_begin()[1].getReachableBlock();
    unsigned Index = 0;
    for (const CFGBlock::AdjacentBlock &Succ : B->succs()) {
      unsigned SuccIndex = Index++;
      const CFGBlock *To = Succ.getReachableBlock();
      if (!To)
        continue;
      StateSet Refined;
      propagateEdge(B, SuccIndex, To, S, TwoWay, Refined);
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
      // Widen loops that keep changing: fewer paths, same soundness.
      unsigned Max = ++Visits[ToId] > 8 ? 1 : A.Opts.MaxStatesPerPoint;
      if (!joinInto(In[ToId], std::move(Refined), Max) || Visits[ToId] > 40)
        continue;
      if (!Queued[ToId]) {
        WL.push(To);
        Queued[ToId] = 1;
      }
    }
  }
  return true;
}

std::unique_ptr<FunctionSummary> Analysis::summary() const {
  auto S = std::make_unique<FunctionSummary>();
  S->NeverReturns = !ReachedExit;
  FunctionModel &M = S->Model;
  M.Name = FD->getNameAsString();
  M.NumParams = FD->getNumParams();
  M.Origin = "summary";
  QualType Ret = FD->getReturnType();
  if (Ret->isBooleanType())
    M.StatusType = "bool";
  else if (A.Model.isStatusType(Ret.getUnqualifiedType().getAsString()) ||
           (Ret->getAs<TypedefType>() &&
            A.Model.isStatusType(Ret->getAs<TypedefType>()->getDecl()->getName())))
    M.StatusType = Ret.getUnqualifiedType().getAsString();
  for (const ParmVarDecl *PVD : FD->parameters()) {
    int Index = PVD->getFunctionScopeIndex();
    auto Id = ResourceIds.find({nullptr, Index});
    if (Id == ResourceIds.end())
      continue;
    uint8_t Bits = 0;
    std::vector<std::string> Kinds;
    for (const PathState &P : ExitStates)
      if (auto It = P.Res.find(Id->second); It != P.Res.end()) {
        Bits |= It->second.Bits;
        if (It->second.ReleasedAs)
          Kinds = It->second.ReleasedAs->Kinds;
      }
    Bits &= ~Absent;
    if (Bits == Released && !Kinds.empty())
      M.Releases.push_back({Index, Kinds});
    else if (Bits == Live || (Bits == 0 && ExitStates.empty()))
      M.Uses.push_back({Index, "", false});
  }
  for (const ReleaseEffect &R : SummaryDerefReleases)
    if (llvm::none_of(M.Releases, [&](const ReleaseEffect &E) { return E.Arg == R.Arg; }))
      M.Releases.push_back(R);
  for (const SummaryAcquire &Acq : SummaryAcquires)
    if (llvm::none_of(M.Acquires, [&](const AcquireEffect &E) {
          return E.Arg == Acq.Param && E.Field == Acq.Field;
        }))
      M.Acquires.push_back({Acq.Param, Acq.Kind, true, Acq.Field});
  // A C-style helper that acquires and returns an int or enum error code:
  // zero is success (FX_OK, 0), as for cudaError_t.
  if (M.StatusType.empty() && !M.Acquires.empty() &&
      (Ret->isIntegerType() || Ret->isEnumeralType()) && !Ret->isBooleanType())
    M.StatusType = "int";
  if (!SummaryReturnKind.empty())
    M.Acquires.push_back({ReturnValue, SummaryReturnKind, true});
  return S;
}

} // namespace

// --- the public face --------------------------------------------------------

namespace {

/// Finds calls in a body, for the cheap "is this function worth analysing"
/// tests; does not look into lambdas (they are analysed on their own).
class CallCollector : public RecursiveASTVisitor<CallCollector> {
public:
  std::vector<const CallExpr *> Calls;
  bool HasThrow = false;
  bool VisitCallExpr(CallExpr *C) {
    Calls.push_back(C);
    return true;
  }
  bool VisitCXXThrowExpr(CXXThrowExpr *) {
    HasThrow = true;
    return true;
  }
  bool TraverseLambdaExpr(LambdaExpr *) { return true; }
};

} // namespace

bool LifetimeAnalyzer::Impl::isInteresting(const FunctionDecl *FD) {
  auto Cached = Interesting.find(FD);
  if (Cached != Interesting.end())
    return Cached->second;
  Interesting[FD] = false; // recursion guard
  if (!FD->hasBody())
    return false;
  CallCollector C;
  C.TraverseStmt(FD->getBody());
  bool Result = false;
  for (const CallExpr *Call : C.Calls) {
    const FunctionDecl *Callee = calleeOf(Call);
    if (!Callee)
      continue;
    if (const FunctionModel *M = lookupModel(Callee, Call->getNumArgs())) {
      Result |= !M->Acquires.empty() || !M->Releases.empty() || !M->Uses.empty();
      continue;
    }
    const FunctionDecl *Def = Callee->getDefinition();
    if (Opts.UseHelperSummaries && Def && Def != FD && Depth < 4 &&
        !Ctx.getSourceManager().isInSystemHeader(Def->getLocation())) {
      ++Depth;
      Result |= isInteresting(Def);
      --Depth;
    }
  }
  Interesting[FD] = Result;
  return Result;
}

const FunctionSummary *LifetimeAnalyzer::Impl::summaryOf(const FunctionDecl *Callee) {
  const FunctionDecl *Def = Callee ? Callee->getDefinition() : nullptr;
  if (!Def || !Def->hasBody() || Def->isDependentContext() ||
      Ctx.getSourceManager().isInSystemHeader(Def->getLocation()))
    return nullptr;
  auto It = Summaries.find(Def);
  if (It != Summaries.end())
    return It->second.get();
  if (InProgress.count(Def) || Depth >= 4)
    return nullptr;
  CallCollector C;
  C.TraverseStmt(Def->getBody());
  bool MayNotReturn = C.HasThrow || llvm::any_of(C.Calls, [](const CallExpr *Call) {
    const FunctionDecl *F = Call->getDirectCallee();
    return F && F->isNoReturn();
  });
  if (!MayNotReturn && !isInteresting(Def)) {
    Summaries[Def] = nullptr;
    return nullptr;
  }
  InProgress.insert(Def);
  ++Depth;
  Analysis An(*this, Def, /*SummaryMode=*/true);
  std::unique_ptr<FunctionSummary> S;
  if (An.run())
    S = An.summary();
  --Depth;
  InProgress.erase(Def);
  return (Summaries[Def] = std::move(S)).get();
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
  const FunctionDecl *Callee = calleeOf(Call);
  if (!Callee)
    return nullptr;
  if (const FunctionModel *M = lookupModel(Callee, Call->getNumArgs()))
    return M;
  if (!Opts.UseHelperSummaries)
    return nullptr;
  const FunctionSummary *S = summaryOf(Callee);
  return S ? &S->Model : nullptr;
}

LifetimeAnalyzer::LifetimeAnalyzer(const ApiModel &Model, ASTContext &Ctx,
                                   LifetimeOptions Opts)
    : P(std::make_unique<Impl>(Model, Ctx, Opts)) {}

LifetimeAnalyzer::~LifetimeAnalyzer() = default;

bool LifetimeAnalyzer::isInteresting(const FunctionDecl *FD) {
  return P->isInteresting(FD);
}

std::vector<LifetimeFinding> LifetimeAnalyzer::analyze(const FunctionDecl *FD) {
  if (!FD->hasBody() || FD->isDependentContext())
    return {};
  Analysis An(*P, FD, /*SummaryMode=*/false);
  if (!An.run())
    return {};
  std::vector<LifetimeFinding> Out = An.takeFindings();
  const SourceManager &SM = P->Ctx.getSourceManager();
  llvm::sort(Out, [&](const LifetimeFinding &L, const LifetimeFinding &R) {
    return SM.isBeforeInTranslationUnit(L.Loc, R.Loc);
  });
  return Out;
}

const FunctionSummary *LifetimeAnalyzer::summaryOf(const FunctionDecl *FD) {
  return P->summaryOf(FD);
}

const FunctionModel *LifetimeAnalyzer::modelFor(const CallExpr *Call) {
  return P->modelFor(Call);
}

} // namespace cgt
