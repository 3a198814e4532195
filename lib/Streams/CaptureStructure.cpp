//===- CaptureStructure.cpp - forks, joins and isolation of stream capture ===//
//
// A capture begun on stream s (cudaStreamBeginCapture) is open until its
// end call on s. Its members are s and every stream that waited on an
// event recorded by a member while it was open (a fork). Four findings,
// each a run-time error measured on the H200 (docs/validation.md):
//
//   CaptureUnjoined        at the end call, when a forked member's latest
//                          work is not ordered into s (no event recorded on
//                          it after that work that s waited on): the end
//                          call fails with cudaErrorStreamCaptureUnjoined
//                          and the capture is lost;
//   CaptureIsolation       at a member's wait on an event recorded outside
//                          every capture or in another capture, with flags
//                          that are not cudaEventWaitExternal:
//                          cudaErrorStreamCaptureIsolation, the capture is
//                          invalidated;
//   CaptureImplicitLegacy  at work on the legacy default stream while a
//                          capture is open: a blocking capturing stream
//                          makes it cudaErrorStreamCaptureImplicit (the
//                          capture is invalidated); a non-blocking one lets
//                          it run at once, outside the graph;
//   CaptureStatusUnchecked at an instantiation of the graph an end call
//                          wrote when nothing read that call's status (it
//                          was dropped, or stored and never read) and
//                          nothing tested the graph: a failed capture
//                          leaves the graph NULL, and the instantiation
//                          fails with cudaErrorInvalidValue.
//
// Captures and unchecked graphs are "must" facts (StreamEngine.h): a capture
// begun on some paths only, or a status read on some, reports nothing. A
// member joined on some paths only is a gap (PathGaps.cpp): reported once
// one path that can happen ends the capture with it unjoined.
//
//===----------------------------------------------------------------------===//
#include "Streams/StreamEngine.h"

namespace cgt {
namespace streams {

using namespace clang;

namespace {
uint64_t bit(unsigned S) { return S < MaxStreams ? uint64_t(1) << S : 0; }

/// The statement or expression that consumes E's value, past parentheses
/// and implicit casts.
const Stmt *consumerOf(const ParentMap &PM, const Expr *E, const Stmt *&Child) {
  const Stmt *Cur = E;
  const Stmt *P = PM.getParent(Cur);
  while (P && (isa<ParenExpr>(P) || isa<ImplicitCastExpr>(P) || isa<ExprWithCleanups>(P))) {
    Cur = P;
    P = PM.getParent(Cur);
  }
  Child = Cur;
  return P;
}

/// Is the value of `Child`, a direct child of `P`, thrown away?
bool discards(const Stmt *P, const Stmt *Child) {
  if (!P || isa<CompoundStmt>(P) || isa<LabelStmt>(P) || isa<SwitchCase>(P))
    return true;
  if (const auto *C = dyn_cast<CStyleCastExpr>(P))
    return C->getType()->isVoidType();
  if (const auto *If = dyn_cast<IfStmt>(P))
    return If->getCond() != Child;
  if (const auto *W = dyn_cast<WhileStmt>(P))
    return W->getCond() != Child;
  return false;
}

/// Is the read `E` tested: the operand of a comparison, a `!` or a logical
/// operator, or a condition itself? A read that is a call's argument is
/// not, even when the call's result is tested.
bool isTested(const ParentMap &PM, const Expr *E) {
  const Stmt *Cur = E;
  const Stmt *P = PM.getParent(Cur);
  while (P && (isa<ParenExpr>(P) || isa<CastExpr>(P))) {
    Cur = P;
    P = PM.getParent(Cur);
  }
  if (!P)
    return false;
  if (const auto *UO = dyn_cast<UnaryOperator>(P))
    return UO->getOpcode() == UO_LNot;
  if (const auto *BO = dyn_cast<BinaryOperator>(P))
    return BO->isComparisonOp() || BO->isLogicalOp();
  if (const auto *CO = dyn_cast<ConditionalOperator>(P))
    return CO->getCond() == Cur;
  if (const auto *If = dyn_cast<IfStmt>(P))
    return If->getCond() == Cur;
  if (const auto *W = dyn_cast<WhileStmt>(P))
    return W->getCond() == Cur;
  if (const auto *F = dyn_cast<ForStmt>(P))
    return F->getCond() == Cur;
  if (const auto *D = dyn_cast<DoStmt>(P))
    return D->getCond() == Cur;
  return false;
}
} // namespace

unsigned FunctionRun::captureOf(const OrderState &St, unsigned S) const {
  if (S == Unknown)
    return Unknown;
  for (const auto &[Origin, C] : St.Captures)
    if (C.Members & bit(S))
      return Origin;
  return Unknown;
}

void FunctionRun::beginCapture(OrderState &St, const Stmt *Site, unsigned S) {
  // The legacy stream cannot be captured; an unknown stream is not followed.
  if (S == Unknown || S == LegacyStream)
    return;
  St.Captures[S] = {Site, bit(S), {}};
}

void FunctionRun::endCapture(OrderState &St, const CallExpr *Call, const FunctionModel &M) {
  if (M.StreamArg < 0 || M.StreamArg >= static_cast<int>(Call->getNumArgs()))
    return;
  unsigned S = streamOf(Call->getArg(M.StreamArg));
  if (auto C = St.Captures.find(S); C != St.Captures.end()) {
    for (const auto &[Member, ForkSite] : C->second.ForkedAt) {
      auto Last = St.LastWork.find(Member);
      if (Last == St.LastWork.end() || Last->second.empty())
        continue;
      bool Joined = false, JoinedOnEveryPath = false;
      for (const Stmt *Work : Last->second) {
        Joined |= isOrdered(St, Work, S);
        JoinedOnEveryPath |= isOrdered(St, Work, S, true);
      }
      if (Joined && (!Reporting || JoinedOnEveryPath))
        continue;
      std::vector<PathNote> Notes = {
          {locOf(ForkSite), "'" + placeName(Member) + "' joins the capture of '" +
                                placeName(S) + "' here"}};
      const Stmt *Latest = *Last->second.begin();
      if (Latest != ForkSite)
        Notes.push_back({locOf(Latest), "its last work in the capture, which '" +
                                            placeName(S) + "' never waits for"});
      // Joined on some paths only (a join under a flag the fork does not
      // share): the gap search looks for a path that leaves it unjoined.
      PathGap G{FindingKind::CaptureUnjoined, Call, Latest, S, placeName(S),
                calleeName(Call), placeName(Member), std::move(Notes)};
      if (Joined)
        notePathGap(std::move(G));
      else
        unordered(G);
    }
    St.Captures.erase(C);
  }
  if (M.Acquires.empty() || M.Acquires[0].Arg < 0 ||
      M.Acquires[0].Arg >= static_cast<int>(Call->getNumArgs()))
    return;
  unsigned Graph = pointerOutOf(Call->getArg(M.Acquires[0].Arg));
  if (Graph == Unknown)
    return;
  const Stmt *Child = nullptr;
  const Stmt *P = consumerOf(PM, Call, Child);
  const VarDecl *StatusVar = nullptr;
  if (const auto *DS = dyn_cast_or_null<DeclStmt>(P); DS && DS->isSingleDecl())
    StatusVar = dyn_cast<VarDecl>(DS->getSingleDecl());
  if (const auto *BO = dyn_cast_or_null<BinaryOperator>(P);
      BO && BO->getOpcode() == BO_Assign && BO->getRHS()->IgnoreParenImpCasts() == Call)
    if (const auto *DR = dyn_cast<DeclRefExpr>(BO->getLHS()->IgnoreParenImpCasts()))
      StatusVar = dyn_cast<VarDecl>(DR->getDecl());
  if (StatusVar || discards(P, Child))
    St.Unchecked[Graph] = {Call, StatusVar};
  else
    St.Unchecked.erase(Graph);
}

void FunctionRun::instantiate(OrderState &St, const CallExpr *Call, unsigned Graph) {
  auto U = St.Unchecked.find(Graph);
  if (U == St.Unchecked.end())
    return;
  std::string End = calleeName(dyn_cast<CallExpr>(U->second.EndSite));
  std::string How = U->second.StatusVar
                        ? "the status of '" + End + "' is stored in '" +
                              U->second.StatusVar->getNameAsString() + "' and never read"
                        : "the status of '" + End + "' is not checked";
  report(FindingKind::CaptureStatusUnchecked, Call, placeName(Graph), calleeName(Call), End,
         {{locOf(U->second.EndSite), How}});
  St.Unchecked.erase(U);
}

void FunctionRun::readsValue(OrderState &St, const ImplicitCastExpr *Read) {
  if (St.Unchecked.empty())
    return;
  const Expr *Sub = Read->getSubExpr()->IgnoreParens();
  if (const auto *DR = dyn_cast<DeclRefExpr>(Sub))
    for (auto It = St.Unchecked.begin(); It != St.Unchecked.end();)
      It = It->second.StatusVar == DR->getDecl() ? St.Unchecked.erase(It) : std::next(It);
  if (!Sub->getType()->isPointerType() || !isTested(PM, Read))
    return;
  unsigned Graph = pointerOf(Sub);
  if (Graph != Unknown)
    St.Unchecked.erase(Graph);
}

void FunctionRun::checkLegacyDuringCapture(OrderState &St, const Stmt *Site, unsigned S,
                                           const std::string &What) {
  if (S != LegacyStream || St.Captures.empty() || QuietCapture)
    return;
  unsigned Origin = St.Captures.begin()->first;
  const CaptureFacts &C = St.Captures.begin()->second;
  std::string How = nonBlocking(Origin) ? "nonblocking"
                    : blockingOf(Origin) == Blocking::Yes ? "blocking"
                                                                  : "maybe";
  report(FindingKind::CaptureImplicitLegacy, Site, placeName(Origin), What, How,
         {{locOf(C.Begin), "'" + placeName(Origin) + "' begins capturing here"}});
}

void FunctionRun::checkIsolation(OrderState &St, const CallExpr *Site, unsigned S, unsigned Event,
                                 const OrderEffect &Eff) {
  unsigned C = captureOf(St, S);
  auto E = St.Events.find(Event);
  if (C == Unknown || E == St.Events.end() || E->second.RecordedIn.empty() ||
      E->second.RecordedIn.count(C))
    return;
  if (Eff.FlagsArg >= 0) {
    if (Eff.FlagsArg >= static_cast<int>(Site->getNumArgs()))
      return;
    auto Flags = constantOf(Site->getArg(Eff.FlagsArg), Ctx);
    if (!Flags || (*Flags & Eff.FlagBit))
      return; // an external wait, or flags this function cannot read
  }
  unsigned Where = *E->second.RecordedIn.begin();
  std::string Detail = Where == OutsideCapture ? "" : placeName(Where);
  std::vector<PathNote> Notes;
  for (const Stmt *R : E->second.RecordSites)
    Notes.push_back({locOf(R), "'" + placeName(Event) + "' is recorded here, " +
                                   (Detail.empty() ? std::string("outside the capture")
                                                   : "in the capture of '" + Detail + "'")});
  Notes.push_back({locOf(St.Captures[C].Begin), "'" + placeName(C) + "' begins capturing here"});
  report(FindingKind::CaptureIsolation, Site, placeName(Event), calleeName(Site),
         placeName(S) + "|" + Detail, std::move(Notes));
}

} // namespace streams
} // namespace cgt
