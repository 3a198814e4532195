//===- InterpreterMemo.cpp - top-level statements every thread runs alike --===//
//
// A kernel's prologue is mostly block-uniform: ggml's mul_mat_vec_f offsets
// its global pointers by blockIdx and the strides (`x += sample_x*stride +
// ...`, fastdiv of the channel), the same for all 1024 threads of an assumed
// block, and that was 40% of the interpreter's steps on ggml's mmvf.cu
// (bench/perf/README.md, issue 37).
//
// The interpreter is deterministic: a statement's run depends on the state
// it starts from (the values of the variables it touches, the ranges of the
// symbols, the path flags, the thread's place in its barrier intervals) and
// on the thread's identity only through threadIdx, the lane-dependent fresh
// symbols (rangedSym) and what it records (accesses, barrier events, warp
// masks, skipped arrays). So thread 0 runs each top-level statement of the
// kernel body and, where the run read no threadIdx, made no fresh symbol,
// recorded nothing, logged no barrier event and left the thread's trace
// empty, keeps a memo: the touched variables' values before and after, the
// per-thread state before and after, the steps taken. Another thread whose
// state before the statement is the same in every part the memo names gets
// the memo's "after" instead of running it, and is charged the same steps
// (so the step budget gives up where it gave up before). Anything else runs
// as before. What the statement added to the run's shared tables (parameter
// and block symbols, interned arm lists, carves, caches) thread 0 added
// already, and the same run would add the same again.
//
//===----------------------------------------------------------------------===//
#include "SharedMem/Interpreter/InterpreterState.h"

using namespace clang;

namespace cgt::smem::detail {

namespace {

/// Equal in every field a later evaluation can read, flags included
/// (SymVal's == compares only the value).
bool same(const SymVal &A, const SymVal &B) {
  return A.Top == B.Top && A.C == B.C && A.Terms == B.Terms && A.ShapeDep == B.ShapeDep &&
         A.ThreadDep == B.ThreadDep && A.BlockDep == B.BlockDep && A.Interior == B.Interior;
}

bool same(const PtrVal &A, const PtrVal &B) {
  return A.VD == B.VD && same(A.Off, B.Off) && A.Carve == B.Carve &&
         same(A.CarveStart, B.CarveStart);
}

template <typename T> bool same(const std::optional<T> &A, const std::optional<T> &B) {
  return A.has_value() == B.has_value() && (!A || same(*A, *B));
}

bool sameRanges(const llvm::DenseMap<uint64_t, Bound> &A,
                const llvm::DenseMap<uint64_t, Bound> &B) {
  if (A.size() != B.size())
    return false;
  for (const auto &KV : A) {
    auto It = B.find(KV.first);
    if (It == B.end() || It->second.Lo != KV.second.Lo || It->second.Hi != KV.second.Hi ||
        It->second.Attainable != KV.second.Attainable)
      return false;
  }
  return true;
}

template <typename Map, typename V = typename Map::mapped_type>
std::optional<V> valueIn(const Map &M, const VarDecl *Var) {
  auto It = M.find(Var);
  return It == M.end() ? std::nullopt : std::optional<V>(It->second);
}

/// `Var`'s value in `M` is `Want` (nullopt: absent), read without a copy.
template <typename Map, typename V = typename Map::mapped_type>
bool sameAs(const Map &M, const VarDecl *Var, const std::optional<V> &Want) {
  auto It = M.find(Var);
  if (It == M.end())
    return !Want;
  return Want && same(It->second, *Want);
}

} // namespace

bool Interp::Marks::operator==(const Marks &O) const {
  return Identity == O.Identity && Fresh == O.Fresh && Records == O.Records &&
         Instances == O.Instances && Trace == O.Trace && Decisions == O.Decisions &&
         Masks == O.Masks && Sets == O.Sets && LostAt == O.LostAt;
}

Interp::Marks Interp::marks() const {
  uint64_t Instances = 0;
  for (const AccessRecord &R : Out)
    Instances += R.Inst.size();
  return Marks{IdentityReads,
               Fresh,
               Out.size(),
               Instances,
               TS->Trace.size(),
               TS->Decisions.size(),
               Sync->Masks.size(),
               Sync->Wraps.size() + Sync->Reasons.size() + Sync->WholeKernel.size() +
                   Sync->SkippedArrays.size() + Sync->GridSplits.size() +
                   Sync->MaybeBalanced.size(),
               TS->LostAt};
}

Interp::MemoScalars Interp::scalars() const {
  return MemoScalars{Guarded,    PathShapeDep, LastCondDep, LastCondShape, LastCondBlock,
                     LastInterior, LastReturnPtr, Cur,      Grid,          ArmFrames,
                     StickyArms,   ArmId,        PendingValue, NoRecord,   AtomicSite,
                     SymRanges};
}

void Interp::setScalars(const MemoScalars &S) {
  Guarded = S.Guarded;
  PathShapeDep = S.PathShapeDep;
  LastCondDep = S.LastCondDep;
  LastCondShape = S.LastCondShape;
  LastCondBlock = S.LastCondBlock;
  LastInterior = S.LastInterior;
  LastReturnPtr = S.LastReturnPtr;
  Cur = S.Cur;
  Grid = S.Grid;
  ArmFrames = S.ArmFrames;
  StickyArms = S.StickyArms;
  ArmId = S.ArmId;
  PendingValue = S.PendingValue;
  NoRecord = S.NoRecord;
  AtomicSite = S.AtomicSite;
  SymRanges = S.Ranges;
}

/// Compared in place: a replay is tried per thread and top-level statement,
/// and copying the state (its symbol ranges a DenseMap) to compare it cost
/// more than most statements it saves.
bool Interp::sameScalarsAs(const MemoScalars &B) const {
  return Guarded == B.Guarded && PathShapeDep == B.PathShapeDep &&
         LastCondDep == B.LastCondDep && LastCondShape == B.LastCondShape &&
         LastCondBlock == B.LastCondBlock && Grid == B.Grid &&
         LastInterior == B.LastInterior && same(LastReturnPtr, B.LastReturnPtr) &&
         Cur.Phase == B.Cur.Phase && Cur.WarpSig == B.Cur.WarpSig &&
         Cur.WarpLost == B.Cur.WarpLost && ArmFrames == B.ArmFrames &&
         StickyArms == B.StickyArms && ArmId == B.ArmId &&
         PendingValue == B.PendingValue && NoRecord == B.NoRecord &&
         AtomicSite == B.AtomicSite && sameRanges(SymRanges, B.Ranges);
}

/// The first access of a variable in the statement sees its value from
/// before the statement: nothing changes a variable without touching it
/// (a branch's join changes only what an arm wrote).
void Interp::touch(const VarDecl *V) {
  if (!Rec->Touched.insert(V).second)
    return;
  Rec->EnvIn.push_back({V, valueIn(Env, V)});
  Rec->PtrIn.push_back({V, valueIn(Ptrs, V)});
}

Flow Interp::recordStmt(StmtMemo &M, const Stmt *S) {
  // Only before the thread's first barrier event, outside loops and calls.
  bool Eligible = Frames.empty() && Iters.empty() && LoopDepth == 0 && TS->Trace.empty() &&
                  TS->Decisions.empty() && TS->LostAt == UINT32_MAX;
  if (!Eligible)
    return exec(S);
  M.In = scalars();
  Marks Before = marks();
  uint64_t Steps0 = Steps;
  Rec = &M;
  Flow F = exec(S);
  Rec = nullptr;
  if (F != Flow::Normal || Exhausted || M.Dirty || !(marks() == Before))
    return F;
  for (const auto &KV : M.EnvIn)
    M.EnvOut.push_back({KV.first, valueIn(Env, KV.first)});
  for (const auto &KV : M.PtrIn)
    M.PtrOut.push_back({KV.first, valueIn(Ptrs, KV.first)});
  M.Out = scalars();
  M.Steps = Steps - Steps0;
  M.Valid = true;
  return F;
}

bool Interp::replayStmt(const StmtMemo &M) {
  if (!Frames.empty() || !Iters.empty() || LoopDepth != 0 || !TS->Trace.empty() ||
      !TS->Decisions.empty() || TS->LostAt != UINT32_MAX)
    return false;
  for (const auto &KV : M.EnvIn)
    if (!sameAs(Env, KV.first, KV.second))
      return false;
  for (const auto &KV : M.PtrIn)
    if (!sameAs(Ptrs, KV.first, KV.second))
      return false;
  if (!sameScalarsAs(M.In))
    return false;
  // The run would have taken these steps; past the budget it stops the run.
  Steps += M.Steps;
  if (Steps > Budget) {
    Exhausted = true;
    return true;
  }
  for (const auto &KV : M.EnvOut) {
    if (KV.second)
      Env[KV.first] = *KV.second;
    else
      Env.erase(KV.first);
  }
  for (const auto &KV : M.PtrOut) {
    if (KV.second)
      Ptrs[KV.first] = *KV.second;
    else
      Ptrs.erase(KV.first);
  }
  setScalars(M.Out);
  return true;
}

Flow Interp::execKernelBody() {
  const auto *Body = dyn_cast<CompoundStmt>(Kernel->getBody());
  if (!Body)
    return exec(Kernel->getBody());
  bool Recording = Memos.empty();
  if (Recording)
    Memos.resize(Body->size());
  size_t I = 0;
  for (const Stmt *Child : Body->body()) {
    if (Exhausted)
      return Flow::Normal;
    StmtMemo &M = Memos[I++];
    Flow F = Recording                  ? recordStmt(M, Child)
             : M.Valid && replayStmt(M) ? Flow::Normal
                                        : exec(Child);
    if (F != Flow::Normal)
      return F;
  }
  return Flow::Normal;
}

} // namespace cgt::smem::detail
