//===- LaunchIndex.cpp - every launch of a translation unit ---------------===//
//
// See LaunchIndex.h. Declarations are walked by RecursiveASTVisitor, which
// reaches template instantiations and the implicit operator() of generic
// lambdas; statements by hand, in RAV's own order (LaunchIndexer::TraverseStmt
// says how).
//
//===----------------------------------------------------------------------===//
#include "SharedMem/Launch/LaunchIndex.h"
#include "SharedMem/Launch/LaunchResolver.h"

#include "clang/AST/ExprCXX.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/Basic/SourceManager.h"
#include <algorithm>
#include <optional>

using namespace clang;

namespace cgt::smem {

namespace {

/// Collects the launch sites and the call graph of the TU; the launches are
/// folded once the whole TU is indexed (a wrapper's callers may come after it).
class LaunchIndexer : public RecursiveASTVisitor<LaunchIndexer> {
public:
  std::vector<LaunchSite> Sites;

  LaunchIndexer(ASTContext &Ctx, LaunchResolver &R) : Ctx(Ctx), R(R) {}
  bool shouldVisitTemplateInstantiations() const { return true; }
  // Launches inside generic lambdas live in the closure's implicit operator()
  // specialisations (ggml's `auto launch = [&](auto NC) { k<...><<<...>>>(); }`).
  bool shouldVisitImplicitCode() const { return true; }

  // Declarations in system headers (CUDA's, CCCL's) launch only the
  // library's own kernels, which are not analysed. Skipping them keeps the
  // walk off every inline body and instantiation of those headers, which
  // a precompiled preamble would otherwise read back one by one. A
  // declaration inside a function is where the function is: not asked (a
  // file lookup for every local and static_assert).
  bool TraverseDecl(Decl *D) {
    if (D && !isa<TranslationUnitDecl>(D) && !D->getDeclContext()->isFunctionOrMethod() &&
        Ctx.getSourceManager().isInSystemHeader(D->getLocation()))
      return true;
    return RecursiveASTVisitor::TraverseDecl(D);
  }
  // Types as written (every parameter's, variable's, cast's and template
  // argument's) launch nothing; walking them was most of the walk's cost on
  // template-heavy units. What they hold that is code -- a parameter's
  // default argument, an array bound -- is not a launch either.
  bool TraverseTypeLoc(TypeLoc, bool = true) { return true; }
  bool TraverseType(QualType, bool = true) { return true; }

  // Statements are walked here rather than by RAV's per-class dispatch,
  // which cost three times as much per node (ggml's mmq-config tables alone
  // are 160K statements of __host__ __device__ code). The walk is RAV's
  // pre-order: a class whose Traverse is RAV's default (visit, then
  // children(), its written type skipped as above) is visited here; any
  // other -- declarations, lambdas, initialiser lists, default arguments,
  // qualified or templated names -- goes back to RAV for that node, whose
  // children come back here.
  bool TraverseStmt(Stmt *S, DataRecursionQueue * = nullptr) {
    llvm::SmallVector<Stmt *, 32> Stack;
    if (S)
      Stack.push_back(S);
    while (!Stack.empty()) {
      Stmt *Node = Stack.pop_back_val();
      switch (walkOf(Node)) {
      case Walk::Leaf:
        break;
      case Walk::OneChild:
        Stack.push_back(cast<Expr>(*Node->child_begin()));
        break;
      case Walk::Operands:
        Stack.push_back(cast<BinaryOperator>(Node)->getRHS());
        Stack.push_back(cast<BinaryOperator>(Node)->getLHS());
        break;
      case Walk::Children: {
        visit(Node);
        size_t First = Stack.size();
        for (Stmt *Child : Node->children())
          if (Child)
            Stack.push_back(Child);
        std::reverse(Stack.begin() + First, Stack.end());
        break;
      }
      case Walk::Declarations:
        // RAV's DeclStmt: each declaration in turn, before the next statement.
        for (Decl *D : cast<DeclStmt>(Node)->decls())
          if (!TraverseDecl(D))
            return false;
        break;
      case Walk::ByRAV:
        if (!RecursiveASTVisitor::dataTraverseNode(Node, nullptr))
          return false;
        break;
      }
    }
    return true;
  }

#define CGT_TRAVERSE(KIND)                                                     \
  bool Traverse##KIND(KIND *FD) {                                              \
    const FunctionDecl *Saved = Current;                                       \
    Current = FD;                                                              \
    if (FD->hasAttr<CUDAGlobalAttr>() && !FD->isDependentContext())            \
      R.addKernelName(FD);                                                     \
    bool Res = RecursiveASTVisitor::Traverse##KIND(FD);                        \
    Current = Saved;                                                           \
    return Res;                                                                \
  }
  CGT_TRAVERSE(FunctionDecl)
  CGT_TRAVERSE(CXXMethodDecl)
  CGT_TRAVERSE(CXXConstructorDecl)
#undef CGT_TRAVERSE

  bool VisitCUDAKernelCallExpr(CUDAKernelCallExpr *E) {
    if (!E->isValueDependent() && !E->isTypeDependent() && Current && E->getConfig())
      Sites.push_back({E, Current, LaunchForm::Chevron});
    return true;
  }

  bool VisitCallExpr(CallExpr *C) {
    if (C->isValueDependent() || C->isTypeDependent() || !Current)
      return true;
    const FunctionDecl *F = C->getDirectCallee();
    if (!F)
      return true;
    R.addCallSite(F, C, Current);
    if (!F->getIdentifier())
      return true;
    StringRef N = F->getName();
    std::optional<LaunchForm> K;
    if (N == "cudaLaunchKernel" || N == "cudaLaunchCooperativeKernel")
      K = LaunchForm::RuntimeCall;
    else if (N == "cudaLaunchKernelEx" || N == "cudaLaunchKernelExC")
      K = LaunchForm::RuntimeEx;
    else if (N == "cuLaunchKernel" || N == "cuLaunchCooperativeKernel")
      K = LaunchForm::Driver;
    else if (N == "cuLaunchKernelEx")
      K = LaunchForm::DriverEx;
    else if (N == "cudaGraphAddKernelNode" || N == "cudaGraphKernelNodeSetParams" ||
             N == "cudaGraphExecKernelNodeSetParams")
      K = LaunchForm::KernelNode;
    else if (N == "cudaFuncSetAttribute")
      K = LaunchForm::MaxDynSmem;
    // Asked last: most calls are none of the above, and the header test
    // costs more than the names'.
    if (K && !Ctx.getSourceManager().isInSystemHeader(C->getBeginLoc()))
      Sites.push_back({C, Current, *K});
    return true;
  }

  bool VisitCXXConstructExpr(CXXConstructExpr *C) {
    if (!C->isValueDependent() && Current && C->getConstructor())
      R.addCallSite(C->getConstructor(), C, Current);
    return true;
  }

private:
  /// RAV's WalkUpFrom for the classes walked here: the Visit functions
  /// above, base class first.
  void visit(Stmt *S) {
    if (auto *Call = dyn_cast<CallExpr>(S)) {
      VisitCallExpr(Call);
      if (auto *Launch = dyn_cast<CUDAKernelCallExpr>(Call))
        VisitCUDAKernelCallExpr(Launch);
    } else if (auto *Construct = dyn_cast<CXXConstructExpr>(S)) {
      VisitCXXConstructExpr(Construct);
    }
  }

  /// How RAV traverses a statement, for the classes walked here. Leaves,
  /// single operands and binary operators (most of any body) have no
  /// children() call to pay for.
  enum class Walk {
    Leaf,         ///< no children, nothing to visit
    OneChild,     ///< nothing to visit, one expression child
    Operands,     ///< a binary operator: LHS, then RHS
    Children,     ///< visit, then children() (DEF_TRAVERSE_STMT empty or type only)
    Declarations, ///< a DeclStmt
    ByRAV         ///< anything else: RAV's own Traverse for the node
  };
  static Walk walkOf(const Stmt *S) {
    switch (S->getStmtClass()) {
    case Stmt::IntegerLiteralClass:
    case Stmt::FloatingLiteralClass:
    case Stmt::StringLiteralClass:
    case Stmt::CharacterLiteralClass:
    case Stmt::CXXBoolLiteralExprClass:
    case Stmt::CXXNullPtrLiteralExprClass:
    case Stmt::CXXThisExprClass:
    case Stmt::BreakStmtClass:
    case Stmt::ContinueStmtClass:
    case Stmt::NullStmtClass:
    case Stmt::GotoStmtClass:
      return Walk::Leaf;
    case Stmt::ParenExprClass:
    case Stmt::ImplicitCastExprClass:
    case Stmt::UnaryOperatorClass:
    case Stmt::ExprWithCleanupsClass:
    case Stmt::ConstantExprClass:
      return Walk::OneChild;
    case Stmt::BinaryOperatorClass:
    case Stmt::CompoundAssignOperatorClass:
      return Walk::Operands;
    case Stmt::DeclStmtClass:
      return Walk::Declarations;
    case Stmt::CompoundStmtClass:
    case Stmt::IfStmtClass:
    case Stmt::ForStmtClass:
    case Stmt::WhileStmtClass:
    case Stmt::DoStmtClass:
    case Stmt::SwitchStmtClass:
    case Stmt::CaseStmtClass:
    case Stmt::DefaultStmtClass:
    case Stmt::ReturnStmtClass:
    case Stmt::LabelStmtClass:
    case Stmt::AttributedStmtClass:
    case Stmt::ParenListExprClass:
    case Stmt::CStyleCastExprClass:
    case Stmt::CXXFunctionalCastExprClass:
    case Stmt::CXXStaticCastExprClass:
    case Stmt::CXXReinterpretCastExprClass:
    case Stmt::CXXConstCastExprClass:
    case Stmt::ConditionalOperatorClass:
    case Stmt::UnaryExprOrTypeTraitExprClass:
    case Stmt::CallExprClass:
    case Stmt::CXXMemberCallExprClass:
    case Stmt::CXXOperatorCallExprClass:
    case Stmt::CUDAKernelCallExprClass:
    case Stmt::CXXConstructExprClass:
    case Stmt::CXXTemporaryObjectExprClass:
    case Stmt::ArraySubscriptExprClass:
    case Stmt::CXXBindTemporaryExprClass:
    case Stmt::SubstNonTypeTemplateParmExprClass:
      return Walk::Children;
    // A qualifier or template arguments as written may hold expressions.
    case Stmt::DeclRefExprClass: {
      const auto *Ref = cast<DeclRefExpr>(S);
      return !Ref->hasQualifier() && !Ref->hasExplicitTemplateArgs() ? Walk::Leaf : Walk::ByRAV;
    }
    case Stmt::MemberExprClass: {
      const auto *Member = cast<MemberExpr>(S);
      return !Member->hasQualifier() && !Member->hasExplicitTemplateArgs() ? Walk::Children
                                                                           : Walk::ByRAV;
    }
    default:
      return Walk::ByRAV;
    }
  }

  ASTContext &Ctx;
  LaunchResolver &R;
  const FunctionDecl *Current = nullptr;
};

} // namespace

std::vector<LaunchSite> collectLaunchSites(ASTContext &Ctx, LaunchResolver &R) {
  LaunchIndexer Idx(Ctx, R);
  Idx.TraverseDecl(Ctx.getTranslationUnitDecl());
  return std::move(Idx.Sites);
}

} // namespace cgt::smem
