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
//     again while that work still runs. Also for memory the function did
//     not allocate (a parameter, a member): the race is between the use and
//     the free, both here.
//
// Each is reported here when no path into the work ordered it; work ordered
// on some paths only is handed to PathGaps.cpp, which reports it once one
// path that can happen leaves it unordered.
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

bool FunctionRun::isOrdered(const OrderState &St, const Stmt *Token, unsigned B,
                            bool OnEveryPath) const {
  auto T = St.Tokens.find(Token);
  if (T == St.Tokens.end() || B == Unknown)
    return true;
  uint64_t Ordered = OnEveryPath ? T->second.MustOrdered : T->second.Ordered;
  if (OnEveryPath ? T->second.MustHostDone : T->second.HostDone)
    return true;
  auto TS = St.TokenStream.find(Token);
  unsigned Own = TS == St.TokenStream.end() ? Unknown : TS->second;
  if (Own == Unknown || (Ordered & bit(B)))
    return true;
  // An element at a variable index may be any of its array's streams.
  if (fuzzy(B) || fuzzy(Own))
    return true;
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
    if (Held == St.Holds.end()) {
      St.UsesOfPlace[P].insert(Site);
      continue;
    }
    for (const Stmt *Alloc : Held->second) {
      bool Ordered = isOrdered(St, Alloc, S);
      if (!Ordered || (Reporting && !isOrdered(St, Alloc, S, true))) {
        unsigned AllocStream = St.TokenStream[Alloc];
        PathGap G{FindingKind::StreamUseUnordered, Site, Alloc, S, placeName(P), What,
                  streamName(S) + "|" + streamName(AllocStream),
                  {{locOf(Alloc), "'" + placeName(P) + "' is allocated on " +
                                      streamName(AllocStream) + " here"}}};
        if (Ordered)
          notePathGap(std::move(G));
        else
          unordered(G);
      }
      if (!Ordered) {
        // One report per allocation and stream: S's later work is the same race.
        St.Tokens[Alloc].Ordered |= bit(S);
        St.Tokens[Alloc].MustOrdered |= bit(S);
      }
      St.UsesOf[Alloc].insert(Site);
    }
  }
  if (S == LegacyStream)
    for (auto &[Tok, Facts] : St.Tokens) {
      if (isOrdered(St, Tok, LegacyStream))
        Facts.Ordered |= bit(LegacyStream);
      if (isOrdered(St, Tok, LegacyStream, true))
        Facts.MustOrdered |= bit(LegacyStream);
    }
  St.Tokens[Site] = TokenFacts::own(bit(S));
  St.TokenStream[Site] = S;
  St.LastWork[S] = {Site};
  if (Synchronous)
    syncStream(St, S);
}

void FunctionRun::allocate(OrderState &St, const Stmt *Site, unsigned Ptr, unsigned S,
                           bool Returned) {
  if (Ptr == Unknown && !Returned)
    return;
  if (S == Unknown) {
    St.Holds.erase(Ptr);
    return;
  }
  checkLegacyDuringCapture(St, Site, S, calleeName(dyn_cast<clang::CallExpr>(Site)));
  if (!Returned)
    St.Holds[Ptr] = {Site};
  St.Tokens[Site] = TokenFacts::own(bit(S));
  St.TokenStream[Site] = S;
  St.UsesOf[Site].clear();
  St.LastWork[S] = {Site};
}

void FunctionRun::bindReturned(OrderState &St, unsigned To, const Expr *Value) {
  const Expr *Bare = Value ? Value->IgnoreParenCasts() : nullptr;
  if (To == Unknown || !Bare)
    return;
  // An allocating helper's call: its site is the allocation.
  if (const auto *Call = dyn_cast<CallExpr>(Bare); Call && St.UsesOf.count(Call)) {
    St.Holds[To] = {Call};
    return;
  }
  unsigned From = pointerOf(Bare);
  auto Held = From == Unknown ? St.Holds.end() : St.Holds.find(From);
  if (Held != St.Holds.end())
    St.Holds[To] = Held->second;
  else
    St.Holds.erase(To);
}

void FunctionRun::freeAsync(OrderState &St, const Stmt *Site, unsigned Ptr, unsigned S,
                            const std::string &What) {
  if (Ptr == Unknown || S == Unknown)
    return;
  // The free is work on S that names the memory: it needs the allocation
  // ordered before it like any other use.
  enqueue(St, Site, S, {Ptr}, What, false);
  auto Held = St.Holds.find(Ptr);
  std::set<const Stmt *> Uses = St.UsesOfPlace[Ptr];
  if (Held != St.Holds.end())
    for (const Stmt *Alloc : Held->second)
      Uses.insert(St.UsesOf[Alloc].begin(), St.UsesOf[Alloc].end());
  for (const Stmt *Use : Uses) {
    if (Use == Site)
      continue;
    bool Ordered = isOrdered(St, Use, S);
    if (Ordered && (!Reporting || isOrdered(St, Use, S, true)))
      continue;
    unsigned UseStream = St.TokenStream[Use];
    PathGap G{FindingKind::StreamFreeUnordered, Site, Use, S, placeName(Ptr), What,
              streamName(S) + "|" + streamName(UseStream),
              {{locOf(Use), "'" + placeName(Ptr) + "' is used on " + streamName(UseStream) +
                                " here, and nothing orders that work before the free"}}};
    if (Ordered)
      notePathGap(std::move(G));
    else
      unordered(G);
  }
  St.UsesOfPlace.erase(Ptr);
  if (Held == St.Holds.end())
    return;
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
    for (const auto &Tok : St.Tokens) {
      if (isOrdered(St, Tok.first, S))
        E.Tokens.insert(Tok.first);
      if (isOrdered(St, Tok.first, S, true))
        E.MustTokens.insert(Tok.first);
    }
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
    for (auto &Tok : St.Tokens) {
      Tok.second.Ordered |= bit(S);
      Tok.second.MustOrdered |= bit(S);
    }
    return;
  }
  checkIsolation(St, Site, S, Event, Eff);
  for (const Stmt *Tok : E->second.Tokens)
    if (auto T = St.Tokens.find(Tok); T != St.Tokens.end())
      T->second.Ordered |= bit(S);
  for (const Stmt *Tok : E->second.MustTokens)
    if (auto T = St.Tokens.find(Tok); T != St.Tokens.end())
      T->second.MustOrdered |= bit(S);
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
  St.Tokens[Site] = TokenFacts::own(bit(S));
  St.TokenStream[Site] = S;
  St.LastWork[S] = {Site};
}

void FunctionRun::syncStream(OrderState &St, unsigned S) {
  if (S == Unknown) {
    syncAll(St);
    return;
  }
  for (auto &Tok : St.Tokens) {
    if (isOrdered(St, Tok.first, S))
      Tok.second.HostDone = true;
    if (isOrdered(St, Tok.first, S, true))
      Tok.second.MustHostDone = true;
  }
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
  for (const Stmt *Tok : E->second.MustTokens)
    if (auto T = St.Tokens.find(Tok); T != St.Tokens.end())
      T->second.MustHostDone = true;
}

void FunctionRun::syncAll(OrderState &St) {
  for (auto &Tok : St.Tokens)
    Tok.second.HostDone = Tok.second.MustHostDone = true;
}

} // namespace streams
} // namespace cgt
