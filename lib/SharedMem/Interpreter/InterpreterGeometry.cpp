//===- InterpreterGeometry.cpp - thread coordinates and the step budget -----===//
//
// The launch geometry one thread sees: threadIdx and blockDim are concrete
// (the thread and the LaunchConfig's block shape), blockIdx and gridDim are
// warp-uniform symbols (blockIdx ones mark global coordinates for the
// interior-block rule, gridDim ones are problem sizes). Cooperative groups
// give the same coordinates: `block.thread_rank()` is the linear thread
// index, a `thread_block_tile<N>`'s `thread_rank()` and `meta_group_rank()`
// its remainder and quotient by N (tiles partition the block in rank
// order), as `threadIdx.x & 31` and `threadIdx.x >> 5` are. And the step budget:
// every evaluation step counts against the budget the caller gave, over all
// threads, and so does every copy of large per-thread maps, by its size
// (chargeCopy); once it is spent the run stops and nothing is reported.
//
//===----------------------------------------------------------------------===//
#include "SharedMem/Interpreter/InterpreterState.h"

#include "clang/AST/ExprCXX.h"

using namespace clang;

namespace cgt::smem::detail {

bool Interp::step() {
  if (++Steps > Budget)
    Exhausted = true;
  return !Exhausted;
}

void Interp::chargeCopy(size_t Entries) {
  // A copy costs a few nanoseconds an entry, a step a few tens: one step
  // for every 8 entries past the first 64 keeps the budget a bound on time.
  constexpr size_t Free = 64, PerStep = 8;
  if (Entries <= Free)
    return;
  Steps += (Entries - Free) / PerStep + 1;
  if (Steps > Budget)
    Exhausted = true;
}

/// threadIdx/blockDim/blockIdx/gridDim .x/.y/.z, parsed from the property
/// access clang builds for them (MSPropertyRefExpr on the builtin variable).
std::pair<Interp::Builtin, int8_t> Interp::builtinOf(const Expr *E) {
  const std::pair<Builtin, int8_t> None{Builtin::None, 0};
  const auto *P = dyn_cast<PseudoObjectExpr>(E);
  if (!P)
    return None;
  const auto *M = dyn_cast<MSPropertyRefExpr>(P->getSyntacticForm()->IgnoreParens());
  if (!M)
    return None;
  const Expr *Base = M->getBaseExpr()->IgnoreParenImpCasts();
  if (const auto *O = dyn_cast<OpaqueValueExpr>(Base))
    Base = O->getSourceExpr()->IgnoreParenImpCasts();
  const auto *D = dyn_cast<DeclRefExpr>(Base);
  if (!D)
    return None;
  StringRef Var = D->getDecl()->getName(), Prop = M->getPropertyDecl()->getName();
  int8_t Dim = Prop == "x" ? 0 : Prop == "y" ? 1 : Prop == "z" ? 2 : -1;
  if (Dim < 0)
    return None;
  Builtin B = Var == "threadIdx" ? Builtin::ThreadIdx
              : Var == "blockDim" ? Builtin::BlockDim
              : Var == "blockIdx" ? Builtin::BlockIdx
              : Var == "gridDim"  ? Builtin::GridDim
                                  : Builtin::None;
  return {B, Dim};
}

SymVal Interp::builtinValue(Builtin Var, int8_t Dim) {
  const BlockShape &B = Cfg.Block;
  switch (Var) {
  case Builtin::ThreadIdx: {
    noteIdentity();
    SymVal V = SymVal::constant(Dim == 0 ? Tx : Dim == 1 ? Ty : Tz);
    V.ShapeDep = Dim != 0;
    V.ThreadDep = true;
    return V;
  }
  case Builtin::BlockDim: {
    SymVal V = SymVal::constant(Dim == 0 ? B.X : Dim == 1 ? B.Y : B.Z);
    V.ShapeDep = true;
    return V;
  }
  case Builtin::BlockIdx:
  case Builtin::GridDim: {
    StringRef Name = Var == Builtin::BlockIdx ? "blockIdx" : "gridDim";
    uint64_t Id = static_cast<uint64_t>(llvm::hash_combine(Name, int(Dim), 0xb1du)) | 1;
    (Var == Builtin::BlockIdx ? BlockSyms : ParamSyms).insert(Id);
    SymVal V = SymVal::symbol(Id);
    V.BlockDep = Var == Builtin::BlockIdx;
    return V;
  }
  case Builtin::None:
    break;
  }
  return SymVal::top();
}

/// `tile.thread_rank()`, `tile.meta_group_rank()`, `block.thread_rank()`,
/// their sizes: values of the thread's linear index; nullopt for any other
/// call, and for groups whose layout is not the block's (grids, coalesced
/// groups).
std::optional<SymVal> Interp::groupRankValue(const CallExpr *C) {
  const FunctionDecl *F = C->getDirectCallee();
  if (!F || !F->getIdentifier() || !isa<CXXMethodDecl>(F) ||
      !StringRef(qualifiedName(F)).starts_with("cooperative_groups::"))
    return std::nullopt;
  const CXXRecordDecl *G = groupClass(C);
  StringRef GN = G && G->getIdentifier() ? G->getName() : "";
  const BlockShape &B = Cfg.Block;
  int64_t Threads = int64_t(B.X) * B.Y * B.Z;
  int64_t N = GN == "thread_block" ? Threads : GN.contains("tile") ? tileSize(G) : 0;
  if (N <= 0 || Threads <= 0)
    return std::nullopt;
  StringRef M = F->getName();
  auto OfThread = [&](int64_t V) {
    noteIdentity();
    SymVal R = SymVal::constant(V);
    R.ThreadDep = true;
    R.ShapeDep = B.Y > 1 || B.Z > 1;
    return R;
  };
  auto OfShape = [&](int64_t V) {
    SymVal R = SymVal::constant(V);
    R.ShapeDep = true;
    return R;
  };
  if (M == "thread_rank")
    return OfThread(Tid % N);
  if (M == "meta_group_rank")
    return OfThread(Tid / N);
  if (M == "size" || M == "num_threads")
    return GN == "thread_block" ? OfShape(N) : SymVal::constant(N);
  if (M == "meta_group_size")
    return OfShape((Threads + N - 1) / N);
  return std::nullopt;
}

} // namespace cgt::smem::detail
