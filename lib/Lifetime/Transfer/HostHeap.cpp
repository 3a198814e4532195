//===- HostHeap.cpp - C++ new and delete as model entries -----------------===//
//
// `new`, `new[]`, `delete` and `delete[]` are expressions, not calls, so
// the API model names them by pseudo entries of those names (no function
// can be called so): `new[]` acquires its result as `newArrayMemory`,
// `delete[]` releases that kind, and so on. The kinds are mismatchOnly, as
// malloc's `heapMemory` is: host memory is followed only so that a CUDA
// release of it (`cudaFree` of `new[]` memory) or a `delete` of CUDA memory
// (`cudaMallocHost`) is reported as a mismatch. Its leaks, double deletes,
// uses after delete and `delete` of `new[]` memory are clang-analyzer's
// (cplusplus.NewDelete, unix.MismatchedDeallocator), which sees the whole
// contract.
//
// Only the replaceable global operators are the model's: placement new
// (`new (buf) T`) allocates nothing, and a class's own operator new/delete
// is a pool whose rules we do not know.
//
// Part of the Analysis class declared in Analysis.h.
//
//===----------------------------------------------------------------------===//
#include "Lifetime/Analysis.h"

namespace cgt {
namespace lifetime {

/// The model entry standing for a new or delete expression whose operator
/// is `Operator`, or null when that operator is not the global one.
const FunctionModel *Analysis::globalHeapModel(const FunctionDecl *Operator, bool Array,
                                               bool Allocation) const {
  if (!Operator || !Operator->isReplaceableGlobalAllocationFunction())
    return nullptr;
  StringRef Name = Allocation ? (Array ? "new[]" : "new") : (Array ? "delete[]" : "delete");
  return A.Model.lookup(Name, 1);
}

void Analysis::onNew(const CXXNewExpr *New, PathState &P) {
  const FunctionModel *M = globalHeapModel(New->getOperatorNew(), New->isArray(), true);
  if (!M)
    return;
  for (const AcquireEffect &Eff : M->Acquires)
    if (Eff.Arg == ReturnValue && Eff.Owned)
      acquireReturned(New, M->Name, Eff, P);
}

void Analysis::onDelete(const CXXDeleteExpr *Delete, PathState &P) {
  const FunctionModel *M =
      globalHeapModel(Delete->getOperatorDelete(), Delete->isArrayForm(), false);
  if (!M)
    return;
  for (const ReleaseEffect &Eff : M->Releases)
    if (Eff.Arg == 0 && Eff.Field.empty())
      releaseArgument(Delete, Delete->getArgument(), *M, Eff, P);
}

} // namespace lifetime
} // namespace cgt
