//===- WrittenStatements.h - a body's statements as written -----*- C++ -*-===//
//
// The cheap walks of the engines ("does this body call anything the model
// knows?") visit every statement of a function body. A RecursiveASTVisitor
// also walks every type, template argument and declaration written in the
// body; on ggml-cuda.cu those walks cost as much as the dataflow itself
// (callgrind). This walk follows Stmt::children, as the CFG does, with two
// differences that keep it to what the user wrote: a range `for` gives its
// init, loop variable, range and body (not the begin/end/++ calls the
// compiler adds), and lambdas are entered only when asked. Local classes'
// methods are not entered: they are functions of their own.
//
//===----------------------------------------------------------------------===//
#ifndef CUDAGRAPH_TIDY_ASTWALK_WRITTENSTATEMENTS_H
#define CUDAGRAPH_TIDY_ASTWALK_WRITTENSTATEMENTS_H

#include "clang/AST/Stmt.h"
#include "llvm/ADT/STLFunctionalExtras.h"

namespace cgt {

/// Visits the statements of `Body` in source order (a statement before its
/// children) until `Visit` returns true; true when it did.
bool findWrittenStmt(const clang::Stmt *Body, bool IntoLambdas,
                     llvm::function_ref<bool(const clang::Stmt *)> Visit);

/// The same walk, telling `Visit` whether the statement sits inside one of
/// the body's lambdas (always false unless `IntoLambdas`).
bool findWrittenStmt(const clang::Stmt *Body, bool IntoLambdas,
                     llvm::function_ref<bool(const clang::Stmt *, bool InLambda)> Visit);

} // namespace cgt

#endif
