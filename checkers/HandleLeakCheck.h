//===- HandleLeakCheck.h ----------------------------------------*- C++ -*-===//
//
// cudagraph-handle-leak: a stream, event, memory pool, user object, texture
// or surface object, CUDA array or cudaMalloc*/cuMemAlloc* allocation (every
// kind whose API-model `leakCheck` names this check) that is not released and
// does not escape on some path, or that is acquired again over a live one.
// docs/checks/cudagraph-handle-leak.md
//
//===----------------------------------------------------------------------===//
#ifndef CUDAGRAPH_TIDY_CHECKERS_HANDLELEAKCHECK_H
#define CUDAGRAPH_TIDY_CHECKERS_HANDLELEAKCHECK_H

#include "utils/LifetimeCheckBase.h"

namespace clang::tidy::cudagraph {

class HandleLeakCheck : public LifetimeCheckBase {
public:
  using LifetimeCheckBase::LifetimeCheckBase;

protected:
  void handleFinding(const cgt::LifetimeFinding &F,
                     const cgt::ApiModel &Model) override;
};

} // namespace clang::tidy::cudagraph

#endif
