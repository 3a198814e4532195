//===- CaptureWithoutDestroyCheck.cpp -------------------------------------===//
//
// Words the engine's findings about captured graphs (Leak, Overwrite of the
// kinds whose model leakCheck names this check) and about captures left open
// (CaptureLeftOpen, lib/Lifetime/Capture/Capture.cpp).
//
//===----------------------------------------------------------------------===//
#include "CaptureWithoutDestroyCheck.h"

namespace clang::tidy::cudagraph {

static const char LeakCheckName[] = "cudagraph-capture-without-destroy";

void CaptureWithoutDestroyCheck::handleFinding(const cgt::LifetimeFinding &F,
                                               const cgt::ApiModel &Model) {
  if (F.Kind == cgt::FindingKind::CaptureLeftOpen) {
    // The model names the calls that end a capture.
    std::vector<std::string> Enders;
    for (const cgt::FunctionModel *M : Model.functions())
      if (M->Capture == cgt::CaptureRole::End &&
          !llvm::is_contained(Enders, M->Name))
        Enders.push_back(M->Name);
    std::string End = sameApiFamily(Enders, F.AcquiredBy, "the end-capture call");
    emit(F, "stream capture begun on '" + F.VarName + "' by '" + F.AcquiredBy +
                "' is not ended on every path; call " + End +
                " before leaving, or the stream stays capturing");
    return;
  }
  const cgt::ResourceKind *Kind = Model.kind(F.ResourceKind);
  if (!Kind || Kind->LeakCheck != LeakCheckName)
    return;
  std::string Var = quotedVar(F, Kind);
  std::string Named = F.VarName.empty() ? "" : "'" + F.VarName + "' ";
  std::string Destroy = familyReleaseFunction(*Kind, F.AcquiredBy);
  switch (F.Kind) {
  case cgt::FindingKind::Leak:
    emit(F, Kind->Noun + " " + Named + origin(F, "from") +
                " is not destroyed on every path; call " + Destroy +
                leakAdvice(F, " (after instantiating it) or hand it to an owner"));
    break;
  case cgt::FindingKind::Overwrite:
    emit(F, "'" + F.AcquiredBy + "' overwrites " + Var + ", which still holds a live " +
                Kind->Noun + "; destroy it with " + Destroy + " first");
    break;
  default:
    break;
  }
}

} // namespace clang::tidy::cudagraph
