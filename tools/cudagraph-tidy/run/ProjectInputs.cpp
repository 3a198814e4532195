//===- ProjectInputs.cpp - the database and files a run is given ----------===//
//
// Split from CudaGraphTidyMain.cpp (issue 39), so that main keeps only the
// steps of a run.
//
//===----------------------------------------------------------------------===//
#include "run/ProjectInputs.h"

#include "run/DriverRun.h"

#include "clang/Tooling/JSONCompilationDatabase.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallString.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/VirtualFileSystem.h"

#include <algorithm>

using namespace clang;
using namespace llvm;

namespace cgt {

std::string resolvedSarifRoot(const std::string &Option, std::string &Error) {
  if (Option.empty())
    return defaultSarifRoot();
  SmallString<256> Real;
  if (std::error_code EC = sys::fs::real_path(Option, Real)) {
    Error = "--sarif-root '" + Option + "': " + EC.message();
    return "";
  }
  if (!sys::fs::is_directory(Real)) {
    Error = "--sarif-root '" + Option + "' is not a directory";
    return "";
  }
  return std::string(Real);
}

std::vector<std::string> inputFiles(tooling::CommonOptionsParser &Parser,
                                    const tooling::CompilationDatabase *Db) {
  std::vector<std::string> Files = Parser.getSourcePathList();
  if (Files.empty() && Db) {
    Files = Db->getAllFiles();
    llvm::sort(Files);
    Files.erase(std::unique(Files.begin(), Files.end()), Files.end());
  }
  return Files;
}

std::string missingNamedFile(tooling::CommonOptionsParser &Parser) {
  for (const std::string &F : Parser.getSourcePathList())
    if (F != "-" && !llvm::sys::fs::exists(F))
      return F;
  return "";
}

/// Read from argv because the parser falls back to "running without
/// flags" when the database is missing or broken, which would analyse with
/// the wrong flags and look like success.
std::string buildPathArg(int Argc, const char **Argv) {
  std::string Path;
  for (int I = 1; I < Argc; ++I) {
    StringRef A = Argv[I];
    if (A == "--")
      break;
    if ((A == "-p" || A == "--p") && I + 1 < Argc)
      Path = Argv[++I];
    else if (A.consume_front("-p=") || A.consume_front("--p="))
      Path = A.str();
  }
  return Path;
}

std::unique_ptr<tooling::CompilationDatabase>
loadBuildPath(const std::string &BuildPath, std::string &Problem) {
  if (!sys::fs::is_directory(BuildPath)) {
    Problem = "-p '" + BuildPath + "': no such directory";
    return nullptr;
  }
  std::string Err;
  // loadFromDirectory, not autoDetect: a database in some parent directory
  // (another project, a build tree around the sources) is not what -p named.
  auto Db = tooling::CompilationDatabase::loadFromDirectory(BuildPath, Err);
  if (!Db) {
    Problem = "cannot load a compilation database from '" + BuildPath +
              "': " + StringRef(Err).trim().str();
    return nullptr;
  }
  Db = tooling::expandResponseFiles(std::move(Db), vfs::getRealFileSystem());
  Db = tooling::inferTargetAndDriverMode(std::move(Db));
  return tooling::inferMissingCompileCommands(std::move(Db));
}

} // namespace cgt
