//===- Analysis.h - the lifetime dataflow of one function -------*- C++ -*-===//
//
// Private to lib/Lifetime: the class that runs the lifetime dataflow on one
// function. The state machine of one resource is drawn at the top of
// LifetimeAnalysis.cpp; what the analyses of a unit share is
// AnalyzerImpl.h. The declaration is long because it is one class: the
// files below implement it by concern, and its groups of members follow
// them, so this header is their index.
//
//   Dataflow.cpp     the dataflow driver: CFG walk and worklist
//   Places.cpp       places, locations, text
//   LocalPointers.cpp  pointers that name one object throughout (their
//                    members are places)
//   Templates.cpp    templates the unit never instantiates: their patterns
//   IncompleteBodies.cpp  bodies clang could not build whole (units with
//                    errors): neither analysed nor summarised
//   Paths/           what one path knows: PathState.h (the lattice),
//                    Join.h (its join), FlatContainers.h (its maps),
//                    Disjuncts.cpp (ESP split, relevance, retirement),
//                    Branches.cpp (branch facts, status and null
//                    refinement), Conditions.cpp (logical chains, bools
//                    bound to tests), ValueFacts.cpp (program values of a
//                    disjunct, lib/Values), Status.cpp (where a status lives)
//   Transfer/        what a statement does: Calls.cpp (calls and the
//                    model's effects), Releases.cpp (what a release
//                    leaves behind), CallInvalidation.cpp (what a call
//                    may change), Assignments.cpp (assignments and
//                    escapes), Lambdas.cpp, Exceptions.cpp (throws that
//                    leave the function), Borrowed.cpp (handles a getter
//                    lends: "owned": false)
//   Callees/         model entries for callees the JSON does not list:
//                    Summaries.cpp (helpers of the unit, pure helpers),
//                    ReadOnlyParams.cpp (pointers a helper only reads through),
//                    HandleAttributes.cpp (clang's handle attributes),
//                    FunctionPointers.cpp (driver calls through pointers)
//   Containers/      handles in standard containers: ContainerView.cpp
//                    (which expressions are containers and elements),
//                    ContainerFlow.cpp (the dataflow), ContainerOps.def
//   Capture/         stream capture: Capture.cpp (open captures, calls
//                    illegal during one), CaptureGuards.cpp (code that asks
//                    whether its stream captures), CapturedMemory.cpp
//                    (memory a captured graph's execs reference after it is
//                    freed)
//   Ownership/       members across functions: Ownership.h and Ownership*.cpp
//                    (the index of members across the TU), Members.cpp
//                    (members of `this` that other methods may leave live)
//   Reports/         Reports.cpp (leaks, findings and their notes),
//                    Witness.cpp (a feasible path for every finding),
//                    InertBranches.cpp (branches the search need not fork on),
//                    MergedRegions.cpp (regions it crosses in one step)
//   LifetimeAnalysis.cpp  the public face (LifetimeAnalyzer, Impl)
//
//===----------------------------------------------------------------------===//
#ifndef CUDAGRAPH_TIDY_LIFETIME_ANALYSIS_H
#define CUDAGRAPH_TIDY_LIFETIME_ANALYSIS_H

#include "Lifetime/AnalyzerImpl.h"
#include "Lifetime/Expressions.h"
#include "Lifetime/Paths/Join.h"
#include "Lifetime/Paths/PathState.h"

#include "clang/AST/ExprCXX.h"
#include "clang/Analysis/CFG.h"
#include "clang/Basic/SourceManager.h"
#include "Values/PathFormula.h"
#include "llvm/ADT/BitVector.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/SetVector.h"
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <tuple>
#include <vector>

namespace cgt {
// The files of lib/Lifetime name clang's AST unqualified.
using namespace clang;

namespace lifetime {

/// `cond` reduced to "Subject is non-zero" (TrueMeansNonZero) or "is zero".
struct CondTest {
  const Expr *Subject = nullptr;
  bool TrueMeansNonZero = true;
  /// `err == cudaErrorMemoryAllocation`: only one edge says anything (the
  /// subject is that non-zero code there); the other leaves it unknown.
  bool OneSided = false;
};

/// Where a method may return with a member of `this` still holding a live
/// resource: the acquisition that made it (Members.cpp, Ownership.cpp).
struct LiveOnReturn {
  const CXXMethodDecl *Method = nullptr;
  const Expr *Acquisition = nullptr;
  std::string Kind;
  std::string By;
};

/// Runs the dataflow on one function.
class Analysis {
public:
  Analysis(LifetimeAnalyzer::Impl &A, const FunctionDecl *FD, bool SummaryMode,
           LifetimeAnalyzer::Impl::ConstantArgs Constants = {})
      : A(A), Ctx(A.Ctx), SM(A.Ctx.getSourceManager()), FD(FD),
        SummaryMode(SummaryMode), Constants(std::move(Constants)) {}

  bool run();
  std::vector<LifetimeFinding> takeFindings();
  /// Whether the ownership index can say anything about this function: it
  /// is a method, or it names a member (or holds a lambda, which may).
  bool mayUseOwnership() const { return NamesMembers || methodOfThis(); }
  /// Adds what this run gave up to the process-wide counts.
  void recordStats(LifetimeStats &S) const;
  /// Summary of the function's effect on its parameters (SummaryMode).
  std::unique_ptr<FunctionSummary> summary() const;
  /// Run only to learn which members of `this` the method may return
  /// holding a live resource (Ownership.cpp); reports are dropped.
  void collectMembersLiveAtExit() { CollectMembers = true; }
  const std::map<const FieldDecl *, LiveOnReturn> &membersLiveAtExit() const {
    return MembersLiveAtExit;
  }
  /// And the members of its pointer parameters (by index) it may return
  /// holding what it acquired (ParamMembers.cpp).
  const std::map<std::pair<unsigned, const FieldDecl *>, LiveOnReturn> &
  paramMembersLiveAtExit() const {
    return ParamMembersLiveAtExit;
  }

private:
  struct EdgeTest {
    bool Valid = false;
    bool TrueMeansNonZero = true;
    bool OneSided = false; ///< see CondTest
    const Expr *Subject = nullptr;
    std::optional<uintptr_t> Fact;
    Key SubjectVar = nullptr;
    const ValueDecl *SubjectDerefOf = nullptr; ///< `*err`: err
  };

  // --- the dataflow driver ---
  PathState entryState();
  void transferBlock(const CFGBlock *B, StateSet &S);
  void transferElement(const CFGElement &E, PathState &P, bool &Dead);
  bool entersLoopBody(const CFGBlock *Header, const PathState &P);
  bool firstTestHoldsByConstants(const CFGBlock *Header) const;
  StateSet propagateEdge(const CFGBlock *From, unsigned SuccIndex, const CFGBlock *To,
                         StateSet Out, bool TwoWay);
  void checkExit(const CFGBlock *From, const StateSet &S);
  bool leavesFunction(const CFGBlock *B) const;
  const CFGBlock *handlerDispatchFor(const Stmt *S);
  void indexBody();
  std::vector<Key> loopCounters();
  void markCounterStarts(const CFGBlock *H, Key K);
  /// Which way each header's counter is stepped (loopCounters): +1 up,
  /// -1 down, 0 otherwise.
  std::vector<int> CounterDirection;
  Key steppedByArithmetic(const BinaryOperator *Assign);

  // --- ESP disjuncts: split, relevance, retirement (Disjuncts.cpp) ---
  struct BlockMentions {
    /// What the block's elements name (not deaths), sorted.
    llvm::SmallVector<const Decl *, 4> Decls;
    /// Those of them some element may write (sorted): a block that only
    /// reads a variable cannot change a fact about it.
    llvm::SmallVector<const Decl *, 4> Written;
    bool Global = false;                ///< an element may touch any disjunct
    bool KeepFactsApart = false;        ///< joins `c ? a : b`: facts decide
    bool HasDeaths = false;             ///< leaves a scope
    bool CaptureIllegal = false;        ///< calls what a capture forbids
    /// Calls a rule that needs the open captures of other disjuncts
    /// (CaptureContext.cpp).
    bool NeedsCaptureContext = false;
    /// Variables read as the whole value assigned to another (`c = bs`):
    /// the copy is a value fact about them (ValueFacts.cpp).
    llvm::SmallVector<const Decl *, 4> Copied;
    /// Writes a variable that some block copies (scanMentions).
    bool BindsCopiedValue = false;
    /// Sets the counter of the loop it enters (`int j = 0` before `j < n`):
    /// where the path knows `n`, the loop's first test is decided.
    bool StartsCounter = false;
  };
  void computeKeptStates();
  void scanMentions();
  bool onlyReads(const Expr *Mention) const;
  void computeLaterMentions();
  bool isRelevant(const CFGBlock *B, const PathState &P) const;
  bool holdsDyingVariable(const CFGBlock *B, const PathState &P) const;
  bool isRetired(const PathState &P, const CFGBlock *B) const;
  void splitDisjuncts(StateSet &S, const CFGBlock *B);

  // --- branches: facts, status and null refinement ---
  void refineOnBranch(const Expr *Cond, bool Taken, PathState &P, bool &Infeasible,
                      bool TwoWay);
  void refineOnSwitch(const SwitchStmt *Switch, const CFGBlock *To, PathState &P,
                      bool &Infeasible);
  void restorePrunedSwitchDefaults();
  IdSet refineSubject(const EdgeTest &E, bool NonZero, PathState &P, bool &Infeasible);
  bool hasZeroCase(const SwitchStmt *Switch);
  void refineOnCaseValues(const SwitchStmt *Switch, const EdgeTest &E, const CFGBlock *To,
                          PathState &P, bool &Infeasible);
  std::optional<int64_t> caseValue(const SwitchCase *C);
  const std::vector<int64_t> &caseValues(const SwitchStmt *Switch);
  bool assumeCaseValue(const SwitchStmt *Switch, const CFGBlock *To, PathState &P);
  uintptr_t caseFactKey(uintptr_t Subject, int64_t Value);
  const EdgeTest &edgeTest(const Expr *Cond);
  std::optional<CondTest> condTest(const Expr *C) const;
  std::optional<CondTest> comparisonWithNonZero(const BinaryOperator *BO) const;
  std::optional<uintptr_t> factKey(const Expr *Subject);
  bool onlyPureCalls(const Expr *E);
  std::optional<bool> knownCondition(const Expr *Cond, const PathState &P);
  void invalidateFacts(Key K, PathState &P);
  void invalidateFactsIf(llvm::function_ref<bool(Key)> Touched, PathState &P);
  void forgetFactsKeepingValue(Key K, PathState &P);
  void stepOrForget(Key K, const Expr *Step, PathState &P);
  void invalidateFieldFacts(PathState &P);
  void forgetFactsWrittenThrough(const CallExpr *Call, PathState &P);
  void recordConstantFact(Key Target, const Expr *Src, PathState &P);

  // --- symbolic conditions (Conditions.cpp) ---
  /// One operator around a branch's leaf: `!`, or the `&&`/`||` it is the
  /// left or right operand of.
  struct ChainStep {
    const Expr *Op;
    bool Negates;
    bool FromRight;
  };
  static constexpr unsigned MaxConditionDepth = 8;
  const std::vector<ChainStep> &logicalChain(const Expr *Leaf);
  bool assumeWholeCondition(const Expr *E, bool Value, PathState &P);
  void propagateCompoundFacts(const Expr *Cond, PathState &P, bool &Infeasible);
  uint64_t unorderedShape(const BinaryOperator *BO) const;
  bool isRestated(const BinaryOperator *BO);
  void recordLogicalParents(const Expr *Leaf, bool Value, PathState &P, bool &Infeasible);
  uintptr_t bindingFactKey(Key Target, uintptr_t ExprFact);
  void bindCondition(Key Target, const Expr *Src, PathState &P);
  void assumeBoundCondition(const Expr *Cond, bool Taken, PathState &P, bool &Infeasible,
                            unsigned Depth = 0);
  void assumeCondition(const Expr *E, bool Taken, PathState &P, bool &Infeasible,
                       unsigned Depth);

  // --- value facts (ValueFacts.cpp) ---
  /// A value the constraints can name: a constant, a place (Sym), or what
  /// a helper that asks whether a stream captures returns (CaptureStream:
  /// TrueWhenCapturing or not while its capture is open; else unknown).
  struct ValueTerm {
    Key Sym = nullptr;
    int64_t Const = 0;
    const Expr *CaptureStream = nullptr;
    bool TrueWhenCapturing = true;
  };
  /// A condition as `L Rel R`.
  struct ValueTest {
    ValueTerm L;
    values::Relation Rel;
    ValueTerm R;
  };
  bool isValueSymbol(Key K);
  std::optional<int64_t> constantValue(const Expr *E);
  std::optional<ValueTerm> valueTerm(const Expr *E);
  const std::optional<ValueTest> &valueTest(const Expr *Cond);
  bool assumeValues(const Expr *Cond, bool Taken, PathState &P);
  std::optional<bool> knownValue(const Expr *Cond, const PathState &P);
  void bindValue(Key Target, const Expr *Src, PathState &P);
  void bindMemberInits(Key Target, const Expr *Src, PathState &P);
  Key writableThrough(Key K);
  void forgetValues(llvm::function_ref<bool(Key)> Pred, PathState &P);
  bool valuesWrittenBy(const BlockMentions &M, const PathState &P) const;
  std::optional<ValueTerm> resolveOnPath(const ValueTerm &T, const PathState &P);
  values::RangeSet rangeOfExpr(const Expr *E, const PathState &P, unsigned Depth = 0);
  std::optional<int64_t> stepOf(Key K, const Expr *Step);
  std::optional<values::RangeSet> rangeAfterStep(Key K, const Expr *Step, const PathState &P);
  void widenCounter(Key K, int Direction, PathState &P);

  // --- calls ---
  void scanReEvaluations();
  void onCall(const CallExpr *Call, PathState &P, bool &Dead);
  void applyCall(const CallExpr *Call, PathState &P, bool &Dead);
  void handOverEverything(PathState &P);
  void onModeledCall(const CallExpr *Call, const FunctionModel &M, PathState &P);
  void forgetWrittenMember(const CallExpr *Call, const WriteEffect &W, PathState &P);
  void forgetWrittenOutArgs(const CallExpr *Call, const FunctionModel *M, PathState &P);
  bool readsThroughConstPointer(const CallExpr *Call, unsigned I);
  void onUnknownCall(const CallExpr *Call, PathState &P);
  void acquire(const CallExpr *Call, const FunctionModel &M, const AcquireEffect &Eff,
               PathState &P);
  void reportExistingElementOverwrite(const CallExpr *Call, unsigned R, Key Target,
                                      const Expr *Element, const PathState &P);
  void forgetRefilledElements(unsigned R, Key Target, const Expr *Element, PathState &P);
  void acquireElement(const CallExpr *Call, const FunctionModel &M, unsigned R, Key Target,
                      const Expr *Element, PathState &P);
  std::optional<uint64_t> constantIndex(const Expr *Element) const;
  void release(const CallExpr *Call, const FunctionModel &M, const ReleaseEffect &Eff,
               PathState &P);
  void releaseArgument(const Expr *Site, const Expr *Written, const FunctionModel &M,
                       const ReleaseEffect &Eff, PathState &P);
  // C++ new and delete expressions as the model's pseudo entries (HostHeap.cpp)
  const FunctionModel *globalHeapModel(const FunctionDecl *Operator, bool Array,
                                       bool Allocation) const;
  void onNew(const CXXNewExpr *New, PathState &P);
  void onDelete(const CXXDeleteExpr *Delete, PathState &P);
  void acquireReturned(const Expr *Site, const std::string &By, const AcquireEffect &Eff,
                       PathState &P);
  void acquireReturnedMember(const clang::CallExpr *Call, const std::string &By,
                             const AcquireEffect &Eff, PathState &P);
  bool guardMemberLive(const CallExpr *Call, const AcquireEffect &Eff, const PathState &P);
  void keepSetUpMember(const CallExpr *Call, const FunctionModel &M, Key Target, PathState &P);
  void handOnBound(Key K, PathState &P);
  bool iteratorCopiesElementsOut(const CallExpr *Iter);
  void releaseBound(const Expr *Site, const FunctionModel &M, const ReleaseEffect &Eff,
                    Key K, const Expr *Arg, PathState &P);
  // handles a getter lends (Transfer/Borrowed.cpp)
  void lend(const CallExpr *Call, const FunctionModel &M, const AcquireEffect &Eff,
            PathState &P);
  bool releaseBorrowed(unsigned R, const ResState &RS, Key K, const Expr *Site,
                       const FunctionModel &M);
  bool releasesEveryElement(Key K, const Expr *Arg, ResState &RS);
  bool releaseLeavesItsLoop(const Expr *Arg) const;
  bool releasesOneConstantElement(const Expr *Arg) const;
  void forgetUntrackedGraphMemory(PathState &P);
  static bool releasesKindOf(const ReleaseEffect &Eff, const Resource &Res);
  bool isWrongFamily(const ReleaseEffect &Eff, unsigned R, const ResState &RS) const;
  void reportWrongFamily(unsigned R, Key K, const Expr *Site, const FunctionModel &M,
                         std::vector<PathNote> Extra, const std::string &Named = "");
  // resources handed to a smart pointer whose deleter releases them (SmartPointers.cpp)
  void checkSmartPointerHandOver(const Expr *Site, PathState &P);
  struct DeleterRelease {
    const FunctionModel *Model = nullptr;
    const ReleaseEffect *Effect = nullptr;
    const FunctionDecl *Deleter = nullptr; ///< where the release is written
  };
  std::optional<DeleterRelease> deleterRelease(const Expr *Site, const Expr *&Handed);
  // HandleCopies.cpp
  bool isHandleValueType(QualType T) const;
  void noteHandleCopy(Key Target, Key From, const Expr *Src, PathState &P);
  llvm::SmallVector<Key, 2> handleCopiesOf(Key K, const PathState &P) const;
  void releaseCopiesToo(Key Released, llvm::ArrayRef<Key> Copies, PathState &P);
  /// Fact key -> (copy, original) of noteHandleCopy.
  std::map<uintptr_t, std::pair<Key, Key>> HandleCopies;

  void releaseUntracked(const Expr *Site, const Expr *Written, const FunctionModel &M,
                        const ReleaseEffect &Eff, Key K, PathState &P);
  bool elementUseHitsRelease(const ResState &RS, const Expr *UseArg,
                             const Stmt *UseCall) const;
  void use(const CallExpr *Call, const Expr *Arg, const UseEffect *Eff, PathState &P);
  bool callMayChangeMembers(const CallExpr *Call) const;
  bool bindsReference(const CallExpr *Call, int I) const;
  Key memberPlace(Key Whole, StringRef Field);
  Key namedMember(const ValueDecl *Base, const RecordDecl *RD, StringRef Field);
  Key fieldTarget(const CallExpr *Call, int ArgIndex, StringRef Field);

  // --- where a status lives ---
  void bindStatus(const CallExpr *Call, bool SuccessIsZero, ResState &RS);
  void bindReleaseStatus(const Expr *Site, const FunctionModel &M, ResState &RS);
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
  bool onAssignmentOfReturnedStruct(const clang::CallExpr *Call, PathState &P);
  std::optional<unsigned> returnedMemberOf(const clang::Expr *E) const;
  void bindReturnedMembers(Key Target,
                           const std::vector<std::pair<std::string, unsigned>> &Members,
                           const Stmt *At, PathState &P);
  void unbind(Key K, PathState &P, const Stmt *At, const char *How);
  std::string overwriteNote(Key K, const Resource &Res, const char *How) const;
  void forgetReleasedElement(Key Target, const Expr *LHS, PathState &P);
  void escapeValueRefs(const Expr *E, PathState &P);
  void escapeArgs(const FunctionDecl *Callee, llvm::ArrayRef<const Expr *> Args, PathState &P);
  QualType paramTypeOf(const FunctionDecl *Callee, unsigned I, bool *Variadic = nullptr);
  void invalidateReachableFrom(const Expr *Arg, QualType ParamType, PathState &P);
  void invalidateObjectOf(const CallExpr *Call, PathState &P);
  void escapeMembersChangedByMethod(const CallExpr *Call, PathState &P);
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
  void scanScopes();
  void onScopeEnd(const VarDecl *ScopeVar, const Stmt *Trigger, PathState &P);
  void onLifetimeEnd(const VarDecl *VD, const Stmt *Trigger, PathState &P);
  std::pair<SourceLocation, std::string> scopeExit(const Stmt *Trigger) const;
  bool isLeakedAtEnd(Key K, const ResState &RS) const;
  /// Code that releases what one place stands for (an array's elements,
  /// captures on several streams) has run on a path (ElementReleases.cpp).
  void noteReleaseSite(const void *Of, const CallExpr *Call);
  void markReleaseRan(const Stmt *S, PathState &P) const;
  void scanElementReleases();
  void reportOverwriteByFactory(Key Target, const Expr *Factory, PathState &P);
  void reportFieldKnownLive(const CallExpr *Call, const FunctionModel &M,
                            const AcquireEffect &Eff, Key Field, const PathState &P);
  bool isOthersToReport(FindingKind Kind, const Resource &Res) const;
  bool releasesOnlyOthersMemory(const ReleaseEffect *E) const;
  bool bothOthersMemory(const ReleaseEffect &E, const Resource &Res) const;
  void report(FindingKind Kind, unsigned R, const Expr *At, std::vector<PathNote> Notes,
              const std::string &Called = "");
  void reportLeak(unsigned R, const ResState &RS, SourceLocation Where,
                  const std::string &Why);
  std::vector<PathNote> trailNotes(const ResState &RS) const;

  // --- helper summaries (SummaryMode) ---
  void noteReleaseThroughParam(const Expr *Arg, const ReleaseEffect &Eff, const Expr *At);
  void noteFieldReleaseThroughParam(const ParmVarDecl *PVD, StringRef Field,
                                    const ReleaseEffect &Eff, const Expr *At);
  void noteFieldAcquisition(Key Target, const CallExpr *At, const PathState &P);
  bool leavesMemberReset(const ReleaseEffect &R) const;
  void noteEntryNullTest(uintptr_t Fact, bool NonZero, PathState &P);
  std::set<std::string> membersTestedNull(const ValueDecl *Param, const PathState &P) const;
  std::string acquisitionGuard(int Index, const std::string &Field) const;
  bool releasesOnlyOwnAcquisition(const ReleaseEffect &R) const;
  void addFieldEffects(FunctionModel &M) const;
  void noteReturnedResource(const Expr *Ret, const PathState &P);
  void noteReturnedMembers(Key Whole, const PathState &P);
  void noteReturnedCopy(const clang::CXXConstructExpr *Copy, const PathState &P);
  void addWriteEffects(FunctionModel &M) const;
  void noteWrittenMember(Key K);
  void noteDerefStore(int Index, const Expr *LHS);
  bool leavesPointeeReset(const ReleaseEffect &R) const;
  const Stmt *controllingStatement(const Stmt *S) const;
  void notePublishedThroughParam(const Expr *LHS, const Expr *RHS, const PathState &P);
  bool notePublishedAgain(const ParmVarDecl *To, const Expr *RHS);
  std::vector<unsigned> publishedResources(const Expr *RHS, const PathState &P);
  std::set<std::pair<int, std::string>> sharedPublications() const;
  const ParmVarDecl *outParameter(const Expr *E, bool AddressTaken) const;
  bool releasedUnderOwnCondition(const Expr *At, const ParmVarDecl *PVD) const;
  bool testsOnlyParam(const clang::Stmt *Cond, const ParmVarDecl *PVD) const;
  void noteCaptureUnsafeCalls(FunctionModel &M) const;
  bool returnsParamMember(const Expr *Ret);
  UseEffect usesParam(const ParmVarDecl *PVD) const;
  bool onlyReadsThrough(const ParmVarDecl *PVD) const;
  void noteCaptureIntoParamGraph(const CallExpr *Call, const FunctionModel &M);
  void noteCaptureEndOnParam(const Expr *Stream);
  int paramStoredInMember(const FieldDecl *Member, const Stmt *Before) const;
  void noteMemberCaptureOfThis(const CallExpr *Call, const FunctionModel &M);
  void noteCaptureOnParamStream(const CallExpr *Call, const FunctionModel &M);
  bool runsOnEveryCall(const Stmt *S) const;
  void addCaptureRole(FunctionModel &M) const;

  // --- members other methods may leave live (Members.cpp) ---
  void seedMembersLiveOnEntry(PathState &Entry);
  void bindModeFlagsOnEntry(const std::set<const CXXMethodDecl *> &Leavers, PathState &Entry);
  void seedTestedParamMembers(PathState &Entry);
  void seedParamMembersLeftLive(PathState &Entry);
  void noteParamMemberAtExit(Key K, const Resource &Res);
  static bool mentionsMemberOf(const Stmt *S, const ValueDecl *Base, const FieldDecl *F);
  void noteMembersAtExit(const PathState &P, SourceLocation Where);
  void forgetMembersChangedBy(const CallExpr *Call, PathState &P);
  void forgetFieldFactsChangedBy(const CallExpr *Call, PathState &P);
  std::string previousResourceNote(const Resource &Prev, const CallExpr *Call,
                                   const std::string &Noun) const;
  const CXXMethodDecl *methodOfThis() const;

  // --- stream capture (Capture.cpp) ---
  void scanCaptureEnds();
  Key capturePlace(const Expr *Stream);
  Key elementCapturePlace(const Expr *Stream);
  bool elementCaptureMayBeEnded(unsigned R, const PathState &P) const;
  /// `cudaStream_t cs = ctx->stream;` with neither written again in the
  /// function: `cs` names the same stream, so its capture is the source's.
  const Expr *copiedStream(const Expr *Stream);
  bool placeWrittenInBody(Key K);
  void onCaptureCall(const CallExpr *Call, const FunctionModel &M, PathState &P);
  void checkCaptureLegal(const CallExpr *Call, const FunctionModel &M, const PathState &P);
  bool isCapture(unsigned R) const { return Captures.count(R) != 0; }
  void reportCaptureOpen(unsigned R, const ResState &RS, SourceLocation Where);
  unsigned captureOnStreamArg(const CallExpr *Call, const FunctionModel &M, const PathState &P);
  void checkCapturedFree(const CallExpr *Call, const FunctionModel &M, const PathState &P);
  // --- open captures seen from other disjuncts (CaptureContext.cpp) ---
  static bool needsCaptureContext(const FunctionModel *M);
  void orderForCaptureContext(const CFGBlock *B, StateSet &S);
  void noteOpenCaptures(const CallExpr *Call, const FunctionModel &M, const PathState &P);
  unsigned openCaptureOnStreamArg(const CallExpr *Call, const FunctionModel &M,
                                  const PathState &P);
  bool captureOpenOn(const Expr *Stream, const PathState &P);
  void noteCaptureStatus(const CallExpr *Call, PathState &P);
  std::optional<std::pair<unsigned, bool>> captureQueryOf(const FunctionDecl *Helper);
  void forEachCallAfter(const CFGBlock *B, unsigned From,
                        llvm::function_ref<bool(const CallExpr *)> Visit);
  void scanThreadRelaxedCalls();
  void scanCapturesIntoGraphs();
  bool onEndIntoExistingGraph(const CallExpr *Call, const FunctionModel &M, PathState &P);
  bool setsRelaxedMode(const CallExpr *Call, const FunctionModel &M) const;
  bool reportGraphLostToCapture(const CallExpr *End, const FunctionModel &M, unsigned OldR,
                                const ResState &RS);

  // --- memory captured into graphs (CapturedMemory.cpp) ---
  /// What one capture (or every capture into one graph) recorded.
  struct CaptureRegion {
    std::vector<std::pair<Key, const Expr *>> Used;             ///< pointers its calls read
    std::vector<std::pair<Key, const CallExpr *>> Allocations;  ///< memory nodes
    std::set<Key> Freed;                                        ///< free nodes
    std::vector<const CallExpr *> Ends;
  };
  void scanCapturedMemory();
  void collectCaptureRegion(const CFGBlock *B, unsigned From, Key Stream,
                            CaptureRegion &Region);
  enum class CaptureBoundary { None, Begin, End };
  CaptureBoundary captureBoundary(const CallExpr *Call, Key Stream);
  CaptureBoundary firstCaptureBoundary(const CFGBlock *B, unsigned From, Key Stream);
  llvm::BitVector blocksReachingCaptureEnd(Key Stream);
  bool inCaptureRegion(const CallExpr *Call, const CFGBlock *Begin, unsigned From, Key Stream,
                       const llvm::BitVector &ReachEnd);
  void addToCaptureRegion(const CallExpr *Call, CaptureRegion &Region);
  /// What each end call writing a graph place captured: one variable may
  /// hold several captured graphs in turn.
  using EndRegions = std::map<Key, std::vector<std::pair<const CallExpr *, CaptureRegion>>>;
  void noteInstantiation(const CallExpr *Call, const FunctionModel &M,
                         const std::map<Key, CaptureRegion> &Graphs, const EndRegions &ByEnd);
  /// The calls of `Ends` whose write reaches `At` with no other of them on
  /// the way (reaching definitions over the CFG).
  std::set<const CallExpr *> endsReaching(const CallExpr *At,
                                          const std::set<const CallExpr *> &Ends);
  bool autoFreesOnLaunch(const CallExpr *Call, const FunctionModel &M) const;
  Key addressedPlace(const Expr *Arg);
  Key capturedBufferOf(const Expr *Arg);
  void onGraphAllocation(const CallExpr *Call, unsigned R, ResState &RS);
  struct GraphAllocation;
  void relaunchGraphAllocations(const CallExpr *Call, Key Exec, PathState &P);
  std::vector<const Decl *> memoryAllocatedByLaunch(const CallExpr *Call,
                                                    const FunctionModel *M);
  void reportRelaunchWhileAllocated(const CallExpr *Call, unsigned R,
                                    const GraphAllocation &Alloc, const ResState &RS);
  void onFreedWhileReferenced(unsigned R, PathState &P);
  void forgetExecReferences(Key Exec, PathState &P);
  void checkLaunchOfStaleExec(const CallExpr *Call, Key Exec, PathState &P);

  // --- handles in standard containers (ContainerFlow.cpp) ---
  const ContainerView &containers();
  Key containerElementPlace(const Expr *E);
  const ValueDecl *containerAliasedBy(const Decl *D);
  bool isContainerLoopRange(const VarDecl *VD);
  bool isContainerInsertPart(const Stmt *S);
  bool onContainerCall(const CallExpr *Call, PathState &P);
  bool assignIntoContainer(const Expr *LHS, const Expr *RHS, const Stmt *At, PathState &P);
  bool releaseContainerElement(const Expr *Arg, const Expr *Site, const FunctionModel &M,
                               const ReleaseEffect &Eff, PathState &P);
  void reportElementsOfWrongFamily(Key Elem, const IdSet &Ids, const Expr *Call,
                                   const Expr *Arg, const FunctionModel &M,
                                   const ReleaseEffect &Eff, const PathState &P);
  /// The kinds put into each container's elements on any path, and the
  /// element releases reported as of the wrong family: takeFindings keeps
  /// only those no kind ever put there makes right.
  void noteElementKind(Key Elem, unsigned R);
  void dropMixedElementMismatches();
  llvm::DenseMap<Key, std::set<std::string>> ElementKinds;
  struct ElementRelease {
    const Expr *Site;
    Key Elem;
    const ReleaseEffect *Eff;
  };
  std::vector<ElementRelease> ElementReleases;
  void insertIntoContainer(Key Elem, const Expr *Value, const Expr *KeyArg, const Stmt *At,
                           PathState &P);
  bool elementReadOut(const Expr *Access);
  const Expr *erasedKey(const CallExpr *Call);
  bool sameKey(const Expr *L, const Expr *R);
  void dropContainerElements(Key Elem, const CallExpr *Call, ContainerOp Op, PathState &P);
  void reportDroppedElement(unsigned R, const ResState &RS, Key Elem, const Stmt *At,
                            const std::string &How);
  void overwriteElementAtKey(Key Elem, const Expr *KeyArg, const Stmt *At, PathState &P);
  void addInsertionNote(unsigned R, std::vector<PathNote> &Notes) const;
  void seedContainerMembers(PathState &Entry);
  // --- template patterns (Templates.cpp) ---
  void escapeDependentParts(const Stmt *S, PathState &P);
  bool hasOpaqueInit(const VarDecl *VD) const;
  bool onDependentOperator(const CallExpr *Call, PathState &P);
  void escapeNamedIn(const Stmt *S, PathState &P);
  void noteDependentBranch(const CFGBlock *From, const StateSet &Out);

  // --- throws that leave the function (Exceptions.cpp) ---
  bool throwsOut(const Stmt *S);
  void onThrowLeaving(const Stmt *Throw, const PathState &P);
  bool buildsObject() const;
  bool ownMemberOfConstructor(Key K) const;
  const Expr *statusThrowArgument(const Stmt *S, bool &ThrowsWhenNonZero);
  void forkOnStatusThrow(const Stmt *S, PathState &P, bool &Dead);

  // --- pointers that name one object throughout (LocalPointers.cpp) ---
  const std::set<const VarDecl *> &reseatedPointers();
  bool isFixedPointerParam(const ValueDecl *D);
  const ValueDecl *fixedLocalPointee(const ValueDecl *D);
  const ValueDecl *pointeeOwner(Key K);

  // --- places, locations, text ---
  const VarDecl *nestedPlainAggregate(const MemberExpr *ME);
  /// `entry_.f`, `entry_->f` of a std::optional member, `e.f` of `auto &e =
  /// *entry_`: the member of `this` whose struct declares Inner (LocalPointers.cpp).
  const FieldDecl *memberObjectOfThis(const Expr *Base, const FieldDecl *Inner);
  Key storageOf(const Expr *E);
  bool isStructReferenceParam(const ValueDecl *D) const;
  bool isEnclosingVariable(Key K) const;
  Key captureStreamOf(const CallExpr *Call, const FunctionModel &M);
  const FieldDecl *ownCaptureMember(const Expr *Stream) const;
  const Expr *streamGivenToConstructor(Key Object, const FieldDecl *Field);
  bool memberKeptFromConstruction(const FieldDecl *Field);
  Key placeOf(const ValueDecl *D, const FieldDecl *Member = nullptr, bool Element = false,
              bool Capture = false, bool ExecRefs = false);
  static const VarDecl *plainVar(Key K) {
    return K && K->whole() ? dyn_cast<VarDecl>(K->Decl) : nullptr;
  }
  unsigned resourceFor(const Expr *Site, int ParamIndex, const std::string &Kind,
                       const std::string &By, Key Var, int Slot = 0);
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
  /// SummaryMode: parameters the caller passes as constants (their values
  /// hold on entry).
  LifetimeAnalyzer::Impl::ConstantArgs Constants;
  const ParentIndex *PM = nullptr; ///< the unit's, for this body (Impl::parentsOf)
  std::unique_ptr<CFG> Cfg;
  const CFGBlock *CurrentBlock = nullptr;

  std::map<std::tuple<const ValueDecl *, const FieldDecl *, bool, bool, bool>,
           std::unique_ptr<Place>>
      Places;
  std::vector<Resource> Resources{Resource()}; // id 0 unused
  /// (site, parameter index, argument slot) -> resource id: one call that
  /// acquires through two arguments makes two resources.
  std::map<std::tuple<const Expr *, int, int>, unsigned> ResourceIds;
  /// Added to the slot of a resourceFor id: the second instance of a call's
  /// resource, made while another variable still holds the first.
  static constexpr int SecondInstance = 1 << 16;
  /// Times (member index + 1), added to the slot of a helper's acquisition
  /// into a member of its argument.
  static constexpr int FieldSlot = 1 << 8;
  /// The slot of what a release of an untracked handle stands for.
  static constexpr int UntrackedSlot = -1000;
  /// The slot of a member another method may leave live (Members.cpp).
  static constexpr int InheritedSlot = -2000;
  bool CollectMembers = false;
  /// The slot of the elements of a member container another method fills.
  static constexpr int ContainerInheritedSlot = -3000;
  std::unique_ptr<ContainerView> ContainerScan;
  /// Where each resource went into a container, and under which key.
  struct ContainerInsertion {
    const Stmt *At;
    const Expr *Key;
  };
  std::map<unsigned, ContainerInsertion> ContainerInsertions;
  std::map<const FieldDecl *, LiveOnReturn> MembersLiveAtExit;
  std::map<std::pair<unsigned, const FieldDecl *>, LiveOnReturn> ParamMembersLiveAtExit;
  /// What a factory call (or a `new` expression, HostHeap.cpp) returned.
  std::map<const Expr *, unsigned> ReturnedResource;
  /// What a helper returning a struct by value acquired into its members
  /// (`Blk h = get(n, true, s)`: h.p), by member name.
  std::map<const Expr *, std::vector<std::pair<std::string, unsigned>>> ReturnedMembers;
  llvm::DenseMap<const Expr *, EdgeTest> EdgeTests;
  /// Case labels' constants, and each switch's in case-list order: every
  /// edge out of a switch asks about all of its cases (ggml's `switch (op)`
  /// has ninety), and evaluating a label is costly.
  llvm::DenseMap<const SwitchCase *, std::optional<int64_t>> CaseValues;
  llvm::DenseMap<const SwitchStmt *, std::vector<int64_t>> SwitchCaseValues;
  /// caseFactKey's keys, by (subject, switch), sorted, each with the index
  /// of its value in caseValues.
  std::map<std::pair<uintptr_t, const SwitchStmt *>, std::vector<std::pair<uintptr_t, size_t>>>
      CaseFactKeys;
  llvm::DenseMap<const Expr *, std::optional<ValueTest>> ValueTests;
  llvm::DenseMap<const Expr *, std::optional<int64_t>> ConstantValues;
  /// Places whose type can be a value symbol (isValueSymbol).
  llvm::DenseMap<Key, bool> ValueTyped;
  /// The variables each fact reads (asked for every fact of every disjunct
  /// at every block: a hash map of small vectors).
  llvm::DenseMap<uintptr_t, llvm::SmallSetVector<Key, 2>> FactVars;
  /// Conditions.cpp: the logical operators around each branch leaf, and the
  /// conditions each local was bound to, with the fact that says the
  /// binding still holds on a path.
  llvm::DenseMap<const Expr *, std::vector<ChainStep>> LogicalChains;
  /// The `&&`/`||` expression behind each fact key of one, and whether the
  /// fact's truth is the expression's (EdgeTest::TrueMeansNonZero).
  llvm::DenseMap<uintptr_t, std::pair<const Expr *, bool>> CompoundFacts;
  /// How often each `&&`/`||` shape (operands in any order) is written in
  /// the body; counted on the first question.
  llvm::DenseMap<uint64_t, unsigned> LogicalShapes;
  bool LogicalShapesCounted = false;
  /// isRestated's answer per operator (its shape hash walks the operands).
  llvm::DenseMap<const BinaryOperator *, bool> RestatedOps;
  llvm::DenseMap<Key, llvm::SmallVector<std::pair<const Expr *, uintptr_t>, 1>> CondBindings;
  /// Variables whose address was handed to code we do not follow.
  std::set<Key> AddressEscaped;
  /// Variables the body may reseat (LocalPointers.cpp); computed on first use.
  std::optional<std::set<const VarDecl *>> ReseatedPointers;
  std::map<const VarDecl *, const LambdaExpr *> LocalLambdas;
  unsigned LambdaDepth = 0;
  /// The places each release call, or loop around one, releases when it
  /// runs (noteReleaseSite).
  llvm::DenseMap<const Stmt *, llvm::SmallVector<const void *, 1>> ReleaseRanAt;
  /// The statement whose scope each local variable belongs to.
  llvm::DenseMap<const VarDecl *, const Stmt *> ScopeOwner;
  /// Paths that ended in a call that never returns, inside a try: they
  /// continue at that try's handlers.
  std::vector<std::pair<const CFGBlock *, PathState>> Diverted;

  /// The body's calls outside lambdas, children before parents, and its
  /// declarations (indexBody); the CFG's call elements, block by block. The
  /// scans read these rather than walk the body or the CFG each.
  std::vector<const CallExpr *> BodyCalls;
  std::vector<const DeclStmt *> BodyDecls;
  bool NamesMembers = false; ///< a member expression or a lambda in the body
  struct CallElement {
    const CFGBlock *Block;
    unsigned Index;
    const CallExpr *Call;
  };
  std::vector<CallElement> CallElements;

  /// Reverse post-order position of each block (N: unreachable), and the
  /// blocks whose entry state is kept once transferred (loop headers, whose
  /// state ends the loop; every other block receives only new disjuncts,
  /// and the transfer is per disjunct).
  std::vector<unsigned> Order;
  std::vector<char> KeepIn;
  std::vector<BlockMentions> Mentions;
  /// Variables named in the function, one bit each: possibly named (not
  /// counting deaths) by each block or a block after it.
  llvm::DenseMap<const Decl *, unsigned> DeclIndex;
  std::vector<llvm::BitVector> NamedFrom;
  /// Resources whose states were widened at some join: no findings.
  std::vector<unsigned> WidenedRes;
  /// The body is a template's pattern (Templates.cpp); the resources that
  /// were live across a branch on a dependent condition report nothing.
  bool InPattern = false;
  std::set<unsigned> DependentlyDecided;
  static constexpr unsigned MaxVisitsPerBlock = 64;
  bool HitVisitBudget = false;
  size_t MostDisjuncts = 0;

  /// What applyCall asks of a call's callee beyond its model, the same all
  /// through one run (the summaries it reads are made once).
  struct CalleeFacts {
    bool UnmodeledBuiltin = false;      ///< `__builtin_expect` and friends: no effect
    std::optional<bool> NeverReturns;   ///< its summary says so (asked after the effects)
  };
  llvm::DenseMap<const CallExpr *, CalleeFacts> CalleeFactsOf;
  /// Second evaluations of a call a macro argument spells once
  /// (scanReEvaluations).
  llvm::DenseSet<const CallExpr *> ReEvaluations;
  /// isZero's answers, and the truth of an integer or boolean constant
  /// (nullopt: not a constant); both evaluate the expression.
  mutable llvm::DenseMap<const Expr *, bool> ZeroExprs;
  llvm::DenseMap<const Expr *, std::optional<bool>> ConstantTruth;

  using FindingId = std::pair<int, const Expr *>;
  std::map<FindingId, LifetimeFinding> Findings;
  std::map<FindingId, unsigned> FindingResource;
  std::set<unsigned> Leaked;

  // --- refutation (Witness.cpp) ---
  enum class WitnessSearch { Found, Refuted, GaveUp };
  void refuteFindings();
  WitnessSearch searchWitness(const FindingId &Id, std::vector<PathNote> &Notes);
  /// A visit of a loop head on the path a witness search follows.
  struct LoopHeadVisit {
    const CFGBlock *Block;
    values::PathFormula::Mark Formula; ///< before the head's statements
    StateSet States;                   ///< as the path entered it
    size_t Visited;                    ///< its place in the search's visit log
    bool Accelerated;
    std::vector<unsigned> Skipped;     ///< places the acceleration made unknown
    values::PathFormula::Skip Counter; ///< where its loop's counter landed
    /// The iteration before it started where its counter is tested (one
    /// more skip is allowed: PathFormulaLoops.cpp).
    bool AfterPivot = false;
  };
  enum class LoopHeadStep { Enter, Accelerate, Subsumed };
  bool isLoopHead(const CFGBlock *B) const;
  bool endsInSink(const CFGBlock *B);
  bool leavesStraightAway(const CFGBlock *B);
  bool collectStraightAway(const CFGBlock *B, std::vector<const CFGBlock *> &Seen);
  // --- branches a witness search need not fork on (InertBranches.cpp) ---
  struct InertBranch {
    const CFGBlock *Join;               ///< where both ways meet
    std::vector<const CFGBlock *> Arm;  ///< the other way's blocks, in order
  };
  bool isInertStmt(const Stmt *S);
  bool inertArm(const CFGBlock *From, const CFGBlock *Join, std::vector<const CFGBlock *> &Arm);
  void findInertBranches();
  const InertBranch *inertBranch(const CFGBlock *B);
  /// Inert branches by their block (built on first use).
  std::optional<llvm::DenseMap<const CFGBlock *, InertBranch>> InertBranches;
  // --- regions a witness search crosses in one step (MergedRegions.cpp) ---
  struct MergeRegion {
    const CFGBlock *Join = nullptr;     ///< where every way meets
    std::vector<const CFGBlock *> Blocks; ///< in reverse post-order (a loop's head first)
    /// Blocks whose ways end in the region: checked calls' `exit` arms, a
    /// loop's error clean-ups that return.
    std::vector<const CFGBlock *> Sinks;
  };
  bool meetWays(std::vector<const CFGBlock *> Starts, const CFGBlock *Above, MergeRegion &Region);
  std::optional<MergeRegion> findBranchRegion(const CFGBlock *B);
  std::optional<MergeRegion> findLoopRegion(const CFGBlock *Head);
  const std::set<const CFGBlock *> *naturalLoop(const CFGBlock *Head);
  /// Natural loops by their head (found on first use; null: entered elsewhere too).
  llvm::DenseMap<const CFGBlock *, std::optional<std::set<const CFGBlock *>>> LoopBodies;
  const MergeRegion *mergeRegion(const CFGBlock *B);
  bool crossRegion(const CFGBlock *From, const MergeRegion &Region, StateSet &S,
                   values::PathFormula &Formula);
  /// Regions by their branch block (found on first use; none: nullopt).
  llvm::DenseMap<const CFGBlock *, std::optional<MergeRegion>> MergeRegions;
  LoopHeadStep accelerateLoop(const CFGBlock *B, std::vector<LoopHeadVisit> &Heads,
                              values::PathFormula &Formula, StateSet &S,
                              LoopHeadVisit &Visit);
  /// Findings the walk itself made (the others come from scans after it
  /// and have no path to replay).
  std::set<FindingId> ReportedInWalk;
  bool InWalk = false;
  std::set<Key> AddressEscapedOnEntry; ///< as the scans left it, before the walk
  /// While a witness is searched: the finding it looks for, whether the
  /// replayed path reported it, and with which notes.
  struct ReplayGoal {
    FindingId Target;
    unsigned Resource = 0; ///< what the finding is about (FindingResource)
    bool Hit = false;
    std::vector<PathNote> Notes;
  };
  ReplayGoal *Replay = nullptr;

  StateSet ExitStates;
  bool ReachedExit = false;
  std::string SummaryReturnKind;
  /// SummaryMode: acquisitions into pointer or reference parameters, or
  /// into a member of what a pointer parameter points to.
  struct SummaryAcquire {
    int Param;
    std::string Kind;
    std::string Field;
    unsigned Resource = 0; ///< the local's resource it publishes (0: none)
  };
  std::vector<SummaryAcquire> SummaryAcquires;
  /// SummaryMode: members of what a pointer parameter points to that some
  /// path stores a value into that is no live resource of this helper
  /// (`m->weights = alloc_block(..)` where the block has other owners).
  std::set<std::pair<int, std::string>> SummaryWrites;
  /// SummaryMode: parameters whose acquired handle the helper also stores
  /// through another parameter (`*ipcPtr = *devMem`): two owners.
  std::set<int> PublishedTwice;
  /// Stream captures, by resource: the capture mode was a constant relaxed
  /// mode, and whether this function ends captures on that stream at all
  /// (else it is a `begin` helper whose capture is left open by design).
  struct CaptureInfo {
    bool Relaxed = false;
    bool EndedHere = false;
  };
  std::map<unsigned, CaptureInfo> Captures;
  /// A capture surely open at a call of the block being transferred, as
  /// the disjunct that tracks it saw it there (CaptureContext.cpp).
  struct OpenCaptureSeen {
    unsigned R;
    Key Stream; ///< the capture place
    FlatMap<uintptr_t, bool> Facts;
    values::Constraints Values;
  };
  std::map<const CallExpr *, std::vector<OpenCaptureSeen>> OpenCapturesAt;
  /// The streams (places) this function ends a capture on.
  std::set<Key> CaptureEnds;
  /// End calls that close a capture into an existing graph, and that graph.
  std::map<const CallExpr *, const Expr *> EndsIntoGraph;
  /// Calls made while the thread is switched to relaxed capture mode.
  std::set<const CallExpr *> ThreadRelaxedCalls;
  /// SummaryMode: parameters whose stream capture the helper ends, and
  /// members of a method's object on which it ends one (`cudaStreamEndCapture(s_, &g)`).
  std::vector<int> SummaryCaptureEnds;
  std::vector<std::string> SummaryCaptureEndMembers;
  /// SummaryMode: captures the helper begins into a graph it is given
  /// (`cudaStreamBeginCaptureToGraph(s, g, ...)` on parameters `s`, `g`).
  struct CaptureIntoParam {
    int Stream;
    int Graph;
  };
  std::vector<CaptureIntoParam> SummaryCapturesIntoGraphs;
  /// SummaryMode: a capture the helper begins on a stream parameter on
  /// every call and leaves open (`begin_capture(s)`), in a mode that is
  /// not relaxed: the mode's parameter, or -1 for a constant strict mode.
  /// A method may begin it on a member of its object instead (Member, and
  /// Stream -1).
  struct CaptureOnParam {
    int Stream;
    int ModeParam;
    long long RelaxedMode;
    std::string Member;
  };
  std::vector<CaptureOnParam> SummaryCaptureBegins;
  /// SummaryMode: releases of what a pointer parameter points to, the
  /// first of them by parameter, and the stores `*p = e` through each.
  std::vector<ReleaseEffect> SummaryDerefReleases;
  std::map<int, const Expr *> FirstDerefRelease;
  std::map<int, std::vector<const Expr *>> DerefStores;
  /// SummaryMode: members of pointer or reference parameters released here
  /// that this function did not acquire (`cudaStreamDestroy(ctx->stream)`).
  std::vector<ReleaseEffect> SummaryFieldReleases;
  /// SummaryMode: where this function first releases and first acquires
  /// each (parameter, member), in source order.
  std::map<std::pair<int, std::string>, SourceLocation> FirstFieldRelease, FirstFieldAcquire;
  /// SummaryMode: per (parameter, member) acquired into, the members of the
  /// same parameter that every path acquiring it had tested null.
  std::map<std::pair<int, std::string>, std::set<std::string>> FieldAcquisitionGuards;
  /// SummaryMode: the fact keys that say a parameter's member was null on
  /// entry (noteEntryNullTest), and the member.
  llvm::DenseMap<uintptr_t, Key> EntryNullFacts;
  /// Memory captured into a graph, by the place that holds it: the execs
  /// instantiated from that graph and the captured use (CapturedMemory.cpp).
  struct ExecReference {
    Key Exec;
    const Expr *CapturedUse;
  };
  std::map<Key, std::vector<ExecReference>> ReferencedByExecs;
  /// (resource, exec place) -> the captured use, for the notes.
  std::map<std::pair<unsigned, Key>, const Expr *> StaleUses;
  /// Stream-ordered allocations made inside a capture and not freed by a
  /// node of the same graph, by allocating call.
  struct GraphAllocation {
    Key Place = nullptr;
    Key Exec = nullptr;                       ///< an exec instantiated from the graph
    const CallExpr *Instantiation = nullptr;
    bool AutoFreed = false;                   ///< some instantiation auto-frees
    bool Report = false;                      ///< nothing frees it; the exec is launched
  };
  std::map<const CallExpr *, GraphAllocation> GraphAllocations;
  std::set<const CallExpr *> FreesInCaptures;
  /// Execs instantiated from a captured graph with a free node of the place.
  std::map<Key, std::set<Key>> ExecsFreeing;
  /// Allocating calls inside some capture: what they make may be the graph's.
  std::set<const CallExpr *> AllocationsInCaptures;
  std::set<Key> FreedOutsideCaptures;
  /// The block and element of each call of CallElements.
  std::map<const CallExpr *, std::pair<const CFGBlock *, unsigned>> CallPositions;
};

} // namespace lifetime
} // namespace cgt

#endif
