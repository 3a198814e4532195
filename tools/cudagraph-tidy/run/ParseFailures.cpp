//===- ParseFailures.cpp - units that do not parse, said as they happen ---===//
//
// The problem text is "the translation unit does not parse (N compiler
// errors; first: ERROR)"; its start and the "; first: " before the error
// are what firstParseError reads back, so both live here.
//
//===----------------------------------------------------------------------===//
#include "run/ParseFailures.h"

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/raw_ostream.h"

namespace cgt {
namespace {

constexpr llvm::StringLiteral Head = "the translation unit does not parse (";
constexpr llvm::StringLiteral FirstMark = "; first: ";

} // namespace

std::string doesNotParse(unsigned Errors, const std::string &First) {
  return Head.str() + std::to_string(Errors) + " compiler error" +
         (Errors == 1 ? "" : "s") + FirstMark.str() + First + ")";
}

std::string firstParseError(const UnitStatus &Status) {
  llvm::StringRef P = Status.Problem;
  if (Status.Analyzed || !P.consume_front(Head) || !P.consume_back(")"))
    return "";
  size_t At = P.find(FirstMark);
  return At == llvm::StringRef::npos ? "" : P.substr(At + FirstMark.size()).str();
}

void ParseFailureNotes::unitDone(const std::string &File, const UnitStatus &Status) {
  if (!Enabled)
    return;
  std::string First = firstParseError(Status);
  if (First.empty())
    return;
  std::lock_guard<std::mutex> Lock(M);
  if (!Said.insert(File).second)
    return;
  // One write, so that a progress line another thread prints meanwhile
  // does not land inside it.
  llvm::errs() << ("cudagraph-tidy: note: " + File + " does not parse: " + First + "\n");
}

} // namespace cgt
