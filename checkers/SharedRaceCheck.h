//===- SharedRaceCheck.h ----------------------------------------*- C++ -*-===//
//
// cudagraph-shared-race: two threads of a block touch the same __shared__
// bytes in one barrier interval, at least one of them writing, with nothing
// between them that orders the two: a data race. The model (barrier phases
// in lib/SharedMem, SyncModel.h): the kernel runs once per thread of each
// launch shape; accesses carry their barrier interval and the __syncwarp()s
// met in it; a pair is reported only when both accesses are reached on paths
// the interpreter decided for each thread, their offsets are exact, and the
// traces of barriers agree up to them. Two lanes of one warp are a separate
// class (warp-synchronous code, undefined since Volta's independent thread
// scheduling). Kernels with async copies, named barriers or shared-memory
// inline asm, arrays given to callees it does not follow, and intervals with
// data-dependent offsets get no verdict. Without a launch shape, what holds
// for a block of two warps with nothing shape-dependent on the paths (so for
// every block of two or more warps) is reported.
// docs/checks/cudagraph-shared-race.md
//
// Options
//   WarpSynchronous (true): report races between lanes of one warp.
//   SameValueStores (false): also report write-write races whose stores may
//     write one value (`done = 1` by every thread, every lane storing a
//     warp-reduced sum); by default two stores race only when their values
//     are known to differ.
//   BlockShapes (''): see SharedMemCheckBase.h.
//
//===----------------------------------------------------------------------===//
#ifndef CUDAGRAPH_TIDY_CHECKERS_SHAREDRACECHECK_H
#define CUDAGRAPH_TIDY_CHECKERS_SHAREDRACECHECK_H

#include "utils/SharedMemCheckBase.h"

namespace clang::tidy::cudagraph {

class SharedRaceCheck : public SharedMemCheckBase {
public:
  SharedRaceCheck(StringRef Name, ClangTidyContext *Context);
  void storeOptions(ClangTidyOptions::OptionMap &Opts) override;

protected:
  cgt::smem::KernelReport checkKernel(const FunctionDecl *Kernel,
                                      cgt::smem::SharedMemAnalyzer &Analyzer) override;

private:
  bool WarpSynchronous;
  bool SameValueStores;
};

} // namespace clang::tidy::cudagraph

#endif
