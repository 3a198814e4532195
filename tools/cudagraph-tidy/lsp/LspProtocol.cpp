//===- LspProtocol.cpp - findings as LSP diagnostics and code actions -----===//
//
// A finding whose location is a point (most lifetime notes, some messages)
// is widened to the identifier or token under it, so that an editor has
// something to underline; the position clients jump to stays the same.
//
//===----------------------------------------------------------------------===//
#include "lsp/LspProtocol.h"
#include "Report/Rules.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringRef.h"

using json = nlohmann::json;

namespace cgt {

std::string pathOfUri(const std::string &Uri) {
  llvm::StringRef U(Uri);
  if (!U.consume_front("file://"))
    return "";
  std::string Out;
  for (size_t I = 0; I < U.size(); ++I) {
    if (U[I] == '%' && I + 2 < U.size() &&
        llvm::isHexDigit(U[I + 1]) && llvm::isHexDigit(U[I + 2])) {
      Out += static_cast<char>(llvm::hexFromNibbles(U[I + 1], U[I + 2]));
      I += 2;
    } else {
      Out += U[I];
    }
  }
  return Out;
}

unsigned utf16Units(const std::string &Line, unsigned Bytes) {
  unsigned Units = 0;
  for (unsigned I = 0; I < Bytes && I < Line.size(); ++I) {
    unsigned char C = Line[I];
    if ((C & 0xC0) == 0x80)
      continue; // a continuation byte: counted with its lead byte
    Units += (C & 0xF8) == 0xF0 ? 2 : 1; // four-byte sequences are surrogate pairs
  }
  // Past the end of the line (a position at the newline) counts bytes.
  if (Bytes > Line.size())
    Units += Bytes - Line.size();
  return Units;
}

json LspConverter::position(const std::string &File, unsigned Line,
                            unsigned Column) {
  if (Line == 0)
    return {{"line", 0}, {"character", 0}};
  const std::string &L = Text.line(File, Line);
  return {{"line", Line - 1},
          {"character", utf16Units(L, Column ? Column - 1 : 0)}};
}

json LspConverter::range(const SourcePos &P) {
  unsigned EndLine = P.EndLine ? P.EndLine : P.Line;
  unsigned EndColumn = P.EndLine ? P.EndColumn : P.Column;
  if (EndLine == P.Line && EndColumn <= P.Column && P.Line) {
    // A point: the identifier or the one character under it.
    const std::string &L = Text.line(P.File, P.Line);
    unsigned I = P.Column ? P.Column - 1 : 0;
    unsigned End = I;
    while (End < L.size() && (llvm::isAlnum(L[End]) || L[End] == '_'))
      ++End;
    if (End == I && I < L.size())
      ++End;
    EndColumn = End + 1;
  }
  return {{"start", position(P.File, P.Line, P.Column)},
          {"end", position(P.File, EndLine, EndColumn)}};
}

json LspConverter::diagnostic(const FindingRecord &F) {
  json D = {{"range", range(F.Pos)},
            {"severity", F.Level == "error" ? 1 : 2},
            {"code", F.CheckName},
            {"source", "cudagraph-tidy"},
            {"message", F.Message}};
  if (const RuleInfo *R = findRule(F.CheckName))
    D["codeDescription"] = {{"href", ruleHelpUri(*R)}};
  json Related = json::array();
  for (const NoteRecord &N : F.Notes)
    if (!N.Pos.File.empty())
      Related.push_back({{"location", {{"uri", uriOf(N.Pos.File)},
                                       {"range", range(N.Pos)}}},
                         {"message", N.Message}});
  if (!Related.empty())
    D["relatedInformation"] = Related;
  return D;
}

json LspConverter::diagnostics(const std::vector<FindingRecord> &Findings) {
  json Out = json::array();
  for (const FindingRecord &F : Findings)
    Out.push_back(diagnostic(F));
  return Out;
}

namespace {

bool before(const json &A, const json &B) {
  return A["line"] < B["line"] ||
         (A["line"] == B["line"] && A["character"] < B["character"]);
}

/// Ranges meet when neither ends before the other starts (touching counts:
/// a cursor at the end of a call still offers its fix).
bool meets(const json &A, const json &B) {
  return !before(A["end"], B["start"]) && !before(B["end"], A["start"]);
}

std::string fixTitle(const std::vector<FixRecord> &Fixes) {
  if (Fixes.size() == 1) {
    const FixRecord &X = Fixes.front();
    if (X.Replacement.empty())
      return "remove the flagged code";
    return (X.Length ? "replace with '" : "insert '") + X.Replacement + "'";
  }
  return "apply " + std::to_string(Fixes.size()) + " edits";
}

} // namespace

json LspConverter::fixAction(const FindingRecord &F,
                             const std::vector<FixRecord> &Fixes, bool Preferred) {
  json Changes = json::object();
  for (const FixRecord &X : Fixes) {
    SourcePos P = X.Pos;
    json Edit = {{"range", {{"start", position(P.File, P.Line, P.Column)},
                            {"end", position(P.File, P.EndLine ? P.EndLine : P.Line,
                                             P.EndLine ? P.EndColumn : P.Column)}}},
                 {"newText", X.Replacement}};
    Changes[uriOf(P.File)].push_back(Edit);
  }
  return {{"title", F.CheckName + ": " + fixTitle(Fixes)},
          {"kind", "quickfix"},
          {"diagnostics", json::array({diagnostic(F)})},
          {"isPreferred", Preferred},
          {"edit", {{"changes", Changes}}}};
}

json LspConverter::codeActions(const std::vector<FindingRecord> &Findings,
                               const std::string &Path, const json &Range) {
  json Out = json::array();
  for (const FindingRecord &F : Findings) {
    if (F.Pos.File != Path || !meets(range(F.Pos), Range))
      continue;
    if (!F.Fixes.empty())
      Out.push_back(fixAction(F, F.Fixes, /*Preferred=*/true));
    for (const NoteRecord &N : F.Notes)
      if (!N.Fixes.empty())
        Out.push_back(fixAction(F, N.Fixes, /*Preferred=*/false));
  }
  return Out;
}

json LspConverter::notAnalysed(const std::string &Problem) {
  return {{"range", {{"start", {{"line", 0}, {"character", 0}}},
                     {"end", {{"line", 0}, {"character", 0}}}}},
          {"severity", 1},
          {"source", "cudagraph-tidy"},
          {"message", "cudagraph-tidy could not analyse this file: " + Problem}};
}

} // namespace cgt
