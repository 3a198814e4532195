//===- ResourceDir.h - where clang's own headers are ------------*- C++ -*-===//
//
// Every parse needs clang's resource directory (stddef.h, the builtin
// intrinsics headers and, for CUDA, __clang_cuda_runtime_wrapper.h and the
// cuda_wrappers/ overrides of <new>, <cmath>, <algorithm>...). clang and
// clang-tidy find it next to their own binary (<bin>/../lib/clang/<major>).
// ClangTool does the same for whatever program links it, which for this
// driver in a build tree (build/bin) or a pre-commit clone names a directory
// that does not exist; clang then parses without the CUDA wrapper headers
// and rejects code (CCCL's cub) that clang-tidy-22 accepts.
//
// The model: the resource directory belongs to the clang the driver links,
// so it is looked for, in order, next to the driver (an install beside
// clang), next to the libclang-cpp this process loaded (the LLVM it links,
// found at run time), and at the path the build was configured with. The
// first that holds clang's CUDA wrapper header wins; a command that names
// -resource-dir itself keeps it.
//
//===----------------------------------------------------------------------===//
#ifndef CUDAGRAPH_TIDY_TOOLS_RESOURCEDIR_H
#define CUDAGRAPH_TIDY_TOOLS_RESOURCEDIR_H

#include "clang/Tooling/ArgumentsAdjusters.h"
#include <string>

namespace cgt {

/// clang's resource directory for the clang this driver links; "" when no
/// candidate holds its headers (the driver then leaves clang's own guess).
const std::string &clangResourceDir();

/// Adds -resource-dir=clangResourceDir() after the compiler's name unless
/// the command already names one.
clang::tooling::ArgumentsAdjuster resourceDirAdjuster();

} // namespace cgt

#endif
