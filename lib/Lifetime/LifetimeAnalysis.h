//===- LifetimeAnalysis.h - per-function CUDA resource lifetimes -*- C++ -*-===//
//
// A forward dataflow over clang::CFG that follows every CUDA resource a
// function acquires (graph execs, graphs, streams, events, pools, memory)
// and reports where it leaks, is overwritten while live, or is used after
// release. The semantics of calls come from the ApiModel; this file knows
// nothing about clang-tidy. The state machine of one resource is drawn in
// LifetimeAnalysis.cpp.
//
//===----------------------------------------------------------------------===//
#ifndef CUDAGRAPH_TIDY_LIFETIME_LIFETIMEANALYSIS_H
#define CUDAGRAPH_TIDY_LIFETIME_LIFETIMEANALYSIS_H

#include "ApiModel/ApiModel.h"
#include "clang/AST/ASTContext.h"
#include "clang/AST/Decl.h"
#include "clang/AST/Expr.h"
#include "llvm/ADT/DenseMap.h"
#include <atomic>
#include <memory>
#include <string>
#include <vector>

namespace cgt {

enum class FindingKind {
  Leak,              ///< acquired and neither released nor escaped on some path
  Overwrite,         ///< re-acquired into (or assigned over) a live resource
  UseAfterRelease,   ///< used or launched after it was released
  DoubleRelease,     ///< released twice
  MismatchedRelease, ///< released by a function of the wrong family
  CaptureLeftOpen,   ///< a stream capture not ended on some path (at the begin)
  CaptureUnsafeCall, ///< a call illegal while a stream captures, made during one
  /// An exec launched after memory its captured graph uses was freed (at the
  /// launch; the resource is the memory, Detail names the exec).
  LaunchAfterCapturedFree,
  // lib/Streams (StreamOrder.h): the resource is the memory or the capture,
  // Detail names the other stream.
  StreamUseUnordered,  ///< memory used on a stream not ordered after its allocation
  StreamFreeUnordered, ///< memory freed while work on another stream may use it
  CaptureUnjoined,     ///< a stream forked into a capture is not joined back
  CaptureIsolation,    ///< a capture waits on an event recorded outside it
  CaptureImplicitLegacy, ///< legacy default stream work while a stream captures
  CaptureStatusUnchecked, ///< a graph from an unchecked end-capture instantiated
};

struct PathNote {
  clang::SourceLocation Loc;
  std::string Message;
};

struct LifetimeFinding {
  FindingKind Kind;
  /// Resource kind from the API model ("graphExec", "deviceMemory").
  std::string ResourceKind;
  /// Where the diagnostic goes: the acquiring call for leaks, the offending
  /// call for the others.
  clang::SourceLocation Loc;
  clang::SourceRange Range;
  /// The function that acquired the resource and the variable holding it.
  std::string AcquiredBy;
  std::string VarName;
  /// For releases and uses: the function called at Loc.
  std::string CalledFunction;
  /// A mismatched release through a helper of this unit (its summary): the
  /// helper, whose own finding names the wrong call itself.
  const clang::FunctionDecl *ThroughHelper = nullptr;
  /// MismatchedRelease of a handle a getter lent ("owned": false in the
  /// model): no release function is right.
  bool Borrowed = false;
  /// CaptureUnsafeCall: why the call is illegal (the model's captureNote);
  /// LaunchAfterCapturedFree: the exec launched.
  std::string Detail;
  /// Notes along the path, in source order of the path.
  std::vector<PathNote> Notes;
  /// Non-empty when the conclusion comes from the class or struct that owns
  /// the member (Ownership.h): a member no method releases, a destructor
  /// that releases it twice through implicit copies, a method that may find
  /// it live on entry. Names that owner.
  std::string Owner;
};

/// What a function defined in the translation unit does to its parameters,
/// derived by running the analysis on it; applied at its call sites exactly
/// like a model entry.
struct FunctionSummary {
  FunctionModel Model;
  bool NeverReturns = false;
};

struct LifetimeOptions {
  /// Paths ending in exit/abort/[[noreturn]]/throw report no leak.
  bool SinkPathsAreSilent = true;
  /// Apply summaries of helpers defined in the same translation unit.
  bool UseHelperSummaries = true;
  /// Report an acquisition over a member another method may leave live
  /// even when no code in the file shows that sequence of calls.
  bool SpeculativeMemberReports = false;
  /// Analyse the body of a function template, or of a member of a class
  /// template, that the translation unit never instantiates (Templates.cpp).
  bool AnalyzeUninstantiatedTemplates = true;
  /// A throw that leaves the function while a local resource is live leaks
  /// it (Exceptions.cpp); off: every throw is a sink.
  bool ReportLeaksOnThrow = true;
  /// An exception that leaves a constructor loses what the constructor put
  /// in the object's own members (its destructor does not run). Off by
  /// default: code that treats a failed CUDA call in a constructor as fatal
  /// is the common case, and blind probes did not count these as bugs.
  bool ReportConstructorThrowLeaks = false;
  /// Upper bound on the distinct states one resource may be in at one
  /// program point; past it the resource is widened and reports nothing.
  unsigned MaxStatesPerPoint = 32;
  /// Before a finding leaves, search one path that makes it and that an
  /// SMT solver finds feasible; drop it when every path is refuted
  /// (Witness.cpp).
  bool RefuteWithSolver = true;
};

/// Process-wide counts of what the engine did and where it gave up, for
/// `cudagraph-tidy --stats`. A widened function reported nothing for the
/// widened resources; a function over the revisit budget stopped following
/// some loop paths (fewer findings, never false ones).
struct LifetimeStats {
  std::atomic<unsigned> Functions{0};
  std::atomic<unsigned> WidenedFunctions{0};
  std::atomic<unsigned> BudgetFunctions{0};
  std::atomic<unsigned> MostDisjuncts{0}; ///< at one program point
  /// Witness searches (Witness.cpp): a feasible path found, every path
  /// refuted (the finding dropped), the search bounded before it could tell
  /// (the finding kept).
  std::atomic<unsigned> Confirmed{0};
  std::atomic<unsigned> Refuted{0};
  std::atomic<unsigned> RefutationGaveUp{0};
};
LifetimeStats &lifetimeStats();

class WrittenCallsIndex;

class LifetimeAnalyzer {
public:
  /// `Calls`: the unit's index of written calls, when another engine
  /// analysing the same unit shares it (AstWalk/WrittenCalls.h).
  LifetimeAnalyzer(const ApiModel &Model, clang::ASTContext &Ctx,
                   LifetimeOptions Opts = {},
                   std::shared_ptr<WrittenCallsIndex> Calls = nullptr);
  ~LifetimeAnalyzer();

  /// Quick syntactic test: does the body call anything the analysis models?
  bool isInteresting(const clang::FunctionDecl *FD);

  /// All findings for one function definition.
  std::vector<LifetimeFinding> analyze(const clang::FunctionDecl *FD);

  /// A definition the engines should analyse: not dependent, or the pattern
  /// of a template the translation unit never instantiates (with the
  /// AnalyzeUninstantiatedTemplates option), which stands for them.
  bool analyzable(const clang::FunctionDecl *FD);

  /// The summary of a helper, or null when it has no body or no effect.
  const FunctionSummary *summaryOf(const clang::FunctionDecl *FD);

  /// The model entry (built-in, user, or summary) for a call, or null.
  const FunctionModel *modelFor(const clang::CallExpr *Call);

  /// Shared state of the analyses of one translation unit (summaries).
  struct Impl;

private:
  void dropMismatchesNamedInside(std::vector<LifetimeFinding> &Out);
  std::unique_ptr<Impl> P;
};

} // namespace cgt

#endif
