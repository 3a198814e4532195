//===- ModelFiles.cpp -----------------------------------------------------===//
#include "ModelFiles.h"
#include "ProjectSummaries/ProjectSummaries.h"

#include "clang/Basic/FileManager.h"
#include "llvm/Support/FileSystem.h"
#include <map>
#include <mutex>

namespace clang::tidy::cudagraph {

std::string modelFilesFor(const SourceManager &SM, StringRef ApiModelFiles,
                          bool ProjectSummaries) {
  OptionalFileEntryRef Main = SM.getFileEntryRefForID(SM.getMainFileID());
  std::string Folder = cgt::defaultCacheFolder();
  if (!ProjectSummaries || !Main || Folder.empty())
    return ApiModelFiles.str();
  SmallString<256> Path(Main->getName());
  SM.getFileManager().makeAbsolutePath(Path);
  std::string Project = cgt::projectSummariesPath(Folder, cgt::projectOf(Path));
  if (!llvm::sys::fs::exists(Project))
    return ApiModelFiles.str();
  // After the user's files, as an exported file is listed: its entries
  // leave out every name those files have.
  return ApiModelFiles.empty() ? Project : ApiModelFiles.str() + ";" + Project;
}

std::shared_ptr<const cgt::ApiModel> loadApiModel(const std::string &ModelFiles,
                                                  std::string &Error) {
  static std::mutex Mu;
  static std::map<std::string, std::shared_ptr<const cgt::ApiModel>> Cache;
  std::lock_guard<std::mutex> Lock(Mu);
  Error.clear();
  auto It = Cache.find(ModelFiles);
  if (It != Cache.end())
    return It->second;
  auto Builtin = cgt::ApiModel::builtin();
  if (!Builtin) {
    Error = "cannot load the built-in CUDA API model: " + llvm::toString(Builtin.takeError());
    return Cache[ModelFiles] = nullptr;
  }
  std::shared_ptr<cgt::ApiModel> M = std::move(*Builtin);
  SmallVector<StringRef, 4> Files;
  StringRef(ModelFiles).split(Files, ';', -1, /*KeepEmpty=*/false);
  for (StringRef File : Files)
    if (auto E = M->addFile(File.trim())) {
      Error = "invalid API model file (ApiModelFiles=" + ModelFiles +
              "): " + llvm::toString(std::move(E));
      return Cache[ModelFiles] = nullptr;
    }
  return Cache[ModelFiles] = M;
}

} // namespace clang::tidy::cudagraph
