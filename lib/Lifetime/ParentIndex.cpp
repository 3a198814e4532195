//===- ParentIndex.cpp - parents of the statements of one body ------------===//
//
// The walk follows ParentMap's rules, so that both give the same parent:
//   * a pseudo-object's syntactic form and its semantic expressions have
//     it as parent, and opaque values inside them are not looked through;
//   * `a ?: b` is the parent of its common operand, condition, and both
//     branches; the condition and the true branch are opaque values of the
//     common operand and are not looked through either;
//   * elsewhere an opaque value is the parent of its source expression; the
//     first parent recorded for a child is kept, unless the walk is looking
//     through opaque values, where the latest one wins;
//   * a captured statement is also the parent of the statement it captures.
//
//===----------------------------------------------------------------------===//
#include "Lifetime/ParentIndex.h"

#include "clang/AST/Expr.h"
#include "clang/AST/ExprObjC.h"
#include "clang/AST/StmtOpenMP.h"
#include "llvm/ADT/SmallVector.h"

using namespace clang;

namespace cgt {
namespace lifetime {

template <typename Fn>
void ParentIndex::forEachEdge(const Stmt *Root, Fn &&Edge) {
  // Depth first and in source order, as ParentMap's recursion: which parent
  // a shared opaque source keeps depends on the order.
  struct Pending {
    const Stmt *Parent, *S;
    bool Transparent; ///< looking through opaque values
    bool Overwrite;   ///< this parent replaces one recorded before
  };
  llvm::SmallVector<Pending, 64> Stack{{nullptr, Root, true, true}};
  llvm::SmallVector<Pending, 8> Children;
  while (!Stack.empty()) {
    Pending P = Stack.pop_back_val();
    if (P.Parent && !Edge(P.Parent, P.S, P.Overwrite))
      continue;
    const Stmt *S = P.S;
    Children.clear();
    auto Add = [&](const Stmt *Child, bool Transparent, bool Overwrite) {
      if (Child)
        Children.push_back({S, Child, Transparent, Overwrite});
    };
    if (const auto *POE = dyn_cast<PseudoObjectExpr>(S)) {
      Add(POE->getSyntacticForm(), false, false);
      for (const Expr *Semantic : POE->semantics())
        Add(Semantic, false, true);
    } else if (const auto *BCO = dyn_cast<BinaryConditionalOperator>(S)) {
      Add(BCO->getCommon(), true, true);
      Add(BCO->getCond(), false, true);
      Add(BCO->getTrueExpr(), false, true);
      Add(BCO->getFalseExpr(), true, true);
    } else if (const auto *OVE = dyn_cast<OpaqueValueExpr>(S)) {
      // Looked through, the opaque value takes its source over; otherwise
      // only a source no other parent holds yet.
      Add(OVE->getSourceExpr(), true, P.Transparent);
    } else {
      for (const Stmt *Child : S->children())
        Add(Child, P.Transparent, true);
      if (const auto *CS = dyn_cast<CapturedStmt>(S))
        Add(CS->getCapturedStmt(), P.Transparent, true);
    }
    Stack.append(Children.rbegin(), Children.rend());
  }
}

void ParentIndex::build(const Stmt *Root, unsigned SizeHint) {
  Up.clear();
  if (!Root)
    return;
  // Counting first and growing the table once is faster than growing it
  // as it fills, even at the price of a second walk.
  unsigned Count = SizeHint;
  if (!Count)
    forEachEdge(Root, [&](const Stmt *, const Stmt *, bool) {
      ++Count;
      return true;
    });
  Up.reserve(Count);
  forEachEdge(Root, [&](const Stmt *Parent, const Stmt *Child, bool Overwrite) {
    auto [It, New] = Up.try_emplace(Child, Parent);
    if (New || Overwrite) {
      It->second = Parent;
      return true;
    }
    return false;
  });
}

const Stmt *ParentIndex::getParent(const Stmt *S) const {
  auto It = Up.find(S);
  return It == Up.end() ? nullptr : It->second;
}

const Stmt *ParentIndex::getParentIgnoreParenImpCasts(const Stmt *S) const {
  // Past every parent IgnoreParenImpCasts would look through (parentheses,
  // implicit casts, full expressions such as a case label's ConstantExpr).
  auto Transparent = [](const Stmt *P) {
    const auto *E = dyn_cast_or_null<Expr>(P);
    return E && E->IgnoreParenImpCasts() != E;
  };
  do {
    S = getParent(S);
  } while (Transparent(S));
  return S;
}

} // namespace lifetime
} // namespace cgt
