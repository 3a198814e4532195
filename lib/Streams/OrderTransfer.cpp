//===- OrderTransfer.cpp - ordering edges and the stream-order findings ---===//
//
// The transfer functions of the edges drawn in StreamEngine.h, and the two
// stream-order findings:
//
//   * StreamUseUnordered at work on stream b (a launch, an async copy, a
//     free) that names memory whose allocation on stream a is not ordered
//     before b's work: the allocation may not have happened yet;
//   * StreamFreeUnordered at cudaFreeAsync(p, a) when work on stream b that
//     uses p is not ordered before a's free: the memory may be handed out
//     again while that work still runs.
//
// Measured on the H200 (docs/validation.md): compute-sanitizer
// --track-stream-ordered-races all reports both; the fixed twins
// (event record + wait) run clean.
//
//===----------------------------------------------------------------------===//
#include "Streams/StreamEngine.h"

namespace cgt {
namespace streams {

using namespace clang;

namespace {
uint64_t bit(unsigned S) { return S < MaxStreams ? uint64_t(1) << S : 0; }
} // namespace

bool FunctionRun::isOrdered(const OrderState &St, const Stmt *Token, unsigned B) const {
  auto T = St.Tokens.find(Token);
  if (T == St.Tokens.end() || T->second.HostDone || B == Unknown)
    return true;
  auto TS = St.TokenStream.find(Token);
  unsigned Own = TS == St.TokenStream.end() ? Unknown : TS->second;
  if (Own == Unknown || (T->second.Ordered & bit(B)))
    return true;
  // An element at a variable index may be any of its array's streams.
  if (fuzzy(B) || fuzzy(Own))
    return true;
  uint64_t Ordered = T->second.Ordered;
  // Legacy work waits for earlier work of every blocking stream...
  if (B == LegacyStream)
    for (unsigned S = 0; S < MaxStreams; ++S)
      if ((Ordered & bit(S)) && S != LegacyStream && !nonBlocking(S))
        return true;
  // ... and a blocking stream's work waits for earlier legacy work.
  if (B != LegacyStream && !nonBlocking(B) && (Ordered & bit(LegacyStream)))
    return true;
  return false;
}

void FunctionRun::enqueue(OrderState &St, const Stmt *Site, unsigned S,
                          const std::vector<unsigned> &Mem, const std::string &What,
                          bool Synchronous, bool CheckCapture) {
  if (S == Unknown)
    return;
  if (CheckCapture)
    checkLegacyDuringCapture(St, Site, S, What);
  for (unsigned P : Mem) {
    auto Held = St.Holds.find(P);
    if (Held == St.Holds.end())
      continue;
    for (const Stmt *Alloc : Held->second) {
      if (!isOrdered(St, Alloc, S)) {
        unsigned AllocStream = St.TokenStream[Alloc];
        report(FindingKind::StreamUseUnordered, Site, placeName(P), What,
               streamName(S) + "|" + streamName(AllocStream),
               {{locOf(Alloc), "'" + placeName(P) + "' is allocated on " +
                                   streamName(AllocStream) + " here"}});
        // One report per allocation and stream: S's later work is the same race.
        St.Tokens[Alloc].Ordered |= bit(S);
      }
      St.UsesOf[Alloc].insert(Site);
    }
  }
  if (S == LegacyStream)
    for (auto &[Tok, Facts] : St.Tokens)
      if (isOrdered(St, Tok, LegacyStream))
        Facts.Ordered |= bit(LegacyStream);
  St.Tokens[Site] = {bit(S), false};
  St.TokenStream[Site] = S;
  St.LastWork[S] = {Site};
  if (Synchronous)
    syncStream(St, S);
}

void FunctionRun::allocate(OrderState &St, const Stmt *Site, unsigned Ptr, unsigned S) {
  if (Ptr == Unknown)
    return;
  if (S == Unknown) {
    St.Holds.erase(Ptr);
    return;
  }
  checkLegacyDuringCapture(St, Site, S, calleeName(dyn_cast<clang::CallExpr>(Site)));
  St.Holds[Ptr] = {Site};
  St.Tokens[Site] = {bit(S), false};
  St.TokenStream[Site] = S;
  St.UsesOf[Site].clear();
  St.LastWork[S] = {Site};
}

void FunctionRun::freeAsync(OrderState &St, const Stmt *Site, unsigned Ptr, unsigned S,
                            const std::string &What) {
  if (Ptr == Unknown || S == Unknown)
    return;
  // The free is work on S that names the memory: it needs the allocation
  // ordered before it like any other use.
  enqueue(St, Site, S, {Ptr}, What, false);
  auto Held = St.Holds.find(Ptr);
  if (Held == St.Holds.end())
    return;
  for (const Stmt *Alloc : Held->second)
    for (const Stmt *Use : St.UsesOf[Alloc]) {
      if (Use == Site || isOrdered(St, Use, S))
        continue;
      unsigned UseStream = St.TokenStream[Use];
      report(FindingKind::StreamFreeUnordered, Site, placeName(Ptr), What,
             streamName(S) + "|" + streamName(UseStream),
             {{locOf(Use), "'" + placeName(Ptr) + "' is used on " + streamName(UseStream) +
                               " here, and nothing orders that work before the free"}});
    }
  for (const Stmt *Alloc : Held->second) {
    St.UsesOf.erase(Alloc);
    St.Tokens.erase(Alloc);
    St.TokenStream.erase(Alloc);
  }
  St.Holds.erase(Held);
}

void FunctionRun::record(OrderState &St, const Stmt *Site, unsigned Event, unsigned S) {
  if (Event == Unknown)
    return;
  EventFacts E;
  if (S != Unknown)
    for (const auto &Tok : St.Tokens)
      if (isOrdered(St, Tok.first, S))
        E.Tokens.insert(Tok.first);
  unsigned In = captureOf(St, S);
  E.RecordedIn = {In == Unknown ? OutsideCapture : In};
  if (S == Unknown)
    E.RecordedIn.clear();
  E.RecordSites = {Site};
  St.Events[Event] = std::move(E);
  if (S != Unknown)
    checkLegacyDuringCapture(St, Site, S, calleeName(dyn_cast<clang::CallExpr>(Site)));
}

void FunctionRun::wait(OrderState &St, const clang::CallExpr *Site, unsigned S, unsigned Event,
                       const OrderEffect &Eff) {
  if (S == Unknown)
    return;
  auto E = St.Events.find(Event);
  if (E == St.Events.end()) {
    // An event this function did not record: it may stand for any work.
    for (auto &Tok : St.Tokens)
      Tok.second.Ordered |= bit(S);
    return;
  }
  checkIsolation(St, Site, S, Event, Eff);
  for (const Stmt *Tok : E->second.Tokens)
    if (auto T = St.Tokens.find(Tok); T != St.Tokens.end())
      T->second.Ordered |= bit(S);
  // Waiting on an event recorded in an open capture forks S into it; a
  // stream that captures already cannot join another (the isolation or
  // merge error just reported).
  for (unsigned Origin : E->second.RecordedIn) {
    if (captureOf(St, S) != Unknown)
      break;
    auto C = St.Captures.find(Origin);
    if (C == St.Captures.end() || (C->second.Members & bit(S)))
      continue;
    C->second.Members |= bit(S);
    C->second.ForkedAt[S] = Site;
  }
  St.Tokens[Site] = {bit(S), false};
  St.TokenStream[Site] = S;
  St.LastWork[S] = {Site};
}

void FunctionRun::syncStream(OrderState &St, unsigned S) {
  if (S == Unknown) {
    syncAll(St);
    return;
  }
  for (auto &Tok : St.Tokens)
    if (isOrdered(St, Tok.first, S))
      Tok.second.HostDone = true;
}

void FunctionRun::syncEvent(OrderState &St, unsigned Event) {
  auto E = St.Events.find(Event);
  if (E == St.Events.end()) {
    syncAll(St);
    return;
  }
  for (const Stmt *Tok : E->second.Tokens)
    if (auto T = St.Tokens.find(Tok); T != St.Tokens.end())
      T->second.HostDone = true;
}

void FunctionRun::syncAll(OrderState &St) {
  for (auto &Tok : St.Tokens)
    Tok.second.HostDone = true;
}

} // namespace streams
} // namespace cgt
