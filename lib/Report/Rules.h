//===- Rules.h - the one table describing every check -----------*- C++ -*-===//
//
// Feeds --list-checks, the SARIF rules[] array and the docs index, so the
// three can never disagree.
//
//===----------------------------------------------------------------------===//
#ifndef CUDAGRAPH_TIDY_REPORT_RULES_H
#define CUDAGRAPH_TIDY_REPORT_RULES_H

#include <string>
#include <vector>

namespace cgt {

struct RuleInfo {
  const char *Id;               ///< "cudagraph-unpaired-instantiate"
  const char *Name;             ///< PascalCase name for SARIF
  const char *ShortDescription;
  const char *FullDescription;
  const char *Level;            ///< SARIF default level: "warning" / "error"
  const char *Precision;        ///< "high", "medium"
  const char *SecuritySeverity; ///< unused for now, "" when not a security rule
  std::vector<const char *> Tags;
};

/// All checks, sorted by id.
const std::vector<RuleInfo> &allRules();
const RuleInfo *findRule(const std::string &Id);
/// Documentation URL of a rule (docs/checks/<id>.md in the repository).
std::string ruleHelpUri(const RuleInfo &R);

} // namespace cgt

#endif
