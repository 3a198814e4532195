//===- CaptureWithoutDestroyCheck.h -----------------------------*- C++ -*-===//
//
// cudagraph-capture-without-destroy: a stream capture's two resources.
//   * the graph cudaStreamEndCapture / cuStreamEndCapture produces (model
//     kind "capturedGraph") that is neither destroyed nor handed on on some
//     path, or that a later capture overwrites while it is live;
//   * a capture begun by cudaStreamBeginCapture* that is not ended on some
//     path (an error return between begin and end leaves the stream
//     capturing), reported at the begin.
// Graphs from cudaGraphCreate/Clone are cudagraph-handle-leak's.
// docs/checks/cudagraph-capture-without-destroy.md
//
//===----------------------------------------------------------------------===//
#ifndef CUDAGRAPH_TIDY_CHECKERS_CAPTUREWITHOUTDESTROYCHECK_H
#define CUDAGRAPH_TIDY_CHECKERS_CAPTUREWITHOUTDESTROYCHECK_H

#include "utils/LifetimeCheckBase.h"

namespace clang::tidy::cudagraph {

class CaptureWithoutDestroyCheck : public LifetimeCheckBase {
public:
  using LifetimeCheckBase::LifetimeCheckBase;

protected:
  void handleFinding(const cgt::LifetimeFinding &F,
                     const cgt::ApiModel &Model) override;
};

} // namespace clang::tidy::cudagraph

#endif
