//===- CaptureUnsafeCallCheck.cpp -----------------------------------------===//
//
// Words the engine's CaptureUnsafeCall findings (lib/Lifetime/Capture/Capture.cpp):
// the call, the stream that is capturing, and the model's captureNote.
//
//===----------------------------------------------------------------------===//
#include "CaptureUnsafeCallCheck.h"

namespace clang::tidy::cudagraph {

void CaptureUnsafeCallCheck::handleFinding(const cgt::LifetimeFinding &F,
                                           const cgt::ApiModel &) {
  if (F.Kind != cgt::FindingKind::CaptureUnsafeCall)
    return;
  std::string Why = F.Detail.empty() ? "it is prohibited during stream capture" : F.Detail;
  emit(F, "'" + F.CalledFunction + "' is called while stream '" + F.VarName +
              "' is capturing: " + Why);
}

} // namespace clang::tidy::cudagraph
