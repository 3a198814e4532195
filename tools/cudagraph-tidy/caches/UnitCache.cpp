//===- UnitCache.cpp - per-unit results kept between runs -----------------===//
//
// Eviction by modification time: get() sets it to now, so the oldest
// entries are the least recently used. It runs once per run, at its end,
// so that a run never evicts what it is about to read.
//
//===----------------------------------------------------------------------===//
#include "caches/UnitCache.h"
#include "caches/RemoteCache.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"
#include "llvm/Support/xxhash.h"

#include <algorithm>
#include <chrono>
#include <utime.h>

namespace cgt {

std::string hashText(llvm::StringRef Text) {
  llvm::XXH128_hash_t H = llvm::xxh3_128bits(
      llvm::ArrayRef<uint8_t>(reinterpret_cast<const uint8_t *>(Text.data()), Text.size()));
  return llvm::utohexstr(H.high64, true, 16) + llvm::utohexstr(H.low64, true, 16);
}

KeyBuilder &KeyBuilder::add(llvm::StringRef Part) {
  Text += std::to_string(Part.size());
  Text += ':';
  Text += Part;
  return *this;
}

const std::string &toolIdentity() {
  static const std::string Id = [] {
    static int Anchor;
    std::string Self = llvm::sys::fs::getMainExecutable("cudagraph-tidy", &Anchor);
    auto Buf = llvm::MemoryBuffer::getFile(Self);
    // Unreadable: a key nothing else has, so that nothing stale is used.
    return Buf ? hashText((*Buf)->getBuffer())
               : hashText(std::to_string(
                     std::chrono::steady_clock::now().time_since_epoch().count()));
  }();
  return Id;
}

namespace {
std::string pathIn(llvm::StringRef Dir, llvm::StringRef Name) {
  llvm::SmallString<256> P(Dir);
  llvm::sys::path::append(P, Name);
  return std::string(P);
}
} // namespace

UnitCache::UnitCache(std::string Directory, uint64_t MaxBytes)
    : Units(pathIn(Directory, "units")), Root(std::move(Directory)), MaxBytes(MaxBytes) {}

std::string UnitCache::summariesDirectory() const { return pathIn(Root, "summaries"); }

std::string UnitCache::get(llvm::StringRef Name, bool *FromRemote) const {
  if (FromRemote)
    *FromRemote = false;
  std::string Path = pathIn(Units, Name);
  auto Buf = llvm::MemoryBuffer::getFile(Path);
  if (Buf) {
    ::utime(Path.c_str(), nullptr); // recently used
    return (*Buf)->getBuffer().str();
  }
  if (!Remote)
    return "";
  std::string Text = Remote->get(Name);
  // Kept here too: the next run on this machine needs no server.
  if (!Text.empty())
    putLocal(Name, Text);
  if (FromRemote)
    *FromRemote = !Text.empty();
  return Text;
}

bool UnitCache::put(llvm::StringRef Name, llvm::StringRef Text) const {
  if (Remote)
    Remote->put(Name, Text);
  return putLocal(Name, Text);
}

bool UnitCache::putLocal(llvm::StringRef Name, llvm::StringRef Text) const {
  if (llvm::sys::fs::create_directories(Units))
    return false;
  std::string Final = pathIn(Units, Name);
  llvm::SmallString<256> Tmp;
  int FD;
  if (llvm::sys::fs::createUniqueFile(Final + ".tmp-%%%%%%%%", FD, Tmp))
    return false;
  bool OK;
  {
    llvm::raw_fd_ostream OS(FD, /*shouldClose=*/true);
    OS << Text;
    OS.close();
    OK = !OS.has_error();
    OS.clear_error();
  }
  if (OK)
    OK = !llvm::sys::fs::rename(Tmp, Final);
  if (!OK)
    llvm::sys::fs::remove(Tmp);
  return OK;
}

void UnitCache::evict() const {
  struct Entry {
    std::string Path;
    uint64_t Size;
    llvm::sys::TimePoint<> Used;
  };
  std::vector<Entry> Entries;
  uint64_t Total = 0;
  auto Now = std::chrono::system_clock::now();
  for (const std::string &Dir : {Units, summariesDirectory()}) {
    std::error_code EC;
    for (llvm::sys::fs::directory_iterator It(Dir, EC), End; !EC && It != End;
         It.increment(EC)) {
      llvm::sys::fs::file_status S;
      if (llvm::sys::fs::status(It->path(), S))
        continue;
      // Leftovers of a writer that died between write and rename.
      if (llvm::StringRef(It->path()).contains(".tmp-")) {
        if (Now - S.getLastModificationTime() > std::chrono::hours(1))
          llvm::sys::fs::remove(It->path());
        continue;
      }
      Total += S.getSize();
      Entries.push_back({It->path(), S.getSize(), S.getLastModificationTime()});
    }
  }
  if (Total <= MaxBytes)
    return;
  std::sort(Entries.begin(), Entries.end(),
            [](const Entry &A, const Entry &B) { return A.Used < B.Used; });
  for (const Entry &E : Entries) {
    if (Total <= MaxBytes / 4 * 3)
      break;
    llvm::sys::fs::remove(E.Path);
    Total -= E.Size;
  }
}

std::string UnitCache::fileDigest(const std::string &Path) {
  {
    std::lock_guard<std::mutex> Lock(M);
    auto It = Digests.find(Path);
    if (It != Digests.end())
      return It->second;
  }
  auto Buf = llvm::MemoryBuffer::getFile(Path, /*IsText=*/false,
                                         /*RequiresNullTerminator=*/false);
  std::string D = Buf ? hashText((*Buf)->getBuffer()) : "";
  std::lock_guard<std::mutex> Lock(M);
  return Digests[Path] = D;
}

void UnitCache::presetDigest(const std::string &Path, const std::string &Digest) {
  std::lock_guard<std::mutex> Lock(M);
  Digests[Path] = Digest;
}

bool UnitCache::exists(const std::string &Path) {
  {
    std::lock_guard<std::mutex> Lock(M);
    auto It = Exists.find(Path);
    if (It != Exists.end())
      return It->second;
  }
  bool E = llvm::sys::fs::exists(Path);
  std::lock_guard<std::mutex> Lock(M);
  return Exists[Path] = E;
}

void UnitCache::addSelfNamedFile(const std::string &Path) {
  if (!Path.empty())
    SelfNamed.push_back(Path);
}

bool UnitCache::selfNamed(const std::string &Path) const {
  return std::find(SelfNamed.begin(), SelfNamed.end(), Path) != SelfNamed.end();
}

std::string UnitCache::keyArg(const std::string &Arg) const {
  if (!selfNamed(Arg))
    return Arg;
  return "<self-named>/" + llvm::sys::path::filename(Arg).str();
}

bool UnitCache::digestAll(const std::vector<std::string> &Paths,
                          const std::vector<std::string> &Absent,
                          std::vector<FileDigest> &Out) {
  for (const std::string &P : Paths) {
    if (selfNamed(P))
      continue; // its name, in the key, says what it holds
    std::string D = fileDigest(P);
    if (D.empty())
      return false;
    Out.emplace_back(P, D);
  }
  for (const std::string &P : Absent) {
    if (exists(P))
      return false;
    Out.emplace_back(P, AbsentDigest);
  }
  return true;
}

bool UnitCache::stillSame(const std::vector<FileDigest> &Files) {
  for (const FileDigest &F : Files) {
    if (F.second == AbsentDigest ? exists(F.first) : fileDigest(F.first) != F.second)
      return false;
  }
  return true;
}

} // namespace cgt
