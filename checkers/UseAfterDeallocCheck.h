//===- UseAfterDeallocCheck.h -----------------------------------*- C++ -*-===//
//
// cudagraph-use-after-dealloc: a CUDA resource of any kind (graph, exec,
// stream, event, pool, memory, ...) that is used, launched or released again
// after it was released on the same path.
// docs/checks/cudagraph-use-after-dealloc.md
//
//===----------------------------------------------------------------------===//
#ifndef CUDAGRAPH_TIDY_CHECKERS_USEAFTERDEALLOCCHECK_H
#define CUDAGRAPH_TIDY_CHECKERS_USEAFTERDEALLOCCHECK_H

#include "utils/LifetimeCheckBase.h"

namespace clang::tidy::cudagraph {

class UseAfterDeallocCheck : public LifetimeCheckBase {
public:
  using LifetimeCheckBase::LifetimeCheckBase;

protected:
  void handleFinding(const cgt::LifetimeFinding &F,
                     const cgt::ApiModel &Model) override;
};

} // namespace clang::tidy::cudagraph

#endif
