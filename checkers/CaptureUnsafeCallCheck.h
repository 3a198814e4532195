//===- CaptureUnsafeCallCheck.h ---------------------------------*- C++ -*-===//
//
// cudagraph-capture-unsafe-call: a call the API model marks
// "legalDuringCapture": false (cudaMalloc, cudaStreamSynchronize,
// cudaMemcpy, ...) made while a stream of this function is surely capturing
// on that path: after a cudaStreamBeginCapture* that did not fail and before
// the stream's end-capture. Calls marked "legalInRelaxedCapture" are allowed
// in a capture begun with the constant relaxed mode.
// docs/checks/cudagraph-capture-unsafe-call.md
//
//===----------------------------------------------------------------------===//
#ifndef CUDAGRAPH_TIDY_CHECKERS_CAPTUREUNSAFECALLCHECK_H
#define CUDAGRAPH_TIDY_CHECKERS_CAPTUREUNSAFECALLCHECK_H

#include "utils/LifetimeCheckBase.h"

namespace clang::tidy::cudagraph {

class CaptureUnsafeCallCheck : public LifetimeCheckBase {
public:
  using LifetimeCheckBase::LifetimeCheckBase;

protected:
  void handleFinding(const cgt::LifetimeFinding &F,
                     const cgt::ApiModel &Model) override;
};

} // namespace clang::tidy::cudagraph

#endif
