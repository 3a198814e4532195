//===- SummariesArtifact.cpp - what summarize -o writes, read back --------===//
#include "summaries/SummariesArtifact.h"
#include "summaries/ExportUnit.h"

#include "llvm/Support/MemoryBuffer.h"
#include <nlohmann/json.hpp>

namespace cgt {
namespace {

using json = nlohmann::ordered_json;

std::optional<json> readArtifact(const std::string &Path) {
  auto Buf = llvm::MemoryBuffer::getFile(Path, /*IsText=*/true);
  if (!Buf)
    return std::nullopt;
  try {
    json Doc = json::parse((*Buf)->getBuffer().begin(), (*Buf)->getBuffer().end());
    if (Doc.is_object())
      return Doc;
  } catch (const json::exception &) {
  }
  return std::nullopt;
}

} // namespace

std::optional<std::string> entriesOnlyText(const std::string &Path) {
  auto Doc = readArtifact(Path);
  if (!Doc)
    return std::nullopt;
  Doc->erase("unitSeconds");
  return Doc->dump();
}

std::map<std::string, double> readUnitSeconds(const std::string &Path) {
  std::map<std::string, double> Out;
  auto Doc = readArtifact(Path);
  if (!Doc || !Doc->contains("unitSeconds") || !(*Doc)["unitSeconds"].is_object())
    return Out;
  for (const auto &[Unit, Seconds] : (*Doc)["unitSeconds"].items())
    if (Seconds.is_number() && Seconds.get<double>() >= 0)
      Out[Unit] = Seconds.get<double>();
  return Out;
}

std::vector<std::optional<double>> unitCostsOf(const std::vector<std::string> &Files,
                                               const std::string &Path,
                                               const std::string &Root) {
  std::map<std::string, double> Seconds = readUnitSeconds(Path);
  FileNamer Names(Root);
  std::vector<std::optional<double>> Out;
  for (const std::string &F : Files) {
    auto It = Seconds.find(Names.name(F));
    Out.push_back(It == Seconds.end() ? std::nullopt : std::optional<double>(It->second));
  }
  return Out;
}

} // namespace cgt
