//===- UseAfterDeallocCheck.cpp -------------------------------------------===//
//
// Words the engine's UseAfterRelease and DoubleRelease findings, for every
// resource kind of the API model; the note points at the release.
//
//===----------------------------------------------------------------------===//
#include "UseAfterDeallocCheck.h"

namespace clang::tidy::cudagraph {

void UseAfterDeallocCheck::handleFinding(const cgt::LifetimeFinding &F,
                                         const cgt::ApiModel &Model) {
  const cgt::ResourceKind *Kind = Model.kind(F.ResourceKind);
  std::string Var = quotedVar(F, Kind);
  std::string By = F.CalledFunction.empty() ? "" : " by '" + F.CalledFunction + "'";
  switch (F.Kind) {
  case cgt::FindingKind::UseAfterRelease:
    emit(F, Var + " is used" + By + " after it was released");
    break;
  case cgt::FindingKind::DoubleRelease:
    emit(F, Var + " is released again" + By);
    break;
  default:
    break;
  }
}

} // namespace clang::tidy::cudagraph
