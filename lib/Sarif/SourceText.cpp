//===- SourceText.cpp - source lines for a SARIF log ----------------------===//
//
// Lines are split on '\n' with a trailing '\r' dropped, so CRLF files give
// the same columns and fingerprints as LF ones; columns are counted in
// code points of the UTF-8 text, as the log's columnKind
// "unicodeCodePoints" says.
//
//===----------------------------------------------------------------------===//
#include "Sarif/SourceText.h"

#include "llvm/ADT/StringExtras.h"
#include <algorithm>
#include <fstream>

namespace cgt {

namespace {

bool isContinuationByte(unsigned char C) { return (C & 0xC0) == 0x80; }

/// Byte offset in `L` of 1-based code-point column `Column`, at most L.size().
size_t byteOffset(const std::string &L, unsigned Column) {
  size_t I = 0;
  for (unsigned Point = 1; Point < Column && I < L.size(); ++Point) {
    ++I;
    while (I < L.size() && isContinuationByte(static_cast<unsigned char>(L[I])))
      ++I;
  }
  return I;
}

} // namespace

std::string stripWhitespace(const std::string &S) {
  std::string Out;
  for (char C : S)
    if (C != ' ' && C != '\t' && C != '\r' && C != '\n')
      Out += C;
  return Out;
}

const std::vector<std::string> &SourceText::lines(const std::string &File) {
  auto It = Cache.find(File);
  if (It != Cache.end())
    return It->second;
  std::vector<std::string> &Lines = Cache[File];
  std::ifstream In(File, std::ios::binary);
  if (!In)
    return Lines;
  std::string L;
  while (std::getline(In, L)) {
    if (!L.empty() && L.back() == '\r')
      L.pop_back();
    Lines.push_back(L);
  }
  return Lines;
}

const std::string &SourceText::line(const std::string &File, unsigned Line) {
  static const std::string Empty;
  const std::vector<std::string> &Ls = lines(File);
  if (Line == 0 || Line > Ls.size())
    return Empty;
  return Ls[Line - 1];
}

unsigned SourceText::codePointColumn(const std::string &File, unsigned Line,
                                     unsigned ByteColumn) {
  if (ByteColumn == 0)
    return 1;
  const std::string &L = line(File, Line);
  unsigned Bytes = ByteColumn - 1;
  unsigned Points = 0;
  for (unsigned I = 0; I < Bytes && I < L.size(); ++I)
    if (!isContinuationByte(static_cast<unsigned char>(L[I])))
      ++Points;
  // Past the end of the line (the newline, or a file we cannot read) each
  // byte counts as one code point.
  if (Bytes > L.size())
    Points += Bytes - L.size();
  return Points + 1;
}

std::string SourceText::enclosingContext(const std::string &File,
                                         unsigned Line) {
  const std::vector<std::string> &Ls = lines(File);
  for (unsigned I = std::min<size_t>(Line, Ls.size()); I >= 1; --I) {
    const std::string &L = Ls[I - 1];
    if (L.empty() || !(llvm::isAlpha(L[0]) || L[0] == '_'))
      continue;
    return stripWhitespace(L);
  }
  return "";
}

std::string SourceText::text(const std::string &File, unsigned StartLine,
                             unsigned StartColumn, unsigned EndLine,
                             unsigned EndColumn) {
  std::string Out;
  for (unsigned N = StartLine; N <= EndLine; ++N) {
    const std::string &L = line(File, N);
    size_t From = N == StartLine ? byteOffset(L, StartColumn) : 0;
    size_t To = N == EndLine ? byteOffset(L, EndColumn) : L.size();
    if (To > From)
      Out.append(L, From, To - From);
    if (N != EndLine)
      Out += '\n';
  }
  return Out;
}

} // namespace cgt
