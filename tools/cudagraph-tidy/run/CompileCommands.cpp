//===- CompileCommands.cpp - the commands a unit is analysed with ---------===//
//
// Commands are looked up on the main thread (the user's database is not
// documented as safe for concurrent use) and adjusted the same way for the
// checks and for the summary passes, so that both parse one command.
//
//===----------------------------------------------------------------------===//
#include "run/CompileCommands.h"
#include "run/NvccCompat.h"
#include "CompileDb/NvccArgs.h"

#include "llvm/Support/CommandLine.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/StringSaver.h"
#include <algorithm>

using namespace clang;

namespace cgt {
namespace {

bool isCudaFile(llvm::StringRef File) {
  return File.ends_with(".cu") || File.ends_with(".cuh");
}

bool hasArg(const std::vector<std::string> &Args, llvm::StringRef Prefix) {
  for (const std::string &A : Args)
    if (llvm::StringRef(A).starts_with(Prefix))
      return true;
  return false;
}

/// The CUDA installation clang will use: --cuda-path=, else clang's default.
std::string cudaPathOf(const std::vector<std::string> &Args) {
  for (const std::string &A : Args)
    if (llvm::StringRef(A).starts_with("--cuda-path="))
      return A.substr(strlen("--cuda-path="));
  return "/usr/local/cuda";
}

} // namespace

std::vector<std::string> adjustCudaArgs(const std::vector<std::string> &In,
                                        const std::string &File,
                                        bool DeviceSide) {
  std::vector<std::string> Args =
      isNvccCommand(In) ? translateNvccArgs(In).Args : In;
  if (!isCudaFile(File) && !hasArg(Args, "-xcuda") &&
      std::find(Args.begin(), Args.end(), "cuda") == Args.end())
    return Args;
  std::vector<std::string> Out = Args;
  auto InsertAt = Out.empty() ? Out.end() : Out.begin() + 1;
  std::vector<std::string> Extra;
  if (!hasArg(Args, "--cuda-host-only") && !hasArg(Args, "--cuda-device-only") &&
      !hasArg(Args, "--cuda-compile-host-device"))
    Extra.push_back(DeviceSide ? "--cuda-device-only" : "--cuda-host-only");
  if (!hasArg(Args, "-Wno-unknown-cuda-version"))
    Extra.push_back("-Wno-unknown-cuda-version");
  if (llvm::StringRef(File).ends_with(".cuh") && !hasArg(Args, "-x")) {
    Extra.push_back("-x");
    Extra.push_back("cuda");
  }
  // nvcc puts CCCL (libcu++, cooperative_groups' <cuda/std/...>) on the
  // include path by itself; clang does not, and CUDA 13's headers need it.
  std::string Cccl = cudaPathOf(Args) + "/include/cccl";
  if (!hasArg(Args, "-I" + Cccl) && llvm::sys::fs::is_directory(Cccl) &&
      std::find(Args.begin(), Args.end(), Cccl) == Args.end()) {
    Extra.push_back("-isystem");
    Extra.push_back(Cccl);
  }
  // What nvcc's headers give host code and clang's do not (NvccCompat.h).
  const std::string &Compat = nvccCompatEnabled() ? nvccCompatHeader() : std::string();
  if (!Compat.empty() && std::find(Args.begin(), Args.end(), Compat) == Args.end()) {
    Extra.push_back("-include");
    Extra.push_back(Compat);
  }
  Out.insert(InsertAt, Extra.begin(), Extra.end());
  return withoutToolkitInclude(Out, cudaPathOf(Args));
}

namespace {

/// Replaces "@file" arguments by the file's contents, read relative to the
/// command's directory. nvcc's --options-file (CMake's Makefile generator
/// puts include paths there) becomes such an argument, and clang under
/// ClangTool would look for it relative to the process instead.
std::vector<std::string> expandResponseFiles(const std::vector<std::string> &Args,
                                             llvm::StringRef Directory) {
  std::vector<std::string> Out;
  for (const std::string &A : Args) {
    if (A.size() < 2 || A[0] != '@') {
      Out.push_back(A);
      continue;
    }
    llvm::SmallString<256> Path(llvm::StringRef(A).drop_front());
    if (llvm::sys::path::is_relative(Path)) {
      llvm::SmallString<256> Joined(Directory);
      llvm::sys::path::append(Joined, Path);
      Path = Joined;
    }
    auto Buf = llvm::MemoryBuffer::getFile(Path);
    if (!Buf) {
      Out.push_back(A); // clang then reports the missing file
      continue;
    }
    llvm::BumpPtrAllocator Alloc;
    llvm::StringSaver Saver(Alloc);
    llvm::SmallVector<const char *, 16> Tokens;
    llvm::cl::TokenizeGNUCommandLine((*Buf)->getBuffer(), Saver, Tokens);
    for (const char *T : Tokens)
      Out.push_back(T);
  }
  return Out;
}

/// Applies the nvcc translation and adjustCudaArgs to every command of the
/// underlying database.
class CudaAdjustingDatabase : public tooling::CompilationDatabase {
public:
  CudaAdjustingDatabase(const tooling::CompilationDatabase &Inner, bool DeviceSide)
      : Inner(Inner), DeviceSide(DeviceSide) {}
  std::vector<tooling::CompileCommand>
  getCompileCommands(llvm::StringRef File) const override {
    auto Cmds = Inner.getCompileCommands(File);
    for (tooling::CompileCommand &C : Cmds) {
      if (isNvccCommand(C.CommandLine))
        C.CommandLine = expandResponseFiles(translateNvccArgs(C.CommandLine).Args,
                                            C.Directory);
      C.CommandLine = adjustCudaArgs(C.CommandLine, C.Filename, DeviceSide);
    }
    return Cmds;
  }
  std::vector<std::string> getAllFiles() const override { return Inner.getAllFiles(); }

private:
  const tooling::CompilationDatabase &Inner;
  bool DeviceSide;
};

/// Commands that run in the current directory (flags after `--`) name the
/// file the way the user did, so that diagnostics do too, as in clang-tidy.
void keepUserPath(std::vector<tooling::CompileCommand> &Cmds,
                  const std::string &UserPath, const std::string &AbsPath) {
  if (llvm::sys::path::is_absolute(UserPath))
    return;
  llvm::SmallString<256> Cwd;
  llvm::sys::fs::current_path(Cwd);
  for (tooling::CompileCommand &C : Cmds) {
    if (C.Directory != "." && C.Directory != Cwd)
      continue;
    for (std::string &A : C.CommandLine)
      if (A == AbsPath)
        A = UserPath;
    if (C.Filename == AbsPath)
      C.Filename = UserPath;
  }
}

} // namespace

std::string spellingRoot(const std::string &File,
                         const std::vector<tooling::CompileCommand> &Cmds) {
  // A database's own relative names (Bear's) are the database's, not the
  // user's: those findings are absolute wherever the driver runs.
  if (Cmds.empty() || llvm::sys::path::is_absolute(File) ||
      llvm::sys::path::is_absolute(Cmds.front().Filename))
    return "";
  llvm::SmallString<256> Cwd;
  if (llvm::sys::fs::current_path(Cwd))
    return "";
  llvm::StringRef Dir = Cmds.front().Directory;
  return Dir == "." || Dir == Cwd ? std::string(Cwd) : "";
}

std::vector<tooling::CompileCommand>
analysisCommands(const tooling::CompilationDatabase &Db, const std::string &File,
                 bool DeviceSide) {
  llvm::SmallString<256> Abs(File);
  llvm::sys::fs::make_absolute(Abs);
  llvm::sys::path::remove_dots(Abs, /*remove_dot_dot=*/true);
  std::vector<tooling::CompileCommand> Cmds =
      CudaAdjustingDatabase(Db, DeviceSide).getCompileCommands(Abs);
  keepUserPath(Cmds, File, std::string(Abs));
  return Cmds;
}

} // namespace cgt
