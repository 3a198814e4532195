//===- SharedRaceCheck.cpp ------------------------------------------------===//
//
// Words lib/SharedMem's race findings (RaceAnalysis.cpp): the warning at the
// store, a note at the other access, the block shape it holds for, and the
// kernel's call when an access is in a __device__ helper.
//
//===----------------------------------------------------------------------===//
#include "SharedRaceCheck.h"

#include "clang/Basic/SourceManager.h"

namespace clang::tidy::cudagraph {

SharedRaceCheck::SharedRaceCheck(StringRef Name, ClangTidyContext *Context)
    : SharedMemCheckBase(Name, Context),
      WarpSynchronous(parseBool(Options.get("WarpSynchronous", "true"))),
      SameValueStores(parseBool(Options.get("SameValueStores", "false"))) {}

void SharedRaceCheck::storeOptions(ClangTidyOptions::OptionMap &Opts) {
  SharedMemCheckBase::storeOptions(Opts);
  Options.store(Opts, "WarpSynchronous", WarpSynchronous ? "true" : "false");
  Options.store(Opts, "SameValueStores", SameValueStores ? "true" : "false");
}

namespace {

std::string who(unsigned Tid, bool Intra) {
  if (Intra)
    return "lane " + std::to_string(Tid % 32);
  return "thread " + std::to_string(Tid);
}

std::string raceMessage(const cgt::smem::RaceFinding &F, unsigned OtherLine) {
  std::string Other = F.OtherIsStore ? "writes" : "reads";
  std::string M = std::string(F.IntraWarp ? "warp-synchronous race" : "data race") +
                  " on __shared__ '" + F.Array->getNameAsString() + "': " +
                  who(F.StoreTid, F.IntraWarp) + " writes byte " + std::to_string(F.Offset) +
                  (F.FromSharedStart ? " past a start both threads share" : "") + " here and " + who(F.OtherTid, F.IntraWarp) +
                  (F.IntraWarp ? " of the same warp" : "") + " " + Other + " it at line " +
                  std::to_string(OtherLine);
  if (F.LoopCarried)
    M += " in the next iteration";
  if (F.IntraWarp)
    M += " with no __syncwarp() between them; lanes of a warp are not in lockstep since "
         "Volta";
  else
    M += " with no barrier between them";
  return M;
}

} // namespace

cgt::smem::KernelReport SharedRaceCheck::checkKernel(const FunctionDecl *K,
                                                     cgt::smem::SharedMemAnalyzer &Analyzer) {
  cgt::smem::AnalysisOptions Opts;
  Opts.Overflow = false;
  Opts.BankConflicts = false;
  Opts.Races = true;
  Opts.SameValueStores = SameValueStores;
  cgt::smem::KernelReport Rep = Analyzer.analyze(K, Opts);
  const SourceManager &SM = K->getASTContext().getSourceManager();
  bool Instance = K->isTemplateInstantiation();
  for (const cgt::smem::RaceFinding &F : Rep.Races) {
    if (F.IntraWarp && !WarpSynchronous)
      continue;
    Finding Out;
    Out.Loc = F.Store->getExprLoc();
    Out.Range = F.Store->getSourceRange();
    Out.Message = raceMessage(F, SM.getPresumedLineNumber(F.Other->getExprLoc()));
    Out.Severity = F.IntraWarp ? 1 : 2;
    Out.Notes.push_back({F.Other->getExprLoc(),
                         std::string("the conflicting ") + (F.OtherIsStore ? "write" : "read") +
                             " by " + who(F.OtherTid, F.IntraWarp)});
    std::string Note = (Instance ? "in " + kernelName(K) + ", " : "") + "with " +
                       cgt::smem::describeSyncShape(F.Config);
    Out.Notes.push_back(blockShapeNote(K, F.Config, Note));
    // Both accesses in one helper called once: one note says it.
    const CallExpr *OtherVia = F.OtherVia == F.StoreVia ? nullptr : F.OtherVia;
    for (const CallExpr *Via : {F.StoreVia, OtherVia})
      if (Via && Via->getDirectCallee())
        Out.Notes.push_back({Via->getExprLoc(), std::string(OtherVia || !F.OtherVia
                                                                ? "an access is in '"
                                                                : "both accesses are in '") +
                                                    Via->getDirectCallee()->getNameAsString() +
                                                    "', called here from '" +
                                                    K->getNameAsString() + "'"});
    Out.Variant = Instance ? "in " + kernelName(K) : "";
    submit(std::move(Out));
  }
  if (!Rep.RaceSkips.empty())
    cgt::smem::unitCoverage().addRaceSkips(
        std::to_string(K->getLocation().getRawEncoding()) + ":" + kernelName(K), Rep.RaceSkips);
  return Rep;
}

} // namespace clang::tidy::cudagraph
