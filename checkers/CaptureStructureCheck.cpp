//===- CaptureStructureCheck.cpp ------------------------------------------===//
//
// Words the engine's four capture-structure findings (lib/Streams/
// CaptureStructure.cpp says what each field holds), with the run-time error
// the H200 gave for each (docs/validation.md).
//
//===----------------------------------------------------------------------===//
#include "CaptureStructureCheck.h"

namespace clang::tidy::cudagraph {

namespace {
std::string legacyOutcome(StringRef How, StringRef Stream) {
  std::string S = "'" + Stream.str() + "'";
  if (How == "nonblocking")
    return S + " is non-blocking, so the work runs at once and is not part of the graph";
  if (How == "blocking")
    return "the implicit synchronisation with " + S +
           " invalidates the capture (cudaErrorStreamCaptureImplicit)";
  return "if " + S + " is a blocking stream the capture is invalidated "
         "(cudaErrorStreamCaptureImplicit); if it is non-blocking the work runs at once, "
         "outside the graph";
}
} // namespace

void CaptureStructureCheck::handleFinding(const cgt::LifetimeFinding &F, const cgt::ApiModel &) {
  using cgt::FindingKind;
  switch (F.Kind) {
  case FindingKind::CaptureUnjoined:
    emit(F, "'" + F.CalledFunction + "' ends the capture of '" + F.VarName + "' while '" +
                F.Detail + "', forked into it, is not joined back: the call fails with "
                "cudaErrorStreamCaptureUnjoined and the graph is lost; record an event on '" +
                F.Detail + "' after its last work and make '" + F.VarName +
                "' wait for it before ending the capture");
    break;
  case FindingKind::CaptureIsolation: {
    auto [Waiter, Other] = StringRef(F.Detail).split('|');
    std::string Where = Other.empty() ? "outside the capture"
                                      : "in the capture of '" + Other.str() + "'";
    // Measured: an outside event is Isolation, another capture's is Merge.
    std::string Error = Other.empty() ? "cudaErrorStreamCaptureIsolation"
                                      : "cudaErrorStreamCaptureMerge";
    emit(F, "'" + Waiter.str() + "' waits during its capture on event '" + F.VarName +
                "', recorded " + Where + ": the wait fails with " + Error +
                " and invalidates the capture; record '" +
                F.VarName + "' inside this capture, or wait on it with "
                "cudaEventWaitExternal");
    break;
  }
  case FindingKind::CaptureImplicitLegacy:
    emit(F, "'" + F.CalledFunction + "' enqueues work on the legacy default stream while '" +
                F.VarName + "' is capturing: " + legacyOutcome(F.Detail, F.VarName) +
                "; enqueue it on '" + F.VarName + "'");
    break;
  case FindingKind::CaptureStatusUnchecked:
    emit(F, "graph '" + F.VarName + "' is instantiated by '" + F.CalledFunction +
                "' without checking the status of '" + F.Detail +
                "': a failed or invalidated capture leaves '" + F.VarName +
                "' NULL and the instantiation fails with cudaErrorInvalidValue; check the "
                "status '" + F.Detail + "' returns first");
    break;
  default:
    break;
  }
}

} // namespace clang::tidy::cudagraph
