//===- StreamEngine.h - the lattice of the stream-order dataflow -*- C++ -*-===//
//
// What one program point knows about the order of work on streams.
//
// A *token* is one piece of enqueued work whose order matters: a
// stream-ordered allocation, or a use of such memory (a launch, an async
// copy). Each token carries the set of streams whose *later* work is known
// to run after it (`Ordered`, initially its own stream) and whether the host
// has waited for it (`HostDone`). Edges:
//
//   cudaEventRecord(e, s)      e := { tokens ordered before s's next work }
//   cudaStreamWaitEvent(b, e)  every token of e: Ordered += b
//   cudaStreamSynchronize(s)   every token ordered before s: HostDone
//   cudaEventSynchronize(e)    every token of e: HostDone
//   cudaDeviceSynchronize()    every token: HostDone
//   work on the legacy stream  every token ordered before it: Ordered += legacy
//
// and the legacy stream's implicit synchronisation with blocking streams is
// read by isOrdered (OrderTransfer.cpp): work on the legacy stream runs
// after earlier work of every blocking stream, and work on a blocking stream
// after earlier legacy work. A stream created with cudaStreamNonBlocking
// takes part in neither; a stream the function did not create may be
// blocking.
//
// Join: the facts that *order* (Ordered, HostDone, what an event holds) are
// unions, and so are the tokens and what pointers hold: a use is reported
// straight away only when no path into it ordered it. The facts that *open*
// something (a capture, an end-capture whose status nobody read) are
// intersections: a capture finding needs the capture open on every path.
// Both choices never add a report no path can reach; flags that pair an
// ordering with the work it orders (`if (multi) {record; wait}` ...
// `if (multi) launch on b`) stay silent.
//
// Each ordering fact is also kept as it holds on *every* path (MustOrdered,
// MustHostDone, MustTokens: intersections at a join, except along a loop's
// back edge, where an iteration's ordering counts as the loop's). Work that
// is ordered on some paths into it and not on every one is a *gap*; a gap is
// reported only once one path that an SMT solver accepts reaches it with
// nothing ordering it (PathGaps.cpp): a sync on one branch of a poll, a
// wait under a flag the use does not test.
//
// Streams, events and pointers are *places*: a variable, a member of `this`
// or of a local struct or pointer parameter, an array element; a local
// copied from another place is that place. Two different places are two
// different streams; anything else (a call's result, an element at a
// variable index compared with another) is unknown and orders everything.
// Members a class's every constructor sets from one parameter, and nothing
// else writes, are one place (MemberAliases.cpp).
//
//===----------------------------------------------------------------------===//
#ifndef CUDAGRAPH_TIDY_STREAMS_STREAMENGINE_H
#define CUDAGRAPH_TIDY_STREAMS_STREAMENGINE_H

#include "AstWalk/WrittenCalls.h"
#include "Streams/GapRegions.h"
#include "Streams/StreamOrder.h"
#include "clang/AST/ParentMap.h"
#include "clang/Analysis/CFG.h"
#include "llvm/ADT/DenseMap.h"
#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

namespace cgt {
namespace streams {

using clang::Expr;
using clang::Stmt;

// Reading the expressions the engine follows (StreamIds.cpp); the helper
// summaries read their arguments the same way.
/// The expression a defaulted argument stands for.
const Expr *stripDefault(const Expr *E);
/// An integer constant, or nothing (value-dependent or not constant).
std::optional<long long> constantOf(const Expr *E, clang::ASTContext &Ctx);
/// The default stream written as 0, NULL or nullptr.
bool isDefaultStreamLiteral(const Expr *E, clang::ASTContext &Ctx);
/// The pointer memory is named by, through casts, `p + n` and `&p[i]`.
const Expr *memoryBase(const Expr *E);

/// Stream ids of one function. 0 and 1 are the default streams; places
/// get ids from 2 on, at most 64 in all (the Ordered masks).
enum : unsigned { LegacyStream = 0, PerThreadStream = 1, FirstPlaceId = 2 };
constexpr unsigned Unknown = ~0u;
constexpr unsigned MaxStreams = 64;

/// A variable, a member of one (or of `this`: Base null), an array element
/// at a constant index (Index >= 0) or at one written the same (Text).
struct PlaceKey {
  const clang::ValueDecl *Base = nullptr;
  const clang::ValueDecl *Member = nullptr;
  long long Index = -1;
  std::string Text; ///< a non-constant index, as written
  bool operator<(const PlaceKey &O) const {
    return std::tie(Base, Member, Index, Text) < std::tie(O.Base, O.Member, O.Index, O.Text);
  }
};

enum class Blocking { Unknown, Yes, No };

struct StreamInfo {
  PlaceKey Key;
  std::string Name;
  Blocking IsBlocking = Blocking::Unknown;
  /// An element at a non-constant index: equal only to itself, never known
  /// to differ from another element or stream.
  bool Fuzzy = false;
  bool CreatedHere = false; ///< this function creates it (IsBlocking is its flags)
};

struct TokenFacts {
  uint64_t Ordered = 0;
  bool HostDone = false;
  uint64_t MustOrdered = 0; ///< Ordered on every path
  bool MustHostDone = false;
  /// Work just enqueued on a stream with this mask: ordered before its own
  /// stream's later work only.
  static TokenFacts own(uint64_t StreamBit) { return {StreamBit, false, StreamBit, false}; }
  bool operator==(const TokenFacts &O) const {
    return Ordered == O.Ordered && HostDone == O.HostDone && MustOrdered == O.MustOrdered &&
           MustHostDone == O.MustHostDone;
  }
};

/// Where an event was last recorded: outside every capture, or in the
/// capture of the stream with this id.
constexpr unsigned OutsideCapture = Unknown - 1;

struct EventFacts {
  std::set<const Stmt *> Tokens;     ///< work the event's completion implies done
  std::set<const Stmt *> MustTokens; ///< the same, on every path
  std::set<unsigned> RecordedIn;     ///< capture origins, or OutsideCapture
  std::set<const Stmt *> RecordSites;
  bool operator==(const EventFacts &O) const {
    return Tokens == O.Tokens && MustTokens == O.MustTokens && RecordedIn == O.RecordedIn &&
           RecordSites == O.RecordSites;
  }
};

struct CaptureFacts {
  const Stmt *Begin = nullptr;
  uint64_t Members = 0;                       ///< streams in the capture
  std::map<unsigned, const Stmt *> ForkedAt;  ///< member -> the wait that forked it
  bool operator==(const CaptureFacts &O) const {
    return Begin == O.Begin && Members == O.Members && ForkedAt == O.ForkedAt;
  }
};

/// A graph from an end-capture whose status nobody has read yet.
struct UncheckedGraph {
  const Stmt *EndSite = nullptr;
  const clang::VarDecl *StatusVar = nullptr; ///< null: the status was dropped
  bool operator==(const UncheckedGraph &O) const {
    return EndSite == O.EndSite && StatusVar == O.StatusVar;
  }
};

struct OrderState {
  bool Reached = false;
  std::map<unsigned, std::set<const Stmt *>> Holds;    ///< pointer id -> allocation sites
  std::map<const Stmt *, TokenFacts> Tokens;
  std::map<const Stmt *, unsigned> TokenStream;        ///< a token's stream
  std::map<const Stmt *, std::set<const Stmt *>> UsesOf; ///< allocation -> its uses
  /// Uses of memory this function did not allocate (a parameter, a member):
  /// a stream-ordered free of it must still come after them.
  std::map<unsigned, std::set<const Stmt *>> UsesOfPlace;
  std::map<unsigned, EventFacts> Events;
  std::map<unsigned, CaptureFacts> Captures;           ///< open, by origin stream
  std::map<unsigned, std::set<const Stmt *>> LastWork; ///< stream -> its latest work
  std::map<unsigned, UncheckedGraph> Unchecked;        ///< graph pointer id ->
  /// Locals holding a poll's status (PollEdges.cpp), on every path.
  std::map<const clang::VarDecl *, const clang::CallExpr *> PollHeld;

  bool operator==(const OrderState &O) const {
    return Reached == O.Reached && Holds == O.Holds && Tokens == O.Tokens &&
           TokenStream == O.TokenStream && UsesOf == O.UsesOf &&
           UsesOfPlace == O.UsesOfPlace && Events == O.Events &&
           Captures == O.Captures && LastWork == O.LastWork && Unchecked == O.Unchecked &&
           PollHeld == O.PollHeld;
  }
  /// The join described in the head comment; `AlongBackEdge`: O comes
  /// around a loop (its every-path facts are united, not intersected).
  void joinWith(const OrderState &O, bool AlongBackEdge = false);
};

/// What a helper defined in the translation unit does, in source order, to
/// the streams and memory its parameters name (HelperEffects.cpp).
struct HelperStep {
  /// In MemoryParams of an Alloc: the helper returns the memory.
  static constexpr int ReturnValue = -3;
  OrderRole Role = OrderRole::None;
  int StreamParam = -1;      ///< -1: the default stream
  std::vector<int> MemoryParams;
  const Stmt *Site = nullptr; ///< in the helper, for notes
  /// Runs on every call of the helper: in its straight-line prefix, before
  /// any branch, loop or return (HelperEffects.cpp, straightLineCalls).
  bool Unconditional = false;
};
struct HelperSummary {
  bool Opaque = false;  ///< it orders work in ways the steps cannot say
  /// It begins or ends a capture: at its call a capture open on a stream it
  /// gets may have ended. A capture orders no work, so its tokens stay.
  bool Captures = false;
  std::vector<HelperStep> Steps;
};

/// One analysis of one function.
class FunctionRun {
public:
  FunctionRun(StreamOrderAnalyzer::Impl &A, const clang::FunctionDecl *FD);
  std::vector<LifetimeFinding> run();

  // StreamIds.cpp
  unsigned streamOf(const Expr *E);
  unsigned defaultStream() const { return PerThreadDefault ? PerThreadStream : LegacyStream; }
  unsigned eventOf(const Expr *E) { return placeId(E); }
  unsigned pointerOf(const Expr *E);
  unsigned allocatedAddressOf(const Expr *E);
  unsigned pointerOutOf(const Expr *E);
  std::string streamName(unsigned S) const;
  std::string placeName(unsigned Id) const;
  bool nonBlocking(unsigned S) const { return blockingOf(S) == Blocking::No; }
  Blocking blockingOf(unsigned S) const;
  bool fuzzy(unsigned S) const { return S < Streams.size() && Streams[S].Fuzzy; }

  // OrderTransfer.cpp
  /// Token's work is ordered before B's next work (on some path into St, or
  /// with `OnEveryPath` on every one).
  bool isOrdered(const OrderState &St, const Stmt *Token, unsigned B,
                 bool OnEveryPath = false) const;
  void enqueue(OrderState &St, const Stmt *Site, unsigned S, const std::vector<unsigned> &Mem,
               const std::string &What, bool Synchronous, bool CheckCapture = true);
  /// Ptr Unknown with Returned: the call's value is the memory (bound where
  /// it is assigned: bindReturned).
  void allocate(OrderState &St, const Stmt *Site, unsigned Ptr, unsigned S,
                bool Returned = false);
  void bindReturned(OrderState &St, unsigned To, const Expr *Value);
  void freeAsync(OrderState &St, const Stmt *Site, unsigned Ptr, unsigned S,
                 const std::string &What);
  void record(OrderState &St, const Stmt *Site, unsigned Event, unsigned S);
  void wait(OrderState &St, const clang::CallExpr *Site, unsigned S, unsigned Event,
            const OrderEffect &Eff);
  void syncStream(OrderState &St, unsigned S);
  void syncEvent(OrderState &St, unsigned Event);
  void syncAll(OrderState &St);

  // CaptureStructure.cpp
  void beginCapture(OrderState &St, const Stmt *Site, unsigned S);
  void endCapture(OrderState &St, const clang::CallExpr *Site, const FunctionModel &M);
  void instantiate(OrderState &St, const clang::CallExpr *Site, unsigned Graph);
  void readsValue(OrderState &St, const clang::ImplicitCastExpr *Read);
  void checkLegacyDuringCapture(OrderState &St, const Stmt *Site, unsigned S,
                                const std::string &What);
  void checkIsolation(OrderState &St, const clang::CallExpr *Site, unsigned S, unsigned Event,
                      const OrderEffect &Eff);
  /// The capture whose member the stream is, or Unknown.
  unsigned captureOf(const OrderState &St, unsigned S) const;

  // PollEdges.cpp
  struct PollTest {
    const clang::CallExpr *Poll;
    bool DoneOnTrue; ///< the true edge knows the poll found the work done
  };
  /// The state along the edge to From's SuccIndex-th successor, where that
  /// edge knows a poll succeeded; nothing where it changes nothing.
  std::optional<OrderState> alongEdge(const clang::CFGBlock *From, unsigned SuccIndex,
                                      const OrderState &St);
  std::optional<PollTest> pollTestOf(const Expr *Cond, const OrderState &St) const;
  const clang::CallExpr *pollCallOf(const Expr *Status, const OrderState &St) const;
  void notePollStatus(OrderState &St, const clang::VarDecl *To, const Expr *Value);
  void notePollAssignment(OrderState &St, const clang::BinaryOperator *BO);

  // PathGaps.cpp
  /// Work ordered on some paths into Site and not on every one.
  struct PathGap {
    FindingKind Kind;
    const Stmt *Site;
    const Stmt *Token; ///< the allocation (a use) or the use (a free)
    unsigned Stream;   ///< the stream Site's work runs on
    std::string Var, Called, Detail;
    std::vector<PathNote> Notes;
  };
  /// Token's work is not ordered before Site's: reported, or, while a
  /// witness path is searched, recorded as that path's hit.
  void unordered(const PathGap &G);
  /// Token's work is ordered before Site's on some paths only.
  void notePathGap(PathGap G);
  /// Reports each gap one path that can happen leaves open.
  void confirmPathGaps(const clang::CFG &Cfg);

  // StreamOrder.cpp
  void transfer(OrderState &St, const Stmt *S);
  void report(FindingKind K, const Stmt *At, std::string Var, std::string Called,
              std::string Detail, std::vector<PathNote> Notes);
  clang::SourceLocation locOf(const Stmt *S) const;
  std::string calleeName(const clang::CallExpr *Call) const;

  StreamOrderAnalyzer::Impl &A;
  const clang::FunctionDecl *FD;
  clang::ASTContext &Ctx;
  clang::ParentMap PM;
  bool Reporting = false;
  bool PerThreadDefault = false;
  /// Applying a helper's steps: no capture-structure report rests on them.
  bool QuietCapture = false;

private:
  unsigned placeId(const Expr *E);
  /// The id of the place E names as written, or Unknown.
  unsigned keyedId(const Expr *E);
  bool keyOf(const Expr *E, PlaceKey &K, std::string &Name, bool &Fuzzy);
  /// The field whose place a member shares (MemberAliases.cpp), or itself.
  const clang::FieldDecl *placeOfMember(const clang::FieldDecl *F);
  unsigned idFor(const PlaceKey &K, const std::string &Name, bool Fuzzy);
  void scanStreamCreations();
  void applyCall(OrderState &St, const clang::CallExpr *Call);
  void applyLaunch(OrderState &St, const clang::CUDAKernelCallExpr *Launch);
  void applyModel(OrderState &St, const clang::CallExpr *Call, const FunctionModel &M);
  void applyHelper(OrderState &St, const clang::CallExpr *Call, const HelperSummary &H);
  void applyUnknownCall(OrderState &St, const clang::CallExpr *Call);
  /// Drops the captures open on the streams Call is given; true when it is
  /// given a stream or an event.
  bool forgetCapturesOn(OrderState &St, const clang::CallExpr *Call);
  std::vector<unsigned> memoryArgs(const clang::CallExpr *Call, const std::vector<int> &Idx);

  std::map<PlaceKey, unsigned> Ids;
  std::vector<StreamInfo> Streams; ///< by id (places of every flavour)
  std::map<const clang::VarDecl *, const Expr *> CopiedFrom; ///< local := place
  std::set<std::pair<const Stmt *, std::string>> Reported;
  std::vector<LifetimeFinding> Findings;

  // PathGaps.cpp
  /// One search's goal and what it has found.
  struct WitnessSearch {
    const PathGap &Goal;
    bool Hit = false;
    /// The same finding as the goal: at its site, for its token; for a
    /// capture's member, for the member (a path's last work on it may be
    /// another statement than the one the joined states named).
    bool matches(const PathGap &G) const {
      return G.Site == Goal.Site && G.Kind == Goal.Kind &&
             (G.Kind == FindingKind::CaptureUnjoined ? G.Detail == Goal.Detail
                                                      : G.Token == Goal.Token);
    }
  };
  /// How a gap search ended (counted for --stats: streamStats()).
  enum class SearchEnd { Found, NoPath, Cut };
  SearchEnd searchWitness(const clang::CFG &Cfg, const PathGap &G, std::vector<PathNote> &Notes);
  // GapRegions.cpp
  /// Whether every way through R, from the branch that opens it, leaves
  /// St as it is and does not reach the searched gap's site.
  bool passesUnchanged(const clang::CFGBlock *Branch, const BranchRegions::Region &R,
                       const OrderState &St);
  std::optional<unsigned> failingWayOf(const Expr *Cond, const OrderState &St) const;
  std::vector<PathGap> Gaps;
  WitnessSearch *Searching = nullptr;
  /// Locals bound to a test of two handles' identity (computed once).
  std::optional<std::set<const clang::VarDecl *>> HandleTests;
  /// The fixpoint's states at each block's exit and the loops' back edges
  /// (StreamOrder.cpp, run): what the gap notes are read from.
  std::vector<OrderState> FixedOut;
  std::set<std::pair<unsigned, unsigned>> BackEdges;
};

struct StreamOrderAnalyzer::Impl {
  Impl(const ApiModel &Model, clang::ASTContext &Ctx, std::shared_ptr<WrittenCallsIndex> Calls)
      : Model(Model), Ctx(Ctx),
        Calls(Calls ? std::move(Calls) : std::make_shared<WrittenCallsIndex>()) {}
  const FunctionModel *modelFor(const clang::CallExpr *Call) const;
  /// The summary of a helper defined in this translation unit, or null.
  const HelperSummary *helperOf(const clang::CallExpr *Call);
  /// Does the body do anything this engine follows?
  bool isInteresting(const clang::FunctionDecl *FD);
  /// The flags every creation of this member or global in the file gives
  /// (FileStreamFlags.cpp).
  Blocking fileWideBlocking(const clang::ValueDecl *D);

  const ApiModel &Model;
  clang::ASTContext &Ctx;
  std::shared_ptr<WrittenCallsIndex> Calls;
  std::map<const clang::FunctionDecl *, std::unique_ptr<HelperSummary>> Helpers;
  std::set<const clang::FunctionDecl *> InProgress;
  /// isInteresting's verdict on a call, by (callee, argument count): the
  /// same few callees are called from hundreds of bodies.
  llvm::DenseMap<std::pair<const clang::FunctionDecl *, unsigned>, bool> CallIsInteresting;
  std::optional<std::map<const clang::ValueDecl *, Blocking>> FileStreamFlags;
  /// Members that are one place under two names, by class (MemberAliases.cpp).
  std::map<const clang::CXXRecordDecl *, std::map<const clang::FieldDecl *, const clang::FieldDecl *>>
      MemberAliases;
};

} // namespace streams
} // namespace cgt

#endif
