//===- WrittenCalls.cpp - the calls each body spells, walked once ---------===//
//
// See WrittenCalls.h. The walk is findWrittenStmt (WrittenStatements.cpp)
// with lambdas entered, told whether a statement is inside one.
//
//===----------------------------------------------------------------------===//
#include "AstWalk/WrittenCalls.h"
#include "AstWalk/WrittenStatements.h"

#include "clang/AST/ExprCXX.h"

using namespace clang;

namespace cgt {

namespace {

BodyCalls collect(const Stmt *Body) {
  BodyCalls Out;
  findWrittenStmt(Body, /*IntoLambdas=*/true, [&](const Stmt *S, bool InLambda) {
    if (const auto *C = dyn_cast<CallExpr>(S))
      Out.Calls.push_back({C, InLambda});
    Out.Throws |= !InLambda && isa<CXXThrowExpr>(S);
    return false;
  });
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
