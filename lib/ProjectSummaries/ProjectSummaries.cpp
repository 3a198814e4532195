//===- ProjectSummaries.cpp - a project's summaries left in the cache -----===//
//
// The project's path is hashed, not spelled, into the file name: any path
// makes a valid name, and the folder stays flat.
//
//===----------------------------------------------------------------------===//
#include "ProjectSummaries/ProjectSummaries.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Process.h"
#include "llvm/Support/xxhash.h"

namespace cgt {

std::string defaultCacheFolder() {
  llvm::SmallString<256> Dir;
  if (auto Xdg = llvm::sys::Process::GetEnv("XDG_CACHE_HOME"); Xdg && !Xdg->empty())
    Dir = *Xdg;
  else if (auto Home = llvm::sys::Process::GetEnv("HOME"); Home && !Home->empty())
    llvm::sys::path::append(Dir, *Home, ".cache");
  else
    return "";
  llvm::sys::path::append(Dir, "cudagraph-tidy");
  return std::string(Dir);
}

std::string projectOf(llvm::StringRef AbsoluteFile) {
  llvm::StringRef Start = llvm::sys::path::parent_path(AbsoluteFile);
  for (llvm::StringRef Dir = Start; !Dir.empty(); Dir = llvm::sys::path::parent_path(Dir)) {
    llvm::SmallString<256> Git(Dir);
    llvm::sys::path::append(Git, ".git");
    if (llvm::sys::fs::exists(Git))
      return Dir.str();
  }
  return Start.str();
}

std::string projectSummariesPath(llvm::StringRef CacheFolder, llvm::StringRef Project) {
  llvm::SmallString<256> P(CacheFolder);
  llvm::sys::path::append(P, "summaries",
                          "project-" + llvm::utohexstr(llvm::xxh3_64bits(Project), true, 16) +
                              ".json");
  return std::string(P);
}

} // namespace cgt
