//===- InterpreterGeometry.cpp - thread coordinates and the step budget -----===//
//
// The launch geometry one thread sees: threadIdx and blockDim are concrete
// (the thread and the LaunchConfig's block shape), blockIdx and gridDim are
// warp-uniform symbols (blockIdx ones mark global coordinates for the
// interior-block rule, gridDim ones are problem sizes). And the step budget:
// every evaluation step counts against the budget the caller gave, over all
// threads; once it is spent the run stops and nothing is reported.
//
//===----------------------------------------------------------------------===//
#include "SharedMem/InterpreterState.h"

#include "clang/AST/ExprCXX.h"

using namespace clang;

namespace cgt::smem::detail {

bool Interp::step() {
  if (++Steps > Budget)
    Exhausted = true;
  return !Exhausted;
}

/// threadIdx/blockDim/blockIdx/gridDim .x/.y/.z, parsed from the property
/// access clang builds for them (MSPropertyRefExpr on the builtin variable).
std::optional<SymVal> Interp::builtin(const Expr *E) {
  const auto *P = dyn_cast<PseudoObjectExpr>(E);
  if (!P)
    return std::nullopt;
  const auto *M = dyn_cast<MSPropertyRefExpr>(P->getSyntacticForm()->IgnoreParens());
  if (!M)
    return std::nullopt;
  const Expr *Base = M->getBaseExpr()->IgnoreParenImpCasts();
  if (const auto *O = dyn_cast<OpaqueValueExpr>(Base))
    Base = O->getSourceExpr()->IgnoreParenImpCasts();
  const auto *D = dyn_cast<DeclRefExpr>(Base);
  if (!D)
    return std::nullopt;
  StringRef Var = D->getDecl()->getName(), Prop = M->getPropertyDecl()->getName();
  int Dim = Prop == "x" ? 0 : Prop == "y" ? 1 : Prop == "z" ? 2 : -1;
  if (Dim < 0)
    return std::nullopt;
  const BlockShape &B = Cfg.Block;
  if (Var == "threadIdx") {
    SymVal V = SymVal::constant(Dim == 0 ? Tx : Dim == 1 ? Ty : Tz);
    V.ShapeDep = Dim != 0;
    V.ThreadDep = true;
    return V;
  }
  if (Var == "blockDim") {
    SymVal V = SymVal::constant(Dim == 0 ? B.X : Dim == 1 ? B.Y : B.Z);
    V.ShapeDep = true;
    return V;
  }
  if (Var == "blockIdx" || Var == "gridDim") {
    uint64_t Id = static_cast<uint64_t>(llvm::hash_combine(Var, Dim, 0xb1du)) | 1;
    (Var == "blockIdx" ? BlockSyms : ParamSyms).insert(Id);
    return SymVal::symbol(Id);
  }
  return std::nullopt;
}

} // namespace cgt::smem::detail
