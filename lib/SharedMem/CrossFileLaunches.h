//===- CrossFileLaunches.h - kernels launched in one file, defined in another -*- C++ -*-===//
//
// GROMACS defines its non-bonded kernels in one unit and launches them from
// another, through tables of kernel pointers: the unit with the body sees
// no launch and so no block shape, and the unit with the launch (where
// LaunchResolver folds the shape) has no body. A project run carries the
// shapes across files:
//
//   launching unit                      project summaries          defining unit
//   launchesOfUndefinedKernels() --> "kernelLaunches" (ApiModel) --> setOtherFileLaunches()
//   (kernels it declares and              k -> [block, bytes, at]    for the kernels
//    does not define)                                                definedKernels() names
//
// The driver's passes do the carrying (tools/cudagraph-tidy/summaries):
// a unit that defines a kernel is given the launches of that kernel and
// analysed again when they change.
//
// Kernels are named by kernelKey: the qualified name with the template
// arguments of an instantiation, so that `k<64>` launched with 64 threads
// and `k<128>` launched with 128 stay apart. Only kernels with external
// linkage cross files.
//
//===----------------------------------------------------------------------===//
#ifndef CUDAGRAPH_TIDY_SHAREDMEM_CROSSFILELAUNCHES_H
#define CUDAGRAPH_TIDY_SHAREDMEM_CROSSFILELAUNCHES_H

#include "SharedMem/SharedMemAnalysis.h"
#include <set>
#include <string>
#include <vector>

namespace cgt::smem {

/// "ns::kernel" or "ns::kernel<64, true>" (canonical types).
std::string kernelKey(const clang::FunctionDecl *Kernel);

/// A launch with a constant block shape (Config.Loc: the launch).
struct FileLaunch {
  std::string Kernel; ///< kernelKey
  LaunchConfig Config;
};

/// What a unit gives and takes across files.
struct CrossFileKernels {
  /// Launches in this unit of kernels with external linkage that it
  /// declares and does not define. When it declares no such kernel (most
  /// units), nothing is folded: the answer costs a walk of the declarations.
  std::vector<FileLaunch> Launches;
  /// The kernelKey of every kernel with external linkage this unit defines
  /// outside system headers (instantiations included).
  std::set<std::string> Defined;
};
/// `Model` (may be null): the data the host folds read (setApiModel).
CrossFileKernels crossFileKernels(clang::ASTContext &Ctx, const ApiModel *Model);

} // namespace cgt::smem

#endif
