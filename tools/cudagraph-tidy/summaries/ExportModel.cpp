//===- ExportModel.cpp - project summaries as an API model file -----------===//
//
// The lifetime engine already summarises every function of a translation
// unit for its callers in the same unit (lib/Lifetime/Callees/Summaries.cpp). The
// export asks it for the summary of each definition other files can call
// by name (external linkage, host code, not virtual, not a template, no
// hand-written or built-in entry of the same name) and writes them as model
// entries, marked `unlistedArgsEscape` so that an argument the summary does
// not mention escapes at the call, as it does for a same-file helper.
//
// Passes: a summary computed in one file sees the wrappers of other files
// only through entries exported before. The first pass starts each unit
// after the units its main file calls into, with their entries (UnitOrder.h):
// `cuda_free()` in util.cu, then `free_buffers()` in buffers.cu, which calls
// it. Later passes run again over the translation units whose consumed
// entries changed since their last parse in a way that matters to them
// (ConsumedChanges.h; a call the first pass's order missed), with the entries
// so far applied, until nothing changes (or MaxRounds).
//
// How a unit is parsed in a pass: by --export-model, in this process
// (exportUnit); in a checking run, in a worker, with its checks when the
// run analyses it (Request.Checked: CheckedExport.h; its checks get the
// entries it consumes so far, overlayFor, and the parse's result is kept
// for them) and for its exports alone otherwise (ExportWorker.h); through
// the unit cache when there is one (ExportCache.h), which replays a pass
// without parsing. Each way exports what exportUnit does.
//
// Entries are merged by (name, parameter count) over the translation units,
// in input order; overloads of one count are told apart by their parameter
// types, which their entries then carry ("signature"). A function whose
// definitions disagree (defined differently by several programs of one
// database) is left out: a call could not tell which it reaches. Every definition
// counts for that, the ones with no effect too.
//
// Launch shapes cross files the same way (lib/SharedMem/CrossFileLaunches.h):
// each unit's launches of kernels it does not define are united by kernel
// (mergeLaunches), a unit parsed with its checks is given the launches of
// the kernels it defines, and is parsed again when those changed
// (launchChanges); exports do not depend on them.
//
// The result does not depend on --jobs or on the order threads finish: each
// unit's result is stored at its index and merged in input order, entries
// are sorted, and their "doc" names files relative to the source root; in
// the first pass a unit is given the entries of the units it waited for,
// which are all done when it starts.
//
//===----------------------------------------------------------------------===//
#include "summaries/ExportModel.h"
#include "summaries/ExportUnit.h"
#include "caches/ExportCache.h"
#include "summaries/ConsumedChanges.h"
#include "summaries/ExportWorker.h"
#include "summaries/UnitOrder.h"
#include "run/DriverRun.h"
#include "ApiModel/ApiModelWriter.h"

#include "clang/Basic/DiagnosticIDs.h"
#include "clang/Tooling/Tooling.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/FileUtilities.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/ThreadPool.h"
#include "llvm/Support/Threading.h"
#include "llvm/Support/raw_ostream.h"
#include <atomic>
#include <map>
#include <optional>
#include <memory>
#include <mutex>
#include <set>

using namespace clang;

namespace cgt {
namespace {


/// The unit's ApiModelFiles: the global option, else the first per-check
/// one by name. The output file is left out: the export rewrites it, and a
/// stale entry must not feed the new ones.
std::string modelFilesOf(const clang::tidy::ClangTidyOptions &Opts, const std::string &Output) {
  std::string Value;
  std::string FromKey;
  for (const auto &KV : Opts.CheckOptions) {
    llvm::StringRef Key = KV.getKey();
    if (Key == "ApiModelFiles") {
      Value = KV.getValue().Value;
      break;
    }
    if (Key.ends_with(".ApiModelFiles") && (FromKey.empty() || Key < FromKey)) {
      FromKey = Key.str();
      Value = KV.getValue().Value;
    }
  }
  auto Canonical = [](llvm::StringRef P) {
    llvm::SmallString<256> Abs(P);
    llvm::sys::fs::make_absolute(Abs);
    llvm::sys::path::remove_dots(Abs, /*remove_dot_dot=*/true);
    llvm::SmallString<256> Real;
    return llvm::sys::fs::real_path(Abs, Real) ? std::string(Abs) : std::string(Real);
  };
  std::string OutputPath = Canonical(Output);
  llvm::SmallVector<llvm::StringRef, 4> Parts;
  llvm::StringRef(Value).split(Parts, ';', -1, /*KeepEmpty=*/false);
  std::string Kept;
  for (llvm::StringRef Part : Parts)
    if (Canonical(Part.trim()) != OutputPath)
      Kept += (Kept.empty() ? "" : ";") + Part.trim().str();
  return Kept;
}

/// The merged entries of every unit, and the names left out as ambiguous.
struct Merged {
  std::map<EntryKey, FunctionModel> Entries;
  std::vector<std::string> Conflicts;
};

/// Which unit exported a definition, for a conflict's message: a header's
/// inline function is one definition in many units, told apart by them.
using UnitOf = std::map<const Definition *, std::string>;

std::string describeSummary(const Definition *D, const UnitOf &Units) {
  auto It = Units.find(D);
  if (It == Units.end() || llvm::StringRef(D->Model.Doc).contains(It->second + ":"))
    return D->Model.Doc; // defined in the unit's main file
  return D->Model.Doc + " (in " + It->second + ")";
}

/// One entry from the definitions of one function in several units, or a
/// conflict when they disagree.
void mergeDefinitions(const EntryKey &Key, const std::vector<const Definition *> &Defs,
                      const UnitOf &Units, Merged &Out) {
  auto Bare = [&](const Definition *D) {
    FunctionModel M = D->Model;
    M.Doc.clear();
    M.Signature = Key.Signature; // kept for overloads only
    return M;
  };
  FunctionModel First = Bare(Defs.front());
  std::string Doc = Defs.front()->Model.Doc;
  const Definition *Other = nullptr;
  for (const Definition *D : Defs) {
    if (!sameEntry(First, Bare(D)) || D->HasEffect != Defs.front()->HasEffect)
      Other = D;
    Doc = std::min(Doc, D->Model.Doc);
  }
  if (Other) {
    std::string How = describeDifference(First, Bare(Other));
    if (How.empty())
      How = "one has effects, the other none";
    Out.Conflicts.push_back(Key.describe() + ": " + describeSummary(Defs.front(), Units) +
                            " and " + describeSummary(Other, Units) + " differ (" + How + ")");
    return;
  }
  if (!Defs.front()->HasEffect)
    return;
  First.Doc = Doc;
  Out.Entries.emplace(Key, std::move(First));
}

/// Definitions are merged by name and parameter count; where one name and
/// count has definitions of different parameter types (overloads), by
/// those too, and the entries keep their signature so that a call finds
/// its own (ApiModel::lookup). `Names`, when given, names each unit (the
/// conflicts say which units disagree).
Merged mergeUnits(const std::vector<const UnitExport *> &Units,
                  const std::vector<std::string> &Names = {}) {
  std::map<EntryKey, std::map<std::vector<std::string>, std::vector<const Definition *>>>
      ByKey;
  UnitOf Exporter;
  for (size_t I = 0; I < Units.size(); ++I)
    for (const Definition &D : Units[I]->Definitions) {
      ByKey[{D.Model.Name, D.Model.NumParams, {}}][D.Model.Signature].push_back(&D);
      if (I < Names.size())
        Exporter[&D] = Names[I];
    }
  Merged Out;
  for (const auto &[Key, BySignature] : ByKey)
    for (const auto &[Signature, Defs] : BySignature) {
      EntryKey K = Key;
      if (BySignature.size() > 1)
        K.Signature = Signature;
      mergeDefinitions(K, Defs, Exporter, Out);
    }
  return Out;
}

/// Every unit's launches of kernels defined elsewhere, by kernel: sorted,
/// each once, at most 16 a kernel (as many as a unit keeps of its own).
KernelLaunchMap mergeLaunches(const std::vector<UnitExport> &Units) {
  KernelLaunchMap Out;
  for (const UnitExport &U : Units)
    for (const auto &[Kernel, List] : U.KernelLaunches)
      Out[Kernel].insert(Out[Kernel].end(), List.begin(), List.end());
  for (auto &[Kernel, List] : Out) {
    llvm::sort(List);
    List.erase(std::unique(List.begin(), List.end()), List.end());
    if (List.size() > 16)
      List.resize(16);
  }
  return Out;
}

/// The launches of the kernels `Defined` names.
KernelLaunchMap launchesOf(const KernelLaunchMap &All, const std::set<std::string> &Defined) {
  KernelLaunchMap Out;
  for (const std::string &K : Defined)
    if (auto It = All.find(K); It != All.end())
      Out.insert(*It);
  return Out;
}

/// Names whose entry appeared, changed or went away between two passes.
std::set<std::string> changedNames(const std::map<EntryKey, FunctionModel> &Before,
                                   const std::map<EntryKey, FunctionModel> &After) {
  std::set<std::string> Out;
  for (const auto &[Key, M] : After) {
    auto It = Before.find(Key);
    if (It == Before.end() || !sameEntry(It->second, M))
      Out.insert(Key.Name);
  }
  for (const auto &[Key, M] : Before)
    if (!After.count(Key))
      Out.insert(Key.Name);
  return Out;
}

/// The document: the entries, and the kinds and status types they name
/// that the built-in model lacks (a user's model file declares them), so
/// that the file loads on its own.
ModelDocument documentOf(const std::map<EntryKey, FunctionModel> &Entries,
                         const std::map<std::string, std::shared_ptr<ApiModel>> &Bases,
                         const ApiModel &Builtin, const KernelLaunchMap &Launches = {}) {
  ModelDocument D;
  D.KernelLaunches = Launches;
  D.Doc = "Generated by cudagraph-tidy --export-model: summaries of the project's "
          "functions with external linkage (docs/api-model.md). Do not edit; export again.";
  std::set<std::string> Kinds, Status;
  for (const auto &[Key, M] : Entries) {
    D.Functions.push_back(M);
    for (const AcquireEffect &A : M.Acquires)
      Kinds.insert(A.Kind);
    for (const ReleaseEffect &R : M.Releases)
      Kinds.insert(R.Kinds.begin(), R.Kinds.end());
    for (const UseEffect &U : M.Uses)
      if (!U.Kind.empty())
        Kinds.insert(U.Kind);
    if (!M.StatusType.empty() && !ApiModel::isPseudoStatusType(M.StatusType))
      Status.insert(M.StatusType);
  }
  for (const std::string &K : Kinds) {
    if (Builtin.kind(K))
      continue;
    for (const auto &[Files, Base] : Bases)
      if (const ResourceKind *RK = Base->kind(K)) {
        D.Kinds.push_back(*RK);
        break;
      }
  }
  for (const std::string &S : Status) {
    if (Builtin.isStatusType(S))
      continue;
    for (const auto &[Files, Base] : Bases)
      if (Base->isStatusType(S)) {
        D.StatusTypes.emplace_back(S, Base->successValue(S).str());
        break;
      }
  }
  return D;
}

int fail(const llvm::Twine &Message) {
  llvm::errs() << "cudagraph-tidy: error: " << Message << "\n";
  return 2;
}

/// An output path that cannot be written is known before the analysis.
bool checkWritable(const std::string &Path, std::string &Problem) {
  if (llvm::sys::fs::is_directory(Path)) {
    Problem = "is a directory";
    return false;
  }
  if (llvm::sys::fs::exists(Path)) {
    if (std::error_code EC = llvm::sys::fs::access(Path, llvm::sys::fs::AccessMode::Write)) {
      Problem = EC.message();
      return false;
    }
    return true;
  }
  llvm::SmallString<256> Dir(Path);
  llvm::sys::fs::make_absolute(Dir);
  llvm::sys::path::remove_filename(Dir);
  if (!llvm::sys::fs::is_directory(Dir)) {
    Problem = "directory '" + std::string(Dir) + "' does not exist";
    return false;
  }
  if (std::error_code EC = llvm::sys::fs::access(Dir, llvm::sys::fs::AccessMode::Write)) {
    Problem = "directory '" + std::string(Dir) + "': " + EC.message();
    return false;
  }
  return true;
}

bool writeFile(const std::string &Path, const std::string &Text, std::string &Problem) {
  std::error_code EC;
  llvm::raw_fd_ostream OS(Path, EC, llvm::sys::fs::OF_Text);
  if (!EC) {
    OS << Text;
    OS.close();
    EC = OS.error();
  }
  if (EC)
    Problem = EC.message();
  return !EC;
}

/// The passes over the translation units and what they found.
class Exporter {
public:
  Exporter(const ExportRequest &Request, std::shared_ptr<ApiModel> Builtin,
           UnitCache *Cache = nullptr)
      : Request(Request), Builtin(std::move(Builtin)), Names(Request.SourceRoot),
        Cache(Cache) {}

  /// Compile commands and model files of every unit, looked up on this
  /// thread (the user's database is not documented as safe for concurrent
  /// use); model files loaded once per distinct value.
  bool prepare(clang::tidy::ClangTidyOptionsProvider &Options,
               const tooling::CompilationDatabase &Db, const std::vector<std::string> &Files,
               std::string &Error) {
    Jobs.resize(Files.size());
    Units.resize(Files.size());
    ParsedWith.resize(Files.size());
    LaunchesWith.resize(Files.size());
    for (size_t I = 0; I < Files.size(); ++I) {
      UnitJob &J = Jobs[I];
      J.File = Files[I];
      clang::tidy::ClangTidyOptions Opts = Options.getOptions(Files[I]);
      if (Opts.ExtraArgsBefore)
        J.ExtraArgsBefore = *Opts.ExtraArgsBefore;
      if (Opts.ExtraArgs)
        J.ExtraArgs = *Opts.ExtraArgs;
      J.ModelFiles = modelFilesOf(Opts, Request.OutputPath);
      if (Request.Workers)
        J.Fault = faultFor(Files[I], Request.Workers->Fault);
      if (!llvm::sys::fs::exists(Files[I]))
        Units[I] = {false, "no such file", {}, {}};
      else if ((J.Commands = analysisCommands(Db, Files[I], Request.DeviceSide)).empty())
        Units[I] = {false, "no compile command for this file in the compilation database", {}, {}};
      if (!Bases.count(J.ModelFiles) && !loadBase(J.ModelFiles, Error))
        return false;
    }
    std::vector<bool> Skip;
    for (const UnitJob &J : Jobs)
      Skip.push_back(J.Commands.empty());
    Order = orderUnits(Files, Skip);
    ParsedOnce.assign(Files.size(), 0);
    return true;
  }

  /// Runs passes until no entry changes in a way some unit can see
  /// (ConsumedChanges.h), or MaxRounds passes ran.
  bool run(std::string &Error) {
    while (true) {
      std::vector<std::string> Why;
      std::vector<size_t> ToRun = unitsToRun(Why);
      if (ToRun.empty())
        return Converged = true;
      if (Passes == Request.MaxRounds)
        return true;
      Reasons.insert(Reasons.end(), Why.begin(), Why.end());
      ++Passes;
      if (!runPass(ToRun, Error))
        return false;
      std::vector<const UnitExport *> All;
      std::vector<std::string> UnitNames;
      for (size_t I = 0; I < Units.size(); ++I) {
        All.push_back(&Units[I]);
        UnitNames.push_back(Names.name(Jobs[I].File));
      }
      Result = mergeUnits(All, UnitNames);
      KernelLaunchMap Launches = mergeLaunches(Units);
      bool Changed = !changedNames(Current, Result.Entries).empty() || Launches != CurrentLaunches;
      Current = Result.Entries;
      CurrentLaunches = std::move(Launches);
      if (!Changed)
        return Converged = true;
    }
  }

  std::string text() const {
    return writeModelJson(documentOf(Current, Bases, *Builtin, CurrentLaunches));
  }

  /// text() with the CPU seconds of each unit's last parse, by the name
  /// the entries' "doc" gives files; units not measured are left out.
  std::string artifactText() const {
    ModelDocument D = documentOf(Current, Bases, *Builtin, CurrentLaunches);
    FileNamer Names(Request.SourceRoot);
    for (size_t I = 0; I < Units.size(); ++I)
      if (Units[I].Seconds > 0)
        D.UnitSeconds[Names.name(Jobs[I].File)] = Units[I].Seconds;
    return writeModelJson(D);
  }

  /// The entries unit `I` calls or names and does not define, and the
  /// launches in other units of the kernels it defines, as a model file; ""
  /// when there are none. Those it was last parsed with: a later
  /// change it cannot see did not parse it again, and its result stands.
  /// Before its first parse, those it is given (UnitOrder.h: the entries of
  /// the units it waited for that its main file calls); if they are what
  /// the parse finds it consumes, the parse's result is its result.
  std::string overlayFor(size_t I) const {
    std::map<EntryKey, FunctionModel> Used;
    static const std::map<EntryKey, FunctionModel> None;
    for (const auto &[Key, M] : ParsedWith[I] ? *ParsedWith[I] : None)
      if (!ParsedOnce[I] || Units[I].ExternalCallees.count(Key.Name))
        Used.emplace(Key, M);
    static const KernelLaunchMap NoLaunches;
    const KernelLaunchMap &Given = LaunchesWith[I] ? *LaunchesWith[I] : NoLaunches;
    KernelLaunchMap Launches =
        ParsedOnce[I] ? launchesOf(Given, Units[I].DefinedKernels) : Given;
    if (Used.empty() && Launches.empty())
      return "";
    return writeModelJson(documentOf(Used, Bases, *Builtin, Launches));
  }

  void summarize(ProjectSummaries &Out) const {
    for (size_t I = 0; I < Units.size(); ++I)
      Out.Overlays.push_back(overlayFor(I));
    Out.AllEntries = text();
    Out.Artifact = artifactText();
    Out.Entries = Current.size();
    for (const auto &[Kernel, List] : CurrentLaunches)
      Out.KernelLaunches += List.size();
    Out.Passes = Passes;
    Out.Converged = Converged;
    Out.Conflicts = Result.Conflicts;
    Out.Parsed = Stats.Parsed;
    Out.Replayed = Stats.Replayed;
    Out.ParsedWithChecks = ParsedWithChecks;
    Out.ParsedAgain = ParsedAgain;
    Out.AgainBecause = Reasons;
  }

  /// What stderr says after the file is written; the exit code.
  int report() const {
    for (const std::string &C : Result.Conflicts)
      llvm::errs() << "cudagraph-tidy: warning: not exported, definitions disagree: " << C
                   << "\n";
    if (!Converged)
      llvm::errs() << "cudagraph-tidy: warning: entries still changing after "
                   << Request.MaxRounds
                   << " passes; wrappers nested deeper across files may be missing\n";
    unsigned Failed = 0;
    for (size_t I = 0; I < Units.size(); ++I)
      if (!Units[I].Parsed) {
        ++Failed;
        llvm::errs() << "cudagraph-tidy: error: " << Jobs[I].File << ": " << Units[I].Problem
                     << "\n";
      }
    llvm::errs() << "exported " << Current.size() << " function"
                 << (Current.size() == 1 ? "" : "s") << " from " << Units.size()
                 << " translation unit" << (Units.size() == 1 ? "" : "s") << " in " << Passes
                 << " pass" << (Passes == 1 ? "" : "es") << " to " << Request.OutputPath
                 << "\n";
    return Failed ? 2 : 0;
  }

private:
  bool loadBase(const std::string &ModelFiles, std::string &Error) {
    auto Base = std::make_shared<ApiModel>(*Builtin);
    llvm::SmallVector<llvm::StringRef, 4> Parts;
    llvm::StringRef(ModelFiles).split(Parts, ';', -1, /*KeepEmpty=*/false);
    for (llvm::StringRef Part : Parts)
      if (llvm::Error E = Base->addFile(Part)) {
        Error = "invalid API model file (ApiModelFiles=" + ModelFiles +
                "): " + toString(std::move(E));
        return false;
      }
    Bases[ModelFiles] = Base;
    return true;
  }

  /// Tests only: `Spec` is KIND:FILE as for the checks (Worker.cpp).
  static std::string faultFor(llvm::StringRef File, llvm::StringRef Spec) {
    auto [Kind, Name] = Spec.split(':');
    return !Name.empty() && llvm::sys::path::filename(File) == Name ? Kind.str() : "";
  }

  /// The first pass reads every unit; a later one the units whose
  /// consumed entries changed, since they were parsed, in a way that can
  /// change what they find or export (ConsumedChanges.h); `Why` says which
  /// change, for each.
  std::vector<size_t> unitsToRun(std::vector<std::string> &Why) const {
    std::vector<size_t> Out;
    for (size_t I = 0; I < Units.size(); ++I) {
      if (Jobs[I].Commands.empty())
        continue;
      if (Passes == 0) {
        Out.push_back(I);
        continue;
      }
      if (!Units[I].Parsed)
        continue;
      std::vector<std::string> Changes = consumedChanges(Units[I], *ParsedWith[I], Current);
      if (Request.Checked && Request.Checked->parsesWithChecks(I))
        launchChanges(I, Changes);
      if (Changes.empty())
        continue;
      Out.push_back(I);
      for (const std::string &C : Changes)
        Why.push_back("pass " + std::to_string(Passes + 1) + ": " + Jobs[I].File + ": " + C);
    }
    return Out;
  }

  /// The kernels unit `I` defines whose launches in other units changed
  /// since its last parse: its checks judge them under those shapes (an
  /// export alone does not depend on them). One line for the unit, naming
  /// the first kernel: GROMACS's kernel units define dozens each.
  void launchChanges(size_t I, std::vector<std::string> &Why) const {
    static const KernelLaunchMap None;
    const KernelLaunchMap &Before = LaunchesWith[I] ? *LaunchesWith[I] : None;
    KernelLaunchMap Was = launchesOf(Before, Units[I].DefinedKernels);
    KernelLaunchMap Now = launchesOf(CurrentLaunches, Units[I].DefinedKernels);
    if (Was == Now)
      return;
    std::vector<std::string> Changed;
    for (const auto &[Kernel, List] : Now)
      if (auto It = Was.find(Kernel); It == Was.end() || It->second != List)
        Changed.push_back("'" + Kernel + "'" + (It == Was.end() ? " appeared" : " changed"));
    for (const auto &[Kernel, List] : Was)
      if (!Now.count(Kernel))
        Changed.push_back("'" + Kernel + "' went away");
    std::string More = Changed.size() > 1
                           ? " (and " + std::to_string(Changed.size() - 1) + " more kernels)"
                           : "";
    Why.push_back("launches in other files of kernel " + Changed.front() + More);
  }

  /// The entries a parse applies, in the forms the parse needs: the map
  /// (what the unit is parsed with, the cache's key), a file for workers,
  /// and a model per ApiModelFiles value for a parse in this process.
  struct Snapshot {
    std::shared_ptr<const std::map<EntryKey, FunctionModel>> Entries;
    llvm::SmallString<128> Path;
    std::optional<llvm::FileRemover> Remove;
    std::map<std::string, std::shared_ptr<ApiModel>> Models;
  };

  std::unique_ptr<Snapshot> snapshotOf(std::map<EntryKey, FunctionModel> Entries,
                                       std::string &Error) const {
    auto S = std::make_unique<Snapshot>();
    S->Entries = std::make_shared<const std::map<EntryKey, FunctionModel>>(std::move(Entries));
    std::string Overlay = writeModelJson(documentOf(*S->Entries, Bases, *Builtin));
    for (const auto &[Files, Base] : Bases) {
      auto M = std::make_shared<ApiModel>(*Base);
      if (llvm::Error E = M->addJson(Overlay, Request.OutputPath)) {
        Error = "exported entries do not load: " + toString(std::move(E));
        return nullptr;
      }
      S->Models[Files] = M;
    }
    // Workers read the entries from a file.
    if ((Request.Workers || Request.Checked) && !S->Entries->empty()) {
      int FD;
      if (llvm::sys::fs::createTemporaryFile("cudagraph-tidy-entries", "json", FD, S->Path)) {
        Error = "cannot write the exported entries to the temporary directory";
        return nullptr;
      }
      S->Remove.emplace(S->Path);
      llvm::raw_fd_ostream OS(FD, /*shouldClose=*/true);
      OS << Overlay;
    }
    return S;
  }

  /// Unit `J`'s definitions in its main file: a function of a header
  /// (ggml-impl.h's inline `ggml_check_edges`) has its body in every unit
  /// that includes it, where an entry would stand in for the body.
  UnitExport mainFileDefinitions(size_t J) const {
    UnitExport Out;
    std::string Prefix = "summary of " + Names.name(Jobs[J].File) + ":";
    for (const Definition &D : Units[J].Definitions)
      if (llvm::StringRef(D.Model.Doc).starts_with(Prefix))
        Out.Definitions.push_back(D);
    return Out;
  }

  /// The first pass's entries for unit `I`, once the units it waits for
  /// are done (UnitOrder.h): those of their main files' functions, merged
  /// as mergeUnits merges every unit's, of the names its main file calls.
  /// The same whatever the threads' timing: the units waited for are all
  /// done.
  std::map<EntryKey, FunctionModel> entriesFromWaits(size_t I) const {
    std::vector<UnitExport> Defined;
    for (size_t J : Order.Waits[I])
      Defined.push_back(mainFileDefinitions(J));
    std::vector<const UnitExport *> From;
    for (const UnitExport &U : Defined)
      From.push_back(&U);
    std::map<EntryKey, FunctionModel> Out;
    for (auto &[Key, M] : mergeUnits(From).Entries)
      if (Order.Calls[I].count(lastName(Key.Name).str()))
        Out.emplace(Key, M);
    return Out;
  }

  static llvm::StringRef lastName(llvm::StringRef Qualified) {
    size_t Colons = Qualified.rfind("::");
    return Colons == llvm::StringRef::npos ? Qualified : Qualified.substr(Colons + 2);
  }

  /// Whether an entry unit `I` was parsed with and does not consume may
  /// have been applied to a function it defines: a call of it looks the
  /// model up by its qualified name, and a free function by its plain one
  /// too, so plain names are compared.
  bool namesOwnFunction(size_t I) const {
    std::set<llvm::StringRef> Own;
    for (const std::string &Name : Units[I].InternalCallees)
      Own.insert(lastName(Name));
    for (const auto &[Key, M] : *ParsedWith[I])
      if (!Units[I].ExternalCallees.count(Key.Name) && Own.count(lastName(Key.Name)))
        return true;
    return false;
  }

  /// One pass over `ToRun`, applying the entries exported so far; the
  /// first in the order of UnitOrder.h, each unit with the entries of the
  /// units it waited for.
  bool runPass(const std::vector<size_t> &ToRun, std::string &Error) {
    std::unique_ptr<Snapshot> Shared = snapshotOf(Current, Error);
    if (!Shared)
      return false;
    auto SharedLaunches = std::make_shared<const KernelLaunchMap>(CurrentLaunches);
    if (Passes > 1)
      ParsedAgain += ToRun.size();
    CheckedUnits = llvm::count_if(ToRun, [&](size_t I) {
      return Request.Checked && Request.Checked->parsesWithChecks(I);
    });
    CheckedStarted = OthersStarted = 0;
    bool First = Passes == 1;
    auto Run = [&](size_t I) {
      std::unique_ptr<Snapshot> Own;
      std::string Ignored; // entries that do not load: the pass's, none
      if (First && !Order.Waits[I].empty())
        if (auto Given = entriesFromWaits(I); !Given.empty())
          Own = snapshotOf(std::move(Given), Ignored);
      const Snapshot &S = Own ? *Own : *Shared;
      ParsedWith[I] = S.Entries;
      LaunchesWith[I] = SharedLaunches;
      std::string Given = Own ? overlayFor(I) : "";
      const ApiModel &Model = *S.Models.at(Jobs[I].ModelFiles);
      const ApiModel &Base = *Bases.at(Jobs[I].ModelFiles);
      ParseUnit Parse = [&](const UnitJob &J) {
        if (Request.Checked && Request.Checked->parsesWithChecks(I)) {
          ++ParsedWithChecks;
          return Request.Checked->parseWithChecks(I, J, std::string(S.Path), overlayFor(I),
                                                  Base,
                                                  {Passes, ++CheckedStarted, CheckedUnits});
        }
        if (Request.Progress)
          announce(J.File, ++OthersStarted, ToRun.size() - CheckedUnits);
        return Request.Workers
                   ? exportIsolated(J, std::string(S.Path), Base, Names, *Request.Workers)
                   : exportUnit(J, Model, Base, Names);
      };
      if (Cache) {
        Units[I] = exportUnitCached(Jobs[I], Base, Names, *S.Entries, *Cache, Stats, Parse);
      } else {
        Units[I] = Parse(Jobs[I]);
        ++Stats.Parsed;
      }
      ParsedOnce[I] = 1;
      if (Own && Request.Checked && Units[I].Parsed && !namesOwnFunction(I))
        if (std::string Consumed = overlayFor(I); Consumed != Given)
          Request.Checked->consumedLess(I, Given, Consumed);
    };
    std::set<size_t> InPass(ToRun.begin(), ToRun.end());
    std::vector<size_t> Sequence;
    for (size_t I : Order.Order)
      if (InPass.count(I))
        Sequence.push_back(I);
    unsigned Threads = Request.Jobs ? Request.Jobs
                                    : llvm::hardware_concurrency().compute_thread_count();
    static const std::vector<std::vector<size_t>> NoWaits;
    runOrdered(Sequence, First ? Order.Waits : NoWaits, Threads, Run);
    return true;
  }

  const ExportRequest &Request;
  std::shared_ptr<ApiModel> Builtin;
  FileNamer Names;
  std::vector<UnitJob> Jobs;
  std::vector<UnitExport> Units; ///< the latest result of each unit
  std::map<std::string, std::shared_ptr<ApiModel>> Bases; ///< by ApiModelFiles value
  std::map<EntryKey, FunctionModel> Current;
  KernelLaunchMap CurrentLaunches; ///< every unit's, merged (mergeLaunches)
  Merged Result;
  unsigned Passes = 0;
  bool Converged = false;
  UnitCache *Cache;
  ExportCacheStats Stats;
  std::atomic<unsigned> ParsedWithChecks{0};
  /// Per unit: the entries it was last parsed with (null: not yet).
  std::vector<std::shared_ptr<const std::map<EntryKey, FunctionModel>>> ParsedWith;
  /// Per unit: the launches it was last parsed with (null: not yet).
  std::vector<std::shared_ptr<const KernelLaunchMap>> LaunchesWith;
  /// Per unit: whether it was parsed (its callees are known).
  std::vector<char> ParsedOnce;
  UnitOrder Order; ///< of the first pass

  unsigned ParsedAgain = 0; ///< units of the passes after the first
  /// Why each of them was parsed again (ProjectSummaries::AgainBecause).
  std::vector<std::string> Reasons;
  /// Progress of the pass under way: the units parsed with their checks
  /// (CheckedParses::parseWithChecks says so) and the others.
  unsigned CheckedUnits = 0;
  std::atomic<unsigned> CheckedStarted{0}, OthersStarted{0};
  std::mutex ProgressLock;

  /// "[summaries 3/60] file": a unit the run does not analyse, parsed for
  /// its summaries alone (a shard's or a --diff run's other files).
  void announce(const std::string &File, unsigned Started, size_t Units) {
    std::lock_guard<std::mutex> Lock(ProgressLock);
    llvm::errs() << "[summaries " << (Passes > 1 ? "pass " + std::to_string(Passes) + ", " : "")
                 << Started << "/" << Units << "] " << File << "\n";
  }
};

} // namespace

bool computeProjectSummaries(clang::tidy::ClangTidyOptionsProvider &Options,
                             const tooling::CompilationDatabase &Db,
                             const std::vector<std::string> &Files,
                             const ExportRequest &Request, UnitCache *Cache,
                             ProjectSummaries &Out, std::string &Error) {
  auto Builtin = ApiModel::builtin();
  if (!Builtin) {
    Error = "cannot load the built-in CUDA API model: " + toString(Builtin.takeError());
    return false;
  }
  Exporter E(Request, std::move(*Builtin), Cache);
  if (!E.prepare(Options, Db, Files, Error) || !E.run(Error))
    return false;
  E.summarize(Out);
  return true;
}

int exportModel(clang::tidy::ClangTidyOptionsProvider &Options,
                const tooling::CompilationDatabase &Db, const std::vector<std::string> &Files,
                const ExportRequest &Request) {
  std::string Problem;
  if (!checkWritable(Request.OutputPath, Problem))
    return fail("--export-model '" + Request.OutputPath + "': cannot write: " + Problem);
  auto Builtin = ApiModel::builtin();
  if (!Builtin)
    return fail("cannot load the built-in CUDA API model: " + toString(Builtin.takeError()));
  Exporter E(Request, std::move(*Builtin));
  if (!E.prepare(Options, Db, Files, Problem) || !E.run(Problem))
    return fail(Problem);
  if (!writeFile(Request.OutputPath, E.text(), Problem))
    return fail("--export-model '" + Request.OutputPath + "': cannot write: " + Problem);
  return E.report();
}

} // namespace cgt
