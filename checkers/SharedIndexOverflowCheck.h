//===- SharedIndexOverflowCheck.h -------------------------------*- C++ -*-===//
//
// cudagraph-shared-index-overflow: an index into a __shared__ array (per
// dimension), or into an `extern __shared__` array sized by the launch's
// dynamic shared-memory argument, that leaves the array for a block shape
// the kernel is launched with in this translation unit. The analysis is
// lib/SharedMem; this check only words its findings.
// docs/checks/cudagraph-shared-index-overflow.md
//
// Options
//   ReportPossibleOverflows (false): also report overflows that need an
//     assumed block shape (no launch visible: __launch_bounds__ or the
//     1024-thread hardware limit) or that sit behind an undecided
//     thread-dependent guard, or whose index is out only for some values of
//     a kernel parameter.
//   BlockShapes (''): see SharedMemCheckBase.h.
//
//===----------------------------------------------------------------------===//
#ifndef CUDAGRAPH_TIDY_CHECKERS_SHAREDINDEXOVERFLOWCHECK_H
#define CUDAGRAPH_TIDY_CHECKERS_SHAREDINDEXOVERFLOWCHECK_H

#include "utils/SharedMemCheckBase.h"

namespace clang::tidy::cudagraph {

class SharedIndexOverflowCheck : public SharedMemCheckBase {
public:
  SharedIndexOverflowCheck(StringRef Name, ClangTidyContext *Context);
  void storeOptions(ClangTidyOptions::OptionMap &Opts) override;

protected:
  cgt::smem::KernelReport checkKernel(const FunctionDecl *Kernel,
                                      cgt::smem::SharedMemAnalyzer &Analyzer) override;

private:
  bool ReportPossible;
};

} // namespace clang::tidy::cudagraph

#endif
