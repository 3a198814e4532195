//===- CaptureContext.cpp - open captures seen from other disjuncts -------===//
//
// The dataflow follows each resource in its own disjunct (PathState.h), and
// a capture is a resource like any other: once the block that begins it
// ends (a status test on the begin call, `CHECK(cudaStreamBeginCapture(..))`,
// ends one), the open capture and a buffer allocated before it live in
// different disjuncts. A rule about the two at once (a stream-ordered free
// on the capturing stream of memory allocated outside the capture,
// Capture.cpp) would then never see them together. The capture is context
// for the other resources' rules, so it is handed to them at the call:
//
//   a block with such a call   the disjuncts tracking a capture that the
//                              block concerns are transferred first (after
//                              the base, which stands for every path)
//   at the call, in them       each capture surely open (Live) is noted
//                              with the facts and values of its paths
//   at the call, in the others a disjunct that knows nothing of the capture
//                              on the call's stream takes a noted one whose
//                              facts and value ranges do not contradict its
//                              own: some path may hold both
//
// The match is an over-approximation (facts are intersected at joins); the
// witness search (Reports/Witness.cpp) replays one path, with one disjunct
// per resource and no join, through this same hand-over, and the SMT
// solver must accept its branches, so a finding that stands only on a
// merge of disjoint paths is refuted. A disjunct that holds its own
// binding of the capture place (it began or ended the capture in this
// block) goes by what it knows.
//
// Part of the Analysis class declared in Analysis.h.
//
//===----------------------------------------------------------------------===//
#include "Lifetime/Analysis.h"

namespace cgt {
namespace lifetime {

namespace {

/// Whether some path may be in both disjuncts: no branch fact is known
/// both ways, no value is known in disjoint ranges.
bool mayMeet(const PathState &P, const FlatMap<uintptr_t, bool> &Facts,
             const values::Constraints &Values) {
  for (const auto &F : Facts)
    if (auto It = P.Facts.find(F.first); It != P.Facts.end() && It->second != F.second)
      return false;
  bool Disjoint = false;
  Values.forEachSymbol([&](values::Symbol S) {
    const values::RangeSet *Mine = P.Values.find(S);
    const values::RangeSet *Theirs = Values.find(S);
    Disjoint |= Mine && Theirs && Mine->disjointFrom(*Theirs);
  });
  return !Disjoint;
}

} // namespace

/// The calls whose rules need the captures of other disjuncts: a
/// stream-ordered free (checkCapturedFree).
bool Analysis::needsCaptureContext(const FunctionModel *M) {
  return M && llvm::any_of(M->Releases, [](const ReleaseEffect &E) {
           return E.StreamOrdered && !E.ThroughPointer;
         });
}

void Analysis::orderForCaptureContext(const CFGBlock *B, StateSet &S) {
  if (!OpenCapturesAt.empty())
    OpenCapturesAt.clear();
  if (!Mentions[B->getBlockID()].NeedsCaptureContext || Captures.empty())
    return;
  auto First = std::find_if(S.begin(), S.end(), [](const PathState &P) { return P.Tracked != 0; });
  std::stable_partition(First, S.end(), [&](const PathState &P) {
    return isCapture(P.Tracked) && isRelevant(B, P);
  });
}

void Analysis::noteOpenCaptures(const CallExpr *Call, const FunctionModel &M,
                                const PathState &P) {
  if (!needsCaptureContext(&M))
    return;
  for (const auto &Bd : P.Bind) {
    if (!Bd.first->Capture)
      continue;
    for (unsigned R : Bd.second)
      if (auto RS = P.Res.find(R); RS != P.Res.end() && RS->second.Bits == Live && isCapture(R))
        OpenCapturesAt[Call].push_back({R, Bd.first, P.Facts, P.Values});
  }
}

/// The capture surely open on the stream argument of `Call` on some path
/// `P` stands for: `P`'s own, or one another disjunct noted at the call.
unsigned Analysis::openCaptureOnStreamArg(const CallExpr *Call, const FunctionModel &M,
                                          const PathState &P) {
  if (unsigned Own = captureOnStreamArg(Call, M, P))
    return Own;
  auto Seen = OpenCapturesAt.find(Call);
  if (Seen == OpenCapturesAt.end())
    return 0;
  for (const UseEffect &U : M.Uses) {
    if (U.Kind != "stream" || U.Arg < 0 || U.Arg >= static_cast<int>(Call->getNumArgs()))
      continue;
    Key K = capturePlace(Call->getArg(U.Arg));
    if (!K || P.Bind.count(K))
      return 0; // unknown stream, or this disjunct knows the capture's state
    for (const OpenCaptureSeen &C : Seen->second)
      if (C.Stream == K && mayMeet(P, C.Facts, C.Values))
        return C.R;
    return 0;
  }
  return 0;
}

} // namespace lifetime
} // namespace cgt
