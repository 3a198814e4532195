//===- ResourceDir.cpp - where clang's own headers are --------------------===//
//
// See ResourceDir.h for the search order. The run-time lookup of the loaded
// libclang-cpp is what makes one binary right in the build tree, in the
// Debian package and in a pre-commit clone without configuring anything:
// all three link the same /usr/lib/llvm-22.
//
//===----------------------------------------------------------------------===//
#include "run/ResourceDir.h"

#include "clang/Basic/Version.h"
#include "clang/Options/OptionUtils.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"

#include <dlfcn.h>

namespace cgt {
namespace {

/// A resource directory is usable when it has the header every CUDA parse
/// force-includes; stddef.h alone would also match GCC's directories.
bool holdsClangHeaders(llvm::StringRef Dir) {
  if (Dir.empty())
    return false;
  llvm::SmallString<256> Probe(Dir);
  llvm::sys::path::append(Probe, "include", "__clang_cuda_runtime_wrapper.h");
  return llvm::sys::fs::exists(Probe);
}

/// The directory of the shared object that defines clang's version string,
/// symlinks resolved: /usr/lib/llvm-22/lib for Debian's libclang-cpp.so.22.
std::string loadedClangLibraryDir() {
  Dl_info Info;
  if (!dladdr(reinterpret_cast<void *>(&clang::getClangFullVersion), &Info) ||
      !Info.dli_fname)
    return "";
  llvm::SmallString<256> Real;
  if (llvm::sys::fs::real_path(Info.dli_fname, Real))
    return "";
  return llvm::sys::path::parent_path(Real).str();
}

std::string fromLibraryDir(llvm::StringRef LibDir) {
  if (LibDir.empty())
    return "";
  llvm::SmallString<256> Dir(LibDir);
  llvm::sys::path::append(Dir, "clang", CLANG_VERSION_MAJOR_STRING);
  return std::string(Dir);
}

std::string findResourceDir() {
  static int Anchor;
  std::string Candidates[] = {
      clang::GetResourcesPath("cudagraph-tidy", &Anchor),
      fromLibraryDir(loadedClangLibraryDir()),
#ifdef CGT_CLANG_RESOURCE_DIR
      CGT_CLANG_RESOURCE_DIR,
#endif
  };
  for (const std::string &C : Candidates)
    if (holdsClangHeaders(C))
      return C;
  return "";
}

} // namespace

const std::string &clangResourceDir() {
  static const std::string Dir = findResourceDir();
  return Dir;
}

clang::tooling::ArgumentsAdjuster resourceDirAdjuster() {
  return [](const clang::tooling::CommandLineArguments &Args, llvm::StringRef) {
    const std::string &Dir = clangResourceDir();
    if (Dir.empty())
      return Args;
    for (const std::string &A : Args)
      if (llvm::StringRef(A).starts_with("-resource-dir"))
        return Args;
    clang::tooling::CommandLineArguments Out = Args;
    Out.insert(Out.empty() ? Out.end() : Out.begin() + 1, "-resource-dir=" + Dir);
    return Out;
  };
}

} // namespace cgt
