//===- Sharding.h - a deterministic slice of the translation units -*- C++ -*-===//
//
// `--shard I/N` lets N CI machines each analyse a slice of one compile
// database with no coordinator: every machine computes the same partition
// from the same file list and the same summaries artifact.
//
// With the costs of a summaries artifact (SummariesArtifact.h: each unit's
// CPU seconds when it was written), units are dealt largest first, each to
// the shard with the least cost so far (ties: the lower shard). Costs are
// what the units are; names say nothing of them (a short file including
// CUB costs three of its neighbours). On ggml's 66 units, dealt by one
// run's costs and weighed by another's, the worst of 4 shards carries 1.05
// quarters where round-robin gave it 1.23 (bench/perf/README.md). A unit
// the artifact has no cost for (added since) counts as the median.
//
// Without costs, files are dealt round-robin in sorted order (sorted, so
// that the order they were listed in, and the directory the checkout sits
// in, do not matter; round-robin, so that a directory of big files is
// spread over the shards instead of landing on one).
//
//===----------------------------------------------------------------------===//
#ifndef CUDAGRAPH_TIDY_TOOLS_SHARDING_H
#define CUDAGRAPH_TIDY_TOOLS_SHARDING_H

#include <optional>
#include <string>
#include <vector>

namespace cgt {

struct Shard {
  unsigned Index = 1; ///< 1-based, as CI matrices count
  unsigned Count = 1;
};

/// Parses "I/N" with 1 <= I <= N. Returns false with `Error` set otherwise.
bool parseShard(const std::string &Text, Shard &Out, std::string &Error);

/// The files of shard `S`, in their original order. `Costs`, parallel to
/// `Files` or empty, gives what each costs where known; with no cost known
/// the deal is round-robin.
std::vector<std::string> filesOfShard(const std::vector<std::string> &Files, const Shard &S,
                                      const std::vector<std::optional<double>> &Costs = {});

} // namespace cgt

#endif
