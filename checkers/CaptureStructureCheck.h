//===- CaptureStructureCheck.h ----------------------------------*- C++ -*-===//
//
// cudagraph-capture-structure: a stream capture whose shape CUDA refuses at
// run time: a stream forked into the capture and not joined back before
// cudaStreamEndCapture (cudaErrorStreamCaptureUnjoined), a wait inside the
// capture on an event recorded outside it (cudaErrorStreamCaptureIsolation),
// work on the legacy default stream while a stream captures
// (cudaErrorStreamCaptureImplicit, or the work runs outside the graph), and
// a graph from an unchecked cudaStreamEndCapture that is instantiated (a
// failed capture leaves it NULL). The engine is lib/Streams
// (CaptureStructure.cpp). docs/checks/cudagraph-capture-structure.md
//
//===----------------------------------------------------------------------===//
#ifndef CUDAGRAPH_TIDY_CHECKERS_CAPTURESTRUCTURECHECK_H
#define CUDAGRAPH_TIDY_CHECKERS_CAPTURESTRUCTURECHECK_H

#include "utils/LifetimeCheckBase.h"

namespace clang::tidy::cudagraph {

class CaptureStructureCheck : public LifetimeCheckBase {
public:
  using LifetimeCheckBase::LifetimeCheckBase;

protected:
  void handleFinding(const cgt::LifetimeFinding &F, const cgt::ApiModel &Model) override;
};

} // namespace clang::tidy::cudagraph

#endif
