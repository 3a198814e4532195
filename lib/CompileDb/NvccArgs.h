//===- NvccArgs.h - nvcc command lines as clang command lines ---*- C++ -*-===//
//
// CMake projects with LANGUAGES CUDA compiled by nvcc write nvcc commands
// into compile_commands.json. clang rejects most nvcc-only flags with
// "unknown argument", which makes the translation unit count as unparsable,
// so the driver rewrites such commands before analysing them:
//
//  * the compiler becomes clang++ (and the CUDA installation nvcc lives in
//    becomes --cuda-path, unless one is given);
//  * -Xcompiler/--compiler-options values are unwrapped into host flags;
//  * -arch/-gencode/--gpu-architecture/--generate-code become
//    --offload-arch=sm_XX where they name a real GPU, else they are dropped;
//  * -x cu becomes -x cuda, --options-file becomes a response file;
//  * -dc/--device-c and -rdc=true/--relocatable-device-code=true (or with
//    the value as the next argument) become -fgpu-rdc: separate
//    compilation changes what clang accepts (`extern __shared__ T x;`);
//  * flags that only steer nvcc, ptxas, cudafe or the device linker
//    (--expt-relaxed-constexpr, -rdc=false, -Xptxas, -ccbin, -lineinfo, -G,
//    ...) are dropped; -I, -D, -isystem, -std and every host flag are kept.
//
// Pure string processing: no clang, no file system.
//
//===----------------------------------------------------------------------===//
#ifndef CUDAGRAPH_TIDY_COMPILEDB_NVCCARGS_H
#define CUDAGRAPH_TIDY_COMPILEDB_NVCCARGS_H

#include <string>
#include <vector>

namespace cgt {

/// True when argv[0] is nvcc (any directory, optional ".exe"), or when it is
/// a launcher such as ccache whose next argument is nvcc.
bool isNvccCommand(const std::vector<std::string> &Args);

struct NvccTranslation {
  std::vector<std::string> Args;    ///< the clang command line
  std::vector<std::string> Dropped; ///< nvcc flags removed, for diagnostics
};

/// Rewrites an nvcc command line for clang. `Args[0]` (after any launcher)
/// must be nvcc; the result starts with `Compiler`.
NvccTranslation translateNvccArgs(const std::vector<std::string> &Args,
                                  const std::string &Compiler = "clang++");

/// The sm_XX architecture an -arch/-gencode value names, or "" when it names
/// none clang can use (native, all, all-major, virtual-only lists).
std::string nvccArchToOffloadArch(const std::string &Value);

} // namespace cgt

#endif
