//===- SarifMerge.h - one SARIF run from the logs of several shards -*- C++ -*-===//
//
// CI splits an analysis over machines (`cudagraph-tidy --shard I/N`) and each
// writes its own log; GitHub code scanning rejects two runs of one tool and
// category in an upload, so the logs are merged into one run here.
//
// The model: a run is a set of results, a set of notifications and a rule
// table. Merging takes unions (a finding in a header that two shards both
// include is kept once), then orders everything by content, never by input
// order, so the merged bytes do not depend on the order of the logs. The
// order is the one the SARIF writer uses for a single run (results by file,
// line, column, rule, message; rules in the table's order, then other rule
// ids sorted; notifications of unanalysed units, then configuration errors),
// so merging the shards of a run gives what one unsharded run writes.
//
// Logs of different tools, tool versions, categories or commits are not
// merged: that is an error, not something to paper over.
//
//===----------------------------------------------------------------------===//
#ifndef CUDAGRAPH_TIDY_SARIF_SARIFMERGE_H
#define CUDAGRAPH_TIDY_SARIF_SARIFMERGE_H

#include <string>
#include <vector>

namespace cgt {

/// Merges the SARIF logs `Texts` (named by `Names` in messages) into one log
/// with one run, written like writeSarif() writes. Returns false with `Error`
/// set when a log is not SARIF 2.1.0 or the logs cannot be one run.
bool mergeSarifLogs(const std::vector<std::string> &Texts,
                    const std::vector<std::string> &Names, std::string &Out,
                    std::string &Error);

} // namespace cgt

#endif
