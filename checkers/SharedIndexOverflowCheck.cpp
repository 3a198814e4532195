//===- SharedIndexOverflowCheck.cpp ---------------------------------------===//
#include "SharedIndexOverflowCheck.h"

namespace clang::tidy::cudagraph {

SharedIndexOverflowCheck::SharedIndexOverflowCheck(StringRef Name,
                                                   ClangTidyContext *Context)
    : SharedMemCheckBase(Name, Context),
      ReportPossible(parseBool(Options.get("ReportPossibleOverflows", "false"))) {}

void SharedIndexOverflowCheck::storeOptions(ClangTidyOptions::OptionMap &Opts) {
  SharedMemCheckBase::storeOptions(Opts);
  Options.store(Opts, "ReportPossibleOverflows", ReportPossible ? "true" : "false");
}

/// The same overflow counted in the accessed type's elements, when both the
/// offset and the size divide evenly: " (index 32 of 32 elements of 4 bytes)".
static std::string elementView(const cgt::smem::OverflowFinding &F) {
  int64_t B = F.AccessBytes;
  if (B <= 1 || F.WorstIndex % B != 0 || F.Extent % B != 0)
    return "";
  return " (index " + std::to_string(F.WorstIndex / B) + " of " +
         std::to_string(F.Extent / B) + " elements of " + std::to_string(B) +
         " bytes)";
}

static std::string overflowMessage(const cgt::smem::OverflowFinding &F) {
  std::string Arr = "__shared__ array '" + F.Array->getNameAsString() + "'";
  std::string Head = F.Definite ? Arr + " is indexed out of bounds"
                                : "possible out-of-bounds index into " + Arr;
  std::string Reach = F.Definite ? "reaches " : "can reach ";
  if (F.Dim == -3 && F.Carve)
    return Head + ": the index " + Reach + std::to_string(F.WorstIndex) +
           " but '" + F.Carve->getNameAsString() + "', carved out of it, has " +
           std::to_string(F.Extent) + " elements";
  if (F.Dim < 0)
    return Head + ": the access reaches byte offset " +
           std::to_string(F.WorstIndex) + " of a " + std::to_string(F.Extent) +
           "-byte array" + elementView(F);
  std::string Where = F.Rank > 1 ? " in dimension " + std::to_string(F.Dim + 1) +
                                       " of " + std::to_string(F.Rank)
                                 : "";
  std::string Unit = F.Rank > 1 ? "that dimension has " : "the array has ";
  return Head + Where + ": the index " + Reach + std::to_string(F.WorstIndex) +
         " but " + Unit + std::to_string(F.Extent) + " elements";
}

cgt::smem::KernelReport
SharedIndexOverflowCheck::checkKernel(const FunctionDecl *K,
                                      cgt::smem::SharedMemAnalyzer &Analyzer) {
  cgt::smem::AnalysisOptions Opts;
  Opts.BankConflicts = false;
  Opts.PossibleOverflows = ReportPossible;
  cgt::smem::KernelReport Rep = Analyzer.analyze(K, Opts);
  bool Instance = K->isTemplateInstantiation();
  for (const cgt::smem::OverflowFinding &F : Rep.Overflows) {
    Finding Out;
    Out.Loc = F.Access->getExprLoc();
    Out.Range = F.Access->getSourceRange();
    Out.Message = overflowMessage(F);
    Out.Severity = F.Definite ? 2 : 1;
    std::string Threads =
        cgt::smem::describeThreads(F.FirstTid, F.LastTid, F.NumThreads);
    std::string Note = (Instance ? "in " + kernelName(K) + " " : "") + "with " +
                       F.Config.describe() + ", " + Threads +
                       (F.Definite ? (F.NumThreads == 1 ? " goes" : " go") : " can go") +
                       " out of bounds";
    if (F.Config.known() && !F.Definite)
      Note += " unless a guard on the path prevents it";
    Out.Notes.push_back(blockShapeNote(K, F.Config, Note));
    if (F.Via)
      Out.Notes.push_back(
          {F.Via->getExprLoc(),
           "the access is in '" + F.Via->getDirectCallee()->getNameAsString() +
               "', called here from '" + K->getNameAsString() + "'"});
    Out.Variant = Instance ? "in " + kernelName(K) +
                                 (F.Dim == -1 ? " (byte offset " : " (index ") +
                                 std::to_string(F.WorstIndex) + ")"
                           : "";
    Out.OtherShapes = F.Others;
    submit(std::move(Out));
  }
  return Rep;
}

} // namespace clang::tidy::cudagraph
