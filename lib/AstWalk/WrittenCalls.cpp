//===- WrittenCalls.cpp - the calls each body spells, walked once ---------===//
//
// See WrittenCalls.h. The walk is findWrittenStmt's (WrittenStatements.cpp)
// with lambdas entered, carrying whether a statement is inside one.
//
//===----------------------------------------------------------------------===//
#include "AstWalk/WrittenCalls.h"

#include "clang/AST/ExprCXX.h"
#include "clang/AST/StmtCXX.h"
#include "llvm/ADT/SmallVector.h"
#include <algorithm>

using namespace clang;

namespace cgt {

namespace {

BodyCalls collect(const Stmt *Body) {
  BodyCalls Out;
  llvm::SmallVector<std::pair<const Stmt *, bool>, 32> Stack{{Body, false}};
  while (!Stack.empty()) {
    auto [S, InLambda] = Stack.pop_back_val();
    if (!S)
      continue;
    if (const auto *C = dyn_cast<CallExpr>(S))
      Out.Calls.push_back({C, InLambda});
    Out.Throws |= !InLambda && isa<CXXThrowExpr>(S);
    bool ChildrenInLambda = InLambda || isa<LambdaExpr>(S);
    size_t First = Stack.size();
    if (const auto *For = dyn_cast<CXXForRangeStmt>(S))
      for (const Stmt *Child :
           {For->getInit(), static_cast<const Stmt *>(For->getLoopVarStmt()),
            static_cast<const Stmt *>(For->getRangeInit()), For->getBody()})
        Stack.push_back({Child, ChildrenInLambda});
    else
      for (const Stmt *Child : S->children())
        Stack.push_back({Child, ChildrenInLambda});
    // Pushed in order, popped in reverse: reversed, they come off in order.
    std::reverse(Stack.begin() + First, Stack.end());
  }
  return Out;
}

} // namespace

const BodyCalls &WrittenCallsIndex::of(const Stmt *Body) {
  auto [It, New] = Bodies.try_emplace(Body);
  if (New)
    It->second = std::make_unique<BodyCalls>(collect(Body));
  return *It->second;
}

} // namespace cgt
