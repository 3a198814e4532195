//===- UnitWire.cpp - one translation unit's job and result as JSON -------===//
//
// Plain field-by-field mapping with nlohmann_json; options go through
// clang-tidy's own YAML (configurationAsText / parseConfiguration) so that
// every option clang-tidy knows survives the trip unchanged.
//
//===----------------------------------------------------------------------===//
#include "isolation/UnitWire.h"

#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/raw_ostream.h"
#include <nlohmann/json.hpp>

using json = nlohmann::json;
using namespace clang;
using namespace clang::tidy;

namespace cgt {
namespace {

json posJson(const SourcePos &P) {
  return {{"file", P.File},       {"line", P.Line},
          {"column", P.Column},   {"endLine", P.EndLine},
          {"endColumn", P.EndColumn}, {"offset", P.Offset}};
}

SourcePos posOf(const json &J) {
  SourcePos P;
  P.File = J.at("file");
  P.Line = J.at("line");
  P.Column = J.at("column");
  P.EndLine = J.at("endLine");
  P.EndColumn = J.at("endColumn");
  P.Offset = J.at("offset");
  return P;
}

json rangesJson(const std::vector<RangeRecord> &Ranges) {
  json Out = json::array();
  for (const RangeRecord &R : Ranges)
    Out.push_back({{"file", R.File}, {"offset", R.Offset}, {"length", R.Length}});
  return Out;
}

std::vector<RangeRecord> rangesOf(const json &J) {
  std::vector<RangeRecord> Out;
  for (const json &R : J)
    Out.push_back({R.at("file"), R.at("offset"), R.at("length")});
  return Out;
}

json fixesJson(const std::vector<FixRecord> &Fixes) {
  json Out = json::array();
  for (const FixRecord &X : Fixes)
    Out.push_back({{"pos", posJson(X.Pos)},
                   {"length", X.Length},
                   {"replacement", X.Replacement}});
  return Out;
}

std::vector<FixRecord> fixesOf(const json &J) {
  std::vector<FixRecord> Out;
  for (const json &X : J) {
    FixRecord R;
    R.Pos = posOf(X.at("pos"));
    R.Length = X.at("length");
    R.Replacement = X.at("replacement");
    Out.push_back(std::move(R));
  }
  return Out;
}

json findingJson(const FindingRecord &F) {
  json Notes = json::array();
  for (const NoteRecord &N : F.Notes)
    Notes.push_back({{"pos", posJson(N.Pos)},
                     {"message", N.Message},
                     {"ranges", rangesJson(N.Ranges)},
                     {"fixes", fixesJson(N.Fixes)}});
  return {{"check", F.CheckName},        {"level", F.Level},
          {"message", F.Message},        {"pos", posJson(F.Pos)},
          {"ranges", rangesJson(F.Ranges)}, {"notes", Notes},
          {"fixes", fixesJson(F.Fixes)}};
}

FindingRecord findingOf(const json &J) {
  FindingRecord F;
  F.CheckName = J.at("check");
  F.Level = J.at("level");
  F.Message = J.at("message");
  F.Pos = posOf(J.at("pos"));
  F.Ranges = rangesOf(J.at("ranges"));
  for (const json &N : J.at("notes")) {
    NoteRecord Note;
    Note.Pos = posOf(N.at("pos"));
    Note.Message = N.at("message");
    Note.Ranges = rangesOf(N.at("ranges"));
    Note.Fixes = fixesOf(N.at("fixes"));
    F.Notes.push_back(std::move(Note));
  }
  F.Fixes = fixesOf(J.at("fixes"));
  return F;
}

json statusJson(const UnitStatus &S) {
  return {{"file", S.File},
          {"analyzed", S.Analyzed},
          {"problem", S.Problem},
          {"sharedKernels", S.SharedKernels},
          {"sharedNoShape", S.SharedNoShape},
          {"sharedGaveUp", S.SharedGaveUp},
          {"sharedGaveUpKernels", S.SharedGaveUpKernels},
          {"sharedRaceSkips", S.SharedRaceSkips}};
}

UnitStatus statusOf(const json &J) {
  UnitStatus S;
  S.File = J.at("file");
  S.Analyzed = J.at("analyzed");
  S.Problem = J.at("problem");
  S.SharedKernels = J.at("sharedKernels");
  S.SharedNoShape = J.at("sharedNoShape");
  S.SharedGaveUp = J.at("sharedGaveUp");
  S.SharedGaveUpKernels = J.at("sharedGaveUpKernels").get<std::vector<std::string>>();
  S.SharedRaceSkips = J.at("sharedRaceSkips").get<std::map<std::string, unsigned>>();
  return S;
}

template <typename Fn> bool guarded(Fn F, std::string &Error) {
  try {
    F();
    return true;
  } catch (const json::exception &E) {
    Error = E.what();
    return false;
  }
}

} // namespace

std::string taskToJson(const UnitTask &Job) {
  json Cmds = json::array();
  for (const tooling::CompileCommand &C : Job.Commands)
    Cmds.push_back({{"directory", C.Directory},
                    {"file", C.Filename},
                    {"arguments", C.CommandLine},
                    {"output", C.Output}});
  const PreambleCacheConfig &P = Job.Preamble;
  return json{{"file", Job.File},
              {"commands", Cmds},
              {"options", configurationAsText(Job.Options)},
              {"preamble",
               {{"enabled", P.Enabled},
                {"build", P.Build},
                {"buildOnSecondMiss", P.BuildOnSecondMiss},
                {"directory", P.Directory},
                {"maxBytes", P.MaxBytes},
                {"inUseMarker", P.InUseMarker},
                {"countsFile", P.CountsFile},
                {"crashOnRead", P.FaultCrashOnRead},
                {"killInBuild", P.FaultKillInBuild}}},
              {"fault", Job.Fault},
              {"recordReads", Job.RecordReads},
              {"unsaved", Job.Unsaved},
              {"summaries",
               {{"enabled", Job.Summaries.Enabled},
                {"modelFiles", Job.Summaries.ModelFiles},
                {"entries", Job.Summaries.EntriesPath},
                {"root", Job.Summaries.Root}}}}
      .dump();
}

bool taskFromJson(const std::string &Text, UnitTask &Job, std::string &Error) {
  return guarded(
      [&] {
        json J = json::parse(Text);
        Job.File = J.at("file");
        for (const json &C : J.at("commands"))
          Job.Commands.emplace_back(
              C.at("directory").get<std::string>(), C.at("file").get<std::string>(),
              C.at("arguments").get<std::vector<std::string>>(),
              C.at("output").get<std::string>());
        std::string Yaml = J.at("options");
        auto Opts = parseConfiguration(llvm::MemoryBufferRef(Yaml, "job"));
        if (!Opts)
          throw json::other_error::create(0, "bad options: " + Opts.getError().message(),
                                          nullptr);
        Job.Options = ClangTidyOptions::getDefaults().merge(*Opts, 0);
        const json &P = J.at("preamble");
        Job.Preamble.Enabled = P.at("enabled");
        Job.Preamble.Build = P.at("build");
        Job.Preamble.BuildOnSecondMiss = P.at("buildOnSecondMiss");
        Job.Preamble.Directory = P.at("directory");
        Job.Preamble.MaxBytes = P.at("maxBytes");
        Job.Preamble.InUseMarker = P.at("inUseMarker");
        Job.Preamble.CountsFile = P.at("countsFile");
        Job.Preamble.FaultCrashOnRead = P.at("crashOnRead");
        Job.Preamble.FaultKillInBuild = P.at("killInBuild");
        Job.Fault = J.at("fault");
        Job.RecordReads = J.at("recordReads");
        Job.Unsaved = J.at("unsaved").get<UnsavedFiles>();
        const json &S = J.at("summaries");
        Job.Summaries.Enabled = S.at("enabled");
        Job.Summaries.ModelFiles = S.at("modelFiles");
        Job.Summaries.EntriesPath = S.at("entries");
        Job.Summaries.Root = S.at("root");
      },
      Error);
}

std::string resultToJson(const UnitResult &R) {
  json Findings = json::array();
  for (const FindingRecord &F : R.Findings)
    Findings.push_back(findingJson(F));
  const UnitCounters &C = R.Counters;
  return json{{"status", statusJson(R.Status)},
              {"findings", Findings},
              {"configErrors", R.ConfigErrors},
              {"dependencies", R.Dependencies},
              {"absent", R.AbsentFiles},
              {"summaries", R.Summaries},
              {"counters",
               {{"functions", C.Functions},
                {"widened", C.WidenedFunctions},
                {"budget", C.BudgetFunctions},
                {"mostDisjuncts", C.MostDisjuncts},
                {"confirmed", C.Confirmed},
                {"refuted", C.Refuted},
                {"refutationGaveUp", C.RefutationGaveUp},
                {"gapsConfirmed", C.GapsConfirmed},
                {"gapsNoPath", C.GapsNoPath},
                {"gapsCut", C.GapsCut},
                {"preambleHits", C.PreambleHits},
                {"preambleBuilds", C.PreambleBuilds},
                {"preambleSkipped", C.PreambleSkipped},
                {"preambleFailed", C.PreambleFailed}}}}
      .dump();
}

bool resultFromJson(const std::string &Text, UnitResult &R, std::string &Error) {
  return guarded(
      [&] {
        json J = json::parse(Text);
        R.Status = statusOf(J.at("status"));
        for (const json &F : J.at("findings"))
          R.Findings.push_back(findingOf(F));
        R.ConfigErrors = J.at("configErrors").get<std::vector<std::string>>();
        R.Dependencies = J.at("dependencies").get<std::vector<std::string>>();
        R.AbsentFiles = J.at("absent").get<std::vector<std::string>>();
        R.Summaries = J.at("summaries");
        const json &C = J.at("counters");
        R.Counters.Functions = C.at("functions");
        R.Counters.WidenedFunctions = C.at("widened");
        R.Counters.BudgetFunctions = C.at("budget");
        R.Counters.MostDisjuncts = C.at("mostDisjuncts");
        // Absent from results cached before the witness search.
        R.Counters.Confirmed = C.value("confirmed", 0u);
        R.Counters.Refuted = C.value("refuted", 0u);
        R.Counters.RefutationGaveUp = C.value("refutationGaveUp", 0u);
        // Absent from results cached before the gap search was counted.
        R.Counters.GapsConfirmed = C.value("gapsConfirmed", 0u);
        R.Counters.GapsNoPath = C.value("gapsNoPath", 0u);
        R.Counters.GapsCut = C.value("gapsCut", 0u);
        R.Counters.PreambleHits = C.at("preambleHits");
        R.Counters.PreambleBuilds = C.at("preambleBuilds");
        R.Counters.PreambleSkipped = C.at("preambleSkipped");
        R.Counters.PreambleFailed = C.at("preambleFailed");
      },
      Error);
}

std::string readWireFile(const std::string &Path) {
  auto Buf = llvm::MemoryBuffer::getFile(Path);
  return Buf ? (*Buf)->getBuffer().str() : "";
}

bool writeWireFile(const std::string &Path, const std::string &Text) {
  std::error_code EC;
  llvm::raw_fd_ostream OS(Path, EC);
  if (EC)
    return false;
  OS << Text;
  OS.close();
  bool OK = !OS.has_error();
  OS.clear_error();
  return OK;
}

} // namespace cgt
