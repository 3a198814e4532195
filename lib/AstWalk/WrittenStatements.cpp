//===- WrittenStatements.cpp - a body's statements as written -------------===//
//
// See WrittenStatements.h.
//
//===----------------------------------------------------------------------===//
#include "AstWalk/WrittenStatements.h"

#include "clang/AST/ExprCXX.h"
#include "clang/AST/StmtCXX.h"
#include "llvm/ADT/SmallVector.h"
#include <algorithm>

using namespace clang;

namespace cgt {

bool findWrittenStmt(const Stmt *Body, bool IntoLambdas,
                     llvm::function_ref<bool(const Stmt *, bool InLambda)> Visit) {
  llvm::SmallVector<std::pair<const Stmt *, bool>, 32> Stack{{Body, false}};
  while (!Stack.empty()) {
    auto [S, InLambda] = Stack.pop_back_val();
    if (!S || (!IntoLambdas && isa<LambdaExpr>(S)))
      continue;
    if (Visit(S, InLambda))
      return true;
    bool ChildInLambda = InLambda || isa<LambdaExpr>(S);
    size_t First = Stack.size();
    if (const auto *For = dyn_cast<CXXForRangeStmt>(S))
      for (const Stmt *Child : {For->getInit(), static_cast<const Stmt *>(For->getLoopVarStmt()),
                                static_cast<const Stmt *>(For->getRangeInit()), For->getBody()})
        Stack.push_back({Child, ChildInLambda});
    else
      for (const Stmt *Child : S->children())
        Stack.push_back({Child, ChildInLambda});
    // Pushed in order, popped in reverse: reversed, they come off in order.
    std::reverse(Stack.begin() + First, Stack.end());
  }
  return false;
}

bool findWrittenStmt(const Stmt *Body, bool IntoLambdas,
                     llvm::function_ref<bool(const Stmt *)> Visit) {
  return findWrittenStmt(Body, IntoLambdas,
                         [&](const Stmt *S, bool) { return Visit(S); });
}

} // namespace cgt
