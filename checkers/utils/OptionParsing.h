//===- OptionParsing.h - reading check options as text ----------*- C++ -*-===//
//
// OptionsView::get<bool> / get<unsigned> are specialisations that g++
// mangles differently from the clang-built libclangTidy, so a plugin built
// with g++ cannot link them: the checks read every option as text.
//
//===----------------------------------------------------------------------===//
#ifndef CUDAGRAPH_TIDY_CHECKERS_OPTIONPARSING_H
#define CUDAGRAPH_TIDY_CHECKERS_OPTIONPARSING_H

#include "llvm/ADT/StringRef.h"

namespace clang::tidy::cudagraph {

/// "true"/"false", "1"/"0", "on"/"off", "yes"/"no".
inline bool parseBool(llvm::StringRef Value) {
  return Value.equals_insensitive("true") || Value == "1" ||
         Value.equals_insensitive("on") || Value.equals_insensitive("yes");
}

/// A decimal number, or `Default` when the text is not one.
inline unsigned parseUnsigned(llvm::StringRef Value, unsigned Default) {
  unsigned R;
  return Value.trim().getAsInteger(10, R) ? Default : R;
}

} // namespace clang::tidy::cudagraph

#endif
