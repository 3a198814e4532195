//===- CaptureSummaries.cpp - what a helper's summary says about capture --===//
//
// The capture part of a helper's summary (Summaries.cpp builds the rest),
// collected while the analysis runs on the helper:
//
//   cudaStreamEndCapture(s, &g) on a parameter  -> ends the caller's capture
//                                                  on that argument
//   cudaStreamBeginCaptureToGraph(s, g, ...)    -> begins one into the
//     on parameters, left open                     caller's graph `g`
//   cudaStreamBeginCapture(s, strict mode) on a -> begins the caller's
//     parameter, on every call, no end anywhere    capture on `s`
//   the same on a member `s_` of a method's     -> on that member of the
//     object (`s_ = s` first: and on `s`)          object called ("streamMember")
//   a prohibited call anywhere in the body      -> prohibited during the
//                                                  caller's capture
//
// Part of the Analysis class declared in Analysis.h.
//
//===----------------------------------------------------------------------===//
#include "Lifetime/Analysis.h"

#include <functional>

namespace cgt {
namespace lifetime {

/// `resume(s, g)` around `cudaStreamBeginCaptureToGraph(s, g, ...)` (warp's
/// pause/resume of a capture into a conditional node's body graph): the
/// helper's caller ends that capture and gets `g` back, not a new graph, so
/// its summary begins a capture into its graph parameter. Captures a
/// helper begins into graphs of its own stay its business.
void Analysis::noteCaptureIntoParamGraph(const CallExpr *Call, const FunctionModel &M) {
  auto ParamIndex = [&](int Arg) -> int {
    if (Arg < 0 || Arg >= static_cast<int>(Call->getNumArgs()))
      return -1;
    const auto *DRE = dyn_cast<DeclRefExpr>(strip(Call->getArg(Arg)));
    const auto *PVD = DRE ? dyn_cast<ParmVarDecl>(DRE->getDecl()) : nullptr;
    return PVD && PVD->getDeclContext() == FD ? static_cast<int>(PVD->getFunctionScopeIndex())
                                              : -1;
  };
  int Stream = ParamIndex(M.StreamArg), Graph = ParamIndex(M.IntoGraphArg);
  if (Stream >= 0 && Graph >= 0)
    SummaryCapturesIntoGraphs.push_back({Stream, Graph});
}

/// `begin_capture(s)` around `cudaStreamBeginCapture(s, mode)`: its caller
/// captures on `s` after the call, when the helper begins on every call (a
/// begin under a condition of its own would open a capture on paths where
/// it opens none) in a mode the caller can know is not relaxed (a constant,
/// or a parameter of the helper whose argument the caller's call gives). A
/// relaxed or unknown mode keeps the helper silent, as before.
void Analysis::noteCaptureOnParamStream(const CallExpr *Call, const FunctionModel &M) {
  if (M.IntoGraphArg >= 0 || M.StreamArg < 0 || M.StreamArg >= static_cast<int>(Call->getNumArgs()))
    return;
  auto ParamOf = [&](const Expr *E) -> const ParmVarDecl * {
    const auto *DRE = dyn_cast<DeclRefExpr>(strip(E));
    const auto *PVD = DRE ? dyn_cast<ParmVarDecl>(DRE->getDecl()) : nullptr;
    return PVD && PVD->getDeclContext() == FD ? PVD : nullptr;
  };
  const Expr *StreamArg = Call->getArg(M.StreamArg);
  const ParmVarDecl *Stream = ParamOf(StreamArg);
  // A method's `cudaStreamBeginCapture(s_, ...)`: its object's capture.
  const FieldDecl *Member = Stream ? nullptr : ownCaptureMember(StreamArg);
  if ((!Stream && !Member) || !runsOnEveryCall(Call))
    return;
  int StreamIndex = Stream ? static_cast<int>(Stream->getFunctionScopeIndex())
                          : paramStoredInMember(Member, Call);
  CaptureOnParam Begin{StreamIndex, -1, M.RelaxedCaptureMode,
                       Member ? Member->getNameAsString() : ""};
  if (M.CaptureModeArg >= 0 && M.CaptureModeArg < static_cast<int>(Call->getNumArgs())) {
    const Expr *Mode = Call->getArg(M.CaptureModeArg);
    Expr::EvalResult V;
    if (const ParmVarDecl *ModeParam = ParamOf(Mode))
      Begin.ModeParam = static_cast<int>(ModeParam->getFunctionScopeIndex());
    else if (Mode->isValueDependent() || !Mode->EvaluateAsInt(V, Ctx) ||
             V.Val.getInt().getSExtValue() == M.RelaxedCaptureMode)
      return;
  }
  SummaryCaptureBegins.push_back(Begin);
}

/// `s_ = s;` before `cudaStreamBeginCapture(s_, ...)`: the parameter the
/// member holds at `Before`, when one store to it runs on every call ahead
/// of it and no other store writes it; -1 otherwise.
int Analysis::paramStoredInMember(const FieldDecl *Member, const Stmt *Before) const {
  const BinaryOperator *Only = nullptr;
  unsigned Stores = 0;
  std::function<void(const Stmt *)> Walk = [&](const Stmt *S) {
    if (!S || isa<LambdaExpr>(S))
      return;
    if (const auto *BO = dyn_cast<BinaryOperator>(S); BO && BO->isAssignmentOp())
      if (ownCaptureMember(BO->getLHS()) == Member) {
        ++Stores;
        Only = BO;
      }
    for (const Stmt *Child : S->children())
      Walk(Child);
  };
  Walk(FD->getBody());
  if (Stores != 1 || Only->getOpcode() != BO_Assign || !runsOnEveryCall(Only) ||
      !SM.isBeforeInTranslationUnit(Only->getBeginLoc(), Before->getBeginLoc()))
    return -1;
  const auto *DRE = dyn_cast<DeclRefExpr>(strip(Only->getRHS()));
  const auto *PVD = DRE ? dyn_cast<ParmVarDecl>(DRE->getDecl()) : nullptr;
  return PVD && PVD->getDeclContext() == FD ? static_cast<int>(PVD->getFunctionScopeIndex()) : -1;
}

/// `cudaStreamEndCapture(s, &g)` on a parameter `s` ends the caller's
/// capture on that argument; on a member `s_` of a method's object, the
/// capture on that member of the object the method is called on.
void Analysis::noteCaptureEndOnParam(const Expr *Stream) {
  if (const auto *DRE = dyn_cast<DeclRefExpr>(strip(Stream)))
    if (const auto *PVD = dyn_cast<ParmVarDecl>(DRE->getDecl()))
      if (!llvm::is_contained(SummaryCaptureEnds, PVD->getFunctionScopeIndex()))
        SummaryCaptureEnds.push_back(PVD->getFunctionScopeIndex());
  if (const FieldDecl *Member = ownCaptureMember(Stream))
    if (!llvm::is_contained(SummaryCaptureEndMembers, Member->getName()))
      SummaryCaptureEndMembers.push_back(Member->getNameAsString());
}

/// `begin(s); ...; end();` inside the class, through methods whose
/// summaries capture on a member: the calling method begins or ends the
/// same member's capture for its own callers.
void Analysis::noteMemberCaptureOfThis(const CallExpr *Call, const FunctionModel &M) {
  const auto *MC = dyn_cast<CXXMemberCallExpr>(Call);
  const Expr *Object = MC ? MC->getImplicitObjectArgument() : nullptr;
  const CXXMethodDecl *Callee = MC ? MC->getMethodDecl() : nullptr;
  const auto *MD = dyn_cast<CXXMethodDecl>(FD);
  if (M.StreamMember.empty() || !Object || !Callee || !MD || MD->isStatic() ||
      !isa<CXXThisExpr>(Object->IgnoreParenImpCasts()) || Callee->getParent() != MD->getParent())
    return;
  if (M.Capture == CaptureRole::End) {
    if (!llvm::is_contained(SummaryCaptureEndMembers, M.StreamMember))
      SummaryCaptureEndMembers.push_back(M.StreamMember);
  } else if (M.Capture == CaptureRole::Begin && runsOnEveryCall(Call)) {
    SummaryCaptureBegins.push_back({-1, -1, M.RelaxedCaptureMode, M.StreamMember});
  }
}

namespace {
bool leavesEarly(const Stmt *S) {
  if (!S)
    return false;
  if (isa<ReturnStmt>(S) || isa<CXXThrowExpr>(S) || isa<GotoStmt>(S))
    return true;
  if (isa<LambdaExpr>(S))
    return false;
  for (const Stmt *Child : S->children())
    if (leavesEarly(Child))
      return true;
  return false;
}
} // namespace

/// Whether `S` runs whenever the function does: each statement around it up
/// to the body is a block with no return, throw or goto before it, a
/// `do { } while (0)` (CUDA_CHECK-style macros), a declaration, a return,
/// the condition of an `if`, or an expression that evaluates it first.
bool Analysis::runsOnEveryCall(const Stmt *S) const {
  if (!PM || !FD->getBody())
    return false;
  for (const Stmt *Up = PM->getParent(S); S != FD->getBody(); S = Up, Up = PM->getParent(Up)) {
    if (!Up)
      return false;
    if (const auto *Block = dyn_cast<CompoundStmt>(Up)) {
      for (const Stmt *Before : Block->body()) {
        if (Before == S)
          break;
        if (leavesEarly(Before))
          return false;
      }
      continue;
    }
    if (const auto *Do = dyn_cast<DoStmt>(Up)) {
      Expr::EvalResult V;
      if (Do->getBody() == S && Do->getCond()->EvaluateAsInt(V, Ctx) && V.Val.getInt().isZero())
        continue;
      return false;
    }
    if (const auto *If = dyn_cast<IfStmt>(Up)) {
      if (If->getCond() == S)
        continue;
      return false;
    }
    if (const auto *C = dyn_cast<AbstractConditionalOperator>(Up)) {
      if (C->getCond() == S)
        continue;
      return false;
    }
    if (const auto *B = dyn_cast<BinaryOperator>(Up)) {
      if (!B->isLogicalOp() || B->getLHS() == S)
        continue;
      return false;
    }
    if (isa<Expr>(Up) || isa<DeclStmt>(Up) || isa<ReturnStmt>(Up))
      continue;
    return false;
  }
  return true;
}

/// `end(s, &g)` around cudaStreamEndCapture ends its caller's capture;
/// `resume(s, g)` (noteCaptureIntoParamGraph) begins one into `g` when it
/// leaves it open, and `begin_capture(s)` (noteCaptureOnParamStream) one on
/// `s`.
void Analysis::addCaptureRole(FunctionModel &M) const {
  if (!SummaryCaptureEnds.empty()) {
    M.Capture = CaptureRole::End;
    M.StreamArg = SummaryCaptureEnds.front();
    return;
  }
  if (!SummaryCaptureEndMembers.empty()) {
    M.Capture = CaptureRole::End;
    M.StreamMember = SummaryCaptureEndMembers.front();
    return;
  }
  if (!SummaryCapturesIntoGraphs.empty()) {
    M.Capture = CaptureRole::Begin;
    M.StreamArg = SummaryCapturesIntoGraphs.front().Stream;
    M.IntoGraphArg = SummaryCapturesIntoGraphs.front().Graph;
    return;
  }
  // A helper that also ends a capture somewhere (a member stream, a
  // handle it keeps) may end this one in a way the summary cannot say.
  if (SummaryCaptureBegins.empty() || !CaptureEnds.empty())
    return;
  const CaptureOnParam &Begin = SummaryCaptureBegins.front();
  M.Capture = CaptureRole::Begin;
  M.StreamArg = Begin.Stream;
  M.StreamMember = Begin.Member;
  M.CaptureModeArg = Begin.ModeParam;
  if (Begin.ModeParam >= 0)
    M.RelaxedCaptureMode = Begin.RelaxedMode;
}

/// A helper that makes a call prohibited during stream capture is
/// prohibited in its callers' captures too: the first such call (in source
/// order) names why, and the helper is allowed in relaxed mode only if all
/// of them are. Helpers that ask cudaStreamIsCapturing are left alone.
void Analysis::noteCaptureUnsafeCalls(FunctionModel &M) const {
  const CallExpr *First = nullptr;
  const FunctionModel *FirstModel = nullptr;
  bool AllRelaxed = true;
  bool AsksAboutCapture = false;
  std::function<void(const Stmt *)> Walk = [&](const Stmt *S) {
    if (!S || isa<LambdaExpr>(S))
      return;
    const auto *Call = dyn_cast<CallExpr>(S);
    const FunctionModel *CM = Call ? A.modelFor(Call) : nullptr;
    AsksAboutCapture |= CM && CM->QueriesCapture;
    if (CM && !CM->LegalDuringCapture) {
      AllRelaxed &= CM->LegalInRelaxedCapture;
      if (!First) {
        First = Call;
        FirstModel = CM;
      }
    }
    for (const Stmt *Child : S->children())
      Walk(Child);
  };
  Walk(FD->getBody());
  // A helper that asks whether its stream captures (and takes the legal
  // branch when it does) is judged by that branch, not as a whole.
  if (!First || AsksAboutCapture)
    return;
  M.LegalDuringCapture = false;
  M.LegalInRelaxedCapture = AllRelaxed;
  M.CaptureNote = "it calls '" + spelledName(First, FirstModel->Name) + "' at line " +
                  std::to_string(SM.getExpansionLineNumber(First->getBeginLoc())) +
                  (FirstModel->CaptureNote.empty() ? "" : ": " + FirstModel->CaptureNote);
}

} // namespace lifetime
} // namespace cgt
