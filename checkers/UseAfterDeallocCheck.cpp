//===- UseAfterDeallocCheck.cpp -------------------------------------------===//
//
// Words the engine's UseAfterRelease, DoubleRelease and
// LaunchAfterCapturedFree findings, for every resource kind of the API
// model; the notes point at the release (and the captured use). Each is
// undefined behaviour, and the message says so: it is not mere waste.
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
    emit(F, Var + " is used" + By + " after it was released (undefined behaviour)");
    break;
  case cgt::FindingKind::DoubleRelease:
    if (!F.Owner.empty()) {
      emit(F, Var + " is released again" + By + " when a copy of '" + F.Owner +
                  "' is destroyed (undefined behaviour): its implicit copy shares the "
                  "handle; delete the copy operations or make them transfer ownership");
      break;
    }
    emit(F, Var + " is released again" + By + " (undefined behaviour)");
    break;
  case cgt::FindingKind::LaunchAfterCapturedFree:
    emit(F, "graph exec '" + F.Detail + "' is launched" + By + " after " + Var +
                ", which its captured graph uses, was freed; the launch reads freed memory "
                "(undefined behaviour): re-capture or update the exec after reallocating");
    break;
  default:
    break;
  }
}

} // namespace clang::tidy::cudagraph
