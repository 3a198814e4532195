//===- UnpairedInstantiateCheck.cpp ---------------------------------------===//
#include "UnpairedInstantiateCheck.h"

namespace clang::tidy::cudagraph {

void UnpairedInstantiateCheck::handleFinding(const cgt::LifetimeFinding &F,
                                             const cgt::ApiModel &Model) {
  // The model says which check owns the leaks of each kind.
  const cgt::ResourceKind *Kind = Model.kind(F.ResourceKind);
  if (!Kind || Kind->LeakCheck != "cudagraph-unpaired-instantiate")
    return;
  std::string Var = quotedVar(F, Kind);
  std::string Named = F.VarName.empty() ? "" : "'" + F.VarName + "' ";
  std::string Destroy = familyReleaseFunction(*Kind, F.AcquiredBy);
  switch (F.Kind) {
  case cgt::FindingKind::Leak:
    emit(F, Kind->Noun + " " + Named + origin(F) + " is not destroyed on every path; call " +
                Destroy + leakAdvice(F, " or hand it to an owner"));
    break;
  case cgt::FindingKind::Overwrite:
    emit(F, "'" + F.AcquiredBy + "' overwrites " + Var + ", which still holds a live " +
                Kind->Noun + "; destroy it with " +
                Destroy + " first");
    break;
  default:
    break;
  }
}

} // namespace clang::tidy::cudagraph
