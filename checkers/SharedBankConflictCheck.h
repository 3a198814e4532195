//===- SharedBankConflictCheck.h --------------------------------*- C++ -*-===//
//
// cudagraph-shared-bank-conflict: a __shared__ access whose lanes hit the
// same bank with different 32-bit words, serialising the warp's access into
// several wavefronts. Bank model (lib/SharedMem/BankModel.h, measured on an
// H200): 32 banks x 4 bytes; 8-byte accesses run in 2 phases of 16 lanes,
// 16-byte ones in 4 phases of 8; a phase costs the largest number of
// distinct words in one bank; a uniform address is a broadcast. For a full
// warp and index a*lane + c: wavefronts = gcd(a*s/4, 32).
// docs/checks/cudagraph-shared-bank-conflict.md
//
// Options
//   MinDegreeInLoop (2): report n-way conflicts with n >= this inside loops.
//   MinDegree (4): report n-way conflicts with n >= this anywhere.
//   PaddingFixIts (true): offer `[R][C]` -> `[R][C + 1]` when re-running the
//     analysis with that padding removes every conflict on the array.
//   BlockShapes (''): see SharedMemCheckBase.h.
//
//===----------------------------------------------------------------------===//
#ifndef CUDAGRAPH_TIDY_CHECKERS_SHAREDBANKCONFLICTCHECK_H
#define CUDAGRAPH_TIDY_CHECKERS_SHAREDBANKCONFLICTCHECK_H

#include "utils/SharedMemCheckBase.h"

namespace clang::tidy::cudagraph {

class SharedBankConflictCheck : public SharedMemCheckBase {
public:
  SharedBankConflictCheck(StringRef Name, ClangTidyContext *Context);
  void storeOptions(ClangTidyOptions::OptionMap &Opts) override;

protected:
  cgt::smem::KernelReport checkKernel(const FunctionDecl *Kernel,
                                      cgt::smem::SharedMemAnalyzer &Analyzer) override;

private:
  unsigned MinDegreeInLoop;
  unsigned MinDegree;
  bool PaddingFixIts;
};

} // namespace clang::tidy::cudagraph

#endif
