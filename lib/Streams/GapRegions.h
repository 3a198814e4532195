//===- GapRegions.h - branches the gap search crosses in one step -*- C++ -*-===//
//
// See GapRegions.cpp.
//
//===----------------------------------------------------------------------===//
#ifndef CUDAGRAPH_TIDY_STREAMS_GAPREGIONS_H
#define CUDAGRAPH_TIDY_STREAMS_GAPREGIONS_H

#include "clang/Analysis/CFG.h"
#include <map>
#include <optional>
#include <set>
#include <utility>
#include <vector>

namespace cgt {
namespace streams {

/// The acyclic regions of a CFG that a two-way branch opens: the blocks
/// between the branch and the block where all its ways meet again.
class BranchRegions {
public:
  struct Region {
    const clang::CFGBlock *Join = nullptr;
    std::vector<const clang::CFGBlock *> Blocks; ///< in reverse post-order
  };
  BranchRegions(const clang::CFG &Cfg, const std::set<std::pair<unsigned, unsigned>> &BackEdges);
  /// The region Branch opens; null where one of its ways goes round a
  /// loop, leaves the function (a return, a throw, a call that does not
  /// return) or the ways do not meet within a bound.
  const Region *at(const clang::CFGBlock *Branch);
  /// A block entered by one of the loops' back edges.
  bool isLoopHead(const clang::CFGBlock *B) const;
  /// By block id: whether a block holding Site is reached from it without
  /// going round a loop.
  std::vector<char> leadingTo(const clang::Stmt *Site) const;

private:
  std::optional<Region> meet(const clang::CFGBlock *Branch) const;
  bool isBack(const clang::CFGBlock *From, const clang::CFGBlock *To) const {
    return BackEdges.count({From->getBlockID(), To->getBlockID()}) > 0;
  }

  const clang::CFG &Cfg;
  const std::set<std::pair<unsigned, unsigned>> &BackEdges;
  std::vector<unsigned> Order; ///< reverse post-order number, by block id
  std::set<unsigned> Heads;
  std::map<unsigned, std::optional<Region>> Found;
};

} // namespace streams
} // namespace cgt

#endif
