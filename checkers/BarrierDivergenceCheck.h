//===- BarrierDivergenceCheck.h ---------------------------------*- C++ -*-===//
//
// cudagraph-barrier-divergence: a block barrier (__syncthreads*, a cooperative
// groups block or grid sync, __barrier_sync(0)) that some live threads of a
// block meet and others skip, or barriers at different call sites met by
// different threads at the same point of their barrier sequence; and a
// __syncwarp whose constant mask omits the calling lane. The model (lib/
// SharedMem, SyncModel.h): the kernel runs once per thread of each launch
// shape; every decided test whose code holds a barrier logs the arm each
// thread took and the barriers it met there. A thread that returns from the
// kernel may skip barriers (exited threads do not count at a barrier since
// sm_70). Tests on block-uniform values (parameters, blockIdx, values the
// interpreter cannot decide for any thread) are never divergent; a barrier
// under an undecided thread-dependent test gets no verdict. Without a launch
// shape, a block of two warps is run and tests on the block shape are not
// judged.
// docs/checks/cudagraph-barrier-divergence.md
//
// Options
//   AlignedBarriers (false): also report a barrier that some threads skip
//     and then exit (PTX's .aligned rule, GPUs before sm_70, GPUVerify).
//   BlockShapes (''): see SharedMemCheckBase.h.
//
//===----------------------------------------------------------------------===//
#ifndef CUDAGRAPH_TIDY_CHECKERS_BARRIERDIVERGENCECHECK_H
#define CUDAGRAPH_TIDY_CHECKERS_BARRIERDIVERGENCECHECK_H

#include "utils/SharedMemCheckBase.h"

namespace clang::tidy::cudagraph {

class BarrierDivergenceCheck : public SharedMemCheckBase {
public:
  BarrierDivergenceCheck(StringRef Name, ClangTidyContext *Context);
  void storeOptions(ClangTidyOptions::OptionMap &Opts) override;

protected:
  cgt::smem::KernelReport checkKernel(const FunctionDecl *Kernel,
                                      cgt::smem::SharedMemAnalyzer &Analyzer) override;

private:
  bool AlignedBarriers;
};

} // namespace clang::tidy::cudagraph

#endif
