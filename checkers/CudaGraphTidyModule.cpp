//===- CudaGraphTidyModule.cpp - registers every cudagraph-* check --------===//
//
// The one place that names the checks. Compiled once, linked into both the
// clang-tidy plugin (build/lib/CudaGraphTidy.so) and the standalone driver.
//
//===----------------------------------------------------------------------===//
#include "clang-tidy/ClangTidyModule.h"
#include "HandleLeakCheck.h"
#include "MismatchedDeallocCheck.h"
#include "UnpairedInstantiateCheck.h"
#include "CaptureUnsafeCallCheck.h"
#include "CaptureStructureCheck.h"
#include "CaptureWithoutDestroyCheck.h"
#include "StreamOrderCheck.h"
#include "UseAfterDeallocCheck.h"
#include "SharedBankConflictCheck.h"
#include "SharedIndexOverflowCheck.h"
#include "SharedRaceCheck.h"
#include "BarrierDivergenceCheck.h"

namespace clang::tidy::cudagraph {

class CudaGraphTidyModule : public ClangTidyModule {
public:
  void addCheckFactories(ClangTidyCheckFactories &Factories) override {
    Factories.registerCheck<UnpairedInstantiateCheck>(
        "cudagraph-unpaired-instantiate");
    Factories.registerCheck<HandleLeakCheck>("cudagraph-handle-leak");
    Factories.registerCheck<MismatchedDeallocCheck>(
        "cudagraph-mismatched-dealloc");
    Factories.registerCheck<UseAfterDeallocCheck>("cudagraph-use-after-dealloc");
    Factories.registerCheck<SharedIndexOverflowCheck>(
        "cudagraph-shared-index-overflow");
    Factories.registerCheck<SharedBankConflictCheck>(
        "cudagraph-shared-bank-conflict");
    Factories.registerCheck<SharedRaceCheck>("cudagraph-shared-race");
    Factories.registerCheck<BarrierDivergenceCheck>("cudagraph-barrier-divergence");
    Factories.registerCheck<CaptureWithoutDestroyCheck>("cudagraph-capture-without-destroy");
    Factories.registerCheck<CaptureUnsafeCallCheck>("cudagraph-capture-unsafe-call");
    Factories.registerCheck<StreamOrderCheck>("cudagraph-stream-order");
    Factories.registerCheck<CaptureStructureCheck>("cudagraph-capture-structure");
  }
};

} // namespace clang::tidy::cudagraph

namespace clang::tidy {
static ClangTidyModuleRegistry::Add<cudagraph::CudaGraphTidyModule>
    X("cudagraph-module", "CUDA resource-lifetime and shared-memory checks.");

// Referenced by the standalone driver so the linker keeps this registration.
volatile int CudaGraphTidyModuleAnchorSource = 0;
} // namespace clang::tidy
