//===- PathFormulaTest.cpp - one path's conditions, decided by Z3 ---------===//
//
// Each test parses a small function, applies its statements in evaluation
// order (children before parents, as the CFG lists them) up to a marker
// call, then asks whether branch decisions can all hold on that path.
//
//===----------------------------------------------------------------------===//
#include "Values/PathFormula.h"

#include "clang/AST/StmtVisitor.h"
#include "clang/Frontend/ASTUnit.h"
#include "clang/Tooling/Tooling.h"
#include "gtest/gtest.h"

using namespace clang;
using cgt::values::PathFormula;

namespace {

const char *Preamble = R"cpp(
typedef struct CUgraphExec_st *cudaGraphExec_t;
typedef struct CUgraph_st *cudaGraph_t;
int cudaGraphInstantiate(cudaGraphExec_t *, cudaGraph_t, unsigned long long);
void opaque();
void take(int *);
int global_flag;
struct Config { bool log; bool stop; int rounds; };
)cpp";

class PathFormulaTest : public ::testing::Test {
protected:
  /// Parses `Code`, whose function `f` is analysed; the conditions of its
  /// `if` statements become `Conds`, in order, and every other top-level
  /// statement is applied before the next `if`'s condition is looked at.
  void load(const std::string &Code) {
    AST = tooling::buildASTFromCodeWithArgs(std::string(Preamble) + Code, {"-std=c++17"},
                                            "t.cpp");
    ASSERT_TRUE(AST);
    ASSERT_FALSE(AST->getDiagnostics().hasErrorOccurred());
    for (const Decl *D : AST->getASTContext().getTranslationUnitDecl()->decls())
      if (const auto *FD = dyn_cast<FunctionDecl>(D); FD && FD->getName() == "f")
        F = FD;
    ASSERT_NE(F, nullptr);
    Formula = std::make_unique<PathFormula>(
        AST->getASTContext(), F, [](const CallExpr *C) {
          const FunctionDecl *Callee = C->getDirectCallee();
          return Callee && Callee->getName().starts_with("cuda");
        });
    Steps.clear();
    for (const Stmt *S : cast<CompoundStmt>(F->getBody())->body())
      Steps.push_back(S);
  }

  /// Applies statement `I` (its subexpressions first).
  void applyStep(unsigned I) { applyPostOrder(Steps[I]); }
  void applyPostOrder(const Stmt *S) {
    if (!S)
      return;
    if (const auto *DS = dyn_cast<DeclStmt>(S)) {
      for (const Decl *D : DS->decls())
        if (const auto *VD = dyn_cast<VarDecl>(D); VD && VD->getInit())
          applyPostOrder(VD->getInit());
    } else {
      for (const Stmt *Child : S->children())
        applyPostOrder(Child);
    }
    Formula->apply(S);
  }
  /// The condition of the `if` at step `I`.
  const Expr *cond(unsigned I) { return cast<IfStmt>(Steps[I])->getCond(); }

  std::unique_ptr<ASTUnit> AST;
  const FunctionDecl *F = nullptr;
  std::unique_ptr<PathFormula> Formula;
  std::vector<const Stmt *> Steps;
};

TEST_F(PathFormulaTest, RestatedDisjunctionInAnotherOrder) {
  if (!PathFormula::available())
    GTEST_SKIP() << "LLVM built without Z3";
  load("void f(bool a, bool b) { if (a || b) {} if (b || a) {} }");
  EXPECT_TRUE(Formula->assume(cond(0), true));
  PathFormula::Mark M = Formula->mark();
  EXPECT_FALSE(Formula->assume(cond(1), false));
  Formula->backTo(M);
  EXPECT_TRUE(Formula->assume(cond(1), true));
}

TEST_F(PathFormulaTest, BoolBoundToAHandleTest) {
  if (!PathFormula::available())
    GTEST_SKIP() << "LLVM built without Z3";
  load(R"cpp(
    void f(bool enabled, cudaGraphExec_t exec, cudaGraph_t g) {
      const bool build = enabled && exec == nullptr;
      if (build) {}
      if (exec != nullptr) {}
      cudaGraphInstantiate(&exec, g, 0);
      if (exec != nullptr) {}
    })cpp");
  applyStep(0);
  ASSERT_TRUE(Formula->assume(cond(1), true));
  PathFormula::Mark M = Formula->mark();
  EXPECT_FALSE(Formula->assume(cond(2), true)); // build says exec is null
  Formula->backTo(M);
  applyStep(3); // the instantiation writes exec through its address
  EXPECT_TRUE(Formula->assume(cond(4), true));
}

TEST_F(PathFormulaTest, CountedLoopAfterAnEarlyReturn) {
  if (!PathFormula::available())
    GTEST_SKIP() << "LLVM built without Z3";
  load(R"cpp(
    void f(int rounds) {
      if (rounds <= 0) {}
      int r = 0;
      if (r < rounds) {}
      r++;
      if (r < rounds) {}
    })cpp");
  ASSERT_TRUE(Formula->assume(cond(0), false));
  applyStep(1);
  EXPECT_FALSE(Formula->assume(cond(2), false)); // a zero-trip exit
  Formula->backTo({0, 0});
  ASSERT_TRUE(Formula->assume(cond(0), false));
  applyStep(1);
  ASSERT_TRUE(Formula->assume(cond(2), true));
  applyStep(3);
  EXPECT_TRUE(Formula->assume(cond(4), false)); // rounds == 1
}

TEST_F(PathFormulaTest, OpaqueCallsChangeGlobalsAndEscapedLocalsOnly) {
  if (!PathFormula::available())
    GTEST_SKIP() << "LLVM built without Z3";
  load(R"cpp(
    void f(const Config &cfg) {
      int local = 1;
      int shared = 1;
      take(&shared);
      if (global_flag == 1 && cfg.log) {}
      opaque();
      if (local == 0) {}
      if (shared == 0) {}
      if (global_flag == 0) {}
      if (!cfg.log) {}
    })cpp");
  for (unsigned I : {0u, 1u, 2u})
    applyStep(I);
  ASSERT_TRUE(Formula->assume(cond(3), true));
  applyStep(4);
  PathFormula::Mark M = Formula->mark();
  EXPECT_FALSE(Formula->assume(cond(5), true)) << "a local no one else sees";
  Formula->backTo(M);
  EXPECT_TRUE(Formula->assume(cond(6), true)) << "its address was handed out";
  Formula->backTo(M);
  EXPECT_TRUE(Formula->assume(cond(7), true)) << "a global";
  Formula->backTo(M);
  EXPECT_FALSE(Formula->assume(cond(8), true)) << "a const reference's member";
}

TEST_F(PathFormulaTest, UnsignedArithmeticWraps) {
  if (!PathFormula::available())
    GTEST_SKIP() << "LLVM built without Z3";
  load(R"cpp(
    void f() {
      unsigned u = 0;
      u = u - 1;
      if (u > 100u) {}
    })cpp");
  applyStep(0);
  applyStep(1);
  PathFormula::Mark M = Formula->mark();
  EXPECT_FALSE(Formula->assume(cond(2), false));
  Formula->backTo(M);
  EXPECT_TRUE(Formula->assume(cond(2), true));
}

} // namespace

namespace {

TEST_F(PathFormulaTest, CompoundShiftsAndPointerSteps) {
  if (!PathFormula::available())
    GTEST_SKIP() << "LLVM built without Z3";
  load(R"cpp(
    void f(unsigned long max, char *p) {
      unsigned long bytes = 1 << 10;
      bytes <<= 1;
      p += 2;
      if (bytes <= max && p != nullptr) {}
      if (bytes == 2048) {}
    })cpp");
  for (unsigned I : {0u, 1u, 2u})
    applyStep(I);
  ASSERT_TRUE(Formula->assume(cond(3), true));
  EXPECT_FALSE(Formula->assume(cond(4), false)); // 1024 << 1
}

} // namespace

namespace {

// Iterations skipped at once (PathFormulaLoops.cpp): a counter only ever
// incremented keeps its direction, so the bound met in one iteration is not
// met again after it; a local also assigned elsewhere keeps nothing.
TEST_F(PathFormulaTest, AcceleratedCounterKeepsItsDirection) {
  if (!PathFormula::available())
    GTEST_SKIP() << "LLVM built without Z3";
  load(R"cpp(
    void f(int k) {
      int r = 0;
      int last = 0;
      if (r == k) {}
      r++;
      last = k;
      if (r == k) {}
      r++;
      if (r == k) {}
    })cpp");
  applyStep(0);
  applyStep(1);
  ASSERT_TRUE(Formula->assume(cond(2), false));
  PathFormula::Mark Head = Formula->mark();
  applyStep(3);
  applyStep(4);
  Formula->accelerate(Head); // any number of iterations like that one
  ASSERT_TRUE(Formula->assume(cond(5), true)); // r == k in some later one
  applyStep(6);
  EXPECT_FALSE(Formula->assume(cond(7), true)); // and never again after it
}

TEST_F(PathFormulaTest, AcceleratedLocalAssignedElsewhereIsUnknown) {
  if (!PathFormula::available())
    GTEST_SKIP() << "LLVM built without Z3";
  load(R"cpp(
    void f(int k) {
      int r = 0;
      int up = 0;
      r++;
      up++;
      if (r == 0 || up == 0) {}
      r = 0;
    })cpp");
  applyStep(0);
  applyStep(1);
  PathFormula::Mark Head = Formula->mark();
  applyStep(2);
  applyStep(3);
  Formula->accelerate(Head);
  // `up` only grows: it is not 0 again. `r` is also reset by `r = 0`
  // somewhere in the function, so after skipped iterations it may be 0.
  PathFormula::Mark Skipped = Formula->mark();
  EXPECT_TRUE(Formula->assume(cond(4), true));
  Formula->backTo(Skipped);
  applyStep(2);
  applyStep(3);
  EXPECT_TRUE(Formula->assume(cond(4), false));
}

} // namespace
