//===- SarifWriter.h - findings as a SARIF 2.1.0 log ------------*- C++ -*-===//
//
// Turns the tool-neutral findings of one driver invocation (lib/Report) into
// one SARIF 2.1.0 run that GitHub code scanning ingests, and reads earlier
// logs back as baselines. It knows nothing of clang or clang-tidy: the input
// is FindingRecord/UnitStatus plus the rule table, and source text is read
// from disk only to convert byte columns, compute fingerprints and quote
// snippets.
//
// Each region carries a snippet (its source text) so that a reviewer sees the
// flagged code without the checkout; the run names the commit it analysed
// (versionControlProvenance) when the driver found one.
//
// Fingerprints (partialFingerprints["cudagraph/v1"]) deliberately leave out
// the line number so that adding unrelated lines above a finding keeps its
// identity; see fingerprintFor().
//
//===----------------------------------------------------------------------===//
#ifndef CUDAGRAPH_TIDY_SARIF_SARIFWRITER_H
#define CUDAGRAPH_TIDY_SARIF_SARIFWRITER_H

#include "Report/Finding.h"
#include "Sarif/SourceText.h"
#include "Sarif/Uris.h"
#include <map>
#include <set>
#include <string>
#include <vector>

namespace cgt {

/// The key under which our fingerprint is stored; versioned as SARIF
/// §3.27.17 asks, so a future change of the recipe can live next to it.
extern const char FingerprintKey[];

struct SarifOptions {
  /// Absolute directory, symlinks resolved; artifact URIs are relative to it
  /// and carry uriBaseId "%SRCROOT%". Files outside it are named by file
  /// name only, with uriBaseId "%OUTSIDE_SRCROOT%". The log records no
  /// absolute path: not this one, not in messages (see withoutRoot).
  std::string SourceRoot;
  std::string ToolName = "cudagraph-tidy";
  std::string ToolVersion = "0.0.0";
  std::string InformationUri =
      "https://github.com/cudagraph-tidy/cudagraph-tidy";
  /// run.automationDetails.id; empty leaves the category to the upload step
  /// (an id in the file would override the workflow's `category`).
  std::string AutomationId;
  /// run.versionControlProvenance, written when RepositoryUri and RevisionId
  /// are set: the repository whose top level is SourceRoot, and its commit.
  std::string RepositoryUri;
  std::string RevisionId;
  std::string Branch; ///< optional
};

/// Everything one run reports. Findings are expected sorted (the driver
/// sorts them), which is what makes the log deterministic.
struct SarifInput {
  std::vector<FindingRecord> Findings;
  /// Parallel to Findings when a baseline was used: "new" or "unchanged".
  /// Empty: no baseline, no baselineState is written.
  std::vector<std::string> BaselineStates;
  std::vector<UnitStatus> Units;
  std::vector<std::string> ConfigErrors;
  /// Parts of the analysis given up on a bound (the lifetime engine's
  /// revisit budget): warning notifications, the run still succeeded.
  std::vector<std::string> Incomplete;
};

/// Fingerprints of every finding, parallel to `Findings`: a hash of check,
/// root-relative file, message, whitespace-free line text, code-point column
/// and enclosing context, plus ":<n>" counting identical hashes so that two
/// equal findings in one function stay distinct.
std::vector<std::string>
computeFingerprints(const std::vector<FindingRecord> &Findings,
                    const std::string &SourceRoot, SourceText &Text);

/// The complete SARIF log, pretty-printed with a trailing newline.
std::string writeSarif(const SarifInput &In, const SarifOptions &Opts);

/// Fingerprints of all results of a SARIF log written by this tool (results
/// whose baselineState is "absent" are left out). Returns false with `Error`
/// saying what is wrong when the file is missing or not such a log.
bool readBaseline(const std::string &Path, std::set<std::string> &Fingerprints,
                  std::string &Error);

} // namespace cgt

#endif
