//===- BarrierDivergenceCheck.cpp -----------------------------------------===//
//
// Words lib/SharedMem's divergence findings (RaceAnalysis.cpp): the warning
// at the barrier, a note at the test that splits the threads or at the other
// barrier, and the block shape it holds for.
//
//===----------------------------------------------------------------------===//
#include "BarrierDivergenceCheck.h"

#include "clang/AST/ExprCXX.h"
#include "clang/Basic/SourceManager.h"
#include "llvm/Support/Format.h"

namespace clang::tidy::cudagraph {

BarrierDivergenceCheck::BarrierDivergenceCheck(StringRef Name, ClangTidyContext *Context)
    : SharedMemCheckBase(Name, Context),
      AlignedBarriers(parseBool(Options.get("AlignedBarriers", "false"))) {}

void BarrierDivergenceCheck::storeOptions(ClangTidyOptions::OptionMap &Opts) {
  SharedMemCheckBase::storeOptions(Opts);
  Options.store(Opts, "AlignedBarriers", AlignedBarriers ? "true" : "false");
}

namespace {

/// `__syncthreads()`, `sync()`: the name the call spells.
std::string barrierName(const Expr *E) {
  const auto *C = dyn_cast_or_null<CallExpr>(E);
  const FunctionDecl *F = C ? C->getDirectCallee() : nullptr;
  return F ? F->getNameAsString() + "()" : "barrier";
}

std::string hex(uint64_t V) {
  std::string S;
  llvm::raw_string_ostream OS(S);
  OS << llvm::format_hex(V, 10);
  return OS.str();
}

} // namespace

cgt::smem::KernelReport
BarrierDivergenceCheck::checkKernel(const FunctionDecl *K,
                                    cgt::smem::SharedMemAnalyzer &Analyzer) {
  cgt::smem::AnalysisOptions Opts;
  Opts.Overflow = false;
  Opts.BankConflicts = false;
  Opts.Divergence = true;
  Opts.AlignedBarriers = AlignedBarriers;
  cgt::smem::KernelReport Rep = Analyzer.analyze(K, Opts);
  const SourceManager &SM = K->getASTContext().getSourceManager();
  bool Instance = K->isTemplateInstantiation();
  using DF = cgt::smem::DivergenceFinding;
  for (const DF &F : Rep.Divergences) {
    Finding Out;
    Out.Loc = F.Barrier->getExprLoc();
    Out.Range = F.Barrier->getSourceRange();
    std::string Name = barrierName(F.Barrier);
    switch (F.K) {
    case DF::Skipped:
      Out.Message = "barrier divergence: thread " + std::to_string(F.TidIn) + " waits at " +
                    Name + " here but thread " + std::to_string(F.TidOut) +
                    " of the same block skips it and " +
                    (F.SkipperExits ? "exits; under PTX's .aligned rule every thread of the "
                                      "block must reach it"
                                    : "waits at a later barrier; a block barrier must be "
                                      "reached by every live thread");
      Out.Notes.push_back({F.Branch->getBeginLoc(),
                           "this condition sends thread " + std::to_string(F.TidIn) +
                               " and thread " + std::to_string(F.TidOut) + " different ways"});
      break;
    case DF::Misaligned:
      Out.Message = "misaligned barriers: thread " + std::to_string(F.TidIn) + " waits at " +
                    Name + " here while thread " + std::to_string(F.TidOut) +
                    " waits at the one at line " +
                    std::to_string(SM.getPresumedLineNumber(F.OtherBarrier->getExprLoc())) +
                    "; every thread must reach the same barrier call";
      Out.Notes.push_back({F.OtherBarrier->getExprLoc(),
                           "thread " + std::to_string(F.TidOut) + " waits here"});
      break;
    case DF::GridSplit:
      Out.Message = "grid barrier divergence: " +
                    std::string(F.SkipperExits
                                    ? "blocks that left the kernel at the test on blockIdx "
                                      "never reach " + Name + " here"
                                    : "blocks on one side of the test on blockIdx wait at " +
                                          Name + " here and the others skip it") +
                    "; a grid barrier must be reached by every thread of every block, or "
                    "the grid waits forever";
      Out.Notes.push_back({F.Branch->getBeginLoc(),
                           F.SkipperExits ? "this condition depends on blockIdx; the blocks "
                                            "on one side of it leave the kernel"
                                          : "this condition depends on blockIdx and sends "
                                            "blocks different ways"});
      break;
    case DF::MaskOmitsCaller:
      Out.Message = "__syncwarp mask " + hex(F.Mask) + " does not name lane " +
                    std::to_string(F.TidIn % 32) + " (thread " + std::to_string(F.TidIn) +
                    "), which calls it; every caller must set its own bit";
      break;
    }
    Out.Severity = F.K == DF::MaskOmitsCaller ? 1 : 2;
    std::string Note = (Instance ? "in " + kernelName(K) + ", " : "") + "with " +
                       cgt::smem::describeSyncShape(F.Config);
    Out.Notes.push_back(blockShapeNote(K, F.Config, Note));
    Out.Variant = Instance ? "in " + kernelName(K) : "";
    submit(std::move(Out));
  }
  return Rep;
}

} // namespace clang::tidy::cudagraph
