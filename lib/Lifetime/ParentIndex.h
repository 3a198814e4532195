//===- ParentIndex.h - parents of the statements of one body ----*- C++ -*-===//
//
// What clang's ParentMap answers (the parent of a statement, with the same
// choices for opaque values and pseudo-objects), built for the lifetime
// analysis of one function. ParentMap grows its hash table from empty one
// insertion at a time; on a 10,000-statement function that was a tenth of
// the analysis. This index fills a table sized for the statements up front
// (counted first, or from the number of CFG elements the caller knows).
//
//===----------------------------------------------------------------------===//
#ifndef CGT_LIFETIME_PARENTINDEX_H
#define CGT_LIFETIME_PARENTINDEX_H

#include "clang/AST/Stmt.h"
#include "llvm/ADT/DenseMap.h"

namespace cgt {
namespace lifetime {

class ParentIndex {
public:
  ParentIndex() = default;
  explicit ParentIndex(const clang::Stmt *Root) { build(Root); }
  /// Indexes `Root`'s statements; `SizeHint` (about how many there are,
  /// when the caller knows) saves counting them first.
  void build(const clang::Stmt *Root, unsigned SizeHint = 0);
  const clang::Stmt *getParent(const clang::Stmt *S) const;
  /// The nearest parent that IgnoreParenImpCasts would not look through.
  const clang::Stmt *getParentIgnoreParenImpCasts(const clang::Stmt *S) const;

private:
  /// Parent and child, in the order ParentMap would record them.
  template <typename Fn> static void forEachEdge(const clang::Stmt *Root, Fn &&Edge);
  llvm::DenseMap<const clang::Stmt *, const clang::Stmt *> Up;
};

} // namespace lifetime
} // namespace cgt

#endif
