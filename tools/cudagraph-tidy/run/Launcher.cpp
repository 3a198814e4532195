//===- Launcher.cpp - the driver inside a build ---------------------------===//
#include "run/Launcher.h"
#include "CompileDb/NvccArgs.h"

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Program.h"
#include "llvm/Support/raw_ostream.h"

namespace cgt {

std::vector<const char *> translateNvccAfterDashDash(
    int Argc, const char **Argv, std::vector<std::string> &Storage) {
  std::vector<const char *> Out(Argv, Argv + Argc);
  int Dash = 1;
  while (Dash < Argc && llvm::StringRef(Argv[Dash]) != "--")
    ++Dash;
  if (Dash >= Argc - 1)
    return Out;
  std::vector<std::string> Tail(Argv + Dash + 1, Argv + Argc);
  if (!isNvccCommand(Tail))
    return Out;
  // The translation starts with the compiler's name, which the flags after
  // `--` do not carry.
  std::vector<std::string> Clang = translateNvccArgs(Tail).Args;
  Storage.assign(Clang.begin() + 1, Clang.end());
  Out.resize(Dash + 1);
  for (const std::string &S : Storage)
    Out.push_back(S.c_str());
  return Out;
}

namespace {

bool isSource(llvm::StringRef Arg) {
  for (llvm::StringRef Ext : {".cu", ".cpp", ".cc", ".cxx", ".c", ".C", ".c++"})
    if (Arg.ends_with(Ext))
      return true;
  return false;
}

/// The source a compile command compiles: the argument of -c when it is
/// one, else the one source-looking argument that is not an output.
std::string sourceOf(const std::vector<std::string> &Cmd) {
  std::vector<std::string> Found;
  for (size_t I = 1; I < Cmd.size(); ++I) {
    llvm::StringRef A = Cmd[I];
    if ((A == "-o" || A == "-MF" || A == "-MT" || A == "-MQ" ||
         A == "--output-file") && I + 1 < Cmd.size()) {
      ++I;
      continue;
    }
    if (A == "-c" && I + 1 < Cmd.size() && isSource(Cmd[I + 1]))
      return Cmd[I + 1];
    if (!A.starts_with("-") && isSource(A) && llvm::sys::fs::exists(A))
      Found.push_back(A.str());
  }
  return Found.size() == 1 ? Found.front() : "";
}

/// The compile command without the launchers chained after this one
/// (`cudagraph-tidy;launch;distcc`, a wrapper script): from the first nvcc
/// on, when there is one. The chain still runs the whole command; only the
/// analysis needs the compiler's own arguments.
std::vector<std::string> withoutLaunchers(const std::vector<std::string> &Cmd) {
  for (size_t I = 0; I < Cmd.size(); ++I) {
    std::vector<std::string> Tail(Cmd.begin() + I, Cmd.end());
    if (isNvccCommand(Tail))
      return Tail;
  }
  return Cmd;
}

int run(const std::vector<std::string> &Cmd) {
  std::string Program = Cmd.front();
  if (!llvm::StringRef(Program).contains('/')) {
    auto Found = llvm::sys::findProgramByName(Program);
    if (!Found) {
      llvm::errs() << "cudagraph-tidy launch: cannot find '" << Program << "'\n";
      return 2;
    }
    Program = *Found;
  }
  std::vector<llvm::StringRef> Args(Cmd.begin(), Cmd.end());
  std::string Error;
  int RC = llvm::sys::ExecuteAndWait(Program, Args, std::nullopt, {}, 0, 0, &Error);
  if (RC < 0)
    llvm::errs() << "cudagraph-tidy launch: cannot run '" << Program
                 << "': " << Error << "\n";
  return RC < 0 ? 2 : RC;
}

} // namespace

int launchMain(int Argc, const char **Argv) {
  std::vector<std::string> Options, Compile;
  int I = 2;
  for (; I < Argc && llvm::StringRef(Argv[I]).starts_with("-"); ++I)
    Options.push_back(Argv[I]);
  Compile.assign(Argv + I, Argv + Argc);
  if (Compile.empty()) {
    llvm::errs() << "usage: cudagraph-tidy launch [driver options] COMPILER ARGS...\n"
                    "  (as CMAKE_CUDA_COMPILER_LAUNCHER=\"cudagraph-tidy;launch\")\n";
    return 2;
  }
  std::string Source = sourceOf(Compile);
  if (!Source.empty()) {
    std::string Self = llvm::sys::fs::getMainExecutable(Argv[0], (void *)&launchMain);
    std::vector<std::string> Analyse = {Self};
    Analyse.insert(Analyse.end(), Options.begin(), Options.end());
    Analyse.push_back("--quiet");
    Analyse.push_back(Source);
    Analyse.push_back("--");
    // nvcc, or a launcher and nvcc (ccache nvcc), is translated on the way
    // in (translateNvccAfterDashDash).
    std::vector<std::string> Compiler = withoutLaunchers(Compile);
    Analyse.insert(Analyse.end(), Compiler.begin(), Compiler.end());
    if (int RC = run(Analyse))
      return RC;
  }
  return run(Compile);
}

} // namespace cgt
