//===- WrittenCalls.h - the calls each body spells, walked once -*- C++ -*-===//
//
// The lifetime and stream engines both ask of every function of a unit
// whether it calls anything they model, and the lifetime engine asks again
// of each helper it summarises. Each asking walked the whole body (on
// ggml-cuda.cu the two engines' interest tests cost 67M instructions, 46M
// with the index); the index walks a body once, as findWrittenStmt does with lambdas
// entered, and keeps its calls in that order, each marked when it sits in
// a lambda. Skipping the marked calls gives exactly what a walk that does
// not enter lambdas meets, in the same order, so an engine that stops at
// the first interesting call stops where it did.
//
//===----------------------------------------------------------------------===//
#ifndef CUDAGRAPH_TIDY_ASTWALK_WRITTENCALLS_H
#define CUDAGRAPH_TIDY_ASTWALK_WRITTENCALLS_H

#include "clang/AST/Expr.h"
#include "llvm/ADT/DenseMap.h"

#include <memory>
#include <vector>

namespace cgt {

struct WrittenCall {
  const clang::CallExpr *Call;
  bool InLambda; ///< in the body of a lambda the body spells
};

struct BodyCalls {
  std::vector<WrittenCall> Calls; ///< in findWrittenStmt's order
  bool Throws = false;            ///< a `throw` outside the body's lambdas
};

/// One per translation unit, shared by the engines that analyse it.
class WrittenCallsIndex {
public:
  const BodyCalls &of(const clang::Stmt *Body);

private:
  llvm::DenseMap<const clang::Stmt *, std::unique_ptr<BodyCalls>> Bodies;
};

} // namespace cgt

#endif
