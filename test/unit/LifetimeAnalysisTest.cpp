//===- LifetimeAnalysisTest.cpp - the lifetime engine on small functions --===//
//
// Each test parses a C++ snippet against a minimal declaration of the CUDA
// API (no CUDA install needed), runs the engine on one function and checks
// the findings it returns.
//
//===----------------------------------------------------------------------===//
#include "Lifetime/LifetimeAnalysis.h"

#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/Frontend/ASTUnit.h"
#include "clang/Tooling/Tooling.h"
#include "gtest/gtest.h"

using namespace cgt;
using namespace clang;

namespace {

const char *Preamble = R"cpp(
typedef enum cudaError_enum_ { cudaSuccess = 0, cudaErrorInvalidValue = 1 } cudaError_t;
typedef struct CUgraph_st *cudaGraph_t;
typedef struct CUgraphExec_st *cudaGraphExec_t;
typedef struct CUstream_st *cudaStream_t;
cudaError_t cudaGraphInstantiate(cudaGraphExec_t *, cudaGraph_t, unsigned long long);
cudaError_t cudaGraphExecDestroy(cudaGraphExec_t);
cudaError_t cudaGraphLaunch(cudaGraphExec_t, cudaStream_t);
cudaError_t cudaMalloc(void **, unsigned long);
cudaError_t cudaMallocHost(void **, unsigned long);
cudaError_t cudaFree(void *);
cudaError_t cudaMemset(void *, int, unsigned long);
[[noreturn]] void exit(int);
void unknown(void *);
)cpp";

class LifetimeTest : public ::testing::Test {
protected:
  void SetUp() override {
    auto M = ApiModel::builtin();
    ASSERT_TRUE(bool(M)) << llvm::toString(M.takeError());
    Model = std::move(*M);
  }

  /// Findings of the engine for function `Fn` defined in `Code`.
  std::vector<LifetimeFinding> run(const std::string &Code, const std::string &Fn,
                                   LifetimeOptions Opts = {}) {
    AST = tooling::buildASTFromCodeWithArgs(std::string(Preamble) + Code,
                                            {"-std=c++17", "-fsyntax-only"}, "t.cpp");
    EXPECT_TRUE(AST);
    EXPECT_FALSE(AST->getDiagnostics().hasErrorOccurred());
    const FunctionDecl *Target = nullptr;
    for (const Decl *D : AST->getASTContext().getTranslationUnitDecl()->decls())
      if (const auto *FD = dyn_cast<FunctionDecl>(D))
        if (FD->getNameAsString() == Fn && FD->hasBody())
          Target = FD;
    EXPECT_NE(Target, nullptr) << Fn;
    if (!Target)
      return {};
    Analyzer = std::make_unique<LifetimeAnalyzer>(*Model, AST->getASTContext(), Opts);
    return Analyzer->analyze(Target);
  }

  unsigned line(const LifetimeFinding &F) {
    return AST->getSourceManager().getPresumedLineNumber(F.Loc) -
           std::count(Preamble, Preamble + strlen(Preamble), '\n');
  }

  std::shared_ptr<ApiModel> Model;
  std::unique_ptr<ASTUnit> AST;
  std::unique_ptr<LifetimeAnalyzer> Analyzer;
};

TEST_F(LifetimeTest, UnreleasedExecLeaksAtTheInstantiateCall) {
  auto F = run(R"cpp(
void f(cudaGraph_t g) {
  cudaGraphExec_t e;
  cudaGraphInstantiate(&e, g, 0);
})cpp", "f");
  ASSERT_EQ(F.size(), 1u);
  EXPECT_EQ(F[0].Kind, FindingKind::Leak);
  EXPECT_EQ(F[0].ResourceKind, "graphExec");
  EXPECT_EQ(F[0].VarName, "e");
  EXPECT_EQ(F[0].AcquiredBy, "cudaGraphInstantiate");
  EXPECT_EQ(line(F[0]), 4u);
  ASSERT_FALSE(F[0].Notes.empty());
  EXPECT_NE(F[0].Notes.back().Message.find("'e'"), std::string::npos);
}

TEST_F(LifetimeTest, ReleasedExecIsSilent) {
  EXPECT_TRUE(run(R"cpp(
void f(cudaGraph_t g, cudaStream_t s) {
  cudaGraphExec_t e;
  cudaGraphInstantiate(&e, g, 0);
  cudaGraphLaunch(e, s);
  cudaGraphExecDestroy(e);
})cpp", "f").empty());
}

TEST_F(LifetimeTest, FailureBranchOfStatusTestAcquiredNothing) {
  EXPECT_TRUE(run(R"cpp(
int f(cudaGraph_t g) {
  cudaGraphExec_t e;
  cudaError_t st = cudaGraphInstantiate(&e, g, 0);
  if (st != cudaSuccess) return 1;
  cudaGraphExecDestroy(e);
  return 0;
})cpp", "f").empty());
}

TEST_F(LifetimeTest, SuccessBranchThatReturnsEarlyLeaks) {
  auto F = run(R"cpp(
int f(cudaGraph_t g, int n) {
  cudaGraphExec_t e;
  if (cudaGraphInstantiate(&e, g, 0) != cudaSuccess) return 1;
  if (n > 3) return 2;
  cudaGraphExecDestroy(e);
  return 0;
})cpp", "f");
  ASSERT_EQ(F.size(), 1u);
  // The note names the return that leaks, after the branch that led there.
  ASSERT_GE(F[0].Notes.size(), 2u);
  EXPECT_NE(F[0].Notes[0].Message.find("n > 3"), std::string::npos);
  EXPECT_NE(F[0].Notes.back().Message.find("returns"), std::string::npos);
}

TEST_F(LifetimeTest, NoReturnAndThrowPathsAreSinks) {
  // exit ends the program: a sink. A throw that leaves the function leaks
  // the live exec (Exceptions.cpp), unless ReportLeaksOnThrow is off.
  EXPECT_TRUE(run(R"cpp(
void f(cudaGraph_t g, cudaStream_t s) {
  cudaGraphExec_t e;
  cudaGraphInstantiate(&e, g, 0);
  if (cudaGraphLaunch(e, s) != cudaSuccess) exit(1);
  cudaGraphExecDestroy(e);
})cpp", "f").empty());
  const char *Throwing = R"cpp(
void f(cudaGraph_t g, cudaStream_t s) {
  cudaGraphExec_t e;
  cudaGraphInstantiate(&e, g, 0);
  if (cudaGraphLaunch(e, s) != cudaSuccess) exit(1);
  if (cudaGraphLaunch(e, s) != cudaSuccess) throw 2;
  cudaGraphExecDestroy(e);
})cpp";
  std::vector<LifetimeFinding> Thrown = run(Throwing, "f");
  ASSERT_EQ(Thrown.size(), 1u);
  EXPECT_NE(Thrown[0].Notes.back().Message.find("exception thrown here leaves the function"),
            std::string::npos);
  LifetimeOptions NoThrowLeaks;
  NoThrowLeaks.ReportLeaksOnThrow = false;
  EXPECT_TRUE(run(Throwing, "f", NoThrowLeaks).empty());
  LifetimeOptions Loud;
  Loud.SinkPathsAreSilent = false;
  EXPECT_EQ(run(R"cpp(
void f(cudaGraph_t g, cudaStream_t s) {
  cudaGraphExec_t e;
  cudaGraphInstantiate(&e, g, 0);
  if (cudaGraphLaunch(e, s) != cudaSuccess) throw 2;
  cudaGraphExecDestroy(e);
})cpp", "f", Loud).size(), 1u);
}

TEST_F(LifetimeTest, EscapesAreSilent) {
  EXPECT_TRUE(run(R"cpp(
cudaGraphExec_t G;
struct S { cudaGraphExec_t e; };
void f(cudaGraph_t g, S *s, cudaGraphExec_t *out, int k) {
  cudaGraphExec_t a, b, c, d;
  cudaGraphInstantiate(&a, g, 0); G = a;
  cudaGraphInstantiate(&b, g, 0); s->e = b;
  cudaGraphInstantiate(&c, g, 0); *out = c;
  cudaGraphInstantiate(&d, g, 0); unknown(d);
  auto l = [d] { return d; };
})cpp", "f").empty());
}

TEST_F(LifetimeTest, CorrelatedConditionsAreNotALeak) {
  EXPECT_TRUE(run(R"cpp(
void f(cudaGraph_t g, bool use) {
  cudaGraphExec_t e = nullptr;
  if (use) cudaGraphInstantiate(&e, g, 0);
  if (use) cudaGraphExecDestroy(e);
})cpp", "f").empty());
}

TEST_F(LifetimeTest, ReassignedConditionIsNotTrusted) {
  auto F = run(R"cpp(
void f(cudaGraph_t g, bool use) {
  cudaGraphExec_t e = nullptr;
  if (use) cudaGraphInstantiate(&e, g, 0);
  use = false;
  if (use) cudaGraphExecDestroy(e);
})cpp", "f");
  EXPECT_EQ(F.size(), 1u);
}

TEST_F(LifetimeTest, OverwriteInLoopReportsAtTheReinstantiation) {
  auto F = run(R"cpp(
void f(cudaGraph_t g, int n) {
  cudaGraphExec_t e = nullptr;
  for (int i = 0; i < n; ++i)
    cudaGraphInstantiate(&e, g, 0);
  cudaGraphExecDestroy(e);
})cpp", "f");
  ASSERT_EQ(F.size(), 1u);
  EXPECT_EQ(F[0].Kind, FindingKind::Overwrite);
  EXPECT_EQ(line(F[0]), 5u);
}

TEST_F(LifetimeTest, HelperSummariesRelease) {
  const char *Code = R"cpp(
static void destroy(cudaGraphExec_t e) { cudaGraphExecDestroy(e); }
static void maybeDestroy(cudaGraphExec_t e, bool b) { if (b) cudaGraphExecDestroy(e); }
void f(cudaGraph_t g) {
  cudaGraphExec_t e;
  cudaGraphInstantiate(&e, g, 0);
  destroy(e);
}
void h(cudaGraph_t g) {
  cudaGraphExec_t e;
  cudaGraphInstantiate(&e, g, 0);
  maybeDestroy(e, true);
})cpp";
  EXPECT_TRUE(run(Code, "f").empty());
  // A conditional release is not a release on every path: treated as an
  // escape (silent), never as a use (which would report).
  EXPECT_TRUE(run(Code, "h").empty());
  const FunctionSummary *S = nullptr;
  for (const Decl *D : AST->getASTContext().getTranslationUnitDecl()->decls())
    if (const auto *FD = dyn_cast<FunctionDecl>(D))
      if (FD->getNameAsString() == "destroy")
        S = Analyzer->summaryOf(FD);
  ASSERT_NE(S, nullptr);
  ASSERT_EQ(S->Model.Releases.size(), 1u);
  EXPECT_EQ(S->Model.Releases[0].Arg, 0);
}

TEST_F(LifetimeTest, HelperThatNeverReturnsIsASink) {
  EXPECT_TRUE(run(R"cpp(
static void fatal(const char *m) { exit(3); }
void f(cudaGraph_t g, cudaStream_t s) {
  cudaGraphExec_t e;
  cudaGraphInstantiate(&e, g, 0);
  if (cudaGraphLaunch(e, s)) fatal("launch");
  cudaGraphExecDestroy(e);
})cpp", "f").empty());
}

TEST_F(LifetimeTest, FactoryHelperAcquiresThroughItsReturnValue) {
  auto F = run(R"cpp(
static cudaGraphExec_t make(cudaGraph_t g) {
  cudaGraphExec_t e;
  cudaGraphInstantiate(&e, g, 0);
  return e;
}
void f(cudaGraph_t g, cudaStream_t s) {
  cudaGraphExec_t e = make(g);
  cudaGraphLaunch(e, s);
})cpp", "f");
  ASSERT_EQ(F.size(), 1u);
  EXPECT_EQ(F[0].AcquiredBy, "make");
}

TEST_F(LifetimeTest, UseAndDoubleReleaseAfterFree) {
  auto F = run(R"cpp(
void f() {
  float *d;
  cudaMalloc((void **)&d, 64);
  cudaFree(d);
  cudaMemset(d, 0, 64);
  cudaFree(d);
})cpp", "f");
  ASSERT_EQ(F.size(), 2u);
  EXPECT_EQ(F[0].Kind, FindingKind::UseAfterRelease);
  EXPECT_EQ(F[1].Kind, FindingKind::DoubleRelease);
  EXPECT_EQ(F[1].ResourceKind, "deviceMemory");
}

TEST_F(LifetimeTest, MismatchedReleaseFamily) {
  auto F = run(R"cpp(
void f() {
  float *h;
  cudaMallocHost((void **)&h, 64);
  cudaFree(h);
})cpp", "f");
  ASSERT_EQ(F.size(), 1u);
  EXPECT_EQ(F[0].Kind, FindingKind::MismatchedRelease);
  EXPECT_EQ(F[0].ResourceKind, "pinnedHostMemory");
}

TEST_F(LifetimeTest, UserModelEntriesAreHonoured) {
  llvm::Error E = Model->addJson(R"({"version": 1, "functions": [
      {"name": "myRelease", "releases": [{"arg": 0, "kinds": ["graphExec"]}]}]})",
                                 "wrappers.json");
  ASSERT_FALSE(bool(E));
  EXPECT_TRUE(run(R"cpp(
void myRelease(cudaGraphExec_t);
void f(cudaGraph_t g) {
  cudaGraphExec_t e;
  cudaGraphInstantiate(&e, g, 0);
  myRelease(e);
})cpp", "f").empty());
}

TEST_F(LifetimeTest, InterestingOnlyWhenTheBodyTouchesTheModel) {
  run("void f(int x) { x++; }\nvoid g(cudaGraphExec_t e) { cudaGraphExecDestroy(e); }", "f");
  const FunctionDecl *F = nullptr, *G = nullptr;
  for (const Decl *D : AST->getASTContext().getTranslationUnitDecl()->decls())
    if (const auto *FD = dyn_cast<FunctionDecl>(D); FD && FD->hasBody())
      (FD->getNameAsString() == "f" ? F : G) = FD;
  EXPECT_FALSE(Analyzer->isInteresting(F));
  EXPECT_TRUE(Analyzer->isInteresting(G));
}

} // namespace
