//===- predict.cpp - lib/SharedMem's numbers for a whole kernel launch ----===//
//
// Prints, per __global__ function of a file, what ncu should count for one
// launch with the block shape of the file's launch of it:
//   ld_wf / st_wf        sum of wavefronts over every warp-level shared load /
//                        store (l1tex__data_pipe_lsu_wavefronts_mem_shared_op_*)
//   ld_excess / st_excess  sum of wavefronts - ideal
//                        (l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_*)
//   oob_threads / oob_accesses  overflow threads and thread-accesses
//                        (compute-sanitizer memcheck errors)
//   worst_degree, unknown (some warp access had no verdict)
// as one JSON object per line. Build with build_predict.sh; not part of CI.
//
//===----------------------------------------------------------------------===//
#include "SharedMem/BankModel.h"
#include "SharedMem/Interpreter/Interpreter.h"
#include "SharedMem/SharedMemAnalysis.h"

#include "clang/AST/ASTConsumer.h"
#include "clang/Frontend/CompilerInstance.h"
#include "clang/Frontend/FrontendAction.h"
#include "clang/Tooling/CompilationDatabase.h"
#include "clang/Tooling/Tooling.h"
#include "llvm/Support/raw_ostream.h"

#include <map>
#include <set>

using namespace clang;
using namespace cgt::smem;

namespace {

struct Totals {
  uint64_t LdWf = 0, StWf = 0, LdEx = 0, StEx = 0;
  unsigned WorstDegree = 0;
  bool Unknown = false;
};

Totals bankTotals(const std::vector<AccessRecord> &Recs) {
  Totals T;
  for (const AccessRecord &R : Recs) {
    unsigned S = R.Bytes;
    if (S != 1 && S != 2 && S != 4 && S != 8 && S != 16) {
      T.Unknown = true;
      continue;
    }
    struct G { LaneAddresses A; SymVal::TermList Terms; bool Any = false, Ok = true; };
    std::map<std::pair<unsigned, unsigned>, G> Groups;
    for (const Instance &I : R.Inst) {
      G &Gr = Groups[{I.IterKey, I.Tid / WarpSize}];
      if (I.Off.Top) { Gr.Ok = false; continue; }
      if (!Gr.Any) { Gr.Terms = I.Off.Terms; Gr.Any = true; }
      else if (Gr.Terms != I.Off.Terms) Gr.Ok = false;
      Gr.A[I.Tid % WarpSize] = I.Off.C;
    }
    for (auto &KV : Groups) {
      if (!KV.second.Ok) { T.Unknown = true; continue; }
      WarpCost C = warpCost(KV.second.A, S);
      T.WorstDegree = std::max(T.WorstDegree, C.Degree);
      if (R.Load) { T.LdWf += C.Wavefronts; T.LdEx += C.excess(); }
      if (R.Store) { T.StWf += C.Wavefronts; T.StEx += C.excess(); }
    }
  }
  return T;
}

std::pair<unsigned, unsigned> oobCounts(ASTContext &Ctx, const LaunchConfig &Cfg,
                                        const std::vector<AccessRecord> &Recs) {
  std::set<unsigned> Threads;
  unsigned Accesses = 0;
  for (const AccessRecord &R : Recs) {
    ArrayLayout L = layoutOf(Ctx, R.Array, Cfg, {});
    for (const Instance &I : R.Inst) {
      bool Out = false;
      if (R.Direct && !I.Dims.empty()) {
        for (size_t D = 0; D < I.Dims.size() && D < L.Extents.size(); ++D) {
          auto V = I.Dims[D].asConst();
          if (V && L.Extents[D] >= 0 && (*V < 0 || *V >= L.Extents[D]))
            Out = true;
        }
      } else if (auto V = I.Off.asConst(); V && L.TotalBytes >= 0) {
        Out = *V < 0 || *V + R.Bytes > L.TotalBytes;
      }
      if (Out) {
        Threads.insert(I.Tid);
        ++Accesses;
      }
    }
  }
  return {static_cast<unsigned>(Threads.size()), Accesses};
}

class Consumer : public ASTConsumer {
public:
  void HandleTranslationUnit(ASTContext &Ctx) override {
    SharedMemAnalyzer A(Ctx);
    for (const Decl *D : Ctx.getTranslationUnitDecl()->decls()) {
      const auto *K = dyn_cast<FunctionDecl>(D);
      if (!K || !K->hasAttr<CUDAGlobalAttr>() || !K->hasBody() ||
          !Ctx.getSourceManager().isWrittenInMainFile(K->getLocation()))
        continue;
      LaunchConfig Cfg = A.configsFor(K).front();
      std::vector<AccessRecord> Recs;
      uint64_t Budget = AnalysisOptions().StepBudget;
      bool Ok = interpretKernel(Ctx, K, Cfg, 64, {}, Recs, Budget);
      Totals T = bankTotals(Recs);
      auto [OobT, OobA] = oobCounts(Ctx, Cfg, Recs);
      llvm::outs() << "{\"kernel\": \"" << K->getName() << "\", \"block\": ["
                   << Cfg.Block.X << ", " << Cfg.Block.Y << ", " << Cfg.Block.Z
                   << "], \"launch\": " << (Cfg.known() ? "true" : "false")
                   << ", \"complete\": " << (Ok ? "true" : "false")
                   << ", \"ld_wf\": " << T.LdWf << ", \"st_wf\": " << T.StWf
                   << ", \"ld_excess\": " << T.LdEx << ", \"st_excess\": " << T.StEx
                   << ", \"worst_degree\": " << T.WorstDegree
                   << ", \"unknown\": " << (T.Unknown ? "true" : "false")
                   << ", \"oob_threads\": " << OobT << ", \"oob_accesses\": " << OobA
                   << "}\n";
    }
  }
};

class Action : public ASTFrontendAction {
  std::unique_ptr<ASTConsumer> CreateASTConsumer(CompilerInstance &, StringRef) override {
    return std::make_unique<Consumer>();
  }
};

} // namespace

int main(int argc, const char **argv) {
  if (argc < 2) {
    llvm::errs() << "usage: predict FILE.cu [clang args]\n";
    return 2;
  }
  std::vector<std::string> Args = {"-x", "cuda", "--cuda-host-only",
                                   "--cuda-path=/usr/local/cuda",
                                   "-Wno-unknown-cuda-version", "-std=c++17"};
  for (int I = 2; I < argc; ++I)
    Args.push_back(argv[I]);
  tooling::FixedCompilationDatabase DB(".", Args);
  tooling::ClangTool Tool(DB, {argv[1]});
  return Tool.run(tooling::newFrontendActionFactory<Action>().get());
}
