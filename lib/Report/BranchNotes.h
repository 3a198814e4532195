//===- BranchNotes.h - the note that says which way a path took -*- C++ -*-===//
//
// A finding's path is told as the branches it takes: "assuming 'n > 0' is
// true". Both engines' witness paths (Lifetime/Reports/Witness.cpp,
// Streams/PathGaps.cpp) word them here, so the two read the same. A
// range-based for's test is code the user never wrote (`__begin != __end`,
// whose source text is the `:`): it is told as the range having another
// element, or none left.
//
//===----------------------------------------------------------------------===//
#ifndef CUDAGRAPH_TIDY_REPORT_BRANCHNOTES_H
#define CUDAGRAPH_TIDY_REPORT_BRANCHNOTES_H

#include "clang/AST/ASTContext.h"
#include "clang/AST/Expr.h"
#include <string>

namespace cgt {

/// An expression as written, for messages and notes; empty when it spans
/// lines or is longer than a message should quote.
std::string shortSourceText(const clang::Expr *E, const clang::ASTContext &Ctx);

/// The note's text, or "" where the condition's text is too long or spans
/// lines (a note that quotes half a condition misleads more than none).
std::string branchAssumption(const clang::Expr *Cond, bool Taken, const clang::ASTContext &Ctx);

} // namespace cgt

#endif
