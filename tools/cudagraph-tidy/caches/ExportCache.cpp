//===- ExportCache.cpp - one unit's summaries, from the cache -------------===//
//
// A unit's exports are stored as one model document per group of
// definitions that share no (name, parameter count) (overloads of one
// arity go to separate groups), read back into a copy of the unit's base
// model, which declares every kind they may name. A replay whose entries
// do not load, or whose files changed, is a miss.
//
//===----------------------------------------------------------------------===//
#include "caches/ExportCache.h"
#include "ApiModel/ApiModelWriter.h"

#include "llvm/Support/MemoryBuffer.h"
#include <nlohmann/json.hpp>
#include <set>

using json = nlohmann::json;

namespace cgt {
namespace {

std::string unitKey(const UnitJob &Job, const FileNamer &Names, UnitCache &Cache) {
  KeyBuilder K;
  K.add("export-v4").add(toolIdentity()).add(Job.File).add(Names.root());
  for (const auto &C : Job.Commands) {
    K.add(C.Directory).add(C.Filename);
    for (const std::string &A : C.CommandLine)
      K.add(Cache.keyArg(A));
  }
  for (const std::string &A : Job.ExtraArgsBefore)
    K.add("before").add(A);
  for (const std::string &A : Job.ExtraArgs)
    K.add("after").add(A);
  K.add(Job.ModelFiles);
  llvm::SmallVector<llvm::StringRef, 4> Parts;
  llvm::StringRef(Job.ModelFiles).split(Parts, ';', -1, /*KeepEmpty=*/false);
  for (llvm::StringRef P : Parts)
    K.add(Cache.fileDigest(P.trim().str()));
  K.add(Cache.fileDigest(Job.File));
  return K.key();
}

/// The entries of the names the unit uses, as text (the key's "used").
std::string usedEntries(const std::set<std::string> &Callees,
                        const std::map<EntryKey, FunctionModel> &Entries) {
  ModelDocument D;
  for (const auto &[Key, M] : Entries)
    if (Callees.count(Key.Name))
      D.Functions.push_back(M);
  return writeModelJson(D);
}

std::string variantKey(const std::string &Unit, const std::vector<FileDigest> &Files,
                       const std::string &Used) {
  KeyBuilder K;
  K.add(Unit);
  for (const FileDigest &F : Files)
    K.add(F.first).add(F.second);
  K.add(Used);
  return K.key();
}

std::string manifestText(const std::vector<FileDigest> &Files,
                         const std::set<std::string> &Callees) {
  json Deps = json::array();
  for (const FileDigest &F : Files)
    Deps.push_back({F.first, F.second});
  return json{{"files", Deps}, {"callees", Callees}}.dump();
}

bool readManifest(const std::string &Text, std::vector<FileDigest> &Files,
                  std::set<std::string> &Callees) {
  try {
    json J = json::parse(Text);
    for (const json &F : J.at("files"))
      Files.emplace_back(F.at(0).get<std::string>(), F.at(1).get<std::string>());
    Callees = J.at("callees").get<std::set<std::string>>();
    return true;
  } catch (const json::exception &) {
    return false;
  }
}

} // namespace

std::string EntryKey::describe() const {
  std::string Out = "'" + Name + "' (" + std::to_string(Params) + " parameter" +
                    (Params == 1 ? "" : "s");
  for (size_t I = 0; I < Signature.size(); ++I)
    Out += (I ? ", " : ": ") + Signature[I];
  return Out + ")";
}

std::string unitExportToJson(const UnitExport &U) {
  std::vector<ModelDocument> Groups;
  std::vector<std::set<EntryKey>> Seen;
  json Defs = json::array();
  for (const Definition &D : U.Definitions) {
    // Overloads of one count go to different groups: a group is read back
    // by name and count (unitExportFromJson).
    EntryKey Key{D.Model.Name, D.Model.NumParams, {}};
    size_t G = 0;
    while (G < Seen.size() && Seen[G].count(Key))
      ++G;
    if (G == Seen.size()) {
      Seen.emplace_back();
      Groups.emplace_back();
    }
    Seen[G].insert(Key);
    Groups[G].Functions.push_back(D.Model);
    Defs.push_back({{"group", G}, {"effect", D.HasEffect}});
  }
  json Texts = json::array();
  for (const ModelDocument &D : Groups)
    Texts.push_back(writeModelJson(D));
  json Uses = json::object();
  for (const auto &[Name, Use] : U.CalleeUses)
    Uses[Name] = {Use.Args, Use.Opaque};
  json Launches = json::object();
  for (const auto &[Kernel, List] : U.KernelLaunches)
    for (const KernelLaunch &L : List)
      Launches[Kernel].push_back(
          {L.Block[0], L.Block[1], L.Block[2], L.DynamicSharedBytes, L.At});
  return json{{"parsed", U.Parsed},        {"problem", U.Problem},
              {"callees", U.ExternalCallees}, {"calleeUses", Uses},
              {"ownCallees", U.InternalCallees},
              {"dependencies", U.Dependencies},
              {"absent", U.AbsentFiles},
              {"definitions", Defs},       {"groups", Texts},
              {"seconds", U.Seconds},       {"kernelLaunches", Launches},
              {"definedKernels", U.DefinedKernels}}
      .dump();
}

bool unitExportFromJson(const std::string &Text, const ApiModel &Base, UnitExport &Out) {
  try {
    json J = json::parse(Text);
    Out.Parsed = J.at("parsed");
    Out.Problem = J.at("problem");
    Out.ExternalCallees = J.at("callees").get<std::set<std::string>>();
    Out.InternalCallees = J.at("ownCallees").get<std::set<std::string>>();
    for (const auto &[Name, Use] : J.at("calleeUses").items())
      Out.CalleeUses[Name] = {Use.at(0).get<uint64_t>(), Use.at(1).get<bool>()};
    Out.Dependencies = J.at("dependencies").get<std::vector<std::string>>();
    Out.AbsentFiles = J.at("absent").get<std::vector<std::string>>();
    Out.Seconds = J.value("seconds", 0.0); // absent in entries stored before it
    for (const auto &[Kernel, List] : J.at("kernelLaunches").items())
      for (const json &L : List) {
        KernelLaunch K;
        for (unsigned D = 0; D < 3; ++D)
          K.Block[D] = L.at(D).get<unsigned>();
        K.DynamicSharedBytes = L.at(3).get<long long>();
        K.At = L.at(4).get<std::string>();
        Out.KernelLaunches[Kernel].push_back(std::move(K));
      }
    Out.DefinedKernels = J.at("definedKernels").get<std::set<std::string>>();
    std::vector<ApiModel> Groups;
    for (const json &T : J.at("groups")) {
      Groups.push_back(Base);
      if (llvm::Error E = Groups.back().addJson(T.get<std::string>(), "cache")) {
        llvm::consumeError(std::move(E));
        return false;
      }
    }
    // The n-th definition of a group is the group's n-th function, looked
    // up by name and count, which a group has once.
    std::vector<size_t> Next(Groups.size(), 0);
    std::vector<std::string> GroupTexts = J.at("groups").get<std::vector<std::string>>();
    std::vector<std::vector<std::pair<std::string, unsigned>>> Order(Groups.size());
    for (size_t G = 0; G < GroupTexts.size(); ++G) {
      json Doc = json::parse(GroupTexts[G]);
      for (const json &F : Doc.at("functions"))
        Order[G].emplace_back(F.at("name").get<std::string>(), F.at("params").get<unsigned>());
    }
    for (const json &D : J.at("definitions")) {
      size_t G = D.at("group");
      if (G >= Groups.size() || Next[G] >= Order[G].size())
        return false;
      auto [Name, Params] = Order[G][Next[G]++];
      const FunctionModel *M = Groups[G].lookup(Name, Params);
      if (!M)
        return false;
      Definition Def;
      Def.Model = *M;
      Def.Model.Origin.clear();
      Def.HasEffect = D.at("effect");
      Out.Definitions.push_back(std::move(Def));
    }
    return true;
  } catch (const json::exception &) {
    return false;
  }
}

UnitExport exportUnitCached(const UnitJob &Job, const ApiModel &Base, const FileNamer &Names,
                            const std::map<EntryKey, FunctionModel> &Entries,
                            UnitCache &Cache, ExportCacheStats &Stats, const ParseUnit &Parse) {
  std::string Unit = unitKey(Job, Names, Cache);
  std::vector<FileDigest> Files;
  std::set<std::string> Callees;
  std::string Manifest = Cache.get("xm-" + Unit + ".json");
  if (!Manifest.empty() && !readManifest(Manifest, Files, Callees))
    ++Cache.Corrupt;
  if (!Files.empty() && Cache.stillSame(Files)) {
    std::string Name = "xv-" + variantKey(Unit, Files, usedEntries(Callees, Entries)) + ".json";
    std::string Text = Cache.get(Name);
    UnitExport Out;
    if (!Text.empty() && unitExportFromJson(Text, Base, Out)) {
      ++Stats.Replayed;
      return Out;
    }
    if (!Text.empty())
      ++Cache.Corrupt;
  }
  UnitExport Out = Parse(Job);
  ++Stats.Parsed;
  Files.clear();
  // A unit that does not parse is stored too: what it read and what it
  // missed decide it as they decide a clean parse. A worker that failed
  // left no files: not stored, the next run tries again.
  if (Out.Dependencies.empty() || !Cache.digestAll(Out.Dependencies, Out.AbsentFiles, Files))
    return Out;
  Cache.put("xm-" + Unit + ".json", manifestText(Files, Out.ExternalCallees));
  Cache.put("xv-" + variantKey(Unit, Files, usedEntries(Out.ExternalCallees, Entries)) + ".json",
            unitExportToJson(Out));
  return Out;
}

} // namespace cgt
