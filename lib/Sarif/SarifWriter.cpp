//===- SarifWriter.cpp - findings as a SARIF 2.1.0 log --------------------===//
//
// Layout of the log follows GitHub's "SARIF support for code scanning" page
// and the OASIS 2.1.0 spec (see docs/code-review.md). Output is built with
// nlohmann::ordered_json so that key order, and therefore the bytes, depend
// only on the input.
//
//===----------------------------------------------------------------------===//
#include "Sarif/SarifWriter.h"
#include "Report/Rules.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/SmallString.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/SHA256.h"
#include <nlohmann/json.hpp>

#include <fstream>
#include <sstream>

namespace cgt {

const char FingerprintKey[] = "cudagraph/v1";

namespace {

using OJson = nlohmann::ordered_json;

const char SchemaUri[] = "https://json.schemastore.org/sarif-2.1.0.json";
const char RootBaseId[] = "%SRCROOT%";
/// Files outside the source root: named by file name only, relative to a
/// base the log does not resolve, so that no path of the analysing machine
/// is written (docs/reliability.md, "No path leaks").
const char OutsideBaseId[] = "%OUTSIDE_SRCROOT%";

/// Regions longer than this get no snippet: a reviewer needs the flagged
/// code, not a copy of a whole function.
const unsigned MaxSnippetLines = 20;

/// clang reports paths as the compiler saw them; GitHub cannot show results
/// in symlinked files, so every path is resolved before it is made relative.
class PathResolver {
public:
  const std::string &resolve(const std::string &File) {
    auto It = Cache.find(File);
    if (It != Cache.end())
      return It->second;
    llvm::SmallString<256> Real;
    std::string Out = File;
    if (!llvm::sys::fs::real_path(File, Real))
      Out = std::string(Real);
    return Cache[File] = Out;
  }

private:
  std::map<std::string, std::string> Cache;
};

bool isPathChar(char C) {
  return llvm::isAlnum(C) || C == '/' || C == '.' || C == '_' || C == '-' ||
         C == '+' || C == '~';
}

/// Replaces every absolute path in `S` ("/home/u/x/a.cu") by its last
/// component ("a.cu"). A path starts with '/' at the start or after a
/// space, quote, bracket, '=' or ':', and has at least two components, so
/// "a/b", "1/2" and a lone "/" stay.
std::string scrubAbsolutePaths(const std::string &S) {
  std::string Out;
  for (size_t I = 0; I < S.size();) {
    bool Starts = S[I] == '/' && (I == 0 || llvm::StringRef(" \t'\"`([{=:,").contains(S[I - 1]));
    size_t End = I;
    if (Starts)
      while (End < S.size() && isPathChar(S[End]))
        ++End;
    llvm::StringRef Path = llvm::StringRef(S).slice(I, End);
    if (!Starts || Path.drop_front().find('/') == llvm::StringRef::npos) {
      Out += S[I++];
      continue;
    }
    Out += Path.rtrim('/').rsplit('/').second.str();
    I = End;
  }
  return Out;
}

/// Everything that needs state while one log is written.
class LogBuilder {
public:
  LogBuilder(const SarifInput &In, const SarifOptions &Opts)
      : In(In), Opts(Opts) {}

  OJson build();

private:
  OJson artifactLocation(const std::string &File);
  OJson region(const SourcePos &P);
  OJson physicalLocation(const SourcePos &P);
  OJson location(const SourcePos &P, const std::string &Message);
  OJson rules();
  OJson result(size_t Index, const std::string &Fingerprint);
  OJson codeFlow(const FindingRecord &F);
  OJson fixes(const FindingRecord &F);
  OJson invocation();
  OJson uriBaseIds();
  std::string withoutRoot(std::string Text);

  const SarifInput &In;
  const SarifOptions &Opts;
  SourceText Text;
  PathResolver Paths;
  std::map<std::string, size_t> RuleIndex;
  bool UsedOutside = false; ///< some location is outside the source root
};

OJson LogBuilder::artifactLocation(const std::string &File) {
  const std::string &Real = Paths.resolve(File);
  std::string Rel = relativeToRoot(Real, Opts.SourceRoot);
  OJson A = OJson::object();
  if (!Rel.empty()) {
    A["uri"] = encodeUriPath(Rel);
    A["uriBaseId"] = RootBaseId;
  } else {
    // Outside the root there is no relative path to give; the directory
    // would be a path of the analysing machine, so only the name stays.
    llvm::StringRef Name = llvm::StringRef(Real).rtrim('/').rsplit('/').second;
    A["uri"] = encodeUriPath(Name.empty() ? Real : Name.str());
    A["uriBaseId"] = OutsideBaseId;
    UsedOutside = true;
  }
  return A;
}

OJson LogBuilder::region(const SourcePos &P) {
  unsigned EndLine = P.EndLine ? P.EndLine : P.Line;
  unsigned EndByte = P.EndLine ? P.EndColumn : P.Column;
  unsigned StartCol = Text.codePointColumn(P.File, P.Line, P.Column ? P.Column : 1);
  unsigned EndCol = Text.codePointColumn(P.File, EndLine, EndByte ? EndByte : 1);
  if (EndLine < P.Line || (EndLine == P.Line && EndCol < StartCol)) {
    EndLine = P.Line;
    EndCol = StartCol;
  }
  // A point diagnostic becomes the character under the caret: an empty
  // region would give reviewers nothing to see.
  if (EndLine == P.Line && EndCol == StartCol) {
    const std::string &L = Text.line(P.File, P.Line);
    unsigned Width = Text.codePointColumn(P.File, P.Line, L.size() + 1);
    if (StartCol < Width)
      EndCol = StartCol + 1;
  }
  OJson R = OJson::object();
  R["startLine"] = P.Line;
  R["startColumn"] = StartCol;
  R["endLine"] = EndLine;
  R["endColumn"] = EndCol;
  if (EndLine - P.Line < MaxSnippetLines) {
    std::string Snippet = Text.text(P.File, P.Line, StartCol, EndLine, EndCol);
    if (!Snippet.empty())
      R["snippet"] = {{"text", Snippet}};
  }
  return R;
}

OJson LogBuilder::physicalLocation(const SourcePos &P) {
  OJson PL = OJson::object();
  PL["artifactLocation"] = artifactLocation(P.File);
  PL["region"] = region(P);
  return PL;
}

OJson LogBuilder::location(const SourcePos &P, const std::string &Message) {
  OJson L = OJson::object();
  if (!P.File.empty() && P.Line > 0)
    L["physicalLocation"] = physicalLocation(P);
  if (!Message.empty())
    L["message"] = {{"text", withoutRoot(Message)}};
  return L;
}

std::string pascalCase(const std::string &Id) {
  std::string Out;
  bool Upper = true;
  for (char C : Id) {
    if (!llvm::isAlnum(C)) {
      Upper = true;
      continue;
    }
    Out += Upper ? llvm::toUpper(C) : C;
    Upper = false;
  }
  return Out;
}

OJson ruleJson(const std::string &Id, const std::string &Name,
               const std::string &Short, const std::string &Full,
               const std::string &Level, const std::string &Precision,
               const std::string &SecuritySeverity,
               const std::vector<std::string> &Tags, const std::string &HelpUri) {
  OJson R = OJson::object();
  R["id"] = Id;
  R["name"] = Name;
  R["shortDescription"] = {{"text", Short}};
  R["fullDescription"] = {{"text", Full}};
  R["help"] = {{"text", Full + " See " + HelpUri + "."},
               {"markdown", "**" + Short + "**\n\n" + Full +
                                "\n\n[Documentation](" + HelpUri + ")"}};
  R["helpUri"] = HelpUri;
  R["defaultConfiguration"] = {{"level", Level}};
  OJson Props = OJson::object();
  Props["tags"] = Tags;
  Props["precision"] = Precision;
  // GitHub: problem.severity is for non-security rules; security-severity
  // (with the "security" tag) turns results into security alerts.
  Props["problem.severity"] = Level == "error" ? "error" : "warning";
  if (!SecuritySeverity.empty())
    Props["security-severity"] = SecuritySeverity;
  R["properties"] = Props;
  return R;
}

OJson LogBuilder::rules() {
  OJson Rules = OJson::array();
  for (const RuleInfo &R : allRules()) {
    RuleIndex[R.Id] = Rules.size();
    std::vector<std::string> Tags(R.Tags.begin(), R.Tags.end());
    Rules.push_back(ruleJson(R.Id, R.Name, R.ShortDescription,
                             R.FullDescription, R.Level, R.Precision,
                             R.SecuritySeverity, Tags, ruleHelpUri(R)));
  }
  // Findings of checks outside the table (compiler warnings enabled through
  // clang-diagnostic-*) still need a rule for ruleIndex to point at.
  std::set<std::string> Extra;
  for (const FindingRecord &F : In.Findings)
    if (!RuleIndex.count(F.CheckName))
      Extra.insert(F.CheckName);
  for (const std::string &Id : Extra) {
    RuleIndex[Id] = Rules.size();
    bool Compiler = llvm::StringRef(Id).starts_with("clang-diagnostic-");
    std::string Short = Compiler ? "Compiler diagnostic " + Id.substr(17)
                                 : "clang-tidy check " + Id;
    std::string Uri = Compiler
                          ? "https://clang.llvm.org/docs/DiagnosticsReference.html"
                          : "https://clang.llvm.org/extra/clang-tidy/checks/list.html";
    Rules.push_back(ruleJson(Id, pascalCase(Id), Short,
                             Short + ", reported through cudagraph-tidy.",
                             "warning", "medium", "",
                             {Compiler ? "compiler" : "clang-tidy"}, Uri));
  }
  return Rules;
}

OJson LogBuilder::codeFlow(const FindingRecord &F) {
  OJson Locations = OJson::array();
  for (const NoteRecord &N : F.Notes) {
    OJson TL = OJson::object();
    TL["location"] = location(N.Pos, N.Message);
    TL["importance"] = "important";
    Locations.push_back(TL);
  }
  OJson Last = OJson::object();
  Last["location"] = location(F.Pos, F.Message);
  Last["importance"] = "essential";
  Locations.push_back(Last);
  OJson Flow = OJson::object();
  Flow["threadFlows"] = OJson::array({{{"locations", Locations}}});
  return OJson::array({Flow});
}

OJson LogBuilder::fixes(const FindingRecord &F) {
  std::vector<std::string> Order;
  std::map<std::string, OJson> ByFile;
  for (const FixRecord &X : F.Fixes) {
    if (!ByFile.count(X.Pos.File)) {
      Order.push_back(X.Pos.File);
      ByFile[X.Pos.File] = OJson::array();
    }
    OJson Rep = OJson::object();
    Rep["deletedRegion"] = [&] {
      OJson R = OJson::object();
      unsigned EndLine = X.Pos.EndLine ? X.Pos.EndLine : X.Pos.Line;
      unsigned EndByte = X.Pos.EndLine ? X.Pos.EndColumn : X.Pos.Column;
      R["startLine"] = X.Pos.Line;
      R["startColumn"] = Text.codePointColumn(X.Pos.File, X.Pos.Line, X.Pos.Column);
      R["endLine"] = EndLine;
      R["endColumn"] = Text.codePointColumn(X.Pos.File, EndLine, EndByte);
      return R;
    }();
    Rep["insertedContent"] = {{"text", X.Replacement}};
    ByFile[X.Pos.File].push_back(Rep);
  }
  OJson Changes = OJson::array();
  for (const std::string &File : Order) {
    OJson C = OJson::object();
    C["artifactLocation"] = artifactLocation(File);
    C["replacements"] = ByFile[File];
    Changes.push_back(C);
  }
  OJson Fix = OJson::object();
  Fix["description"] = {{"text", "Apply the fix-it of " + F.CheckName}};
  Fix["artifactChanges"] = Changes;
  return OJson::array({Fix});
}

OJson LogBuilder::result(size_t Index, const std::string &Fingerprint) {
  const FindingRecord &F = In.Findings[Index];
  OJson R = OJson::object();
  R["ruleId"] = F.CheckName;
  R["ruleIndex"] = RuleIndex[F.CheckName];
  R["level"] = F.Level == "error" ? "error" : "warning";
  R["message"] = {{"text", withoutRoot(F.Message)}};
  if (!F.Pos.File.empty() && F.Pos.Line > 0)
    R["locations"] = OJson::array({location(F.Pos, "")});
  else
    R["locations"] = OJson::array();
  R["partialFingerprints"] = {{FingerprintKey, Fingerprint}};
  if (!In.BaselineStates.empty())
    R["baselineState"] = In.BaselineStates[Index];
  if (!F.Notes.empty()) {
    OJson Related = OJson::array();
    for (size_t I = 0; I < F.Notes.size(); ++I) {
      OJson L = location(F.Notes[I].Pos, F.Notes[I].Message);
      OJson WithId = OJson::object();
      WithId["id"] = I + 1;
      for (auto &KV : L.items())
        WithId[KV.key()] = KV.value();
      Related.push_back(WithId);
    }
    R["relatedLocations"] = Related;
    R["codeFlows"] = codeFlow(F);
  }
  if (!F.Fixes.empty())
    R["fixes"] = fixes(F);
  return R;
}

/// Messages from the compiler name files by absolute path; the log must not
/// leak the analysing machine's layout, so paths under the root become
/// relative and any other absolute path keeps only its file name.
std::string LogBuilder::withoutRoot(std::string S) {
  if (!Opts.SourceRoot.empty()) {
    std::string Prefix = Opts.SourceRoot;
    if (Prefix.back() != '/')
      Prefix += '/';
    size_t Pos;
    while ((Pos = S.find(Prefix)) != std::string::npos)
      S.erase(Pos, Prefix.size());
  }
  return scrubAbsolutePaths(S);
}

/// §3.14.14 lets a base id leave its uri out ("resolved by other means"):
/// the root's absolute path is exactly what the log must not carry. SARIF
/// viewers ask for the directory once; GitHub resolves against the checkout.
OJson LogBuilder::uriBaseIds() {
  OJson Ids = OJson::object();
  if (!Opts.SourceRoot.empty())
    Ids[RootBaseId] = {{"description",
                        {{"text", "The source root: --sarif-root, else the git "
                                  "top level of the directory the analysis ran "
                                  "in. Its path is not recorded."}}}};
  if (UsedOutside)
    Ids[OutsideBaseId] = {{"description",
                           {{"text", "A file outside the source root, named by "
                                     "its file name only: its directory is not "
                                     "recorded."}}}};
  return Ids;
}

OJson LogBuilder::invocation() {
  OJson Notes = OJson::array();
  for (const UnitStatus &U : In.Units) {
    if (U.Analyzed)
      continue;
    OJson N = OJson::object();
    N["descriptor"] = {{"id", "cudagraph-tidy/unanalysed-translation-unit"}};
    N["level"] = "error";
    N["message"] = {{"text", withoutRoot(U.File + ": " + U.Problem)}};
    OJson PL = OJson::object();
    PL["artifactLocation"] = artifactLocation(U.File);
    N["locations"] = OJson::array({{{"physicalLocation", PL}}});
    Notes.push_back(N);
  }
  for (const std::string &C : In.ConfigErrors) {
    OJson N = OJson::object();
    N["descriptor"] = {{"id", "cudagraph-tidy/configuration"}};
    N["level"] = "error";
    N["message"] = {{"text", withoutRoot(C)}};
    Notes.push_back(N);
  }
  bool Failed = !Notes.empty();
  // What the shared-memory checks could not judge, per translation unit.
  for (const UnitStatus &U : In.Units) {
    if (!U.Analyzed || U.SharedKernels <= 0)
      continue;
    OJson N = OJson::object();
    N["descriptor"] = {{"id", "cudagraph-tidy/shared-memory-coverage"}};
    N["level"] = "note";
    N["message"] = {
        {"text", std::to_string(U.SharedKernels) +
                     " kernels with __shared__ accesses analysed, " +
                     std::to_string(U.SharedNoShape) +
                     " without a block shape (no verdict), " +
                     std::to_string(U.SharedGaveUp) + " over the step budget"}};
    N["properties"] = {{"kernels", U.SharedKernels},
                       {"withoutBlockShape", U.SharedNoShape},
                       {"overStepBudget", U.SharedGaveUp}};
    OJson PL = OJson::object();
    PL["artifactLocation"] = artifactLocation(U.File);
    N["locations"] = OJson::array({{{"physicalLocation", PL}}});
    Notes.push_back(N);
  }
  for (const std::string &W : In.Incomplete) {
    OJson N = OJson::object();
    N["descriptor"] = {{"id", "cudagraph-tidy/analysis-budget"}};
    N["level"] = "warning";
    N["message"] = {{"text", withoutRoot(W)}};
    Notes.push_back(N);
  }
  OJson Inv = OJson::object();
  // §3.20.21: an error notification means the results are incomplete; a
  // function given up on a budget is a warning (the run did its job).
  Inv["executionSuccessful"] = !Failed;
  if (!Notes.empty())
    Inv["toolExecutionNotifications"] = Notes;
  return Inv;
}

OJson LogBuilder::build() {
  OJson Driver = OJson::object();
  Driver["name"] = Opts.ToolName;
  Driver["version"] = Opts.ToolVersion;
  Driver["semanticVersion"] = Opts.ToolVersion;
  Driver["informationUri"] = Opts.InformationUri;
  Driver["rules"] = rules();

  std::vector<std::string> Prints =
      computeFingerprints(In.Findings, Opts.SourceRoot, Text);
  OJson Results = OJson::array();
  for (size_t I = 0; I < In.Findings.size(); ++I)
    Results.push_back(result(I, Prints[I]));

  OJson Run = OJson::object();
  Run["tool"] = {{"driver", Driver}};
  if (!Opts.AutomationId.empty())
    Run["automationDetails"] = {{"id", Opts.AutomationId}};
  Run["invocations"] = OJson::array({invocation()});
  if (OJson Ids = uriBaseIds(); !Ids.empty())
    Run["originalUriBaseIds"] = Ids;
  // §3.23: which commit was analysed; the repository's root is %SRCROOT%.
  if (!Opts.RepositoryUri.empty() && !Opts.RevisionId.empty()) {
    OJson V = OJson::object();
    V["repositoryUri"] = Opts.RepositoryUri;
    V["revisionId"] = Opts.RevisionId;
    if (!Opts.Branch.empty())
      V["branch"] = Opts.Branch;
    V["mappedTo"] = {{"uriBaseId", RootBaseId}};
    Run["versionControlProvenance"] = OJson::array({V});
  }
  // §3.14.27: required for text artifacts when there are results; clang
  // also counts code points.
  Run["columnKind"] = "unicodeCodePoints";
  Run["results"] = Results;

  OJson Log = OJson::object();
  Log["$schema"] = SchemaUri;
  Log["version"] = "2.1.0";
  Log["runs"] = OJson::array({Run});
  return Log;
}

} // namespace

std::vector<std::string>
computeFingerprints(const std::vector<FindingRecord> &Findings,
                    const std::string &SourceRoot, SourceText &Text) {
  PathResolver Paths;
  std::vector<std::string> Out;
  std::map<std::string, unsigned> Seen;
  for (const FindingRecord &F : Findings) {
    const std::string &Real = Paths.resolve(F.Pos.File);
    std::string Rel = relativeToRoot(Real, SourceRoot);
    // Files outside the root are named by base name only: the absolute path
    // differs between machines and would make every finding "new".
    if (Rel.empty())
      Rel = llvm::StringRef(Real).rsplit('/').second.str();
    std::string Key;
    for (const std::string &Part :
         {F.CheckName, Rel, F.Message, stripWhitespace(Text.line(F.Pos.File, F.Pos.Line)),
          std::to_string(Text.codePointColumn(F.Pos.File, F.Pos.Line, F.Pos.Column)),
          Text.enclosingContext(F.Pos.File, F.Pos.Line)}) {
      Key += Part;
      Key += '\0';
    }
    auto Digest = llvm::SHA256::hash(llvm::arrayRefFromStringRef(Key));
    std::string Hex = llvm::toHex(llvm::ArrayRef<uint8_t>(Digest).take_front(16),
                                  /*LowerCase=*/true);
    Out.push_back(Hex + ":" + std::to_string(++Seen[Hex]));
  }
  return Out;
}

std::string writeSarif(const SarifInput &In, const SarifOptions &Opts) {
  LogBuilder B(In, Opts);
  // Messages may carry bytes that are not UTF-8 (source text quoted by the
  // compiler); replacing them beats throwing halfway through a report.
  return B.build().dump(2, ' ', false, OJson::error_handler_t::replace) + "\n";
}

bool readBaseline(const std::string &Path, std::set<std::string> &Fingerprints,
                  std::string &Error) {
  std::ifstream File(Path, std::ios::binary);
  if (!File) {
    Error = "cannot read baseline '" + Path + "'";
    return false;
  }
  std::stringstream Buf;
  Buf << File.rdbuf();
  OJson Log = OJson::parse(Buf.str(), nullptr, /*allow_exceptions=*/false);
  auto Fail = [&](const std::string &Why) {
    Error = "malformed baseline '" + Path + "': " + Why;
    return false;
  };
  if (Log.is_discarded())
    return Fail("not valid JSON");
  if (!Log.is_object() || !Log.contains("version") || Log["version"] != "2.1.0")
    return Fail("not a SARIF 2.1.0 log (no \"version\": \"2.1.0\")");
  if (!Log.contains("runs") || !Log["runs"].is_array())
    return Fail("no \"runs\" array");
  for (size_t R = 0; R < Log["runs"].size(); ++R) {
    const OJson &Run = Log["runs"][R];
    if (!Run.is_object())
      return Fail("runs[" + std::to_string(R) + "] is not an object");
    if (!Run.contains("results"))
      continue;
    if (!Run["results"].is_array())
      return Fail("runs[" + std::to_string(R) + "].results is not an array");
    for (size_t I = 0; I < Run["results"].size(); ++I) {
      const OJson &Res = Run["results"][I];
      std::string Where = "runs[" + std::to_string(R) + "].results[" +
                          std::to_string(I) + "]";
      if (!Res.is_object())
        return Fail(Where + " is not an object");
      if (Res.contains("baselineState") && Res["baselineState"] == "absent")
        continue;
      if (!Res.contains("partialFingerprints") ||
          !Res["partialFingerprints"].is_object() ||
          !Res["partialFingerprints"].contains(FingerprintKey) ||
          !Res["partialFingerprints"][FingerprintKey].is_string())
        return Fail(Where + " has no partialFingerprints.\"" +
                    std::string(FingerprintKey) +
                    "\" (was the log written by cudagraph-tidy?)");
      Fingerprints.insert(Res["partialFingerprints"][FingerprintKey].get<std::string>());
    }
  }
  return true;
}

} // namespace cgt
