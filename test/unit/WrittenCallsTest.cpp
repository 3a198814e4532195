//===- WrittenCallsTest.cpp - the index meets calls as the walks did ------===//
//
// WrittenCallsIndex replaced per-engine walks (findWrittenStmt with and
// without lambdas) that stop at the first interesting call; the engines'
// verdicts, and the helper summaries computed on the way, depend on meeting
// the calls in the same order. Each test parses a function and compares the
// index with both walks.
//
//===----------------------------------------------------------------------===//
#include "AstWalk/WrittenCalls.h"
#include "AstWalk/WrittenStatements.h"

#include "clang/AST/ExprCXX.h"
#include "clang/Frontend/ASTUnit.h"
#include "clang/Tooling/Tooling.h"
#include "gtest/gtest.h"

using namespace clang;
using namespace cgt;

namespace {

struct Parsed {
  std::unique_ptr<ASTUnit> AST;
  const Stmt *Body = nullptr;
};

Parsed parse(const std::string &Code, const std::string &Fn) {
  Parsed P;
  P.AST = tooling::buildASTFromCodeWithArgs(Code, {"-std=c++17", "-fsyntax-only"}, "t.cpp");
  EXPECT_FALSE(P.AST->getDiagnostics().hasErrorOccurred());
  for (Decl *D : P.AST->getASTContext().getTranslationUnitDecl()->decls())
    if (auto *FD = dyn_cast<FunctionDecl>(D); FD && FD->getName() == Fn && FD->hasBody())
      P.Body = FD->getBody();
  EXPECT_NE(P.Body, nullptr);
  return P;
}

std::vector<const CallExpr *> walked(const Stmt *Body, bool IntoLambdas, bool *Throws = nullptr) {
  std::vector<const CallExpr *> Out;
  findWrittenStmt(Body, IntoLambdas, [&](const Stmt *S) {
    if (Throws)
      *Throws |= isa<CXXThrowExpr>(S);
    if (const auto *C = dyn_cast<CallExpr>(S))
      Out.push_back(C);
    return false;
  });
  return Out;
}

/// Returns how many calls the body has, lambdas included.
size_t compare(const std::string &Code, const std::string &Fn) {
  Parsed P = parse(Code, Fn);
  if (!P.Body)
    return 0;
  WrittenCallsIndex Index;
  const BodyCalls &B = Index.of(P.Body);
  EXPECT_EQ(&B, &Index.of(P.Body)); // kept, not walked again
  std::vector<const CallExpr *> All, Outside;
  for (const WrittenCall &W : B.Calls) {
    All.push_back(W.Call);
    if (!W.InLambda)
      Outside.push_back(W.Call);
  }
  bool Throws = false;
  EXPECT_EQ(All, walked(P.Body, /*IntoLambdas=*/true));
  EXPECT_EQ(Outside, walked(P.Body, /*IntoLambdas=*/false, &Throws));
  EXPECT_EQ(B.Throws, Throws);
  return All.size();
}

const char *Decls = R"cpp(
int f(int);
int g(int, int);
struct S { int m(int); int operator()(int) const; };
)cpp";

TEST(WrittenCallsTest, NestedCallsComeInSourceOrder) {
  EXPECT_EQ(compare(std::string(Decls) + R"cpp(
int h(S s) { return g(f(1), s.m(f(2))) + s(f(3)); }
)cpp", "h"), 6u);
}

TEST(WrittenCallsTest, LambdaCallsAreMarked) {
  EXPECT_EQ(compare(std::string(Decls) + R"cpp(
int h(int n) {
  int a = f(n);
  auto k = [&, x = f(0)](int y) { return g(x, f(y)); };
  auto nested = [&] { return [&] { return f(a); }(); };
  return k(f(a)) + nested();
}
)cpp", "h"), 9u);
}

TEST(WrittenCallsTest, RangeForGivesOnlyWhatIsWritten) {
  EXPECT_EQ(compare(std::string(Decls) + R"cpp(
struct V { int *begin(); int *end(); };
V make();
int h() {
  int t = 0;
  for (int x : make())
    t += f(x);
  return t;
}
)cpp", "h"), 2u);
}

TEST(WrittenCallsTest, ThrowsOnlyOutsideLambdas) {
  compare(std::string(Decls) + R"cpp(
int h(int n) { auto k = [] { throw 1; }; if (n) k(); return f(n); }
)cpp", "h");
  compare(std::string(Decls) + R"cpp(
int h(int n) { if (n < 0) throw f(n); return n; }
)cpp", "h");
}

} // namespace
