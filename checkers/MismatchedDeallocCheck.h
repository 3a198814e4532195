//===- MismatchedDeallocCheck.h ---------------------------------*- C++ -*-===//
//
// cudagraph-mismatched-dealloc: a CUDA resource released by a function of the
// wrong family (cudaFree on cudaMallocHost memory, free on cudaMalloc memory,
// cudaGraphDestroy on an exec, ...), with a fix-it that renames the callee
// when the right release function takes the same parameters.
// docs/checks/cudagraph-mismatched-dealloc.md
//
//===----------------------------------------------------------------------===//
#ifndef CUDAGRAPH_TIDY_CHECKERS_MISMATCHEDDEALLOCCHECK_H
#define CUDAGRAPH_TIDY_CHECKERS_MISMATCHEDDEALLOCCHECK_H

#include "utils/LifetimeCheckBase.h"

namespace clang::tidy::cudagraph {

class MismatchedDeallocCheck : public LifetimeCheckBase {
public:
  using LifetimeCheckBase::LifetimeCheckBase;

protected:
  void handleFinding(const cgt::LifetimeFinding &F,
                     const cgt::ApiModel &Model) override;
};

} // namespace clang::tidy::cudagraph

#endif
