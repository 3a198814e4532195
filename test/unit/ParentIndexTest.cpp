//===- ParentIndexTest.cpp - ParentIndex gives ParentMap's answers --------===//
//
// The lifetime analysis replaced clang's ParentMap with its own index for
// speed; every question the analysis asks must get the same answer. Each
// test parses a function, then asks both for the parent of every statement
// of its body.
//
//===----------------------------------------------------------------------===//
#include "Lifetime/ParentIndex.h"

#include "clang/AST/ParentMap.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/Frontend/ASTUnit.h"
#include "clang/Tooling/Tooling.h"
#include "gtest/gtest.h"

using namespace clang;
using cgt::lifetime::ParentIndex;

namespace {

class EveryStmt : public RecursiveASTVisitor<EveryStmt> {
public:
  bool shouldVisitImplicitCode() const { return true; }
  bool shouldVisitLambdaBody() const { return true; }
  bool VisitStmt(Stmt *S) {
    All.push_back(S);
    return true;
  }
  std::vector<Stmt *> All;
};

/// Parses `Code`, compares both maps on the body of `Fn` (with and without
/// a size hint) and returns how many statements were compared.
unsigned compare(const std::string &Code, const std::string &Fn) {
  std::unique_ptr<ASTUnit> AST =
      tooling::buildASTFromCodeWithArgs(Code, {"-std=c++17", "-fsyntax-only"}, "t.cpp");
  EXPECT_FALSE(AST->getDiagnostics().hasErrorOccurred());
  Stmt *Body = nullptr;
  for (Decl *D : AST->getASTContext().getTranslationUnitDecl()->decls())
    if (auto *FD = dyn_cast<FunctionDecl>(D); FD && FD->getNameAsString() == Fn)
      Body = FD->getBody();
  EXPECT_NE(Body, nullptr);
  if (!Body)
    return 0;
  ParentMap Clang(Body);
  ParentIndex Counted(Body);
  ParentIndex Hinted;
  Hinted.build(Body, /*SizeHint=*/3); // far too small: the table must still grow
  EveryStmt V;
  V.TraverseStmt(Body);
  for (Stmt *S : V.All) {
    EXPECT_EQ(Counted.getParent(S), Clang.getParent(S)) << S->getStmtClassName();
    EXPECT_EQ(Hinted.getParent(S), Clang.getParent(S)) << S->getStmtClassName();
    EXPECT_EQ(Counted.getParentIgnoreParenImpCasts(S), Clang.getParentIgnoreParenImpCasts(S))
        << S->getStmtClassName();
  }
  return V.All.size();
}

TEST(ParentIndex, SameParentsAsParentMapOnOrdinaryCode) {
  EXPECT_GT(compare(R"cpp(
    struct S { int f[4]; int *p; int get() const { return f[0]; } };
    int g(int);
    int fn(S &s, int n) {
      int a = 0, b[3] = {1, 2, 3};
      for (int i = 0; i < n; i = i + 1) {
        if (s.f[i % 4] && (a += g(i)) > 3) continue;
        while (s.p && *s.p) { ++*s.p; break; }
      }
      switch (n) { case 1: a = s.get(); break; default: a = (int)sizeof(b); }
      do { a = a ? a - 1 : b[0]; } while (a > 100);
      return s.p ? *s.p : a;
    }
  )cpp", "fn"), 80u);
}

TEST(ParentIndex, SameParentsThroughLambdasRangesAndOpaqueValues) {
  // `a ?: b` holds opaque values; a range-for and a lambda hold implicit
  // statements of their own.
  EXPECT_GT(compare(R"cpp(
    struct V { int *b, *e; int *begin() { return b; } int *end() { return e; } };
    int fn(V v, int x) {
      auto add = [&](int y) { return x + y; };
      int total = 0;
      for (int e : v) total += add(e);
      int c = x ?: total;
      auto [p, q] = v;
      return c + (p != q);
    }
  )cpp", "fn"), 60u);
}

} // namespace
