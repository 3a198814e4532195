//===- LaunchIndex.h - every launch of a translation unit -------*- C++ -*-===//
//
// Internal to lib/SharedMem. One walk of the unit (template instantiations
// and generic lambdas' specialisations included, system headers skipped)
// finds every launch site LaunchConfig.cpp folds, in the walk's order, and
// gives the resolver every call site and kernel name (LaunchResolver.h).
//
//===----------------------------------------------------------------------===//
#ifndef CUDAGRAPH_TIDY_SHAREDMEM_LAUNCHINDEX_H
#define CUDAGRAPH_TIDY_SHAREDMEM_LAUNCHINDEX_H

#include "clang/AST/ASTContext.h"
#include <vector>

namespace cgt::smem {

class LaunchResolver;

enum class LaunchForm {
  Chevron,     ///< k<<<grid, block, bytes, stream>>>(...)
  RuntimeCall, ///< cudaLaunchKernel / cudaLaunchCooperativeKernel(k, grid, block, args, bytes, stream)
  RuntimeEx,   ///< cudaLaunchKernelEx(&cfg, k, ...) / cudaLaunchKernelExC(&cfg, k, args)
  Driver,      ///< cuLaunchKernel(f, gx, gy, gz, bx, by, bz, bytes, ...)
  DriverEx,    ///< cuLaunchKernelEx(&cfg, f, ...)
  KernelNode,  ///< cudaGraphAddKernelNode(&n, g, deps, nd, &params) and setters
  MaxDynSmem   ///< cudaFuncSetAttribute(k, cudaFuncAttributeMaxDynamicSharedMemorySize, n)
};
struct LaunchSite {
  const clang::Expr *E;
  const clang::FunctionDecl *Fn;
  LaunchForm F;
};

/// The launch sites of the unit, in the order the walk meets them; the
/// call sites and kernel names go to `R` on the way.
std::vector<LaunchSite> collectLaunchSites(clang::ASTContext &Ctx, LaunchResolver &R);

} // namespace cgt::smem

#endif
