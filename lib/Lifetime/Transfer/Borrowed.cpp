//===- Borrowed.cpp - handles a getter lends -------------------------------===//
//
// A model entry whose acquisition says "owned": false
// (cudaDeviceGetDefaultMemPool, cudaDeviceGetMemPool,
// cudaGraphChildGraphNodeGetGraph) fills the variable with a handle that
// belongs to someone else: a device's pool, the node's graph. The caller may
// use it; it never leaks, and releasing it is a bug: a device's default pool
// cannot be destroyed, a child node's graph is destroyed with its node.
//
// The handle is a resource of its own, bound to the variable as an
// acquisition is, but handed on from the start (Escaped): no leak, no
// overwrite. A release of it is reported by cudagraph-mismatched-dealloc
// (there is no right release function: the family is "none"), worded from
// LifetimeFinding::Borrowed. Which getters lend is the model's data, not a
// list here.
//
// Part of the Analysis class declared in Analysis.h.
//
//===----------------------------------------------------------------------===//
#include "Lifetime/Analysis.h"

namespace cgt {
namespace lifetime {

/// `cudaDeviceGetDefaultMemPool(&pool, dev)`: `pool` holds a lent handle.
void Analysis::lend(const CallExpr *Call, const FunctionModel &M, const AcquireEffect &Eff,
                    PathState &P) {
  if (Eff.Arg < 0 || Eff.Arg >= static_cast<int>(Call->getNumArgs()) || !Eff.Field.empty())
    return;
  const auto *AddrOf = dyn_cast<UnaryOperator>(strip(Call->getArg(Eff.Arg)));
  if (!AddrOf || AddrOf->getOpcode() != UO_AddrOf)
    return;
  Key Target = storageOf(AddrOf->getSubExpr());
  if (!Target || Target->Element || Target->shadow())
    return;
  // Over a live handle of its own the variable is left as it was (a lent
  // handle over an owned one is the overwrite checks' business, not this).
  if (auto Old = P.Bind.find(Target); Old != P.Bind.end())
    for (unsigned R : Old->second)
      if (auto RS = P.Res.find(R); RS != P.Res.end() && (RS->second.Bits & Live))
        return;
  unbind(Target, P, /*At=*/nullptr, "");
  unsigned R = resourceFor(Call, -1, Eff.Kind, spelledName(Call, M.Name), Target);
  Resources[R].Borrowed = true;
  ResState RS;
  RS.Bits = Escaped;
  if (!M.StatusType.empty())
    bindStatus(Call, M.StatusType != "bool", RS); // a failed getter lent nothing
  invalidateFacts(Target, P);
  P.Bind[Target] = {R};
  P.Res[R] = RS;
}

/// A release of a handle a getter lent: reported once per release call,
/// and the handle stays lent (what the release did is not the caller's).
bool Analysis::releaseBorrowed(unsigned R, const ResState &RS, Key K, const Expr *Call,
                               const FunctionModel &M) {
  const Resource &Res = Resources[R];
  if (!Res.Borrowed)
    return false;
  if (!(RS.Bits & Escaped))
    return true; // the getter failed on this path: nothing was lent
  report(FindingKind::MismatchedRelease, R, Call,
         {{loc(Res.Site), "'" + varName(K) + "' was lent here by '" + Res.AcquiredBy +
                              "', which keeps ownership"}},
         M.Name);
  if (auto F = Findings.find({static_cast<int>(FindingKind::MismatchedRelease), Call});
      F != Findings.end())
    F->second.Borrowed = true;
  return true;
}

} // namespace lifetime
} // namespace cgt
