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
                     llvm::function_ref<bool(const Stmt *)> Visit) {
  llvm::SmallVector<const Stmt *, 32> Stack{Body};
  while (!Stack.empty()) {
    const Stmt *S = Stack.pop_back_val();
    if (!S || (!IntoLambdas && isa<LambdaExpr>(S)))
      continue;
    if (Visit(S))
      return true;
    size_t First = Stack.size();
    if (const auto *For = dyn_cast<CXXForRangeStmt>(S))
      Stack.append({For->getInit(), For->getLoopVarStmt(), For->getRangeInit(), For->getBody()});
    else
      for (const Stmt *Child : S->children())
        Stack.push_back(Child);
    // Pushed in order, popped in reverse: reversed, they come off in order.
    std::reverse(Stack.begin() + First, Stack.end());
  }
  return false;
}

} // namespace cgt
