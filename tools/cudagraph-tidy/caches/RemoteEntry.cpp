//===- RemoteEntry.cpp - a unit cache entry as a remote server keeps it ---===//
//
// The hash is the unit cache's own (hashText, 128 bits): the head line costs
// one more pass over the text, which a replay then saves a parse with.
//
//===----------------------------------------------------------------------===//
#include "caches/RemoteEntry.h"
#include "caches/UnitCache.h"

#include "llvm/ADT/SmallVector.h"

namespace cgt {
namespace {
constexpr llvm::StringLiteral Magic = "cudagraph-tidy-entry";
constexpr llvm::StringLiteral Version = "1";
} // namespace

std::string wrapRemoteEntry(llvm::StringRef Name, llvm::StringRef Text) {
  std::string Out = Magic.str() + " " + Version.str() + " " + Name.str() + " " +
                    std::to_string(Text.size()) + " " + hashText(Text) + "\n";
  return Out + Text.str();
}

bool unwrapRemoteEntry(llvm::StringRef Name, llvm::StringRef Stored, std::string &Text,
                       std::string &Why) {
  auto [Head, Rest] = Stored.split('\n');
  llvm::SmallVector<llvm::StringRef, 5> Fields;
  Head.split(Fields, ' ');
  if (Fields.size() != 5 || Fields[0] != Magic) {
    Why = "not a cudagraph-tidy entry";
    return false;
  }
  if (Fields[1] != Version) {
    Why = "entry format " + Fields[1].str() + ", expected " + Version.str();
    return false;
  }
  if (Fields[2] != Name) {
    Why = "the entry of another key";
    return false;
  }
  size_t Length;
  if (Fields[3].getAsInteger(10, Length) || Length != Rest.size()) {
    Why = "the entry's length is wrong (cut short?)";
    return false;
  }
  if (Fields[4] != hashText(Rest)) {
    Why = "the entry's checksum does not match";
    return false;
  }
  Text = Rest.str();
  return true;
}

} // namespace cgt
