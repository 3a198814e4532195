//===- ReadFiles.cpp - the files one parse read ---------------------------===//
//
// Paths are made absolute against the layer's own working directory (the
// compile's, which ClangTool sets on the file system, not on the process)
// and "." components dropped. A header reached by two spellings is listed
// twice, which costs one more hash, never a wrong answer.
//
//===----------------------------------------------------------------------===//
#include "run/ReadFiles.h"

#include "llvm/ADT/SmallString.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"

namespace cgt {

void RecordingFileSystem::record(const llvm::Twine &Path, std::set<std::string> &Into) {
  llvm::SmallString<256> Abs;
  Path.toVector(Abs);
  if (getUnderlyingFS().makeAbsolute(Abs))
    return;
  // "..": lexically only through a symbolic link's target (the GCC
  // install's lib/gcc/.../../../../include), so it stays.
  llvm::sys::path::remove_dots(Abs, /*remove_dot_dot=*/false);
  std::lock_guard<std::mutex> Lock(M);
  Into.insert(std::string(Abs));
}

llvm::ErrorOr<std::unique_ptr<llvm::vfs::File>>
RecordingFileSystem::openFileForRead(const llvm::Twine &Path) {
  auto F = ProxyFileSystem::openFileForRead(Path);
  record(Path, F ? Files : Missing);
  return F;
}

llvm::ErrorOr<std::unique_ptr<llvm::vfs::File>>
RecordingFileSystem::openFileForReadBinary(const llvm::Twine &Path) {
  auto F = ProxyFileSystem::openFileForReadBinary(Path);
  record(Path, F ? Files : Missing);
  return F;
}

llvm::ErrorOr<llvm::vfs::Status> RecordingFileSystem::status(const llvm::Twine &Path) {
  auto S = ProxyFileSystem::status(Path);
  if (!S)
    record(Path, Missing);
  return S;
}

bool RecordingFileSystem::exists(const llvm::Twine &Path) {
  bool E = ProxyFileSystem::exists(Path);
  if (!E)
    record(Path, Missing);
  return E;
}

std::vector<std::string> RecordingFileSystem::absent() const {
  std::lock_guard<std::mutex> Lock(M);
  std::vector<std::string> Out;
  for (const std::string &P : Missing)
    if (!Files.count(P))
      Out.push_back(P);
  return Out;
}

std::vector<std::string> RecordingFileSystem::files() const {
  std::lock_guard<std::mutex> Lock(M);
  return {Files.begin(), Files.end()};
}

std::vector<std::string> preambleDependencies(const std::string &PchPath) {
  llvm::StringRef Pch(PchPath);
  if (!Pch.consume_back(".pch"))
    return {};
  auto Buf = llvm::MemoryBuffer::getFile(Pch.str() + ".deps");
  if (!Buf)
    return {};
  // Lines of "size \t mtime \t path" (PreambleCache.cpp).
  std::vector<std::string> Out;
  llvm::SmallVector<llvm::StringRef, 0> Lines;
  (*Buf)->getBuffer().split(Lines, '\n', -1, /*KeepEmpty=*/false);
  for (llvm::StringRef L : Lines) {
    llvm::SmallVector<llvm::StringRef, 3> F;
    L.split(F, '\t', 2);
    if (F.size() == 3)
      Out.push_back(F[2].str());
  }
  return Out;
}

} // namespace cgt
