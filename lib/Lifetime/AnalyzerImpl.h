//===- AnalyzerImpl.h - what the analyses of a unit share -------*- C++ -*-===//
//
// Private to lib/Lifetime: LifetimeAnalyzer::Impl, the state the analyses
// of one translation unit share (the model lookups and their memos, helper
// summaries, the ownership index, the parents of each body) and the
// questions about callees that do not depend on one function's paths
// (summaries, pure helpers, patterns, throwers). Each function's dataflow
// (Analysis.h) holds a reference to it.
//
//===----------------------------------------------------------------------===//
#ifndef CUDAGRAPH_TIDY_LIFETIME_ANALYZERIMPL_H
#define CUDAGRAPH_TIDY_LIFETIME_ANALYZERIMPL_H

#include "ApiModel/ParameterSignature.h"
#include "AstWalk/WrittenCalls.h"
#include "Lifetime/Containers/Containers.h"
#include "Lifetime/LifetimeAnalysis.h"
#include "Lifetime/ParentIndex.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/DenseSet.h"
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <vector>

namespace cgt {
using namespace clang;

namespace lifetime {
class OwnershipIndex;
} // namespace lifetime

struct LifetimeAnalyzer::Impl {
  const ApiModel &Model;
  ASTContext &Ctx;
  LifetimeOptions Opts;
  std::map<const FunctionDecl *, std::unique_ptr<FunctionSummary>> Summaries;
  /// Summaries of a helper for constant arguments it branches on
  /// (`allocate(&p, n, HOST)`), keyed by the helper and (parameter, value).
  using ConstantArgs = std::vector<std::pair<unsigned, int64_t>>;
  std::map<std::pair<const FunctionDecl *, ConstantArgs>, std::unique_ptr<FunctionSummary>>
      SpecialisedSummaries;
  /// Per helper: the integer, enum or bool parameters its conditions read.
  llvm::DenseMap<const FunctionDecl *, llvm::SmallVector<unsigned, 2>> BranchedOnParams;
  std::set<const FunctionDecl *> InProgress;
  /// Helpers whose own findings a caller's finding is being checked against
  /// (LifetimeAnalyzer::dropMismatchesNamedInside): a recursion guard.
  std::set<const FunctionDecl *> HelpersAsked;
  std::map<const FunctionDecl *, bool> Interesting;
  /// Model entries built from clang's handle attributes (HandleAttributes.cpp).
  std::map<const FunctionDecl *, std::unique_ptr<FunctionModel>> AttributeModels;
  /// modelFor's answers that can no longer change (every scan and every
  /// disjunct's transfer asks again; the callee's qualified name is costly).
  llvm::DenseMap<const CallExpr *, const FunctionModel *> CallModels;
  unsigned Depth = 0;
  /// Members across the translation unit, built on first use.
  std::unique_ptr<lifetime::OwnershipIndex> Ownership;
  std::shared_ptr<WrittenCallsIndex> Calls;
  /// Parents of each body's statements, built once: every analysis of a
  /// function (its own, its helper summaries, each specialisation) asks
  /// about the same body. (The ownership scan keeps its own ancestors.)
  llvm::DenseMap<const Stmt *, std::unique_ptr<lifetime::ParentIndex>> Parents;
  const lifetime::ParentIndex &parentsOf(const Stmt *Body, unsigned SizeHint = 0);

  Impl(const ApiModel &M, ASTContext &C, LifetimeOptions O,
       std::shared_ptr<WrittenCallsIndex> Calls);
  ~Impl();
  lifetime::OwnershipIndex &ownership();

  const FunctionModel *lookupModel(const FunctionDecl *FD, unsigned NumArgs) {
    if (!FD || !FD->getIdentifier())
      return nullptr;
    auto [It, New] = ModelsByCallee.try_emplace({FD, NumArgs}, nullptr);
    if (!New)
      return It->second;
    auto Signature = [FD] { return parameterSignature(FD); };
    const FunctionModel *M = Model.lookup(FD->getQualifiedNameAsString(), NumArgs, Signature);
    if (!M && !FD->isCXXClassMember())
      M = Model.lookup(FD->getName(), NumArgs, Signature);
    return It->second = M;
  }
  /// The entry a call of FD applies: an exported summary (unlistedArgsEscape)
  /// came from some body of that name, and the body this translation unit
  /// has, if any, wins over it (a static function of another file may share
  /// the name; an inline function of a header is summarised here).
  const FunctionModel *entryFor(const FunctionDecl *FD, unsigned NumArgs) {
    const FunctionModel *M = lookupModel(FD, NumArgs);
    return M && M->UnlistedArgsEscape && FD->getDefinition() ? nullptr : M;
  }
  /// lookupModel's answers: the qualified name is costly to print.
  llvm::DenseMap<std::pair<const FunctionDecl *, unsigned>, const FunctionModel *>
      ModelsByCallee;
  /// `__builtin_expect` and the other builtins the model does not describe
  /// (getBuiltinID looks at the attributes each time it is asked).
  bool isUnmodeledBuiltin(const FunctionDecl *FD, unsigned NumArgs) {
    auto [It, New] = UnmodeledBuiltins.try_emplace({FD, NumArgs}, false);
    if (New)
      It->second = FD->getBuiltinID() && !lookupModel(FD, NumArgs);
    return It->second;
  }
  llvm::DenseMap<std::pair<const FunctionDecl *, unsigned>, bool> UnmodeledBuiltins;
  /// Helpers that return whether a stream parameter captures: (parameter,
  /// true while it captures) (CaptureGuards.cpp captureQueryOf).
  llvm::DenseMap<const FunctionDecl *, std::optional<std::pair<unsigned, bool>>> CaptureQueries;
  /// Member containers of handles, by the classes scanned (ContainerFlow.cpp).
  std::map<const FieldDecl *, lifetime::ContainerMemberFacts> ContainerMembers;
  std::set<const CXXRecordDecl *> ContainerClassesScanned;
  /// What the methods of `F`'s class put into and release from its
  /// elements (Ownership/MemberContainers.cpp).
  const lifetime::ContainerMemberFacts *containerMemberFacts(const FieldDecl *F);
  void scanContainerMethod(const FunctionDecl *M);

  const FunctionModel *modelFor(const CallExpr *Call);
  const FunctionModel *attributeModel(const FunctionDecl *FD);
  const FunctionDecl *calleeOf(const CallExpr *Call);
  /// A driver call through a function pointer (`pfn_cuMemCreate(...)`,
  /// a `PFN_cuMemCreate` variable): the entry of the function it points to.
  const FunctionModel *pointerModel(const CallExpr *Call) const;
  const FunctionSummary *summaryOf(const FunctionDecl *FD);
  const FunctionSummary *summaryFor(const CallExpr *Call, const FunctionDecl *Callee);
  std::unique_ptr<FunctionSummary> runSummary(const FunctionDecl *Def, ConstantArgs Constants);
  ConstantArgs constantArgsOf(const CallExpr *Call, const FunctionDecl *Def);
  const llvm::SmallVector<unsigned, 2> &branchedOnParams(const FunctionDecl *Def);
  bool isInteresting(const FunctionDecl *FD);
  bool mayReceiveResource(const FunctionDecl *Def) const;
  static bool isDeviceCode(const FunctionDecl *Def);
  bool isPureHelper(const FunctionDecl *FD, unsigned Depth = 0);
  llvm::DenseMap<const FunctionDecl *, bool> PureHelpers;

  // --- templates the unit never instantiates (Templates.cpp) ---
  /// Not dependent, or a pattern analysed in place of its missing
  /// instantiations.
  bool analyzable(const FunctionDecl *FD);
  bool isUninstantiatedPattern(const FunctionDecl *FD);
  /// A pattern whose members the ownership index follows.
  bool isOwnershipPattern(const FunctionDecl *FD);
  std::optional<llvm::DenseSet<const FunctionDecl *>> InstantiatedPatterns;

  // --- units with compiler errors (IncompleteBodies.cpp) ---
  /// The body holds a declaration or expression clang could not build.
  bool bodyIsIncomplete(const FunctionDecl *FD);
  llvm::DenseMap<const FunctionDecl *, bool> Incomplete;

  // --- throws (Exceptions.cpp) ---
  /// A helper that never returns because it throws.
  bool alwaysThrows(const FunctionDecl *Callee);
  llvm::DenseMap<const FunctionDecl *, bool> Throwers;
  /// A checking helper (`check(cudaError_t e, ...) { if (e) throw ...; }`):
  /// which parameter's value decides the throw, and which value throws.
  struct StatusThrow {
    unsigned Param;
    bool ThrowsWhenNonZero;
  };
  std::optional<StatusThrow> throwsOnStatus(const FunctionDecl *Callee);
  /// How the destruction of a temporary of this type ends the path: TVM's
  /// `LogFatal` (`[[noreturn]] ~LogFatal() { throw InternalError(...); }`)
  /// throws, glog's `LogMessageFatal` aborts.
  enum class DestructorEnd { Returns, Throws, EndsProgram };
  DestructorEnd destructorEnd(QualType Temporary);
  llvm::DenseMap<const Type *, DestructorEnd> DestructorEnds;
  llvm::DenseMap<const FunctionDecl *, std::optional<StatusThrow>> StatusThrowers;
  /// `main`, or a function of the main file only `main` (or such a
  /// function) calls, outside any try: no handler can catch what leaves it.
  bool uncatchableThrows(const FunctionDecl *FD, unsigned Depth = 0);
  llvm::DenseMap<const FunctionDecl *, bool> Uncatchable;
  /// Every mention of each function of the unit, as the callee of a call
  /// (with the function around it) or not (null call): built once.
  struct Mention {
    const CallExpr *Call;
    const FunctionDecl *Caller;
  };
  const std::vector<Mention> &mentionsOf(const FunctionDecl *FD);
  std::optional<llvm::DenseMap<const FunctionDecl *, std::vector<Mention>>> Mentions;
};

} // namespace cgt

#endif
