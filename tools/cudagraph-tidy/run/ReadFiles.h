//===- ReadFiles.h - the files one parse read -------------------*- C++ -*-===//
//
// A cached result is only as good as the list of files it depends on
// (UnitCache.h): every header the parse opened, found the way the compiler
// found it. A file system layer between the compiler and the disk records
// each file opened for reading, by absolute path; the compiler's include
// search goes through it, so the list is the unit's include closure as
// this parse saw it. A parse on top of a cached preamble does not open the
// preamble's headers: their list is the preamble entry's own .deps file,
// which preambleDependencies() reads.
//
// The layer also records every path the compiler looked for and did not
// find (the include search probing each directory in turn): a header
// created later at one of them would shadow the one this parse found, or
// let a unit that failed on a missing header parse. A cached result holds
// only while they are still absent. Not recorded: the probes of a cached
// preamble's own parse (its .deps file lists what it read, not what it
// missed), as for the preamble cache itself.
//
//===----------------------------------------------------------------------===//
#ifndef CUDAGRAPH_TIDY_TOOLS_READFILES_H
#define CUDAGRAPH_TIDY_TOOLS_READFILES_H

#include "llvm/Support/VirtualFileSystem.h"
#include <mutex>
#include <set>
#include <string>
#include <vector>

namespace cgt {

/// Passes everything through to the file system below and remembers the
/// absolute path of each file opened for reading.
class RecordingFileSystem : public llvm::vfs::ProxyFileSystem {
public:
  explicit RecordingFileSystem(llvm::IntrusiveRefCntPtr<llvm::vfs::FileSystem> FS)
      : ProxyFileSystem(std::move(FS)) {}
  llvm::ErrorOr<std::unique_ptr<llvm::vfs::File>>
  openFileForRead(const llvm::Twine &Path) override;
  llvm::ErrorOr<std::unique_ptr<llvm::vfs::File>>
  openFileForReadBinary(const llvm::Twine &Path) override;
  llvm::ErrorOr<llvm::vfs::Status> status(const llvm::Twine &Path) override;
  bool exists(const llvm::Twine &Path) override;
  /// Sorted, each once.
  std::vector<std::string> files() const;
  /// The paths looked for and not found, sorted, without those found later.
  std::vector<std::string> absent() const;

private:
  void record(const llvm::Twine &Path, std::set<std::string> &Into);
  mutable std::mutex M;
  std::set<std::string> Files, Missing;
};

/// The headers a cached preamble entry read (`PchPath` is the entry's
/// .pch; its .deps file lists them). Empty when there is none.
std::vector<std::string> preambleDependencies(const std::string &PchPath);

} // namespace cgt

#endif
