//===- SharedMemAnalysisTest.cpp - the analyser on small kernels ----------===//
//
// Parses CUDA snippets host-side against a minimal stand-in for clang's
// CUDA headers (no CUDA install needed: the builtin variables are declared
// the way __clang_cuda_builtin_vars.h declares them) and checks what the
// analyser derives: block shapes and their sources, per-warp wavefronts,
// and the thread ranges of overflows.
//
//===----------------------------------------------------------------------===//
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
#define __launch_bounds__(...) __attribute__((launch_bounds(__VA_ARGS__)))
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
extern "C" int cudaConfigureCall(dim3, dim3, size_t = 0, void * = 0);
)cpp";

class SharedMemTest : public ::testing::Test {
protected:
  KernelReport run(const std::string &Code, const std::string &Kernel,
                   AnalysisOptions Opts = {}) {
    AST = tooling::buildASTFromCodeWithArgs(
        std::string(Preamble) + Code,
        {"-x", "cuda", "--cuda-host-only", "-nocudainc", "-nocudalib",
         "-std=c++17", "-Wno-unknown-cuda-version"},
        "t.cu");
    EXPECT_TRUE(AST);
    if (!AST)
      return {};
    EXPECT_FALSE(AST->getDiagnostics().hasErrorOccurred());
    const FunctionDecl *Target = nullptr;
    for (const Decl *D : AST->getASTContext().getTranslationUnitDecl()->decls())
      if (const auto *FD = dyn_cast<FunctionDecl>(D))
        if (FD->getNameAsString() == Kernel && FD->hasBody())
          Target = FD;
    EXPECT_NE(Target, nullptr) << Kernel;
    if (!Target)
      return {};
    Analyzer = std::make_unique<SharedMemAnalyzer>(AST->getASTContext());
    return Analyzer->analyze(Target, Opts);
  }
  std::unique_ptr<ASTUnit> AST;
  std::unique_ptr<SharedMemAnalyzer> Analyzer;
};

TEST_F(SharedMemTest, BlockShapeFromLocalDim3) {
  KernelReport R = run(R"cpp(
__global__ void k(float *g) { __shared__ float s[64]; s[threadIdx.x] = 0; }
void host(float *g) { dim3 b(16, 4); k<<<1, b>>>(g); }
)cpp", "k");
  ASSERT_EQ(R.Configs.size(), 1u);
  EXPECT_EQ(R.Configs[0].Origin, ShapeOrigin::Launch);
  EXPECT_EQ(R.Configs[0].Block.X, 16u);
  EXPECT_EQ(R.Configs[0].Block.Y, 4u);
  EXPECT_TRUE(R.Overflows.empty());
}

TEST_F(SharedMemTest, ReassignedBlockVariableIsNotTrusted) {
  KernelReport R = run(R"cpp(
__global__ void __launch_bounds__(128) k(float *g) { __shared__ float s[64]; s[threadIdx.x] = 0; }
void host(float *g, int n) { int b = 64; if (n) b = n; k<<<1, b>>>(g); }
)cpp", "k");
  ASSERT_EQ(R.Configs.size(), 1u);
  EXPECT_EQ(R.Configs[0].Origin, ShapeOrigin::LaunchBounds);
  EXPECT_EQ(R.Configs[0].Block.X, 128u);
  EXPECT_TRUE(R.Overflows.empty()) << "launch bounds alone are not definite";
}

TEST_F(SharedMemTest, OverflowThreadRangeAndDynamicSize) {
  KernelReport R = run(R"cpp(
__global__ void k(float *g) {
  extern __shared__ float d[];
  d[2 * threadIdx.x] = g[threadIdx.x];
}
void host(float *g) { k<<<1, 256, 1024>>>(g); }
)cpp", "k");
  ASSERT_EQ(R.Overflows.size(), 1u);
  const OverflowFinding &F = R.Overflows[0];
  EXPECT_TRUE(F.Definite);
  EXPECT_EQ(F.Extent, 256);
  EXPECT_EQ(F.WorstIndex, 510);
  EXPECT_EQ(F.FirstTid, 128u);
  EXPECT_EQ(F.LastTid, 255u);
  EXPECT_EQ(F.NumThreads, 128u);
}

TEST_F(SharedMemTest, PartialLastWarpOf48ThreadBlock) {
  // Measured on the H200: warp 1 of a 48-thread block holds 16 lanes; with
  // stride 32 they are 16 distinct words of bank 0.
  KernelReport R = run(R"cpp(
__global__ void k(float *g) {
  __shared__ float s[48 * 32];
  if (threadIdx.x >= 32) s[threadIdx.x * 32] = 1.0f;
}
void host(float *g) { k<<<1, 48>>>(g); }
)cpp", "k");
  ASSERT_EQ(R.Conflicts.size(), 1u);
  EXPECT_EQ(R.Conflicts[0].Warp, 1u);
  EXPECT_EQ(R.Conflicts[0].Cost.Wavefronts, 16u);
}

TEST_F(SharedMemTest, ThreadIdxYIsNotUniformWhenDxIs48) {
  // Dx = 48: warp 0 is all y = 0 (a broadcast), warp 1 holds y = 0
  // (x 32..47) and y = 1 (x 0..15): words 0 and 32, both in bank 0. A model
  // that took y as warp-uniform because Dx >= 32 would see no conflict.
  KernelReport R = run(R"cpp(
__global__ void k(float *g) {
  __shared__ float s[64];
  g[threadIdx.x] = s[threadIdx.y * 32];
}
void host(float *g) { k<<<1, dim3(48, 2)>>>(g); }
)cpp", "k");
  ASSERT_EQ(R.Conflicts.size(), 1u);
  EXPECT_EQ(R.Conflicts[0].Warp, 1u);
  EXPECT_EQ(R.Conflicts[0].Cost.Degree, 2u);
}

TEST_F(SharedMemTest, GuardsAreDecidedPerThread) {
  KernelReport R = run(R"cpp(
__global__ void k(float *g) {
  __shared__ float s[256];
  unsigned t = threadIdx.x;
  for (unsigned h = blockDim.x / 2; h > 0; h >>= 1)
    if (t < h) s[t] += s[t + h];
  if (t >= 128) return;
  s[2 * t] = 0;
}
void host(float *g) { k<<<1, 256>>>(g); }
)cpp", "k");
  EXPECT_TRUE(R.Overflows.empty());
  EXPECT_TRUE(R.Conflicts.size() == 1 && R.Conflicts[0].Cost.Degree == 2)
      << "s[2*t] is the only conflicted access";
}

TEST_F(SharedMemTest, TemplateArgumentAndPaddingFix) {
  KernelReport R = run(R"cpp(
template <int T> __global__ void k(float *o) {
  __shared__ float tile[T][T];
  tile[threadIdx.y][threadIdx.x] = 1.0f;
  o[threadIdx.x] = tile[threadIdx.x][threadIdx.y];
}
void host(float *o) { k<32><<<1, dim3(32, 32)>>>(o); }
)cpp", "host");
  (void)R;
  const FunctionDecl *Inst = nullptr;
  for (const Decl *D : AST->getASTContext().getTranslationUnitDecl()->decls())
    if (const auto *FT = dyn_cast<FunctionTemplateDecl>(D))
      for (const FunctionDecl *S : FT->specializations())
        Inst = S;
  ASSERT_NE(Inst, nullptr);
  KernelReport K = Analyzer->analyze(Inst, {});
  ASSERT_EQ(K.Conflicts.size(), 1u);
  EXPECT_EQ(K.Conflicts[0].Cost.Wavefronts, 32u);
  ASSERT_TRUE(K.Conflicts[0].Fix.has_value());
  EXPECT_EQ(K.Conflicts[0].Fix->NewCols, 33u);
}

// The padded layout moves every dimension but the last. Here a warp spans
// both values of the outer index: with 33-element rows its stride becomes
// 16 * 33 words (16 banks apart), which is what makes the padding work; a
// fix judged on the inner stride alone would keep a 2-way conflict.
TEST_F(SharedMemTest, PaddingFixOfThreeDimensionalArray) {
  KernelReport R = run(R"cpp(
__global__ void k(float *o, int c) {
  __shared__ float t[2][16][32];
  t[threadIdx.y][threadIdx.x][0] = 1.0f;
  o[threadIdx.x] = t[threadIdx.y][threadIdx.x][c & 31];
}
void host(float *o) { k<<<1, dim3(16, 2)>>>(o, 3); }
)cpp", "k");
  ASSERT_EQ(R.Conflicts.size(), 2u);
  for (const BankFinding &F : R.Conflicts) {
    EXPECT_EQ(F.Cost.Degree, 32u);
    ASSERT_TRUE(F.Fix.has_value());
    EXPECT_EQ(F.Fix->NewCols, 33u);
  }
}

TEST_F(SharedMemTest, UnknownLaneCoefficientGivesNoVerdict) {
  KernelReport R = run(R"cpp(
__global__ void k(float *g, int ld) {
  __shared__ float s[4096];
  s[threadIdx.x * ld] = 1.0f;
  s[threadIdx.x * 32 + ld] = 1.0f;
}
void host(float *g) { k<<<1, 32>>>(g, 4); }
)cpp", "k");
  // The first has a lane-dependent unknown; the second a uniform offset.
  ASSERT_EQ(R.Conflicts.size(), 1u);
  EXPECT_EQ(R.Conflicts[0].Cost.Degree, 32u);
}

TEST_F(SharedMemTest, PointerComparisonsTerminate) {
  // Regression (ggml softmax.cu): a pointer comparison used to recurse
  // between the integer and the pointer evaluator until the stack overflowed.
  KernelReport R = run(R"cpp(
__global__ void k(float *g, bool use_smem) {
  __shared__ float s[64];
  float *vals = use_smem ? s : g;
  for (float *p = s + threadIdx.x; p < s + 64 && p != g; p += 32)
    *p = 1.0f;
  if (vals == g) g[threadIdx.x] = s[threadIdx.x * 2];
}
void host(float *g) { k<<<1, 32>>>(g, true); }
)cpp", "k");
  // The loop condition compares pointers (undecided, so its store gets no
  // verdict); the guarded read has stride 2 (2-way).
  ASSERT_EQ(R.Conflicts.size(), 1u);
  EXPECT_EQ(R.Conflicts[0].Cost.Degree, 2u);
}

TEST_F(SharedMemTest, SharedArrayAccessorIdiom) {
  // cuda-samples' SharedMemory<T>: a conversion operator returning the
  // extern __shared__ array. Interleaved reduction through it is 8-way.
  KernelReport R = run(R"cpp(
template <class T> struct SharedMemory {
  __device__ operator T *() { extern __shared__ int smem_[]; return (T *)smem_; }
};
__global__ void k(float *g) {
  float *sdata = SharedMemory<float>();
  unsigned tid = threadIdx.x;
  sdata[tid] = g[tid];
  for (unsigned s = 1; s < blockDim.x; s *= 2) {
    unsigned index = 2 * s * tid;
    if (index < blockDim.x) sdata[index] += sdata[index + s];
  }
}
void host(float *g) { k<<<1, 256, 256 * sizeof(float)>>>(g); }
)cpp", "k");
  ASSERT_EQ(R.Conflicts.size(), 2u);
  EXPECT_EQ(R.Conflicts[0].Cost.Degree, 8u);
  EXPECT_EQ(R.Conflicts[0].Array->getName(), "smem_");
}

TEST_F(SharedMemTest, LaunchInsideGenericLambda) {
  // ggml's `auto launch = [&](auto NC) { k<NC>...<<<b, threads, bytes>>>(); }`.
  KernelReport R = run(R"cpp(
template <int N> struct IC { static constexpr int value = N; };
template <int NC> __global__ void k(float *g) {
  extern __shared__ float smem[];
  g[threadIdx.x] = smem[threadIdx.x * (NC + 31)];
}
void host(float *g) {
  const int threads = 128;
  auto launch = [&](auto nc) {
    constexpr int kNC = decltype(nc)::value;
    k<kNC><<<1, threads, threads * (kNC + 31) * sizeof(float)>>>(g);
  };
  launch(IC<5>{});
}
)cpp", "host");
  (void)R;
  const FunctionDecl *Inst = nullptr;
  for (const Decl *D : AST->getASTContext().getTranslationUnitDecl()->decls())
    if (const auto *FT = dyn_cast<FunctionTemplateDecl>(D))
      if (FT->getName() == "k")
        for (const FunctionDecl *S : FT->specializations())
          Inst = S;
  ASSERT_NE(Inst, nullptr);
  std::vector<LaunchConfig> C = Analyzer->configsFor(Inst);
  ASSERT_EQ(C.size(), 1u);
  EXPECT_EQ(C[0].Origin, ShapeOrigin::Launch);
  EXPECT_EQ(C[0].Block.X, 128u);
  EXPECT_EQ(C[0].DynSharedBytes, std::optional<uint64_t>(128 * 36 * 4));
  KernelReport K = Analyzer->analyze(Inst, {});
  ASSERT_EQ(K.Conflicts.size(), 1u);
  EXPECT_EQ(K.Conflicts[0].Cost.Degree, 4u); // row of 36 floats: gcd(36, 32)
}

TEST_F(SharedMemTest, VariablesSurviveAnUndecidedBranch) {
  // Regression: the join after an undecided `if` used to drop every variable
  // to "unknown", hiding ggml's double-buffered transpose tile index.
  KernelReport R = run(R"cpp(
__global__ void k(float *g, int n) {
  __shared__ float s[2][32][32];
  int buf = 0;
  for (int i = 0; i < 4; ++i) {
    if (i >= n)
      break;
    g[threadIdx.x] = s[buf][threadIdx.x][threadIdx.y];
    buf = (buf + 1) % 2;
  }
}
void host(float *g) { k<<<1, dim3(32, 8)>>>(g, 4); }
)cpp", "k");
  ASSERT_EQ(R.Conflicts.size(), 1u);
  EXPECT_EQ(R.Conflicts[0].Cost.Degree, 32u);
}


TEST_F(SharedMemTest, StepBudgetGivesUpWithAFlag) {
  // A kernel too long for its budget: the report says so and has no finding
  // (a partial run could miss the guard that makes an access safe).
  const char *Code = R"cpp(
__global__ void k(float *g) {
  __shared__ float s[64];
  for (int i = 0; i < 20; ++i)
    for (int j = 0; j < 20; ++j)
      g[i * 20 + j] += s[threadIdx.x * 2];
}
void host(float *g) { k<<<1, 256>>>(g); }
)cpp";
  AnalysisOptions Small;
  Small.StepBudget = 5000;
  KernelReport R = run(Code, "k", Small);
  EXPECT_TRUE(R.GaveUp);
  EXPECT_TRUE(R.Overflows.empty());
  KernelReport Full = run(Code, "k");
  EXPECT_FALSE(Full.GaveUp);
  EXPECT_EQ(Full.Overflows.size(), 1u);
}

TEST_F(SharedMemTest, WrapperShapesFollowTheirOwnCallPath) {
  // One wrapper, two callers: each kernel gets only its own call's shape.
  const char *Code = R"cpp(
__global__ void a(float *g) { __shared__ float s[64]; s[threadIdx.x] = 0; }
__global__ void b(float *g) { __shared__ float s[64]; s[threadIdx.x] = 0; }
template <typename K> void launch(K k, int threads, float *g) { k<<<1, threads>>>(g); }
void host(float *g) { launch(a, 32, g); launch(b, 256, g); }
)cpp";
  KernelReport A = run(Code, "a");
  ASSERT_EQ(A.Configs.size(), 1u);
  EXPECT_EQ(A.Configs[0].Block.X, 32u);
  EXPECT_TRUE(A.Overflows.empty());
  KernelReport B = run(Code, "b");
  ASSERT_EQ(B.Configs.size(), 1u);
  EXPECT_EQ(B.Configs[0].Block.X, 256u);
  EXPECT_EQ(B.Overflows.size(), 1u);
}

TEST_F(SharedMemTest, LaunchesInDeclarationsInitialisersAndQualifiedCalls) {
  // The launch index walks statements itself and hands declarations,
  // initialiser lists and qualified or templated names back to RAV: each
  // launch below sits behind one of them.
  const char *Code = R"cpp(
__global__ void a(float *g) { __shared__ float s[64]; s[threadIdx.x] = 0; }
__global__ void b(float *g) { __shared__ float s[64]; s[threadIdx.x] = 0; }
__global__ void c(float *g) { __shared__ float s[64]; s[threadIdx.x] = 0; }
namespace ns {
template <typename K> void launch(K k, int threads, float *g) { k<<<1, threads>>>(g); }
}
void host(float *g) {
  struct Local { static void go(float *g) { a<<<1, 32>>>(g); } };
  Local::go(g);
  int done[] = {(b<<<1, 128>>>(g), 0)};
  (void)done;
  ns::launch<void (*)(float *)>(c, 96, g);
}
)cpp";
  for (auto [Kernel, Threads] : {std::pair{"a", 32u}, {"b", 128u}, {"c", 96u}}) {
    KernelReport R = run(Code, Kernel);
    ASSERT_EQ(R.Configs.size(), 1u) << Kernel;
    EXPECT_EQ(R.Configs[0].Origin, ShapeOrigin::Launch) << Kernel;
    EXPECT_EQ(R.Configs[0].Block.X, Threads) << Kernel;
  }
}

TEST_F(SharedMemTest, BlockShapesOptionParses) {
  std::map<std::string, std::vector<BlockShape>> M;
  std::string Bad;
  ASSERT_TRUE(parseShapeOption("k=32x8; ns::o=256,16x16x2", M, Bad));
  ASSERT_EQ(M["k"].size(), 1u);
  EXPECT_EQ(M["k"][0].Y, 8u);
  ASSERT_EQ(M["ns::o"].size(), 2u);
  EXPECT_EQ(M["ns::o"][1].Z, 2u);
  EXPECT_FALSE(parseShapeOption("k=32x0", M, Bad));
  EXPECT_EQ(Bad, "k=32x0");
  EXPECT_FALSE(parseShapeOption("k=2048", M, Bad));
}

TEST_F(SharedMemTest, ProblemSizeGuardIsDefiniteParameterGuardIsNot) {
  KernelReport R = run(R"cpp(
__global__ void k(float *g, int n) {
  __shared__ float s[128];
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    s[threadIdx.x] = g[i];
  if (threadIdx.x < n)
    s[threadIdx.x + 1] = g[i];
}
void host(float *g, int n) { k<<<8, 256>>>(g, n); }
)cpp", "k", [] { AnalysisOptions O; O.PossibleOverflows = true; return O; }());
  ASSERT_EQ(R.Overflows.size(), 2u);
  EXPECT_TRUE(R.Overflows[0].Definite);
  EXPECT_FALSE(R.Overflows[1].Definite);
}

} // namespace
