//===- Launcher.h - the driver inside a build: nvcc commands and `launch` -*- C++ -*-===//
//
// CMake runs <LANG>_CLANG_TIDY tools only for C, C++ and Objective-C: a CUDA
// target compiled by nvcc gets no clang-tidy step, and clang-tidy could not
// read nvcc's flags anyway. What CMake does run for CUDA is a compiler
// launcher (CMAKE_CUDA_COMPILER_LAUNCHER, as ccache is used), so the driver
// is one too:
//
//   -DCMAKE_CUDA_COMPILER_LAUNCHER="cudagraph-tidy;launch"
//
// makes every CUDA compile `cudagraph-tidy launch [options] nvcc ARGS...`:
// the source in the command is analysed with the command's own flags
// (translated from nvcc), and the compiler runs when the analysis is clean;
// findings (exit 1) or an unanalysable file (exit 2) fail that compile step,
// as clang-tidy with -warnings-as-errors does. Another launcher can follow
// (`cudagraph-tidy;launch;ccache`). The analysis then runs wherever the build
// runs its compiles.
//
// The same translation serves `cudagraph-tidy FILE -- nvcc ARGS...`, the
// form CMake's clang-tidy hook and hand-written scripts use.
//
//===----------------------------------------------------------------------===//
#ifndef CUDAGRAPH_TIDY_TOOLS_LAUNCHER_H
#define CUDAGRAPH_TIDY_TOOLS_LAUNCHER_H

#include <string>
#include <vector>

namespace cgt {

/// When the arguments after `--` are an nvcc command, replaces them by the
/// clang flags it stands for. `Storage` owns the new strings.
std::vector<const char *> translateNvccAfterDashDash(
    int Argc, const char **Argv, std::vector<std::string> &Storage);

/// `cudagraph-tidy launch [driver options] COMPILER ARGS...`; argv[1] is
/// "launch".
int launchMain(int Argc, const char **Argv);

} // namespace cgt

#endif
