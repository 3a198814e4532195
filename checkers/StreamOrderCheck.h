//===- StreamOrderCheck.h ---------------------------------------*- C++ -*-===//
//
// cudagraph-stream-order: stream-ordered memory (cudaMallocAsync) used by
// work on another stream with no ordering edge since the allocation (an
// event recorded on the allocating stream that the other waits for, a host
// synchronisation, the legacy stream's implicit one), or freed with
// cudaFreeAsync while work on another stream that uses it is not ordered
// before the free. The engine is lib/Streams (StreamOrder.h).
// docs/checks/cudagraph-stream-order.md
//
//===----------------------------------------------------------------------===//
#ifndef CUDAGRAPH_TIDY_CHECKERS_STREAMORDERCHECK_H
#define CUDAGRAPH_TIDY_CHECKERS_STREAMORDERCHECK_H

#include "utils/LifetimeCheckBase.h"

namespace clang::tidy::cudagraph {

class StreamOrderCheck : public LifetimeCheckBase {
public:
  using LifetimeCheckBase::LifetimeCheckBase;

protected:
  void handleFinding(const cgt::LifetimeFinding &F, const cgt::ApiModel &Model) override;
};

} // namespace clang::tidy::cudagraph

#endif
