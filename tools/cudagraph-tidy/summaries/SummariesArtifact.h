//===- SummariesArtifact.h - what summarize -o writes, read back -*- C++ -*-===//
//
// The artifact `summarize -o` and --write-summaries write is an API model
// file (the project's entries, which shards consume through --summaries)
// with one more member, `unitSeconds`: the CPU seconds each unit's parse
// took when it was written, by the name the entries' "doc" gives files.
// Shards deal units by those costs (Sharding.h). The costs change from run
// to run and decide no finding, so the entries alone key cached results.
//
//===----------------------------------------------------------------------===//
#ifndef CUDAGRAPH_TIDY_TOOLS_SUMMARIESARTIFACT_H
#define CUDAGRAPH_TIDY_TOOLS_SUMMARIESARTIFACT_H

#include <map>
#include <optional>
#include <string>
#include <vector>

namespace cgt {

/// The artifact's text without `unitSeconds`; nullopt when the file cannot
/// be read as JSON (loading it as a model then says why).
std::optional<std::string> entriesOnlyText(const std::string &Path);

/// The artifact's `unitSeconds`; empty when it has none or cannot be read.
std::map<std::string, double> readUnitSeconds(const std::string &Path);

/// The cost of each of `Files` in the artifact at `Path`, named relative to
/// `Root` as the artifact names them; nullopt where it has none.
std::vector<std::optional<double>> unitCostsOf(const std::vector<std::string> &Files,
                                               const std::string &Path,
                                               const std::string &Root);

} // namespace cgt

#endif
