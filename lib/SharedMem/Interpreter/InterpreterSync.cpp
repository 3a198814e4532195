//===- InterpreterSync.cpp - barriers, warp syncs and phases ----------------===//
//
// The interpreter's half of SyncModel.h: the per-thread trace of barrier
// events and the phase label each access carries, the arms of block-uniform
// branches, and what makes a thread's phases unknown. Which calls
// synchronise is InterpreterSyncKinds.cpp's; grid barriers across blocks are
// InterpreterGrid.cpp's. Nothing here changes a value, a guard or an access
// record, so the overflow and bank-conflict checks see the same runs as
// before.
//
//===----------------------------------------------------------------------===//
#include "SharedMem/Interpreter/InterpreterState.h"

#include "clang/AST/ExprCXX.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "llvm/ADT/SmallPtrSet.h"

using namespace clang;

namespace cgt::smem::detail {

uint64_t Interp::iterHash(size_t Depth) const {
  uint64_t H = 0x1735;
  for (size_t I = 0; I < Depth && I < Iters.size(); ++I)
    H = static_cast<uint64_t>(llvm::hash_combine(H, Iters[I]));
  return H;
}

void Interp::pushEvent(const void *Site, bool Barrier, bool Grid) {
  TS->Trace.push_back(SyncEvent{Site, iterHash(Iters.size()), Barrier, Grid});
  Cur = SyncCursor();
  Cur.Phase = static_cast<uint32_t>(TS->Trace.size());
}

void Interp::loseThread() {
  if (TS->LostAt == UINT32_MAX)
    TS->LostAt = static_cast<uint32_t>(TS->Trace.size());
}

void Interp::blockBarrier(const Expr *Site, bool Grid) {
  // Under a thread-dependent guard this thread may not be here at all: the
  // event keeps the traces aligned, but its phases are unknown from now on.
  if (Guarded)
    loseThread();
  pushEvent(Site, /*Barrier=*/true, Grid);
}

void Interp::warpSync(const CallExpr *C, bool FullTile) {
  std::optional<int64_t> Mask;
  if (FullTile) {
    Mask = 0xffffffffLL;
  } else if (C->getNumArgs() == 1) {
    const Expr *A = C->getArg(0);
    if (const auto *D = dyn_cast<CXXDefaultArgExpr>(A))
      A = D->getExpr();
    // A constant expression only: the argument was evaluated already (as
    // for any call), and evaluating it again would count steps and record
    // its loads twice. A mask computed per lane gives no verdict.
    Mask = factsOf(A).Const;
  }
  if (Guarded || !Mask) {
    Cur.WarpLost = true;
    return;
  }
  uint64_t M = static_cast<uint64_t>(*Mask) & 0xffffffffu;
  noteIdentity(); // the lane decides whether the mask omits it
  if (!((M >> (Tid % WarpSize)) & 1))
    Sync->Masks.push_back(MaskMisuse{C, Tid, M});
  if (M != 0xffffffffu) {
    Cur.WarpLost = true; // a partial mask orders only the lanes it names
    return;
  }
  Cur.WarpSig = static_cast<uint64_t>(
      llvm::hash_combine(Cur.WarpSig, static_cast<const void *>(C), iterHash(Iters.size()))) | 1;
}

/// An argument that names __shared__ storage: a shared variable, or a local
/// pointer that points into one, or a local integer initialised from one
/// (asm takes `"r"(addr)` with `unsigned addr = __cvta_generic_to_shared(p)`).
/// Read without evaluating (no steps, no records).
const VarDecl *Interp::sharedNamedBy(const Expr *E) {
  struct Find : RecursiveASTVisitor<Find> {
    Interp &I;
    const VarDecl *Found = nullptr;
    llvm::SmallPtrSet<const VarDecl *, 4> Seen; // initialisers followed once
    explicit Find(Interp &I) : I(I) {}
    bool VisitDeclRefExpr(DeclRefExpr *D) {
      const auto *V = dyn_cast<VarDecl>(D->getDecl());
      if (!V)
        return true;
      if (V->hasAttr<CUDASharedAttr>())
        Found = V;
      else if (V->getType()->isPointerType() && !V->hasGlobalStorage())
        if (const VarDecl *P = I.lookupPtr(V).VD)
          Found = P;
      if (auto It = I.RefLocs.find(V); It != I.RefLocs.end())
        Found = It->second.VD;
      if (!Found && V->getType()->isIntegerType() && !V->hasGlobalStorage() &&
          V->getInit() && Seen.insert(V).second)
        TraverseStmt(const_cast<Expr *>(V->getInit()));
      return !Found;
    }
  } F(*this);
  F.TraverseStmt(const_cast<Expr *>(E));
  return F.Found;
}

bool Interp::syncCall(const CallExpr *C) {
  const FunctionDecl *F = C->getDirectCallee();
  SyncKind K = syncKindCached(C);
  switch (K) {
  case SyncKind::Block:
    blockBarrier(C);
    return true;
  case SyncKind::Grid:
    gridBarrier(C);
    return true;
  case SyncKind::Warp:
  case SyncKind::WarpPartial:
    if (K == SyncKind::Warp && !isa<CXXMemberCallExpr>(C) && F->getName() == "__syncwarp")
      warpSync(C, /*FullTile=*/false);
    else if (K == SyncKind::Warp)
      warpSync(C, /*FullTile=*/true);
    else
      Cur.WarpLost = true;
    return true;
  case SyncKind::Named:
    Sync->Reasons.insert(SkipReason::NamedBarrier);
    loseThread();
    return true;
  case SyncKind::Async:
    asyncCall(C);
    return true;
  case SyncKind::MaySync:
    Sync->Reasons.insert(SkipReason::MaySync);
    loseThread();
    return true;
  case SyncKind::None:
    break;
  }
  return false;
}

static llvm::SmallVector<const Expr *, 4> operandsOf(const CallExpr *C) {
  return llvm::SmallVector<const Expr *, 4>(C->arguments().begin(), C->arguments().end());
}

void Interp::opaqueCall(const CallExpr *C) {
  // A callee the interpreter does not run: it may synchronise, and it may
  // read or write any __shared__ storage it is given.
  auto [It, New] = OpaqueBits.try_emplace(C, 0);
  if (New)
    It->second = callBarrierBits(C, CalleeBarriers, 0);
  unsigned Bits = It->second;
  if (Bits & (1 | 4)) {
    Sync->Reasons.insert(SkipReason::MaySync);
    loseThread();
  }
  if (Bits & 2)
    Cur.WarpLost = true;
  skipArraysNamedBy(operandsOf(C), SkipReason::OpaqueCallee);
}

/// In a unit that does not parse, a statement clang could not build is an
/// expression with errors (a `cg::sync(block)` whose group type did not
/// resolve is a RecoveryExpr, HeCBench's dxtc2): it may have been a
/// barrier, so the thread's phases are unknown from there on, as after a
/// callee that may synchronise. Its accesses are not run either.
void Interp::unbuiltStatement() {
  Sync->Reasons.insert(SkipReason::MaySync);
  loseThread();
}

bool Interp::skipArraysNamedBy(llvm::ArrayRef<const Expr *> Operands, SkipReason R,
                               bool ScalarsToo) {
  bool Any = false;
  for (const Expr *A : Operands) {
    if (!A)
      continue;
    // A scalar passed by value is a value read, not storage handed over;
    // asm addresses shared memory through integers (`"r"(cvta(p))`).
    QualType T = A->getType();
    bool ByValue = !T->isPointerType() && !T->isArrayType() && A->isPRValue() &&
                   T->isScalarType();
    if (ByValue && !ScalarsToo)
      continue;
    if (const VarDecl *V = sharedNamedBy(A)) {
      Sync->SkippedArrays.emplace(V, R);
      Sync->Reasons.insert(R);
      Any = true;
    }
  }
  return Any;
}

/// Names of asynchronous copies (CUDA's, libcu++'s and cooperative groups'
/// memcpy_async, __pipeline_memcpy_async, the cp_async* wrappers of TMA).
static bool isAsyncCopy(const FunctionDecl *F) {
  if (!F || !F->getIdentifier())
    return false;
  StringRef N = F->getName();
  return N.contains("memcpy_async") || N.contains("cp_async") || N.contains("copy_async");
}

void Interp::asyncCall(const CallExpr *C) {
  Sync->Reasons.insert(SkipReason::AsyncCopy);
  if (isAsyncCopy(C->getDirectCallee())) {
    // The copy lands until a wait the model does not follow: its shared
    // operand gets no verdict; one not known, none of the kernel's arrays.
    if (!skipArraysNamedBy(operandsOf(C), SkipReason::AsyncCopy))
      Sync->WholeKernel.insert(SkipReason::AsyncCopy);
    return;
  }
  // A wait, commit, arrive or barrier of a pipeline or cuda::barrier orders
  // threads in ways not followed: this thread's phases are unknown from here.
  loseThread();
}

/// PTX that orders threads (barriers, mbarriers, fences), and PTX that
/// reads or writes shared memory itself.
static bool asmOrdersThreads(StringRef Text) {
  return Text.contains("bar.") || Text.contains("barrier") || Text.contains("fence");
}
static bool asmTouchesShared(StringRef Text) {
  for (const char *W : {"shared", "cp.async", "ldmatrix", "stmatrix", "wgmma", "bulk",
                        "tensormap"})
    if (Text.contains(W))
      return true;
  return false;
}

void Interp::noteAsm(const AsmStmt *A) {
  std::string Text = asmText(A);
  bool Orders = asmOrdersThreads(Text), Touches = asmTouchesShared(Text);
  // Its operands' arrays get no verdict; when none is known but the text
  // touches shared memory, no array does. Asm that orders threads ends
  // this thread's known phases.
  llvm::SmallVector<const Expr *, 4> Ops;
  for (const Stmt *Child : A->children())
    Ops.push_back(dyn_cast_or_null<Expr>(Child));
  bool Named = skipArraysNamedBy(Ops, SkipReason::InlineAsm, /*ScalarsToo=*/true);
  if (!Orders && !Touches && !Named)
    return;
  Sync->Reasons.insert(SkipReason::InlineAsm);
  if (Orders)
    loseThread();
  if (Touches && !Named)
    Sync->WholeKernel.insert(SkipReason::InlineAsm);
}

void Interp::enterArm(const Stmt *Branch, int8_t Arm) {
  uint64_t Key = static_cast<uint64_t>(
      llvm::hash_combine(static_cast<const void *>(Branch), iterHash(Iters.size())));
  ArmFrames.push_back({ArmId, StickyArms.size()});
  ArmId = extendArms(ArmId, Key, Arm);
}

void Interp::leaveArm() {
  // Back to the list before the arm, with what became sticky inside it.
  auto [Before, Sticky] = ArmFrames.back();
  ArmFrames.pop_back();
  ArmId = Before;
  for (size_t I = Sticky; I < StickyArms.size(); ++I)
    ArmId = extendArms(ArmId, StickyArms[I].first, StickyArms[I].second);
}

void Interp::addStickyArm(uint64_t Key, int8_t Arm) {
  StickyArms.push_back({Key, Arm});
  ArmId = extendArms(ArmId, Key, Arm);
}

/// The interned list `Id` with one more (branch, arm); memoised, since every
/// thread builds the same lists in the same order.
uint32_t Interp::extendArms(uint32_t Id, uint64_t Key, int8_t Arm) {
  auto [It, New] = ArmExt.try_emplace(std::make_tuple(Id, Key, Arm), 0);
  if (!New)
    return It->second;
  ArmList L = Sync->Arms[Id];
  L.push_back({Key, Arm});
  llvm::sort(L);
  auto [Found, Added] = ArmIds.try_emplace(
      std::vector<std::pair<uint64_t, int8_t>>(L.begin(), L.end()),
      static_cast<uint32_t>(Sync->Arms.size()));
  if (Added)
    Sync->Arms.push_back(L);
  It->second = Found->second;
  return Found->second;
}

unsigned Interp::barriersMet() const {
  unsigned N = 0;
  for (const SyncEvent &E : TS->Trace)
    N += E.Barrier;
  return N;
}

const Expr *Interp::firstBarrierSince(size_t From) const {
  for (size_t I = From; I < TS->Trace.size(); ++I)
    if (TS->Trace[I].Barrier)
      return static_cast<const Expr *>(TS->Trace[I].Site);
  return nullptr;
}

void Interp::resetSyncThread() {
  if (Sync->Threads.size() <= Tid)
    Sync->Threads.resize(Tid + 1);
  TS = &Sync->Threads[Tid];
  Cur = SyncCursor();
  Grid = GridCursor();
  ArmFrames.clear();
  StickyArms.clear();
  ArmId = 0;
  PendingValue = 0;
}

uint8_t Interp::syncBits(const SymVal &Off) const {
  uint8_t B = 0;
  if (TS->LostAt != UINT32_MAX)
    B |= SB_Lost;
  if (Cur.WarpLost)
    B |= SB_WarpLost;
  if (llvm::is_contained(Iters, -1))
    B |= SB_Symbolic;
  bool Stable = !Off.Top;
  for (const auto &T : Off.Terms)
    Stable &= ParamSyms.count(T.first) || BlockSyms.count(T.first);
  if (Stable)
    B |= SB_Stable;
  if (hasLaneTerm(Off))
    B |= SB_LaneSym;
  return B;
}

void Interp::joinArms(const Stmt *Site, const SyncCursor &Then, Flow FT, Flow FE) {
  SyncCursor Else = Cur;
  bool TL = FT != Flow::Normal, EL = FE != Flow::Normal;
  uint64_t Key = static_cast<uint64_t>(
      llvm::hash_combine(static_cast<const void *>(Site), iterHash(Iters.size())));
  if (TL != EL) {
    // One arm left (return, break, continue): what follows runs in the other
    // arm's world only, and never pairs with the leaving arm's accesses.
    Cur = TL ? Else : Then;
    addStickyArm(Key, static_cast<int8_t>(TL ? 0 : 1));
    return;
  }
  if (Then.Phase == Else.Phase) {
    Cur = Then;
    Cur.WarpLost |= Else.WarpLost || Then.WarpSig != Else.WarpSig;
    return;
  }
  // The arms end in different intervals: a fresh one after the join.
  pushEvent(Site, /*Barrier=*/false);
}

uint64_t Interp::valueKey(const SymVal &V, const Expr *RHS) const {
  if (!V.Top && (V.isConst() || !V.ThreadDep))
    return V.hash() | 1;
  // A constant the evaluator does not follow as a value (floats): `= 0.f`,
  // `= 0` into a float, `= -INFINITY`, `= true`, keyed by the value stored.
  Expr::EvalResult R;
  if (RHS->isValueDependent() || !RHS->EvaluateAsRValue(R, Ctx))
    return 0;
  if (R.Val.isFloat())
    return static_cast<uint64_t>(llvm::hash_combine(
               0xf1u, R.Val.getFloat().bitcastToAPInt().getZExtValue())) | 1;
  if (R.Val.isInt() && R.Val.getInt().getSignificantBits() <= 64)
    return SymVal::constant(R.Val.getInt().getExtValue()).hash() | 1;
  return 0;
}

void Interp::logDecision(const Stmt *Branch, uint64_t Iter, int8_t Arm, size_t TraceBefore,
                         Flow F, bool ShapeDep) {
  Decision D;
  D.Branch = Branch;
  D.Iter = Iter;
  D.Arm = Arm;
  for (size_t I = TraceBefore; I < TS->Trace.size(); ++I)
    D.Barriers += TS->Trace[I].Barrier;
  D.FirstBarrier = firstBarrierSince(TraceBefore);
  // A return from the kernel itself: an exited thread no longer counts at
  // a barrier (sm_70 and later), so skipping one is fine.
  D.Left = F == Flow::Return && Frames.empty();
  D.ShapeDep = ShapeDep;
  D.At = static_cast<uint32_t>(TraceBefore);
  TS->Decisions.push_back(D);
}

} // namespace cgt::smem::detail
