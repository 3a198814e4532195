//===- CodeClimateWriter.cpp - findings as GitLab Code Quality JSON -------===//
//
// The fields are those GitLab documents for its Code Quality report
// (description, check_name, fingerprint, severity, location.path,
// location.lines.begin) plus the Code Climate spec's type and categories,
// which other Code Climate consumers require. Severity and category come
// from the rule table (lib/Report/Rules), not from check names.
//
//===----------------------------------------------------------------------===//
#include "Sarif/CodeClimateWriter.h"
#include "Report/Rules.h"
#include "Sarif/SarifWriter.h"

#include "llvm/ADT/SmallString.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
#include <nlohmann/json.hpp>

namespace cgt {
namespace {

using OJson = nlohmann::ordered_json;

bool hasTag(const RuleInfo *R, llvm::StringRef Tag) {
  if (!R)
    return false;
  for (const char *T : R->Tags)
    if (Tag == T)
      return true;
  return false;
}

/// Repository-relative path; a file outside the root by its name only, so
/// that the report carries no path of the analysing machine.
std::string reportPath(const std::string &File, const std::string &Root) {
  llvm::SmallString<256> Real;
  std::string Path = File;
  if (!llvm::sys::fs::real_path(File, Real))
    Path = std::string(Real);
  std::string Rel = relativeToRoot(Path, Root);
  return Rel.empty() ? llvm::sys::path::filename(Path).str() : Rel;
}

OJson issue(const FindingRecord &F, const std::string &Fingerprint,
            const std::string &Root) {
  const RuleInfo *R = findRule(F.CheckName);
  unsigned End = F.Pos.EndLine >= F.Pos.Line ? F.Pos.EndLine : F.Pos.Line;
  OJson I = OJson::object();
  I["type"] = "issue";
  I["check_name"] = F.CheckName;
  I["description"] = F.Message;
  I["categories"] = OJson::array({hasTag(R, "performance") ? "Performance" : "Bug Risk"});
  I["severity"] = codeClimateSeverity(F);
  I["fingerprint"] = Fingerprint;
  I["location"] = {{"path", reportPath(F.Pos.File, Root)},
                   {"lines", {{"begin", F.Pos.Line}, {"end", End}}}};
  return I;
}

} // namespace

std::string codeClimateSeverity(const FindingRecord &F) {
  const RuleInfo *R = findRule(F.CheckName);
  if (F.Level == "error" || (R && llvm::StringRef(R->Level) == "error"))
    return "critical";
  return hasTag(R, "performance") ? "minor" : "major";
}

std::string writeCodeClimate(const std::vector<FindingRecord> &Findings,
                             const std::vector<bool> &Hidden,
                             const std::string &SourceRoot) {
  SourceText Text;
  std::vector<std::string> Prints = computeFingerprints(Findings, SourceRoot, Text);
  OJson Issues = OJson::array();
  for (size_t I = 0; I < Findings.size(); ++I)
    if (Hidden.empty() || !Hidden[I])
      Issues.push_back(issue(Findings[I], Prints[I], SourceRoot));
  // Messages may quote source bytes that are not UTF-8.
  return Issues.dump(2, ' ', false, OJson::error_handler_t::replace) + "\n";
}

} // namespace cgt
