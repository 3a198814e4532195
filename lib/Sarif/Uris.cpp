//===- Uris.cpp - paths and repositories as SARIF URIs --------------------===//
//
// Percent-encoding keeps '/' and RFC 3986's unreserved characters; remote
// URLs lose user names and passwords (CI tokens ride in them) before they
// reach a log that is uploaded.
//
//===----------------------------------------------------------------------===//
#include "Sarif/Uris.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringRef.h"

namespace cgt {

std::string fileUri(const std::string &AbsPath) {
  return "file://" + encodeUriPath(AbsPath);
}

std::string relativeToRoot(const std::string &File, const std::string &Root) {
  if (Root.empty() || File.empty())
    return "";
  std::string Prefix = Root;
  if (Prefix.back() != '/')
    Prefix += '/';
  if (File.compare(0, Prefix.size(), Prefix) != 0 || File.size() == Prefix.size())
    return "";
  return File.substr(Prefix.size());
}

std::string encodeUriPath(const std::string &Path) {
  std::string Out;
  for (unsigned char C : Path) {
    if (llvm::isAlnum(C) || C == '/' || C == '-' || C == '.' || C == '_' ||
        C == '~') {
      Out += static_cast<char>(C);
    } else {
      Out += '%';
      Out += llvm::hexdigit(C >> 4, /*LowerCase=*/false);
      Out += llvm::hexdigit(C & 15, /*LowerCase=*/false);
    }
  }
  return Out;
}

std::string repositoryUriFromRemote(const std::string &Remote) {
  llvm::StringRef R = llvm::StringRef(Remote).trim();
  if (R.empty())
    return "";
  size_t Scheme = R.find("://");
  if (Scheme != llvm::StringRef::npos) {
    // scheme://[user[:password]@]host/path: credentials never reach a log.
    llvm::StringRef Rest = R.substr(Scheme + 3);
    llvm::StringRef Authority = Rest.take_until([](char C) { return C == '/'; });
    size_t At = Authority.rfind('@');
    if (At != llvm::StringRef::npos)
      Rest = Rest.substr(At + 1);
    return (R.take_front(Scheme + 3) + Rest).str();
  }
  size_t Colon = R.find(':');
  if (Colon != llvm::StringRef::npos && R.take_front(Colon).find('/') == llvm::StringRef::npos) {
    // scp-like [user@]host:path, as git understands it.
    llvm::StringRef Host = R.take_front(Colon);
    if (size_t At = Host.rfind('@'); At != llvm::StringRef::npos)
      Host = Host.substr(At + 1);
    llvm::StringRef Path = R.substr(Colon + 1).ltrim('/');
    return ("ssh://" + Host + "/" + Path).str();
  }
  if (!R.starts_with("/"))
    return "";
  return fileUri(R.str());
}

} // namespace cgt
