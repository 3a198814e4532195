//===- InterpreterSync.cpp - barriers, warp syncs and phases ----------------===//
//
// The interpreter's half of SyncModel.h: which calls synchronise (by name, as
// CUDA's headers and cooperative groups spell them), the per-thread trace of
// barrier events and the phase label each access carries, the arms of
// block-uniform branches, and what makes a thread's phases unknown. Nothing
// here changes a value, a guard or an access record, so the overflow and
// bank-conflict checks see the same runs as before.
//
// Why by name: clang parses CUDA's barriers as calls of functions declared in
// CUDA's headers (`__syncthreads` is a __device_builtin__, `__syncwarp` an
// inline function of clang's wrapper, `thread_block::sync` a member of
// cooperative_groups), not as builtins with an ID.
//
//===----------------------------------------------------------------------===//
#include "SharedMem/Interpreter/InterpreterState.h"

#include "clang/AST/DeclTemplate.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/Basic/SourceManager.h"
#include "llvm/ADT/SmallPtrSet.h"

using namespace clang;

namespace cgt::smem::detail {

namespace {

/// The qualified name without inline namespaces (`cooperative_groups::__v1::`).
std::string qualifiedName(const NamedDecl *D) {
  std::string S;
  llvm::raw_string_ostream OS(S);
  PrintingPolicy PP(D->getASTContext().getLangOpts());
  PP.SuppressInlineNamespace =
      llvm::to_underlying(PrintingPolicy::SuppressInlineNamespaceMode::All);
  D->printQualifiedName(OS, PP);
  return OS.str();
}

/// The class a cooperative-groups `sync` acts on: the object of `g.sync()`
/// or the argument of `cg::sync(g)`.
const CXXRecordDecl *groupClass(const CallExpr *C) {
  const Expr *Obj = nullptr;
  if (const auto *M = dyn_cast<CXXMemberCallExpr>(C))
    Obj = M->getImplicitObjectArgument();
  else if (const auto *ME = dyn_cast<MemberExpr>(C->getCallee()->IgnoreParenImpCasts()))
    Obj = ME->getBase(); // `block.sync()` of a static member (thread_block's are)
  else if (C->getNumArgs() == 1)
    Obj = C->getArg(0);
  if (!Obj)
    return nullptr;
  QualType T = Obj->getType();
  if (T->isPointerType())
    T = T->getPointeeType();
  return T.getNonReferenceType()->getAsCXXRecordDecl();
}

/// A thread_block_tile's size (its first template argument), 0 if unknown.
unsigned tileSize(const CXXRecordDecl *R) {
  for (const CXXRecordDecl *C = R; C;) {
    if (const auto *S = dyn_cast<ClassTemplateSpecializationDecl>(C)) {
      const TemplateArgumentList &A = S->getTemplateArgs();
      if (A.size() >= 1 && A[0].getKind() == TemplateArgument::Integral)
        return static_cast<unsigned>(A[0].getAsIntegral().getZExtValue());
    }
    if (!C->hasDefinition() || C->getNumBases() == 0)
      break;
    C = C->bases_begin()->getType()->getAsCXXRecordDecl();
  }
  return 0;
}

} // namespace

SyncKind Interp::syncKindOf(const CallExpr *C, const FunctionDecl *F) {
  if (!F || !F->getIdentifier())
    return SyncKind::None;
  StringRef N = F->getName();
  if (N == "__syncthreads" || N == "__syncthreads_count" || N == "__syncthreads_and" ||
      N == "__syncthreads_or")
    return SyncKind::Block;
  if (N == "__barrier_sync") {
    std::optional<int64_t> Id =
        C->getNumArgs() == 1 ? constantOf(C->getArg(0)) : std::nullopt;
    return Id && *Id == 0 ? SyncKind::Block : SyncKind::Named;
  }
  if (N.starts_with("__barrier_") || N == "barrier_arrive" || N == "barrier_wait")
    return SyncKind::Named;
  if (N == "__syncwarp")
    return SyncKind::Warp;
  std::string Q = qualifiedName(F);
  StringRef QN = Q;
  if (QN.contains("memcpy_async") || N.starts_with("__pipeline_") ||
      QN.contains("cp_async") || QN.contains("mbarrier") ||
      (QN.starts_with("cuda::") && (QN.contains("barrier") || QN.contains("pipeline"))) ||
      (QN.starts_with("cooperative_groups::") && (N == "wait" || N == "wait_prior")))
    return SyncKind::Async;
  if (QN.starts_with("cub::"))
    return SyncKind::MaySync;
  if (N == "sync" && QN.starts_with("cooperative_groups::")) {
    const CXXRecordDecl *G = groupClass(C);
    StringRef GN = G && G->getIdentifier() ? G->getName() : "";
    if (GN == "thread_block" || GN == "grid_group" || GN == "multi_grid_group" ||
        GN == "cluster_group")
      return SyncKind::Block;
    if (GN.contains("tile"))
      return tileSize(G) == 32 ? SyncKind::Warp : SyncKind::WarpPartial;
    if (GN == "coalesced_group")
      return SyncKind::WarpPartial;
    return SyncKind::MaySync;
  }
  return SyncKind::None;
}

SyncKind Interp::syncKindCached(const CallExpr *C) {
  auto [It, New] = SyncKinds.try_emplace(C, SyncKind::None);
  if (New)
    It->second = syncKindOf(C, C->getDirectCallee());
  return It->second;
}

namespace {

/// Does a body (and what it calls in user code, a few calls deep) hold a
/// barrier or something that may be one? Bits: 1 block, 2 warp, 4 unknown.
class BarrierScan : public RecursiveASTVisitor<BarrierScan> {
public:
  BarrierScan(Interp &I, llvm::DenseMap<const Decl *, unsigned> &Cache, unsigned Depth)
      : I(I), Cache(Cache), Depth(Depth) {}
  unsigned Bits = 0;
  bool VisitCallExpr(CallExpr *C) {
    Bits |= I.callBarrierBits(C, Cache, Depth);
    return true;
  }
  bool VisitAsmStmt(AsmStmt *A) {
    if (Interp::asmSynchronises(A))
      Bits |= 4;
    return true;
  }
  // Lambdas defined here run when called, and their calls are seen then.
  bool TraverseLambdaExpr(LambdaExpr *) { return true; }

private:
  Interp &I;
  llvm::DenseMap<const Decl *, unsigned> &Cache;
  unsigned Depth;
};

} // namespace

unsigned Interp::callBarrierBits(const CallExpr *C,
                                 llvm::DenseMap<const Decl *, unsigned> &Cache,
                                 unsigned Depth) {
  const FunctionDecl *F = C->getDirectCallee();
  switch (syncKindOf(C, F)) {
  case SyncKind::Block:
    return 1;
  case SyncKind::Warp:
  case SyncKind::WarpPartial:
    return 2;
  case SyncKind::Named:
  case SyncKind::MaySync:
    return 4;
  case SyncKind::Async:
  case SyncKind::None:
    break;
  }
  if (!F)
    return isa<CXXPseudoDestructorExpr>(C->getCallee()) ? 0 : 4;
  const FunctionDecl *Def = nullptr;
  if (!F->hasBody(Def) || !Def)
    return Ctx.getSourceManager().isInSystemHeader(F->getLocation()) ? 0 : 4;
  if (Ctx.getSourceManager().isInSystemHeader(Def->getLocation()))
    return 0; // CUDA's intrinsics: the barrier entry points are named above
  auto It = Cache.find(Def);
  if (It != Cache.end())
    return It->second;
  if (Depth >= 4)
    return 4;
  Cache[Def] = 0; // recursion: what the other calls find decides
  BarrierScan S(*this, Cache, Depth + 1);
  S.TraverseStmt(Def->getBody());
  Cache[Def] = S.Bits;
  return S.Bits;
}

unsigned Interp::barrierBits(const Stmt *S) {
  if (!S)
    return 0;
  auto It = BarrierIn.find(S);
  if (It != BarrierIn.end())
    return It->second;
  BarrierScan Scan(*this, CalleeBarriers, 0);
  Scan.TraverseStmt(const_cast<Stmt *>(S));
  BarrierIn[S] = Scan.Bits;
  return Scan.Bits;
}

bool Interp::asmSynchronises(const AsmStmt *A) {
  std::string Text;
  if (const auto *G = dyn_cast<GCCAsmStmt>(A))
    Text = G->getAsmString();
  else if (const auto *M = dyn_cast<MSAsmStmt>(A))
    Text = M->getAsmString().str();
  // PTX that synchronises or touches shared memory behind the interpreter:
  // barriers, async and bulk copies, matrix loads and stores, shared-space
  // loads, stores and atomics.
  static const char *const Words[] = {"bar.",    "barrier", "shared",   "cp.async",
                                      "mbarrier", "ldmatrix", "stmatrix", "wgmma",
                                      "bulk",     "tensormap", "fence.proxy"};
  StringRef T = Text;
  for (const char *W : Words)
    if (T.contains(W))
      return true;
  return false;
}

uint64_t Interp::iterHash(size_t Depth) const {
  uint64_t H = 0x1735;
  for (size_t I = 0; I < Depth && I < Iters.size(); ++I)
    H = static_cast<uint64_t>(llvm::hash_combine(H, Iters[I]));
  return H;
}

void Interp::pushEvent(const void *Site, bool Barrier) {
  TS->Trace.push_back(SyncEvent{Site, iterHash(Iters.size()), Barrier});
  Cur = SyncCursor();
  Cur.Phase = static_cast<uint32_t>(TS->Trace.size());
}

void Interp::loseThread() {
  if (TS->LostAt == UINT32_MAX)
    TS->LostAt = static_cast<uint32_t>(TS->Trace.size());
}

void Interp::blockBarrier(const Expr *Site) {
  // Under a thread-dependent guard this thread may not be here at all: the
  // event keeps the traces aligned, but its phases are unknown from now on.
  if (Guarded)
    loseThread();
  pushEvent(Site, /*Barrier=*/true);
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
  std::string Text;
  if (const auto *G = dyn_cast<GCCAsmStmt>(A))
    Text = G->getAsmString();
  else if (const auto *M = dyn_cast<MSAsmStmt>(A))
    Text = M->getAsmString().str();
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

uint64_t Interp::valueKey(const SymVal &V, const Expr *RHS) {
  if (!V.Top && (V.isConst() || !V.ThreadDep))
    return V.hash() | 1;
  const Expr *E = RHS->IgnoreParenImpCasts();
  if (const auto *F = dyn_cast<FloatingLiteral>(E))
    return static_cast<uint64_t>(llvm::hash_combine(
               0xf1u, F->getValue().bitcastToAPInt().getZExtValue())) | 1;
  if (const auto *B = dyn_cast<CXXBoolLiteralExpr>(E))
    return SymVal::constant(B->getValue()).hash() | 1;
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
