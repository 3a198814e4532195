//===- GapConditions.h - what a branch says to the gap search ---*- C++ -*-===//
//
// See GapConditions.cpp.
//
//===----------------------------------------------------------------------===//
#ifndef CUDAGRAPH_TIDY_STREAMS_GAPCONDITIONS_H
#define CUDAGRAPH_TIDY_STREAMS_GAPCONDITIONS_H

#include "Streams/StreamEngine.h"
#include <optional>
#include <set>
#include <string>
#include <utility>

namespace cgt {
namespace streams {

/// `a == b` / `a != b` of two handles, neither of them null, or null.
const clang::BinaryOperator *handleComparison(const clang::Expr *E, clang::ASTContext &Ctx);
/// Whether E compares two handles anywhere in it, or reads a local that
/// `Bound` says holds such a comparison.
bool testsHandleIdentity(const clang::Expr *E, clang::ASTContext &Ctx,
                         const std::set<const clang::VarDecl *> &Bound);
/// Locals given a value that compares two handles, followed through locals
/// given those.
std::set<const clang::VarDecl *> localsBoundToHandleTests(const clang::FunctionDecl *FD,
                                                          clang::ASTContext &Ctx);
/// A condition that calls a function the API model does not name, as its
/// text without a leading `!`, and the value the way taken gives that text;
/// nothing for any other condition.
std::optional<std::pair<std::string, bool>> callTestOf(const clang::Expr *Cond, bool Taken,
                                                      const StreamOrderAnalyzer::Impl &A,
                                                      clang::ASTContext &Ctx);

/// A call of an unmodelled function that writes nothing it is given and
/// returns a number or a truth value, as its text; nothing for any other.
std::optional<std::string> heldCallKey(const clang::CallExpr *Call,
                                       const StreamOrderAnalyzer::Impl &A,
                                       clang::ASTContext &Ctx);

} // namespace streams
} // namespace cgt

#endif
