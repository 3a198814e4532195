//===- SharedMemRaceTest.cpp - barrier phases, races and divergence -------===//
//
// The race and divergence model of lib/SharedMem (SyncModel.h) on small
// kernels parsed host-side against a stand-in for CUDA's headers, and the
// trace alignment on hand-built logs: what is a race (and which threads and
// byte witness it), what a barrier, a uniform branch or a __syncwarp orders,
// and which divergence each rule reports.
//
//===----------------------------------------------------------------------===//
#include "SharedMem/RaceAnalysis.h"
#include "SharedMem/SharedMemAnalysis.h"

#include "clang/Frontend/ASTUnit.h"
#include "clang/Tooling/Tooling.h"
#include "gtest/gtest.h"

using namespace cgt::smem;
using namespace clang;

namespace {

const char *Preamble = R"cpp(
#define __global__ __attribute__((global))
#define __device__ __attribute__((device))
#define __host__ __attribute__((host))
#define __shared__ __attribute__((shared))
typedef unsigned long size_t;
struct dim3 {
  unsigned x, y, z;
  __host__ __device__ constexpr dim3(unsigned a = 1, unsigned b = 1, unsigned c = 1)
      : x(a), y(b), z(c) {}
};
#define BUILTIN(NAME)                                                        \
  struct __cuda_builtin_##NAME##_t {                                         \
    static __device__ unsigned __fetch_builtin_x();                          \
    static __device__ unsigned __fetch_builtin_y();                          \
    static __device__ unsigned __fetch_builtin_z();                          \
    __declspec(property(get = __fetch_builtin_x)) unsigned x;                \
    __declspec(property(get = __fetch_builtin_y)) unsigned y;                \
    __declspec(property(get = __fetch_builtin_z)) unsigned z;                \
  };                                                                         \
  extern const __device__ __cuda_builtin_##NAME##_t NAME;
BUILTIN(threadIdx) BUILTIN(blockIdx) BUILTIN(blockDim) BUILTIN(gridDim)
extern "C" int __cudaPushCallConfiguration(dim3, dim3, size_t = 0, void * = 0);
__device__ void __syncthreads();
__device__ void __syncwarp(unsigned mask = 0xffffffff);
)cpp";

class SharedRaceTest : public ::testing::Test {
protected:
  KernelReport run(const std::string &Code, bool SameValue = false,
                   uint64_t StepBudget = AnalysisOptions().StepBudget, bool Aligned = false) {
    AST = tooling::buildASTFromCodeWithArgs(
        std::string(Preamble) + Code,
        {"-x", "cuda", "--cuda-host-only", "-nocudainc", "-nocudalib", "-std=c++17",
         "-Wno-unknown-cuda-version"},
        "t.cu");
    EXPECT_TRUE(AST);
    if (!AST)
      return {};
    EXPECT_FALSE(AST->getDiagnostics().hasErrorOccurred());
    const FunctionDecl *Target = nullptr;
    for (const Decl *D : AST->getASTContext().getTranslationUnitDecl()->decls())
      if (const auto *FD = dyn_cast<FunctionDecl>(D))
        if (FD->getNameAsString() == "k" && FD->hasBody())
          Target = FD;
    EXPECT_NE(Target, nullptr);
    if (!Target)
      return {};
    Analyzer = std::make_unique<SharedMemAnalyzer>(AST->getASTContext());
    AnalysisOptions Opts;
    Opts.Overflow = Opts.BankConflicts = false;
    Opts.Races = Opts.Divergence = true;
    Opts.SameValueStores = SameValue;
    Opts.StepBudget = StepBudget;
    Opts.AlignedBarriers = Aligned;
    return Analyzer->analyze(Target, Opts);
  }
  std::unique_ptr<ASTUnit> AST;
  std::unique_ptr<SharedMemAnalyzer> Analyzer;
};

TEST_F(SharedRaceTest, ReadAfterWriteWithoutBarrier) {
  KernelReport R = run(R"cpp(
__global__ void k(float *g) {
  __shared__ float s[128];
  s[threadIdx.x] = g[threadIdx.x];
  g[threadIdx.x] = s[127 - threadIdx.x];
}
void host(float *g) { k<<<1, 128>>>(g); }
)cpp");
  ASSERT_EQ(R.Races.size(), 1u);
  const RaceFinding &F = R.Races[0];
  EXPECT_FALSE(F.OtherIsStore);
  EXPECT_FALSE(F.IntraWarp); // thread 0's byte 0 is read by thread 127
  EXPECT_EQ(F.StoreTid, 0u);
  EXPECT_EQ(F.OtherTid, 127u);
  EXPECT_EQ(F.Offset, 0);
  EXPECT_TRUE(R.Divergences.empty());
}

TEST_F(SharedRaceTest, BarrierOrdersTheAccesses) {
  KernelReport R = run(R"cpp(
__global__ void k(float *g) {
  __shared__ float s[128];
  s[threadIdx.x] = g[threadIdx.x];
  __syncthreads();
  g[threadIdx.x] = s[127 - threadIdx.x];
}
void host(float *g) { k<<<1, 128>>>(g); }
)cpp");
  EXPECT_TRUE(R.Races.empty());
}

TEST_F(SharedRaceTest, UniformArmsAreExclusive) {
  KernelReport R = run(R"cpp(
__global__ void k(float *g, int mode) {
  __shared__ float s[129];
  if (mode)
    s[threadIdx.x] = 1.0f;
  else
    g[threadIdx.x] = s[threadIdx.x + 1];
}
void host(float *g, int m) { k<<<1, 128>>>(g, m); }
)cpp");
  EXPECT_TRUE(R.Races.empty());
}

TEST_F(SharedRaceTest, LoopCarriedThroughSymbolicIteration) {
  KernelReport R = run(R"cpp(
__global__ void k(float *g, int n) {
  __shared__ float s[128];
  float a = 0;
  for (int i = 0; i < n; ++i) {
    s[threadIdx.x] = g[i];
    __syncthreads();
    a += s[127 - threadIdx.x];
  }
  g[threadIdx.x] = a;
}
void host(float *g, int n) { k<<<1, 128>>>(g, n); }
)cpp");
  ASSERT_EQ(R.Races.size(), 1u);
  EXPECT_TRUE(R.Races[0].LoopCarried);
}

TEST_F(SharedRaceTest, IntraWarpPairsAndSyncwarp) {
  const char *Racy = R"cpp(
__global__ void k(float *g) {
  __shared__ float s[64];
  s[threadIdx.x] = g[threadIdx.x];
  __syncthreads();
  if (threadIdx.x < 16)
    s[threadIdx.x] += s[threadIdx.x + 8];
}
void host(float *g) { k<<<1, 64>>>(g); }
)cpp";
  KernelReport R = run(Racy);
  ASSERT_EQ(R.Races.size(), 1u);
  EXPECT_TRUE(R.Races[0].IntraWarp);
  KernelReport Fixed = run(R"cpp(
__global__ void k(float *g) {
  __shared__ float s[64];
  s[threadIdx.x] = g[threadIdx.x];
  __syncthreads();
  if (threadIdx.x < 16) {
    float v = s[threadIdx.x + 8];
    __syncwarp(0xffff);
    s[threadIdx.x] += v;
  }
}
void host(float *g) { k<<<1, 64>>>(g); }
)cpp");
  // A partial mask leaves intra-warp pairs without a verdict.
  EXPECT_TRUE(Fixed.Races.empty());
}

TEST_F(SharedRaceTest, SameValueStoresOnlyOnRequest) {
  const char *Code = R"cpp(
__global__ void k(int *g) {
  __shared__ int flag;
  flag = 1;
  __syncthreads();
  g[threadIdx.x] = flag;
}
void host(int *g) { k<<<1, 64>>>(g); }
)cpp";
  EXPECT_TRUE(run(Code).Races.empty());
  KernelReport R = run(Code, /*SameValue=*/true);
  ASSERT_FALSE(R.Races.empty());
  EXPECT_TRUE(R.Races[0].OtherIsStore);
}

TEST_F(SharedRaceTest, KnownValueAgainstUnknownValueMayDiffer) {
  // Thread 0 clears the slot, every other thread stores a loaded value: the
  // loaded value is 0 only by chance, so the two stores race by default.
  KernelReport Cleared = run(R"cpp(
__global__ void k(const float *g, float *o) {
  __shared__ float slot;
  if (threadIdx.x == 0)
    slot = 0.f;
  if (threadIdx.x == 63)
    slot = g[threadIdx.x];
  __syncthreads();
  o[threadIdx.x] = slot;
}
void host(const float *g, float *o) { k<<<1, 64>>>(g, o); }
)cpp");
  ASSERT_FALSE(Cleared.Races.empty());
  EXPECT_TRUE(Cleared.Races[0].OtherIsStore);
  // The same with the integer 0 stored into the float (llm.c's
  // `block_acc[warp.thread_rank()] = 0;`): a known value too.
  KernelReport IntZero = run(R"cpp(
__global__ void k(const float *g, float *o) {
  __shared__ float slot;
  if (threadIdx.x == 0)
    slot = 0;
  if (threadIdx.x == 63)
    slot = g[threadIdx.x];
  __syncthreads();
  o[threadIdx.x] = slot;
}
void host(const float *g, float *o) { k<<<1, 64>>>(g, o); }
)cpp");
  EXPECT_FALSE(IntZero.Races.empty());
  // Two loaded values, neither known: they may be one value, as every lane
  // storing a warp-reduced sum is.
  KernelReport Loaded = run(R"cpp(
__global__ void k(const float *g, float *o) {
  __shared__ float slot;
  if (threadIdx.x == 0 || threadIdx.x == 63)
    slot = g[0];
  __syncthreads();
  o[threadIdx.x] = slot;
}
void host(const float *g, float *o) { k<<<1, 64>>>(g, o); }
)cpp");
  EXPECT_TRUE(Loaded.Races.empty());
}

TEST_F(SharedRaceTest, NoShapeJudgesOnlyShapeIndependentPairs) {
  KernelReport R = run(R"cpp(
__global__ void k(float *g) {
  __shared__ float s[1024];
  s[threadIdx.x] = g[threadIdx.x];
  g[threadIdx.x] = s[threadIdx.x ^ 1] + s[blockDim.x - 1 - threadIdx.x];
}
)cpp");
  ASSERT_EQ(R.Races.size(), 1u);
  EXPECT_FALSE(R.Races[0].Config.known());
  EXPECT_EQ(R.Races[0].Config.Block.count(), 64u);
}

TEST_F(SharedRaceTest, SkippedBarrierAndEarlyExit) {
  KernelReport R = run(R"cpp(
__global__ void k(float *g) {
  if (threadIdx.x < 32)
    __syncthreads();
  __syncthreads();
  g[threadIdx.x] = 0;
}
void host(float *g) { k<<<1, 128>>>(g); }
)cpp");
  ASSERT_EQ(R.Divergences.size(), 1u);
  EXPECT_EQ(R.Divergences[0].K, DivergenceFinding::Skipped);
  EXPECT_LT(R.Divergences[0].TidIn, 32u);
  EXPECT_GE(R.Divergences[0].TidOut, 32u);
  KernelReport Exit = run(R"cpp(
__global__ void k(float *g) {
  if (threadIdx.x >= 32)
    return;
  __syncthreads();
  g[threadIdx.x] = 0;
}
void host(float *g) { k<<<1, 128>>>(g); }
)cpp");
  EXPECT_TRUE(Exit.Divergences.empty());
  // Skipping threads that only exit afterwards no longer count at it.
  KernelReport SkipThenExit = run(R"cpp(
__global__ void k(float *g) {
  if (threadIdx.x < 32)
    __syncthreads();
  g[threadIdx.x] = 0;
}
void host(float *g) { k<<<1, 128>>>(g); }
)cpp");
  EXPECT_TRUE(SkipThenExit.Divergences.empty());
}

TEST_F(SharedRaceTest, MisalignedBarriers) {
  KernelReport R = run(R"cpp(
__global__ void k(float *g) {
  if (threadIdx.x & 1)
    __syncthreads();
  else
    __syncthreads();
  g[threadIdx.x] = 0;
}
void host(float *g) { k<<<1, 64>>>(g); }
)cpp");
  ASSERT_EQ(R.Divergences.size(), 1u);
  EXPECT_EQ(R.Divergences[0].K, DivergenceFinding::Misaligned);
  EXPECT_NE(R.Divergences[0].Barrier, R.Divergences[0].OtherBarrier);
}

TEST(SyncTraceTest, AlignedPrefix) {
  int A = 0, B = 0;
  SyncLog L;
  L.Threads.resize(3);
  L.Threads[0].Trace = {{&A, 0, true}, {&B, 0, true}};
  L.Threads[1].Trace = {{&A, 0, true}}; // exited early: a prefix
  L.Threads[2].Trace = {{&A, 0, true}, {&B, 0, true}};
  EXPECT_EQ(alignedPrefix(L), UINT32_MAX);
  L.Threads[2].Trace[1] = {&A, 1, true};
  EXPECT_EQ(alignedPrefix(L), 1u);
  L.Threads[2].LostAt = 1; // its phase is unknown from there: not compared
  EXPECT_EQ(alignedPrefix(L), UINT32_MAX);
}

} // namespace

// What the interpreter does not run: constant expressions that call
// constexpr functions fold once, and a loop that touches no shared memory
// and meets no barrier has its writes havocked. A budget of 8000 steps is
// less than running either for 64 threads would take (a 500-iteration
// table walk; a 60-iteration accumulation), so each case fails if it is run.
TEST_F(SharedRaceTest, ConstexprCallsFoldInsteadOfRunning) {
  KernelReport R = run(R"cpp(
__device__ constexpr int table(int j) {
  int r = 0;
  for (int i = 0; i < 500; ++i)
    r += (i * j) % 7;
  return r % 64 + 64;
}
__global__ void k(float *g) {
  __shared__ float s[128];
  constexpr int n = table(3);
  if (table(5) < 64)
    return;
  s[threadIdx.x % n] = g[threadIdx.x];
  g[threadIdx.x] = s[127 - threadIdx.x];
}
void host(float *g) { k<<<1, 128>>>(g); }
)cpp",
                       false, 8000);
  EXPECT_FALSE(R.GaveUp);
  EXPECT_EQ(R.Races.size(), 1u);
}

TEST_F(SharedRaceTest, InertLoopsAreNotRun) {
  const char *Code = R"cpp(
__global__ void k(float *g, int n) {
  __shared__ float s[64];
  float acc = 0;
  int last = 0;
  for (int i = 0; i < 60; ++i) {
    acc += g[i * n + threadIdx.x];
    last = i;
  }
  s[threadIdx.x] = acc;
  g[threadIdx.x] = s[63 - threadIdx.x] + last;
}
void host(float *g, int n) { k<<<1, 64>>>(g, n); }
)cpp";
  KernelReport R = run(Code, false, 8000);
  EXPECT_FALSE(R.GaveUp);
  ASSERT_EQ(R.Races.size(), 1u);
  EXPECT_EQ(R.Races[0].OtherTid, 63u);
}

TEST_F(SharedRaceTest, LoopsThroughSharedPointersStillRun) {
  // The loop names no __shared__ variable, but its pointer points into one:
  // it runs, and its race is found.
  KernelReport R = run(R"cpp(
__device__ void put(float *p, int i, float v) { p[i] = v; }
__global__ void k(float *g) {
  __shared__ float s[128];
  float *p = s + 64;
  for (int i = 0; i < 2; ++i)
    put(p, (threadIdx.x + i) % 64, g[i]);
  g[threadIdx.x] = s[64 + (threadIdx.x + 1) % 64];
}
void host(float *g) { k<<<1, 64>>>(g); }
)cpp");
  EXPECT_FALSE(R.Races.empty());
}

// Grid barriers (InterpreterGrid.cpp): cooperative_groups' grid_group as the
// header declares it (the sync's body is the header's business; the class
// decides what it waits for).
namespace {
const char *GridGroup = R"cpp(
namespace cooperative_groups {
class grid_group {
public:
  __device__ void sync() const;
};
__device__ grid_group this_grid();
template <class GroupT> __device__ void sync(GroupT const &g) { g.sync(); }
} // namespace cooperative_groups
namespace cg = cooperative_groups;
)cpp";

std::vector<DivergenceFinding> gridSplits(const KernelReport &R) {
  std::vector<DivergenceFinding> Out;
  for (const DivergenceFinding &F : R.Divergences)
    if (F.K == DivergenceFinding::GridSplit)
      Out.push_back(F);
  return Out;
}
} // namespace

TEST_F(SharedRaceTest, GridBarrierUnderBlockIndexTest) {
  KernelReport R = run(std::string(GridGroup) + R"cpp(
__global__ void k(float *g) {
  if (blockIdx.x % 2 == 0)
    cg::this_grid().sync();
  g[threadIdx.x] = 0;
}
void host(float *g) { k<<<4, 64>>>(g); }
)cpp");
  ASSERT_EQ(gridSplits(R).size(), 1u);
  EXPECT_FALSE(gridSplits(R)[0].SkipperExits);
  EXPECT_NE(gridSplits(R)[0].Branch, nullptr);
  // A block barrier there is uniform in the block; a grid barrier under a
  // test on a kernel parameter is uniform in the grid.
  KernelReport Block = run(std::string(GridGroup) + R"cpp(
__global__ void k(float *g, int n) {
  if (blockIdx.x % 2 == 0)
    __syncthreads();
  if (n > 1)
    cg::this_grid().sync();
  g[threadIdx.x] = 0;
}
void host(float *g, int n) { k<<<4, 64>>>(g, n); }
)cpp");
  EXPECT_TRUE(Block.Divergences.empty());
}

TEST_F(SharedRaceTest, GridBarriersAreCountedNotNamed) {
  // One grid barrier in each arm: every block arrives once.
  KernelReport Same = run(std::string(GridGroup) + R"cpp(
__global__ void k(float *g) {
  cg::grid_group grid = cg::this_grid();
  if (blockIdx.x == 0)
    grid.sync();
  else
    cg::sync(grid);
  g[threadIdx.x] = 0;
}
void host(float *g) { k<<<4, 64>>>(g); }
)cpp");
  EXPECT_TRUE(Same.Divergences.empty());
  // Two against one, after an earlier test whose arms disagree on a kernel
  // parameter (the count is vague from there, the arms' difference is not).
  KernelReport More = run(std::string(GridGroup) + R"cpp(
__global__ void k(float *g, int n) {
  cg::grid_group grid = cg::this_grid();
  if (n > 0)
    grid.sync();
  if (blockIdx.x == 0) {
    grid.sync();
    grid.sync();
  } else {
    grid.sync();
  }
  g[threadIdx.x] = 0;
}
void host(float *g, int n) { k<<<4, 64>>>(g, n); }
)cpp");
  ASSERT_EQ(gridSplits(More).size(), 1u);
}

TEST_F(SharedRaceTest, GridBarrierAfterBlocksLeave) {
  KernelReport R = run(std::string(GridGroup) + R"cpp(
__global__ void k(float *g) {
  if (blockIdx.x == 0)
    return;
  g[blockIdx.x] = 1;
  cg::this_grid().sync();
  g[threadIdx.x] = 0;
}
void host(float *g) { k<<<4, 64>>>(g); }
)cpp");
  ASSERT_EQ(gridSplits(R).size(), 1u);
  EXPECT_TRUE(gridSplits(R)[0].SkipperExits);
  // Against a problem size, whether any block leaves depends on the launch.
  KernelReport Size = run(std::string(GridGroup) + R"cpp(
__global__ void k(float *g, int nblocks) {
  if (blockIdx.x >= nblocks)
    return;
  g[blockIdx.x] = 1;
  cg::this_grid().sync();
  g[threadIdx.x] = 0;
}
void host(float *g, int n) { k<<<4, 64>>>(g, n); }
)cpp");
  EXPECT_TRUE(Size.Divergences.empty());
  // Only some threads of the first block leave: its thread 0 still brings
  // the block to the barrier, so no block is missing there.
  KernelReport Some = run(std::string(GridGroup) + R"cpp(
__global__ void k(float *g) {
  if (blockIdx.x == 0) {
    if (threadIdx.x >= 32)
      return;
  }
  g[blockIdx.x] = 1;
  cg::this_grid().sync();
  g[threadIdx.x] = 0;
}
void host(float *g) { k<<<4, 64>>>(g); }
)cpp");
  EXPECT_TRUE(gridSplits(Some).empty());
}

TEST_F(SharedRaceTest, GridBarrierSkippedByExitingThreads) {
  // Threads 32-63 skip it and exit: fine for a block barrier (sm_70+) and
  // for a grid barrier alike (such a grid completes on an H200, synccheck is
  // silent); PTX's .aligned rule (AlignedBarriers) reports both.
  const char *Kernel = R"cpp(
__global__ void k(float *g) {
  g[threadIdx.x] = 0;
  if (threadIdx.x < 32)
    BARRIER;
}
void host(float *g) { k<<<4, 64>>>(g); }
)cpp";
  KernelReport Grid = run(std::string(GridGroup) + "#define BARRIER cg::this_grid().sync()\n" +
                          Kernel);
  EXPECT_TRUE(Grid.Divergences.empty());
  KernelReport Block = run(std::string(GridGroup) + "#define BARRIER __syncthreads()\n" + Kernel);
  EXPECT_TRUE(Block.Divergences.empty());
  for (const char *Barrier : {"cg::this_grid().sync()", "__syncthreads()"}) {
    KernelReport Strict = run(std::string(GridGroup) + "#define BARRIER " + Barrier + "\n" +
                                  Kernel,
                              false, AnalysisOptions().StepBudget, /*Aligned=*/true);
    ASSERT_EQ(Strict.Divergences.size(), 1u) << Barrier;
    EXPECT_EQ(Strict.Divergences[0].K, DivergenceFinding::Skipped);
    EXPECT_TRUE(Strict.Divergences[0].SkipperExits);
  }
}
