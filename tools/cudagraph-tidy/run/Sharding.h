//===- Sharding.h - a deterministic slice of the translation units -*- C++ -*-===//
//
// `--shard I/N` lets N CI machines each analyse a slice of one compile
// database with no coordinator: every machine computes the same partition
// from the same file list. Files are dealt round-robin in sorted order
// (sorted, so that the order they were listed in, and the directory the
// checkout sits in, do not matter; round-robin, so that a directory of big
// files is spread over the shards instead of landing on one).
//
//===----------------------------------------------------------------------===//
#ifndef CUDAGRAPH_TIDY_TOOLS_SHARDING_H
#define CUDAGRAPH_TIDY_TOOLS_SHARDING_H

#include <string>
#include <vector>

namespace cgt {

struct Shard {
  unsigned Index = 1; ///< 1-based, as CI matrices count
  unsigned Count = 1;
};

/// Parses "I/N" with 1 <= I <= N. Returns false with `Error` set otherwise.
bool parseShard(const std::string &Text, Shard &Out, std::string &Error);

/// The files of shard `S`, in their original order.
std::vector<std::string> filesOfShard(const std::vector<std::string> &Files,
                                      const Shard &S);

} // namespace cgt

#endif
