//===- UnpairedInstantiateCheck.cpp ---------------------------------------===//
#include "UnpairedInstantiateCheck.h"

namespace clang::tidy::cudagraph {

/// The release function of the API family that made the resource: the
/// driver API's for `cu*` calls, the runtime's otherwise.
static std::string releaseFunctionFor(const cgt::ResourceKind &K,
                                      StringRef AcquiredBy) {
  auto IsDriver = [](StringRef Name) {
    return Name.starts_with("cu") && !Name.starts_with("cuda");
  };
  for (const std::string &R : K.ReleasedBy)
    if (IsDriver(R) == IsDriver(AcquiredBy))
      return R;
  return K.ReleasedBy.empty() ? "its release function" : K.ReleasedBy.front();
}

void UnpairedInstantiateCheck::handleFinding(const cgt::LifetimeFinding &F,
                                             const cgt::ApiModel &Model) {
  // The model says which check owns the leaks of each kind.
  const cgt::ResourceKind *Kind = Model.kind(F.ResourceKind);
  if (!Kind || Kind->LeakCheck != "cudagraph-unpaired-instantiate")
    return;
  std::string Var = F.VarName.empty() ? "the " + Kind->Noun : "'" + F.VarName + "'";
  std::string Named = F.VarName.empty() ? "" : "'" + F.VarName + "' ";
  std::string Destroy = releaseFunctionFor(*Kind, F.AcquiredBy);
  switch (F.Kind) {
  case cgt::FindingKind::Leak:
    emit(F, Kind->Noun + " " + Named + "created by '" + F.AcquiredBy +
                "' is not destroyed on every path; call " + Destroy +
                " or hand it to an owner");
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
