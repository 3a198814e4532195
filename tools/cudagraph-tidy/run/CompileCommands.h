//===- CompileCommands.h - the commands a unit is analysed with -*- C++ -*-===//
//
// A database's compile command made into the one the checks run: nvcc
// commands translated (lib/CompileDb) with their response files read,
// host-side analysis of CUDA files unless --cuda-device-side, CCCL on the
// include path as nvcc puts it, the nvcc compatibility header
// (NvccCompat.h); and the folder findings are spelled relative to.
//
//===----------------------------------------------------------------------===//
#ifndef CUDAGRAPH_TIDY_TOOLS_COMPILECOMMANDS_H
#define CUDAGRAPH_TIDY_TOOLS_COMPILECOMMANDS_H

#include "clang/Tooling/CompilationDatabase.h"
#include <string>
#include <vector>

namespace cgt {

/// The folder the findings of `File` (as the user named it) are spelled
/// relative to: the current directory when the user named the file
/// relatively and its command runs there (flags after `--`, or a database
/// entry of this directory), as clang-tidy spells them; "" when they are
/// absolute (any file a database lists itself). Caches key on it.
std::string spellingRoot(const std::string &File,
                         const std::vector<clang::tooling::CompileCommand> &Cmds);

/// Makes a compile command analysable by clang: nvcc commands translated
/// (lib/CompileDb), host-side analysis of CUDA files unless `DeviceSide`,
/// `-x cuda` for .cuh headers.
std::vector<std::string> adjustCudaArgs(const std::vector<std::string> &Args,
                                        const std::string &File,
                                        bool DeviceSide);

/// The compile commands the checks would run for `File` (named as the user
/// named it): looked up by absolute path, nvcc commands translated, CUDA
/// files adjusted as adjustCudaArgs says. Empty when the database has none.
std::vector<clang::tooling::CompileCommand>
analysisCommands(const clang::tooling::CompilationDatabase &Db,
                 const std::string &File, bool DeviceSide);

} // namespace cgt

#endif
