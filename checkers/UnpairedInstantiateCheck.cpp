//===- UnpairedInstantiateCheck.cpp ---------------------------------------===//
#include "UnpairedInstantiateCheck.h"

namespace clang::tidy::cudagraph {

void UnpairedInstantiateCheck::handleFinding(const cgt::LifetimeFinding &F,
                                             const cgt::ApiModel &Model) {
  if (F.ResourceKind != "graphExec")
    return;
  std::string Var = F.VarName.empty() ? "the graph exec" : "'" + F.VarName + "'";
  std::string Named = F.VarName.empty() ? "" : "'" + F.VarName + "' ";
  // Name the destroy call of the API family that made the exec.
  bool Driver = StringRef(F.AcquiredBy).starts_with("cu") &&
                !StringRef(F.AcquiredBy).starts_with("cuda");
  std::string Destroy = Driver ? "cuGraphExecDestroy" : "cudaGraphExecDestroy";
  switch (F.Kind) {
  case cgt::FindingKind::Leak:
    emit(F, "graph exec " + Named + "created by '" + F.AcquiredBy +
                "' is not destroyed on every path; call " + Destroy +
                " or hand it to an owner");
    break;
  case cgt::FindingKind::Overwrite:
    emit(F, "'" + F.AcquiredBy + "' overwrites " + Var +
                ", which still holds a live graph exec; destroy it with " +
                Destroy + " first");
    break;
  default:
    break;
  }
}

} // namespace clang::tidy::cudagraph
