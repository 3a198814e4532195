//===- InterpreterSyncKinds.cpp - which calls synchronise -----------------===//
//
// What a call does to the order of threads (SyncKind): block and grid
// barriers, warp syncs, named barriers, asynchronous copies and their waits,
// library collectives that may hold barriers. Also whether a statement (and
// the user functions it calls, a few calls deep) holds a barrier at all,
// which decides whether a branch's arms are logged for divergence.
//
// Why by name: clang parses CUDA's barriers as calls of functions declared in
// CUDA's headers (`__syncthreads` is a __device_builtin__, `__syncwarp` an
// inline function of clang's wrapper, `thread_block::sync` a member of
// cooperative_groups), not as builtins with an ID. Cooperative groups'
// `g.sync()` and `cg::sync(g)` are told apart by the class of `g`, from a
// table (the same classes give a thread its rank: InterpreterGeometry.cpp).
//
//===----------------------------------------------------------------------===//
#include "SharedMem/Interpreter/InterpreterState.h"

#include "clang/AST/DeclTemplate.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/Basic/SourceManager.h"

using namespace clang;

namespace cgt::smem::detail {

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

namespace {

/// What `sync()` of each cooperative group waits for, by the group's class
/// (cooperative_groups.h, CUDA 12 and 13). A grid (and the multi-device grid
/// of CUDA 12) spans every block of the launch; a cluster's barrier is
/// treated as the block's: blocks of one cluster are not told apart.
struct GroupSync {
  const char *Class;
  SyncKind Kind;
};
constexpr GroupSync GroupSyncs[] = {
    {"thread_block", SyncKind::Block},     {"grid_group", SyncKind::Grid},
    {"multi_grid_group", SyncKind::Grid},  {"cluster_group", SyncKind::Block},
    {"coalesced_group", SyncKind::WarpPartial},
};

/// A group's sync by its class; tiles by their size: a 32-thread tile is a
/// full-warp __syncwarp, a smaller one part of a warp, and one of more
/// threads (or of a size not known) waits on a named barrier for its own
/// warps only (cooperative_groups/details/sync.h), which orders pairs inside
/// the tile and none across tiles. A group not known may synchronise
/// anything.
SyncKind groupSyncKind(const CXXRecordDecl *G) {
  StringRef GN = G && G->getIdentifier() ? G->getName() : "";
  for (const GroupSync &S : GroupSyncs)
    if (GN == S.Class)
      return S.Kind;
  if (GN.contains("tile")) {
    unsigned Size = tileSize(G);
    if (Size == 32)
      return SyncKind::Warp;
    return Size > 0 && Size < 32 ? SyncKind::WarpPartial : SyncKind::Named;
  }
  return SyncKind::MaySync;
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
  if (N == "sync" && QN.starts_with("cooperative_groups::"))
    return groupSyncKind(groupClass(C));
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
  case SyncKind::Grid: // every thread of the block waits at it too
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

/// The PTX an inline asm statement holds, whichever syntax wrote it.
std::string Interp::asmText(const AsmStmt *A) {
  if (const auto *G = dyn_cast<GCCAsmStmt>(A))
    return G->getAsmString();
  if (const auto *M = dyn_cast<MSAsmStmt>(A))
    return M->getAsmString().str();
  return "";
}

bool Interp::asmSynchronises(const AsmStmt *A) {
  std::string Text = asmText(A);
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


} // namespace cgt::smem::detail
