//===- CodeClimateWriter.h - findings as GitLab Code Quality JSON -*- C++ -*-===//
//
// `--format=codeclimate`: the Code Climate issue array GitLab's Code Quality
// report (artifacts:reports:codequality) reads. It lives beside the SARIF
// writer because both must name a finding the same way: the fingerprint is
// SARIF's partialFingerprints value (computeFingerprints), so a finding keeps
// its identity across line moves and between the two reports, and GitLab's
// merge-request widget shows it as unchanged when unrelated lines move.
//
//===----------------------------------------------------------------------===//
#ifndef CUDAGRAPH_TIDY_SARIF_CODECLIMATEWRITER_H
#define CUDAGRAPH_TIDY_SARIF_CODECLIMATEWRITER_H

#include "Report/Finding.h"
#include <string>
#include <vector>

namespace cgt {

/// The JSON array, one issue per finding, pretty-printed with a trailing
/// newline. Paths are relative to `SourceRoot` (GitLab resolves them against
/// the repository); files outside it are named by file name only, as in the
/// SARIF log. `Hidden` (parallel to Findings, or empty) leaves out findings
/// whose fingerprints still count, so the others keep the numbering SARIF
/// gives them (the baseline's "unchanged" findings).
std::string writeCodeClimate(const std::vector<FindingRecord> &Findings,
                             const std::vector<bool> &Hidden,
                             const std::string &SourceRoot);

/// Code Climate's severity for a finding: "critical" for errors (a finding
/// at error level, or a rule whose default level is error, as in SARIF),
/// "minor" for performance rules, "major" for the other warnings.
std::string codeClimateSeverity(const FindingRecord &F);

} // namespace cgt

#endif
