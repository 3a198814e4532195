//===- ApiModelWriter.h - writing API model JSON -----------------*- C++ -*-===//
//
// The inverse of ApiModel::addJson: model entries written as a JSON document
// of the schema in docs/api-model.md, so that what the analysis learns
// (summaries of a project's wrappers, `cudagraph-tidy --export-model`) is
// read back exactly like a hand-written model file. load(write(m)) == m.
//
// The text is deterministic: kinds and status types by name, functions in
// the order given (callers sort them), object keys in a fixed order, one
// function per line so that a committed file diffs line by line.
//
// This layer knows nothing about clang or clang-tidy.
//
//===----------------------------------------------------------------------===//
#ifndef CUDAGRAPH_TIDY_APIMODEL_APIMODELWRITER_H
#define CUDAGRAPH_TIDY_APIMODEL_APIMODELWRITER_H

#include "ApiModel/ApiModel.h"
#include <map>
#include <string>
#include <utility>
#include <vector>

namespace cgt {

/// One model file's contents.
struct ModelDocument {
  std::string Doc; ///< the document's "doc" line; empty: none
  /// Status type name -> success enumerator.
  std::vector<std::pair<std::string, std::string>> StatusTypes;
  std::vector<ResourceKind> Kinds;
  std::vector<FunctionModel> Functions;
  /// A summaries artifact's CPU seconds per translation unit (named relative
  /// to the source root), for `--shard` to deal units by cost; the model
  /// itself ignores them.
  std::map<std::string, double> UnitSeconds;
  /// Kernel -> its launches in the project's files ("kernelLaunches").
  std::map<std::string, std::vector<KernelLaunch>> KernelLaunches;
};

/// The JSON text of `D`, ending in a newline.
std::string writeModelJson(const ModelDocument &D);

/// Whether two entries say the same thing (every field the JSON carries;
/// Origin, where an entry was read from, is not compared).
bool sameEntry(const FunctionModel &A, const FunctionModel &B);
/// Where two entries differ, key by key as the JSON writes them (`key: A's
/// and B's`, "none" for a key one lacks), for a conflict's message; empty
/// when every key the JSON carries agrees.
std::string describeDifference(const FunctionModel &A, const FunctionModel &B);
bool sameKind(const ResourceKind &A, const ResourceKind &B);

} // namespace cgt

#endif
