//===- UnpairedInstantiateCheck.h -------------------------------*- C++ -*-===//
//
// cudagraph-unpaired-instantiate: a graph exec from cudaGraphInstantiate* /
// cuGraphInstantiate* that is not destroyed and does not escape on some path,
// or that is instantiated again over a live exec.
// docs/checks/cudagraph-unpaired-instantiate.md
//
//===----------------------------------------------------------------------===//
#ifndef CUDAGRAPH_TIDY_CHECKERS_UNPAIREDINSTANTIATECHECK_H
#define CUDAGRAPH_TIDY_CHECKERS_UNPAIREDINSTANTIATECHECK_H

#include "utils/LifetimeCheckBase.h"

namespace clang::tidy::cudagraph {

class UnpairedInstantiateCheck : public LifetimeCheckBase {
public:
  using LifetimeCheckBase::LifetimeCheckBase;

protected:
  void handleFinding(const cgt::LifetimeFinding &F,
                     const cgt::ApiModel &Model) override;
};

} // namespace clang::tidy::cudagraph

#endif
