//===- ResultCache.cpp - replaying a unit's findings ----------------------===//
//
// An entry holds the result text exactly as the worker sent it, so a
// replay goes through the same resultFromJson as a fresh analysis: the
// report cannot tell them apart. It follows the list of files on the
// entry's first line as it is, not escaped as a string inside that line's
// object, and the list is written directly (filesLine): storing a result
// costs its files' hashes and little else. A kept result is the worker's
// too, and is compared by its whole task (the job the worker was sent,
// less the summary request), so only the task the checks would run takes
// it.
//
//===----------------------------------------------------------------------===//
#include "caches/ResultCache.h"
#include "isolation/UnitWire.h"

#include "clang-tidy/ClangTidyOptions.h"
#include "llvm/Support/FileSystem.h"
#include <cstdio>
#include <nlohmann/json.hpp>

using json = nlohmann::json;
using namespace clang::tidy;

namespace cgt {
namespace {

/// `S` as a JSON string, escaped as JSON requires. The list of a unit's
/// files is long (1837 on ggml-cuda.cu, most of them include paths probed
/// in vain): building it as nlohmann values and dumping them cost about
/// 20M instructions on that unit, appending it about a tenth of that.
void appendJsonString(std::string &Out, llvm::StringRef S) {
  Out += '"';
  for (char C : S) {
    if (C == '"' || C == '\\') {
      Out += '\\';
      Out += C;
    } else if (static_cast<unsigned char>(C) < 0x20) {
      char Escaped[8];
      std::snprintf(Escaped, sizeof(Escaped), "\\u%04x", static_cast<unsigned>(C));
      Out += Escaped;
    } else {
      Out += C;
    }
  }
  Out += '"';
}

/// An entry's head: {"files":[[path,digest],...]} on one line.
std::string filesLine(const std::vector<FileDigest> &Files) {
  std::string Out = "{\"files\":[";
  for (size_t I = 0; I < Files.size(); ++I) {
    Out += I ? ",[" : "[";
    appendJsonString(Out, Files[I].first);
    Out += ',';
    appendJsonString(Out, Files[I].second);
    Out += ']';
  }
  return Out + "]}";
}

/// `Opts` with the model files that lie in `Folder` (the unit cache's
/// summaries folder) named "<cache>/NAME": where a machine keeps its cache
/// must not change the key.
ClangTidyOptions portableOptions(const ClangTidyOptions &Opts, llvm::StringRef Folder) {
  ClangTidyOptions Out = Opts;
  for (auto &KV : Out.CheckOptions) {
    llvm::StringRef Key = KV.getKey();
    if (Key != "ApiModelFiles" && !Key.ends_with(".ApiModelFiles"))
      continue;
    llvm::SmallVector<llvm::StringRef, 4> Parts;
    llvm::StringRef(KV.getValue().Value).split(Parts, ';', -1, /*KeepEmpty=*/false);
    std::string Value;
    bool Changed = false;
    for (llvm::StringRef P : Parts) {
      llvm::StringRef Name = P.trim();
      bool InFolder = Name.consume_front(Folder) &&
                      (Name.consume_front("/") || Name.consume_front("\\"));
      Changed |= InFolder;
      Value += (Value.empty() ? "" : ";") + (InFolder ? "<cache>/" + Name.str() : P.str());
    }
    if (Changed)
      KV.getValue().Value = Value;
  }
  return Out;
}

} // namespace

void addModelFile(ClangTidyOptions &Opts, const std::string &ModelPath) {
  bool Global = false;
  for (auto &KV : Opts.CheckOptions) {
    llvm::StringRef Key = KV.getKey();
    if (Key != "ApiModelFiles" && !Key.ends_with(".ApiModelFiles"))
      continue;
    Global |= Key == "ApiModelFiles";
    std::string &V = KV.getValue().Value;
    V += (llvm::StringRef(V).trim().empty() ? "" : ";") + ModelPath;
  }
  if (!Global)
    Opts.CheckOptions["ApiModelFiles"] = ClangTidyOptions::ClangTidyValue(ModelPath);
}

void ResultCache::setSummaries(const std::string &File, const std::string &ModelPath) {
  Summaries[File] = ModelPath;
}

void ResultCache::prepare(size_t, UnitTask &Task) {
  // The driver names the summaries a unit consumes itself, so that its
  // result key covers them: the checks must not add the cache's on top.
  Task.Options.CheckOptions["ProjectSummaries"] = ClangTidyOptions::ClangTidyValue("false");
  // The files a unit read key its stored result and its stored summaries
  // (the passes get this cache or none): with no cache, nobody reads them.
  Task.RecordReads = Cache != nullptr;
  auto It = Summaries.find(Task.File);
  if (It != Summaries.end())
    addModelFile(Task.Options, It->second);
}

std::string ResultCache::keyOf(const UnitTask &Task) const {
  KeyBuilder K;
  // The unit by its absolute name, and the current directory only when the
  // findings are spelled relative to it: a database run keys the same from
  // any directory (a Bear database's relative names included).
  llvm::SmallString<256> File(Task.File);
  llvm::sys::fs::make_absolute(File);
  K.add("check-v3").add(toolIdentity()).add(File).add(Task.Fault);
  K.add(spellingRoot(Task.File, Task.Commands));
  for (const auto &C : Task.Commands) {
    K.add(C.Directory).add(C.Filename);
    for (const std::string &A : C.CommandLine)
      K.add(Cache->keyArg(A));
  }
  K.add(configurationAsText(portableOptions(Task.Options, Cache->summariesDirectory())));
  for (const auto &KV : Task.Options.CheckOptions) {
    llvm::StringRef Key = KV.getKey();
    if (Key != "ApiModelFiles" && !Key.ends_with(".ApiModelFiles"))
      continue;
    llvm::SmallVector<llvm::StringRef, 4> Parts;
    llvm::StringRef(KV.getValue().Value).split(Parts, ';', -1, /*KeepEmpty=*/false);
    for (llvm::StringRef P : Parts)
      K.add(Cache->fileDigest(P.trim().str()));
  }
  K.add(Cache->fileDigest(Task.File));
  return "r-" + K.key() + ".json";
}

void ResultCache::keep(const UnitTask &Task, UnitResult Result) {
  std::string Text = taskToJson(Task);
  std::lock_guard<std::mutex> Lock(M);
  Kept[Task.File] = {std::move(Text), std::move(Result)};
}

void ResultCache::rekey(const UnitTask &From, const UnitTask &To) {
  std::string FromText = taskToJson(From), ToText = taskToJson(To);
  std::lock_guard<std::mutex> Lock(M);
  auto It = Kept.find(From.File);
  if (It != Kept.end() && It->second.first == FromText)
    It->second.first = std::move(ToText);
}

bool ResultCache::replayKept(const UnitTask &Task, UnitResult &Out) {
  std::string Text = taskToJson(Task);
  {
    std::lock_guard<std::mutex> Lock(M);
    auto It = Kept.find(Task.File);
    if (It == Kept.end() || It->second.first != Text)
      return false;
    Out = It->second.second;
    Analysed.push_back(Task.File);
  }
  ++FromSummaryPasses;
  save(Task, Out);
  return true;
}

bool ResultCache::replay(const UnitTask &Task, UnitResult &Out) {
  if (!Task.Unsaved.empty())
    return false; // what the files on disk say is not this text's result
  if (replayKept(Task, Out))
    return true;
  if (!Cache)
    return false;
  bool FromRemote = false;
  std::string Text = Cache->get(keyOf(Task), &FromRemote);
  if (Text.empty())
    return false;
  std::vector<FileDigest> Files;
  auto [Head, Result] = llvm::StringRef(Text).split('\n');
  try {
    json J = json::parse(Head);
    for (const json &F : J.at("files"))
      Files.emplace_back(F.at(0).get<std::string>(), F.at(1).get<std::string>());
  } catch (const json::exception &) {
    ++Cache->Corrupt;
    return false;
  }
  if (Files.empty() || !Cache->stillSame(Files))
    return false;
  UnitResult R;
  std::string Error;
  if (Result.empty() || !resultFromJson(Result.str(), R, Error)) {
    ++Cache->Corrupt;
    return false;
  }
  R.Counters.PreambleHits = R.Counters.PreambleBuilds = 0;
  R.Counters.PreambleSkipped = R.Counters.PreambleFailed = 0;
  Out = std::move(R);
  ++Replayed;
  if (FromRemote)
    ++ReplayedRemote;
  return true;
}

void ResultCache::store(const UnitTask &Task, const UnitResult &Result) {
  {
    std::lock_guard<std::mutex> Lock(M);
    Analysed.push_back(Task.File);
  }
  save(Task, Result);
}

void ResultCache::save(const UnitTask &Task, const UnitResult &Result) {
  // A worker that crashed or ran past a budget sends no files: nothing is
  // stored. One whose unit does not parse does, and is: its files and the
  // paths it missed decide that outcome too.
  if (!Cache || !Store || !Result.ConfigErrors.empty() || Result.Dependencies.empty() ||
      !Task.Unsaved.empty())
    return;
  std::vector<FileDigest> Files;
  if (!Cache->digestAll(Result.Dependencies, Result.AbsentFiles, Files))
    return;
  if (Cache->put(keyOf(Task), filesLine(Files) + "\n" + resultToJson(Result)))
    ++Stored;
}

std::vector<std::string> ResultCache::analysed() const {
  std::lock_guard<std::mutex> Lock(M);
  std::vector<std::string> Out = Analysed;
  std::sort(Out.begin(), Out.end());
  return Out;
}

} // namespace cgt
