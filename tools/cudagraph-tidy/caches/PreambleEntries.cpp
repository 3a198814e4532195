//===- PreambleEntries.cpp - a preamble cache entry on disk ---------------===//
//
// Split from PreambleCache.cpp (issue 39): what an entry of the preamble
// cache is on disk and how it is made, kept and dropped: its key, the
// files it read and their sizes and times (an entry whose files changed is
// stale), publishing through a rename, the least recently used eviction,
// and the markers of entries seen once or failed. PreambleCache.cpp puts
// them to use in a parse.
//
//===----------------------------------------------------------------------===//
#include "caches/PreambleEntries.h"

#include "clang/Basic/Version.h"
#include "clang/Frontend/CompilerInstance.h"
#include "clang/Frontend/PrecompiledPreamble.h"
#include "clang/Lex/PreprocessorOptions.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/SHA256.h"

#include <algorithm>
#include <chrono>
#include <csignal>
#include <cstring>
#include <utime.h>

using namespace clang;

namespace cgt::preamble {

namespace {

/// One file the preamble read, as it was when the preamble was built.
struct Dependency {
  std::string Path;
  uint64_t Size = 0;
  int64_t MTime = 0; ///< nanoseconds since the epoch
};

int64_t nanos(llvm::sys::TimePoint<> T) {
  return std::chrono::duration_cast<std::chrono::nanoseconds>(
             T.time_since_epoch())
      .count();
}

bool stillSame(const Dependency &D) {
  llvm::sys::fs::file_status S;
  return !llvm::sys::fs::status(D.Path, S) && S.getSize() == D.Size &&
         nanos(S.getLastModificationTime()) == D.MTime;
}

std::string depsText(const std::vector<Dependency> &Deps) {
  std::string Out;
  for (const Dependency &D : Deps)
    Out += std::to_string(D.Size) + "\t" + std::to_string(D.MTime) + "\t" +
           D.Path + "\n";
  return Out;
}

/// Records every file the preamble's compilation read.
class DependencyRecorder : public PreambleCallbacks {
public:
  explicit DependencyRecorder(std::string MainFile) : MainFile(std::move(MainFile)) {}
  void AfterExecute(CompilerInstance &CI) override {
    SourceManager &SM = CI.getSourceManager();
    llvm::vfs::FileSystem &FS = CI.getFileManager().getVirtualFileSystem();
    for (auto It = SM.fileinfo_begin(); It != SM.fileinfo_end(); ++It) {
      llvm::SmallString<256> Path(It->first.getName());
      FS.makeAbsolute(Path);
      // ".." stays: removing it by the letters is wrong across a symlink
      // (with a compiler named "clang++" clang finds GCC's headers under
      // "/bin/../lib/gcc/...", and /bin is a link to usr/bin), and a path
      // that does not exist made every such preamble incomplete.
      llvm::sys::path::remove_dots(Path, /*remove_dot_dot=*/false);
      llvm::SmallString<256> Lexical(Path);
      llvm::sys::path::remove_dots(Lexical, /*remove_dot_dot=*/true);
      if (Lexical == MainFile)
        continue;
      Dependency D;
      D.Path = std::string(Path);
      llvm::sys::fs::file_status S;
      if (llvm::sys::fs::status(D.Path, S)) {
        Complete = false; // e.g. a virtual file: cannot be checked later
        continue;
      }
      D.Size = S.getSize();
      D.MTime = nanos(S.getLastModificationTime());
      Deps.push_back(D);
    }
    std::sort(Deps.begin(), Deps.end(),
              [](const Dependency &A, const Dependency &B) { return A.Path < B.Path; });
  }
  std::string MainFile;
  std::vector<Dependency> Deps;
  bool Complete = true;
};

} // namespace

/// True when every dependency listed in `DepsPath` is unchanged on disk.
bool depsStillValid(const std::string &DepsPath) {
  auto Buf = llvm::MemoryBuffer::getFile(DepsPath);
  if (!Buf)
    return false;
  llvm::SmallVector<llvm::StringRef, 0> Lines;
  (*Buf)->getBuffer().split(Lines, '\n', -1, /*KeepEmpty=*/false);
  for (llvm::StringRef L : Lines) {
    llvm::SmallVector<llvm::StringRef, 3> F;
    L.split(F, '\t', 2);
    Dependency D;
    if (F.size() != 3 || F[0].getAsInteger(10, D.Size) ||
        F[1].getAsInteger(10, D.MTime))
      return false;
    D.Path = F[2].str();
    if (!stillSame(D))
      return false;
  }
  return true;
}

std::string keyOf(const CompilerInvocation &CI,
                  const std::vector<std::string> &DriverArgs,
                  llvm::StringRef WorkingDir, llvm::StringRef Preamble,
                  bool EndsAtStartOfLine) {
  llvm::SHA256 H;
  auto Add = [&](llvm::StringRef S) {
    H.update(S);
    H.update(llvm::StringRef("\0", 1));
  };
  Add("cudagraph-tidy preamble v2");
  Add(CUDAGRAPH_TIDY_VERSION);
  Add(getClangFullVersion());
  Add(WorkingDir);
  // The unit's own command line, every flag in order, duplicates and all,
  // and the cc1 line clang derived from it, which is what builds and reads
  // the entry: two commands share an entry only when both agree.
  for (const std::string &A : DriverArgs)
    Add(A);
  Add("cc1");
  for (const std::string &A : CI.getCC1CommandLine())
    Add(A);
  Add(CI.getPreprocessorOpts().SetUpStaticAnalyzer ? "analyzer" : "");
  Add(Preamble);
  Add(EndsAtStartOfLine ? "eol" : "");
  auto Digest = H.final();
  return llvm::toHex(llvm::ArrayRef<uint8_t>(Digest).take_front(20), true);
}

std::string join(llvm::StringRef Dir, llvm::StringRef Name) {
  llvm::SmallString<256> P(Dir);
  llvm::sys::path::append(P, Name);
  return std::string(P);
}

/// Writes `Contents` (or copies `FromFile`) to `Final` through a unique
/// temporary name and a rename; the temporary lies in `Stage` when given.
bool publish(const std::string &Final, const std::string *Contents,
             const std::string *FromFile, const std::string &Stage) {
  std::string Model = Stage.empty()
                          ? Final
                          : preamble::join(Stage, llvm::sys::path::filename(Final));
  llvm::SmallString<256> Tmp;
  int FD;
  if (llvm::sys::fs::createUniqueFile(Model + ".tmp-%%%%%%%%", FD, Tmp))
    return false;
  bool OK = true;
  {
    llvm::raw_fd_ostream OS(FD, /*shouldClose=*/true);
    if (Contents)
      OS << *Contents;
    OS.close();
    OK = !OS.has_error();
    OS.clear_error();
  }
  if (OK && FromFile)
    OK = !llvm::sys::fs::copy_file(*FromFile, Tmp);
  if (OK)
    OK = !llvm::sys::fs::rename(Tmp, Final);
  if (!OK)
    llvm::sys::fs::remove(Tmp);
  return OK;
}

namespace {

/// A builder's folder: newBuildFolder's prefix, which no key (hex digits)
/// and no other name of the cache folder starts with.
constexpr llvm::StringLiteral BuildFolderPrefix = "build-";

/// Removes what a run that died left in the cache folder, once it is older
/// than an hour: no live build or parse takes that long to publish or to
/// drop its own. True when `Name` is such a leftover (removed or not yet).
bool sweptLeftover(const std::string &Path, llvm::StringRef Name, int64_t Age) {
  bool Folder = Name.starts_with(BuildFolderPrefix);
  if (!Folder && !Name.contains(".tmp-") && !Name.starts_with("use-"))
    return false;
  if (Age > 3600ll * 1000000000ll) {
    if (Folder)
      llvm::sys::fs::remove_directories(Path);
    else
      llvm::sys::fs::remove(Path);
  }
  return true;
}

} // namespace

/// Removes least recently used entries until the cache is within 3/4 of
/// its cap, never `Keep`; also leftovers of runs that died.
void evict(const std::string &Dir, uint64_t MaxBytes, const std::string &Keep) {
  struct Entry {
    std::string Pch;
    uint64_t Size;
    int64_t Used;
  };
  std::vector<Entry> Entries;
  uint64_t Total = 0;
  int64_t Now = nanos(std::chrono::system_clock::now());
  std::error_code EC;
  for (llvm::sys::fs::directory_iterator It(Dir, EC), End; !EC && It != End;
       It.increment(EC)) {
    llvm::sys::fs::file_status S;
    if (llvm::sys::fs::status(It->path(), S))
      continue;
    llvm::StringRef Name = llvm::sys::path::filename(It->path());
    int64_t Age = Now - nanos(S.getLastModificationTime());
    if (sweptLeftover(It->path(), Name, Age))
      continue;
    if (!Name.ends_with(".pch"))
      continue;
    Total += S.getSize();
    Entries.push_back({It->path(), S.getSize(), nanos(S.getLastModificationTime())});
  }
  if (Total <= MaxBytes)
    return;
  std::sort(Entries.begin(), Entries.end(),
            [](const Entry &A, const Entry &B) { return A.Used < B.Used; });
  for (const Entry &E : Entries) {
    if (Total <= MaxBytes / 4 * 3)
      break;
    if (E.Pch == Keep)
      continue;
    llvm::sys::fs::remove(E.Pch);
    llvm::sys::fs::remove(llvm::StringRef(E.Pch).drop_back(4).str() + ".deps");
    Total -= E.Size;
  }
}

std::string newBuildFolder(const std::string &Dir) {
  llvm::SmallString<256> Folder;
  // createUniqueDirectory adds "-" and the random part to the prefix.
  if (llvm::sys::fs::createUniqueDirectory(preamble::join(Dir, BuildFolderPrefix.drop_back()),
                                           Folder))
    return "";
  return std::string(Folder);
}

bool isBuildFolder(llvm::StringRef Path) {
  return llvm::sys::path::filename(Path).starts_with(BuildFolderPrefix) &&
         llvm::sys::fs::is_directory(Path);
}

/// Builds the preamble of the invocation's main file in `Folder` and
/// publishes it under `Key` in `Dir`.
bool buildEntry(const CompilerInvocation &CI, FileManager &Files,
                std::shared_ptr<PCHContainerOperations> PCHOps,
                const llvm::MemoryBuffer &Main, PreambleBounds Bounds,
                const std::string &MainPath, const std::string &Folder,
                const std::string &Dir, const std::string &Key, bool KillWhenBuilt) {
  DiagnosticOptions DiagOpts;
  IgnoringDiagConsumer Ignore;
  auto Diags = CompilerInstance::createDiagnostics(
      Files.getVirtualFileSystem(), DiagOpts, &Ignore, /*ShouldOwnClient=*/false);
  DependencyRecorder Recorder(MainPath);
  auto Built = PrecompiledPreamble::Build(
      CI, &Main, Bounds, Diags, Files.getVirtualFileSystemPtr(), PCHOps,
      /*StoreInMemory=*/false, Folder, Recorder);
  if (!Built || !Recorder.Complete)
    return false;
  // The preamble's PCH is the one file in the folder; it lives as long as
  // `Built`.
  std::error_code EC;
  llvm::sys::fs::directory_iterator It(Folder, EC);
  if (EC || It == llvm::sys::fs::directory_iterator())
    return false;
  std::string Pch = It->path();
  if (KillWhenBuilt)
    ::raise(SIGKILL); // tests only: see PreambleCacheConfig::FaultKillInBuild
  std::string Deps = depsText(Recorder.Deps);
  return publish(join(Dir, Key + ".deps"), &Deps, nullptr, Folder) &&
         publish(join(Dir, Key + ".pch"), nullptr, &Pch, Folder);
}

std::string failedMarkerOf(llvm::StringRef PchPath) {
  return (PchPath.drop_back(strlen(".pch")) + ".failed").str();
}

/// With BuildOnSecondMiss, true the first time the entry is missed: the
/// key is marked seen, and the parse goes on without a preamble.
bool firstMiss(const PreambleCacheConfig &Cache, llvm::StringRef PchPath) {
  if (!Cache.BuildOnSecondMiss)
    return false;
  std::string Seen = (PchPath.drop_back(strlen(".pch")) + ".seen").str();
  if (llvm::sys::fs::exists(Seen))
    return false;
  std::string Empty;
  publish(Seen, &Empty, nullptr);
  return true;
}

} // namespace cgt::preamble
