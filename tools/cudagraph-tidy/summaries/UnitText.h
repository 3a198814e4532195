//===- UnitText.h - what a unit's text says it defines and calls -*- C++ -*-===//
//
// The names the first pass's order is guessed from (UnitOrder.h), read from
// the text of a unit's main file, the project headers it includes and the
// macros it uses, without preprocessing or parsing.
//
//===----------------------------------------------------------------------===//
#ifndef CUDAGRAPH_TIDY_TOOLS_UNITTEXT_H
#define CUDAGRAPH_TIDY_TOOLS_UNITTEXT_H

#include "llvm/ADT/StringRef.h"
#include <memory>
#include <set>
#include <string>

namespace cgt {

/// What a main file's text says, without preprocessing: the functions it
/// defines that other files may call (not static, not a template, not a
/// kernel, not a method), and the names it calls as plain functions (not
/// after `.` or `->`, with at least one argument: an entry of a function
/// called with none matters only through effects on the call as a whole,
/// which a wrapper seldom has).
struct MainFileNames {
  std::set<std::string> Defines, Calls;
};
MainFileNames scanMainFile(llvm::StringRef Text);
/// The names a header's text calls with arguments, declarations left out
/// (`void buf_release(void *p);` declares; `{ buf_release(p); }` calls).
std::set<std::string> scanHeaderCalls(llvm::StringRef Text);

/// A unit's calls: its main file's names, and those the project headers it
/// includes and the macros it uses add (Indirect: not spelled in the main
/// file).
struct UnitCalls {
  MainFileNames Main;
  std::set<std::string> Indirect;
};

class HeaderCalls;

/// Scans units, each header once however many units include it.
class UnitTextScanner {
public:
  UnitTextScanner();
  ~UnitTextScanner();
  UnitCalls scan(const std::string &MainFile, llvm::StringRef Text);

private:
  std::unique_ptr<HeaderCalls> Headers;
};

} // namespace cgt

#endif
