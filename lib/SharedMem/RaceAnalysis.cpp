//===- RaceAnalysis.cpp - races and barrier divergence ----------------------===//
//
// See RaceAnalysis.h and, for the model, SyncModel.h.
//
// Races. An access is judged only when nothing on its path is undecided and
// thread-dependent, its thread's phase is known, the traces of all threads
// agree up to it, and (without a launch shape) nothing in its offset or path
// depends on the shape. Accesses are grouped by object (all `extern
// __shared__` arrays are one object: they share the dynamic region), label
// and symbolic part of the offset; offsets whose symbols change between
// iterations (a symbolic loop's counter, values loaded inside it) are grouped
// per iteration as well. A group with a data-dependent offset in it gets no
// verdict. Inside a group, constant parts are exact: two entries overlap when
// their byte ranges do. A pair is a race when the threads differ, one
// entry stores, not both are atomics, their uniform-branch arms can hold
// together, and, for two lanes of one warp, they met the same __syncwarps in
// the interval. Two plain stores are reported only when their values may
// differ: both known and different (`last = threadIdx.x`), or one known and
// the other not (`s[w] = 0` against `s[w] = sum`). Every lane storing one
// warp-reduced sum, or `flag = 1`, stores one value; SameValueStores reports
// them all.
// Atomics race only with plain stores.
//
// Divergence. A test decided per thread whose code holds a barrier, where
// one live thread meets barriers in its arm that another, taking the other
// arm and not returning from the kernel there, does not, and that other
// thread goes on to wait at a barrier (one that skips and only exits later
// no longer counts at the barrier on sm_70+, and synccheck is silent; a grid
// barrier alike). Without it, two threads whose traces name different
// barrier sites at one position. A __syncwarp whose constant mask omits the
// calling lane. And the grid barriers the interpreter found split between
// blocks (SyncLog::GridSplits, InterpreterGrid.cpp).
//
//===----------------------------------------------------------------------===//
#include "SharedMem/RaceAnalysis.h"

#include "llvm/ADT/DenseMap.h"
#include <algorithm>
#include <map>
#include <tuple>

using namespace clang;

namespace cgt::smem {

const char *skipText(SkipReason R) {
  switch (R) {
  case SkipReason::AsyncCopy:
    return "async copy";
  case SkipReason::NamedBarrier:
    return "named barrier";
  case SkipReason::InlineAsm:
    return "inline asm";
  case SkipReason::OpaqueCallee:
    return "opaque callee";
  case SkipReason::MaySync:
    return "may synchronise";
  case SkipReason::Count:
    break;
  }
  return "unknown";
}

uint32_t alignedPrefix(const SyncLog &Log) {
  size_t Longest = 0;
  for (const ThreadSync &T : Log.Threads)
    Longest = std::max(Longest, T.Trace.size());
  for (size_t Pos = 0; Pos < Longest; ++Pos) {
    const SyncEvent *Ref = nullptr;
    for (const ThreadSync &T : Log.Threads) {
      if (Pos >= T.Trace.size() || Pos >= T.LostAt)
        continue;
      if (!Ref)
        Ref = &T.Trace[Pos];
      else if (*Ref != T.Trace[Pos])
        return static_cast<uint32_t>(Pos);
    }
  }
  return UINT32_MAX;
}

namespace {

enum EntryFlags : uint8_t {
  EF_Store = 1,
  EF_Load = 2,
  EF_Atomic = 4,
  EF_WarpLost = 8,
  EF_Wrapped = 16, ///< a loop body's last interval, placed at its first
  EF_Symbolic = 32, ///< the offset has unknown terms, the same in its group
};

struct Entry {
  int64_t Lo = 0;
  uint32_t Bytes = 1;
  uint32_t Tid = 0;
  uint32_t Rec = 0;
  uint32_t Arm = 0;
  uint64_t WarpSig = 0;
  uint64_t Value = 0;
  uint8_t Flags = 0;
};

/// Object, label, symbolic part of the offset, and the iteration for
/// offsets whose symbols change between iterations.
struct GroupKey {
  const void *Base;
  uint32_t Phase;
  SymVal::TermList Terms;
  uint32_t Iter;
  bool operator<(const GroupKey &O) const {
    return std::tie(Base, Phase, Terms, Iter) < std::tie(O.Base, O.Phase, O.Terms, O.Iter);
  }
};

/// All `extern __shared__` arrays of a kernel start at the dynamic region.
const void *baseOf(const VarDecl *V) {
  static const char Dynamic = 0;
  if (V->getType()->isIncompleteArrayType())
    return &Dynamic;
  return V;
}

/// Can two interned arm lists hold at once: no branch taken both ways?
class ArmCompat {
public:
  explicit ArmCompat(const SyncLog &Log) : Log(Log) {}
  bool operator()(uint32_t A, uint32_t B) {
    if (A == B || A == 0 || B == 0)
      return true;
    auto Key = std::make_pair(std::min(A, B), std::max(A, B));
    auto It = Memo.find(Key);
    if (It != Memo.end())
      return It->second;
    const auto &LA = Log.Arms[A], &LB = Log.Arms[B];
    bool Ok = true;
    for (size_t I = 0, J = 0; I < LA.size() && J < LB.size() && Ok;) {
      if (LA[I].first < LB[J].first)
        ++I;
      else if (LB[J].first < LA[I].first)
        ++J;
      else
        Ok = LA[I++].second == LB[J++].second;
    }
    Memo[Key] = Ok;
    return Ok;
  }

private:
  const SyncLog &Log;
  std::map<std::pair<uint32_t, uint32_t>, bool> Memo;
};

struct Witness {
  const Entry *S = nullptr, *O = nullptr;
  bool IntraWarp = false;
};

/// Pairs in one group; one witness per (record pair, class).
class PairSearch {
public:
  PairSearch(const SyncLog &Log, bool SameValue, const std::map<uint32_t, uint32_t> &WrapArm)
      : Compat(Log), SameValue(SameValue), WrapArm(WrapArm) {}
  std::map<std::tuple<uint32_t, uint32_t, bool>, Witness> Found;
  uint64_t Work = 0;
  /// Pair checks per run before giving up on the rest (recall, never
  /// precision): a block of 1024 threads reading one word is 10^6 pairs.
  static constexpr uint64_t MaxWork = 8000000;

  void run(std::vector<Entry> &G, uint32_t Phase) {
    // The iterations of a loop without a barrier repeat the same access of
    // the same thread in one interval: one copy judges them all.
    auto Fields = [](const Entry &E) {
      return std::tie(E.Lo, E.Tid, E.Rec, E.Bytes, E.Arm, E.WarpSig, E.Value, E.Flags);
    };
    std::stable_sort(G.begin(), G.end(),
                     [&](const Entry &A, const Entry &B) { return Fields(A) < Fields(B); });
    G.erase(std::unique(G.begin(), G.end(),
                        [&](const Entry &A, const Entry &B) { return Fields(A) == Fields(B); }),
            G.end());
    int64_t MaxBytes = 1;
    for (const Entry &E : G)
      MaxBytes = std::max<int64_t>(MaxBytes, E.Bytes);
    for (const Entry &S : G) {
      if (!(S.Flags & EF_Store))
        continue;
      auto From = std::lower_bound(G.begin(), G.end(), S.Lo - MaxBytes + 1,
                                   [](const Entry &E, int64_t V) { return E.Lo < V; });
      for (auto It = From; It != G.end() && It->Lo < S.Lo + int64_t(S.Bytes); ++It) {
        if (++Work > MaxWork)
          return;
        if (knownPair(S.Rec, It->Rec))
          continue;
        check(S, *It, Phase);
      }
    }
  }

private:
  /// An inter-warp witness exists for this pair of accesses already: an
  /// intra-warp one would be reported at the same store, below it.
  bool knownPair(uint32_t A, uint32_t B) const {
    return Found.count(std::make_tuple(A, B, false)) || Found.count(std::make_tuple(B, A, false));
  }
  void check(const Entry &S, const Entry &O, uint32_t Phase) {
    if (S.Tid == O.Tid || O.Lo + int64_t(O.Bytes) <= S.Lo)
      return;
    // Atomics race only with plain stores (a lost update); a plain read of
    // an atomically updated counter is the polling idiom (stale, not lost).
    bool SA = S.Flags & EF_Atomic, OA = O.Flags & EF_Atomic;
    if ((SA && OA) || (SA && !(O.Flags & EF_Store)) || (OA && !(S.Flags & EF_Store)))
      return;
    bool SW = S.Flags & EF_Wrapped, OW = O.Flags & EF_Wrapped;
    if (SW && OW)
      return; // both from the body's end: judged at their own label
    if (SW || OW) {
      // The next iteration's start pairs with the end only outside any
      // branch on the iteration itself.
      auto It = WrapArm.find(Phase);
      if (It == WrapArm.end() || (SW ? O.Arm : S.Arm) != It->second)
        return;
    }
    if (!Compat(S.Arm, O.Arm))
      return;
    bool OStore = O.Flags & EF_Store;
    bool PureStores = OStore && !(S.Flags & EF_Load) && !(O.Flags & EF_Load);
    // Two plain stores race in a way that matters only when they store
    // different values: every lane storing a warp-reduced sum, or a flag of
    // 1, is the same value. Unless asked, values must be known to differ,
    // or one known and the other not (a slot cleared to 0 by one warp while
    // another stores its sum there: the sum is 0 only by chance).
    if (PureStores && !SameValue && (S.Value == O.Value || (!S.Value && !O.Value)))
      return;
    bool Intra = S.Tid / WarpSize == O.Tid / WarpSize;
    if (Intra && ((S.Flags | O.Flags) & EF_WarpLost || S.WarpSig != O.WarpSig))
      return; // ordered by a __syncwarp, or unknown
    uint32_t A = S.Rec, B = O.Rec;
    if (OStore && A > B)
      std::swap(A, B); // write-write: one finding per unordered pair
    auto Key = std::make_tuple(A, B, Intra);
    if (!Found.count(Key))
      Found[Key] = Witness{&S, &O, Intra};
  }

  ArmCompat Compat;
  bool SameValue;
  const std::map<uint32_t, uint32_t> &WrapArm;
};

bool judged(const Instance &I, uint32_t Aligned, bool Known) {
  if (I.Guarded || (I.Sync & SB_Lost) || I.TraceLen > Aligned)
    return false;
  return Known || !I.Off.ShapeDep;
}

/// The thread's offset is not known relative to the other threads': an
/// unknown, or a symbol of its own. An offset over symbols every thread
/// shares (a parameter, the iteration count of a loop run symbolically, a
/// buffer index computed from it) plus the thread's own concrete part is
/// compared exactly with the others' in its group.
bool dataDependent(const Instance &I) {
  return I.Off.Top || (I.Sync & SB_LaneSym);
}

} // namespace

std::vector<RaceFinding> findRaces(const std::vector<AccessRecord> &Recs, const SyncLog &Log,
                                   const LaunchConfig &Cfg, bool SameValueStores,
                                   std::set<std::string> &Skips) {
  for (SkipReason R : Log.Reasons)
    Skips.insert(skipText(R));
  if (!Log.WholeKernel.empty())
    return {};
  std::set<const void *> Opaque;
  for (const auto &[V, Why] : Log.SkippedArrays)
    Opaque.insert(baseOf(V));
  uint32_t Aligned = alignedPrefix(Log);
  std::map<uint32_t, uint32_t> TailToHead, WrapArm;
  for (const WrapLoop &W : Log.Wraps) {
    TailToHead[W.Tail] = W.Head;
    WrapArm[W.Head] = W.Arm;
  }

  std::map<GroupKey, std::vector<Entry>> Groups;
  std::set<std::pair<const void *, uint32_t>> Unjudged;
  for (uint32_t R = 0; R < Recs.size(); ++R) {
    const AccessRecord &Rec = Recs[R];
    const void *Base = baseOf(Rec.Array);
    if (Opaque.count(Base) || (!Rec.Load && !Rec.Store))
      continue;
    for (const Instance &I : Rec.Inst) {
      if (!judged(I, Aligned, Cfg.known()))
        continue;
      if (dataDependent(I)) {
        Unjudged.insert({Base, I.Phase});
        continue;
      }
      Entry E;
      E.Lo = I.Off.C;
      E.Bytes = std::max(1u, Rec.Bytes);
      E.Tid = I.Tid;
      E.Rec = R;
      E.Arm = I.Arm;
      E.WarpSig = I.WarpSig;
      E.Value = I.Value;
      E.Flags = (Rec.Store ? EF_Store : 0) | (Rec.Load ? EF_Load : 0) |
                (Rec.Atomic ? EF_Atomic : 0) | ((I.Sync & SB_WarpLost) ? EF_WarpLost : 0) |
                (I.Off.Terms.empty() ? 0 : EF_Symbolic);
      bool Stable = I.Off.Terms.empty() || (I.Sync & SB_Stable);
      uint32_t Iter = Stable ? UINT32_MAX : I.SymIterKey;
      Groups[GroupKey{Base, I.Phase, I.Off.Terms, Iter}].push_back(E);
      // The end of a loop body meets the start of its next iteration, for
      // offsets that are the same in every iteration.
      auto W = TailToHead.find(I.Phase);
      if (W != TailToHead.end() && I.Off.Terms.empty() && I.Arm == WrapArm[W->second]) {
        Entry C = E;
        C.Flags |= EF_Wrapped;
        Groups[GroupKey{Base, W->second, I.Off.Terms, Iter}].push_back(C);
      }
    }
  }
  if (!Unjudged.empty())
    Skips.insert("data-dependent index");

  PairSearch Search(Log, SameValueStores, WrapArm);
  for (auto &[Key, G] : Groups) {
    if (Unjudged.count({Key.Base, Key.Phase}))
      continue;
    Search.run(G, Key.Phase);
  }
  std::vector<RaceFinding> Out;
  for (const auto &[Key, W] : Search.Found) {
    const AccessRecord &S = Recs[W.S->Rec], &O = Recs[W.O->Rec];
    RaceFinding F;
    F.Store = S.E;
    F.Other = O.E;
    F.Array = S.Array;
    F.StoreVia = S.Via;
    F.OtherVia = O.Via;
    F.OtherIsStore = W.O->Flags & EF_Store;
    F.IntraWarp = W.IntraWarp;
    F.LoopCarried = (W.S->Flags | W.O->Flags) & EF_Wrapped;
    F.StoreTid = W.S->Tid;
    F.OtherTid = W.O->Tid;
    F.Offset = std::max(W.S->Lo, W.O->Lo);
    F.FromSharedStart = W.S->Flags & EF_Symbolic;
    F.Config = Cfg;
    Out.push_back(F);
  }
  return Out;
}

namespace {

/// Does the thread wait at a barrier at or after trace position `From`?
bool waitsLater(const ThreadSync &T, uint32_t From) {
  for (size_t I = From; I < T.Trace.size() && I < T.LostAt; ++I)
    if (T.Trace[I].Barrier)
      return true;
  return false;
}

/// Threads that disagree at one decided test whose code holds a barrier.
void skippedBarriers(const SyncLog &Log, const LaunchConfig &Cfg, bool Aligned,
                     std::vector<DivergenceFinding> &Out) {
  struct Side {
    const Decision *D;
    unsigned Tid;
  };
  std::map<std::pair<const Stmt *, uint64_t>, std::vector<Side>> Tests;
  for (unsigned T = 0; T < Log.Threads.size(); ++T)
    for (const Decision &D : Log.Threads[T].Decisions)
      if (D.At < Log.Threads[T].LostAt && (Cfg.known() || !D.ShapeDep))
        Tests[{D.Branch, D.Iter}].push_back(Side{&D, T});
  std::set<const Expr *> Seen;
  for (const auto &[Key, Sides] : Tests) {
    for (const Side &In : Sides) {
      if (!In.D->Barriers || Seen.count(In.D->FirstBarrier))
        continue;
      for (const Side &Out2 : Sides) {
        const Decision &O = *Out2.D;
        if (O.Arm == In.D->Arm || O.Barriers == In.D->Barriers)
          continue;
        // A thread that skips the barrier and only exits later does not
        // count at it (sm_70+; synccheck is silent there): divergence is a
        // skipping thread that goes on to wait at some barrier, unless the
        // user asks for PTX's stricter .aligned rule. A grid barrier is
        // no different: on an H200 a grid of blocks whose first warp, or
        // all warps but the first, skip grid.sync() and exit completes, and
        // synccheck is silent (docs/validation.md).
        bool Exits = O.Left || !waitsLater(Log.Threads[Out2.Tid], O.At);
        if (Exits && !Aligned)
          continue;
        DivergenceFinding F;
        F.K = DivergenceFinding::Skipped;
        F.Barrier = In.D->FirstBarrier;
        F.Branch = Key.first;
        F.TidIn = In.Tid;
        F.TidOut = Out2.Tid;
        F.SkipperExits = Exits;
        F.Config = Cfg;
        Out.push_back(F);
        Seen.insert(In.D->FirstBarrier);
        break;
      }
    }
  }
}

/// Two threads at different barrier sites at one trace position.
void misalignedBarriers(const SyncLog &Log, const LaunchConfig &Cfg,
                        std::vector<DivergenceFinding> &Out) {
  uint32_t Pos = alignedPrefix(Log);
  if (Pos == UINT32_MAX)
    return;
  // Without a launch shape, traces split by a test on the shape say nothing
  // of other shapes.
  if (!Cfg.known())
    for (const ThreadSync &T : Log.Threads)
      for (const Decision &D : T.Decisions)
        if (D.ShapeDep && D.At <= Pos)
          return;
  const ThreadSync *Ref = nullptr;
  unsigned RefTid = 0;
  for (unsigned T = 0; T < Log.Threads.size(); ++T) {
    const ThreadSync &TS = Log.Threads[T];
    if (Pos >= TS.Trace.size() || Pos >= TS.LostAt)
      continue;
    if (!Ref) {
      Ref = &TS;
      RefTid = T;
      continue;
    }
    const SyncEvent &A = Ref->Trace[Pos], &B = TS.Trace[Pos];
    if (A == B)
      continue;
    if (!A.Barrier || !B.Barrier || A.Site == B.Site)
      return; // a marker or another iteration: not a verdict
    DivergenceFinding F;
    F.K = DivergenceFinding::Misaligned;
    F.Barrier = static_cast<const Expr *>(A.Site);
    F.OtherBarrier = static_cast<const Expr *>(B.Site);
    F.TidIn = RefTid;
    F.TidOut = T;
    F.Config = Cfg;
    Out.push_back(F);
    return;
  }
}

} // namespace

std::vector<DivergenceFinding> findDivergence(const SyncLog &Log, const LaunchConfig &Cfg,
                                              bool Aligned) {
  std::vector<DivergenceFinding> Out;
  skippedBarriers(Log, Cfg, Aligned, Out);
  // A barrier skipped by some threads misaligns every later one: the first
  // finding says it.
  if (Out.empty())
    misalignedBarriers(Log, Cfg, Out);
  std::set<const Expr *> Masks;
  for (const MaskMisuse &M : Log.Masks) {
    if (!Masks.insert(M.Site).second)
      continue;
    DivergenceFinding F;
    F.K = DivergenceFinding::MaskOmitsCaller;
    F.Barrier = M.Site;
    F.TidIn = M.Tid;
    F.Mask = M.Mask;
    F.Config = Cfg;
    Out.push_back(F);
  }
  for (const GridSplit &S : Log.GridSplits) {
    // Blocks left only where every thread of the block left at the test.
    if (S.OthersLeft && S.Threads < Log.Threads.size())
      continue;
    if (!S.OthersLeft && Log.MaybeBalanced.count(S.Branch))
      continue;
    DivergenceFinding F;
    F.K = DivergenceFinding::GridSplit;
    F.Barrier = S.Barrier;
    F.Branch = S.Branch;
    F.SkipperExits = S.OthersLeft;
    F.Config = Cfg;
    Out.push_back(F);
  }
  return Out;
}

std::string describeSyncShape(const LaunchConfig &C) {
  if (C.known())
    return C.describe();
  return "any block of two or more warps (nothing on these paths depends on the block shape)";
}

void SharedMemAnalyzer::syncFindings(const FunctionDecl *Kernel, const AnalysisOptions &Opts,
                                     KernelReport &Rep, uint64_t &Budget) {
  std::vector<LaunchConfig> Shapes;
  for (const LaunchConfig &C : Rep.Configs)
    if (C.known())
      Shapes.push_back(C);
  if (Shapes.empty() && !Rep.Configs.empty()) {
    // No launch shape: a block of two warps stands for every block of two or
    // more, with what depends on the shape left unjudged.
    LaunchConfig C = Rep.Configs.front();
    if (C.Origin == ShapeOrigin::LaunchBounds && C.Block.count() < 2 * WarpSize)
      return;
    C.Block = BlockShape{2 * WarpSize, 1, 1};
    Shapes.push_back(C);
  }
  std::set<std::pair<const Expr *, const Expr *>> SeenRaces;
  std::set<std::pair<const Expr *, int>> SeenDiv;
  for (const LaunchConfig &Cfg : Shapes) {
    const SyncLog *Log = nullptr;
    const std::vector<AccessRecord> *Recs =
        interpretOnce(Kernel, Cfg, Opts.MaxUnroll, Budget, &Log);
    if (!Recs || !Log) {
      Rep.GaveUp = true;
      return;
    }
    if (Opts.Races)
      for (RaceFinding &F : findRaces(*Recs, *Log, Cfg, Opts.SameValueStores, Rep.RaceSkips))
        if (SeenRaces.insert({F.Store, F.Other}).second)
          Rep.Races.push_back(F);
    if (Opts.Divergence)
      for (DivergenceFinding &F : findDivergence(*Log, Cfg, Opts.AlignedBarriers))
        if (SeenDiv.insert({F.Barrier, int(F.K)}).second)
          Rep.Divergences.push_back(F);
  }
}

} // namespace cgt::smem
