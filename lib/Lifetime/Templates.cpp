//===- Templates.cpp - templates the translation unit never instantiates --===//
//
// Header-only libraries keep their resource handling in function templates
// and in the members of class templates (a segmented sort's buffers, a
// benchmark's `GPU_Test<T>`), and a file that includes the header may
// instantiate none of them: the instantiations the analysis follows then do
// not exist. So the body of a template (the pattern) is analysed when the
// unit holds no instantiated definition of it; when it does, the
// instantiations are analysed and the pattern is not, so a defect is
// reported once, at the template's lines, either way.
//
// The model of a pattern: what is not type-dependent means what it will mean
// in every instantiation (a `cudaMalloc((void **)&tmp, n * sizeof(K))` into
// an `int *` resolves where the template is defined); what is type-dependent
// is unknown, so it may do anything to what it names:
//
//   * a call the template cannot resolve (its callee or an argument is
//     type-dependent: `cudaMalloc(&keys, n)` with `K *keys`,
//     `this->pool.free(p)`) is an unknown call: its arguments escape
//     (Calls.cpp does this for any call without a callee);
//   * the unresolved expressions that are not calls (`Holder<T>(p)`, a
//     dependent member `x.template get<T>()`, the `(p, d)` initialising a
//     variable of dependent type, folds and pack expansions) escape, and
//     take the address of, every place they name (escapeDependentParts);
//   * a branch on a value- or type-dependent condition (`if constexpr
//     (kOwned)`, `if (sizeof(T) > 4)`) may be decided the same way in every
//     instantiation, or correlated with a second one the dataflow cannot
//     relate: a resource live across one reports nothing (noteDependentBranch).
//     Loops with dependent bounds are not such branches: a loop's count is
//     unknown to the dataflow anyway.
//
// Being silent where dependent code makes a pattern ambiguous loses
// findings, never adds them; a finding in a pattern is one every
// instantiation has.
//
//===----------------------------------------------------------------------===//
#include "Lifetime/Analysis.h"

#include "clang/AST/RecursiveASTVisitor.h"

namespace cgt {
using namespace lifetime;

namespace {

/// The patterns some function definition of the unit was instantiated from.
/// Declarations are walked, statements are not: a local class or a lambda
/// is judged by the function around it (templateOwner).
class InstantiationCollector : public RecursiveASTVisitor<InstantiationCollector> {
public:
  InstantiationCollector(const SourceManager &SM, llvm::DenseSet<const FunctionDecl *> &Out)
      : SM(SM), Out(Out) {}
  bool shouldVisitTemplateInstantiations() const { return true; }
  bool TraverseStmt(Stmt *, DataRecursionQueue * = nullptr) { return true; }
  /// The patterns asked about are the user's (the checks skip system
  /// headers), and their instantiations sit with them, not in the CUDA and
  /// C++ headers, whose declarations are most of the unit.
  bool TraverseDecl(Decl *D) {
    if (D && !isa<TranslationUnitDecl>(D) && SM.isInSystemHeader(D->getLocation()))
      return true;
    return RecursiveASTVisitor::TraverseDecl(D);
  }
  bool VisitFunctionDecl(FunctionDecl *FD) {
    if (!FD->isTemplateInstantiation() || !FD->doesThisDeclarationHaveABody())
      return true;
    // A member template of a class template is instantiated twice over;
    // every pattern along the way counts as instantiated.
    for (const FunctionDecl *P = FD->getTemplateInstantiationPattern(); P && Out.insert(P->getCanonicalDecl()).second;
         P = P->getTemplateInstantiationPattern())
      ;
    return true;
  }

private:
  const SourceManager &SM;
  llvm::DenseSet<const FunctionDecl *> &Out;
};

/// The function whose body holds `FD` (through lambdas and local classes),
/// or `FD` itself.
const FunctionDecl *templateOwner(const FunctionDecl *FD) {
  const FunctionDecl *Owner = FD;
  for (const DeclContext *DC = FD->getDeclContext(); DC; DC = DC->getParent())
    if (const auto *F = dyn_cast<FunctionDecl>(DC))
      Owner = F;
  return Owner;
}

/// The unresolved expressions that are not calls: what they do to what
/// they name is decided per instantiation.
bool isOpaqueDependent(const Stmt *S) {
  return isa<CXXUnresolvedConstructExpr>(S) || isa<ParenListExpr>(S) ||
         isa<CXXDependentScopeMemberExpr>(S) || isa<UnresolvedMemberExpr>(S) ||
         isa<CXXFoldExpr>(S) || isa<PackExpansionExpr>(S) ||
         (isa<InitListExpr>(S) && cast<InitListExpr>(S)->isTypeDependent());
}

} // namespace

bool LifetimeAnalyzer::Impl::analyzable(const FunctionDecl *FD) {
  if (bodyIsIncomplete(FD))
    return false;
  if (!FD->isDependentContext())
    return true;
  return Opts.AnalyzeUninstantiatedTemplates && isUninstantiatedPattern(FD);
}

bool LifetimeAnalyzer::Impl::isUninstantiatedPattern(const FunctionDecl *FD) {
  if (FD->isInvalidDecl() || !FD->doesThisDeclarationHaveABody() || isa<CXXDeductionGuideDecl>(FD))
    return false;
  const FunctionDecl *Owner = templateOwner(FD);
  // A generic lambda in an ordinary function: its calls instantiate it
  // where they are, and one that is never called does nothing.
  if (!Owner->isDependentContext() || Owner->isInvalidDecl())
    return false;
  if (!InstantiatedPatterns) {
    InstantiatedPatterns.emplace();
    InstantiationCollector C(Ctx.getSourceManager(), *InstantiatedPatterns);
    C.TraverseDecl(Ctx.getTranslationUnitDecl());
  }
  return !InstantiatedPatterns->count(Owner->getCanonicalDecl());
}

bool LifetimeAnalyzer::Impl::isOwnershipPattern(const FunctionDecl *FD) {
  if (!Opts.AnalyzeUninstantiatedTemplates || FD->isInvalidDecl())
    return false;
  // Every method of a class template's pattern, instantiated or not: the
  // pattern's members are its own declarations, and the destructor that
  // releases one may be instantiated while the constructor is not.
  if (const auto *MD = dyn_cast<CXXMethodDecl>(FD);
      MD && templateOwner(FD) == FD && MD->getParent()->isDependentContext() &&
      !MD->getParent()->isLambda())
    return true;
  return isUninstantiatedPattern(FD);
}

namespace lifetime {

/// See the head comment: an unresolved expression may keep, release or
/// hand on whatever it names.
void Analysis::escapeDependentParts(const Stmt *S, PathState &P) {
  if (InPattern && isOpaqueDependent(S))
    escapeNamedIn(S, P);
}

/// A variable of dependent type, or one initialised by an unresolved
/// expression (`std::unique_ptr<T, D> owner(p)`: the `(p)` has no type):
/// its initialiser is opaque, and is not an assignment the dataflow can
/// read.
bool Analysis::hasOpaqueInit(const VarDecl *VD) const {
  // A lambda's closure type is dependent inside a template, but what the
  // lambda does is its body's, followed where it is called (Lambdas.cpp).
  return InPattern && VD->getInit() && !isa<LambdaExpr>(strip(VD->getInit())) &&
         (VD->getType()->isDependentType() || isOpaqueDependent(strip(VD->getInit())) ||
          VD->getInit()->getType().isNull());
}

/// The places an unresolved expression is given directly (`Holder<T>(p)`,
/// `(p, d)`, the object of `x.template get<T>()`, `&x`) escape, with their
/// address: the expression may bind them to a reference. Deeper operands
/// are not its to change: calls among them are elements of their own, and a
/// comparison or an arithmetic operand is only read (`tol` in
/// `(c = all(sqrt(r) < tol)).run(s)` keeps its facts).
void Analysis::escapeNamedIn(const Stmt *S, PathState &P) {
  for (const Stmt *Child : S->children()) {
    const auto *E = dyn_cast_or_null<Expr>(Child);
    if (!E)
      continue;
    E = strip(E);
    if (const auto *AddrOf = dyn_cast<UnaryOperator>(E); AddrOf && AddrOf->getOpcode() == UO_AddrOf)
      E = strip(AddrOf->getSubExpr());
    if (Key K = storageOf(E)) {
      AddressEscaped.insert(K);
      escapeValueRefs(E, P);
      invalidateFacts(K, P);
    } else if (isOpaqueDependent(E)) {
      escapeNamedIn(E, P); // `Holder<T>((p, q))`: still given directly
    }
  }
}

/// `sqrt(r) < tol`, `a + b` between operands of dependent type: an
/// operator the template cannot resolve yet. Comparisons, arithmetic and
/// logic read their operands (an expression template may keep their
/// values, so those escape) and write none of them; assignments, `++`,
/// `<<`, `>>` and the rest are left to the unknown-call rule.
bool Analysis::onDependentOperator(const CallExpr *Call, PathState &P) {
  const auto *Op = dyn_cast<CXXOperatorCallExpr>(Call);
  if (!InPattern || !Op || Call->getDirectCallee() || !Call->isTypeDependent())
    return false;
  switch (Op->getOperator()) {
  case OO_Less: case OO_Greater: case OO_LessEqual: case OO_GreaterEqual:
  case OO_EqualEqual: case OO_ExclaimEqual: case OO_Plus: case OO_Minus:
  case OO_Star: case OO_Slash: case OO_Percent: case OO_Amp: case OO_Pipe:
  case OO_Caret: case OO_Exclaim: case OO_Tilde: case OO_AmpAmp: case OO_PipePipe:
    break;
  default:
    return false;
  }
  if (Op->getOperator() == OO_Amp && Call->getNumArgs() == 1)
    return false; // `&x`: whoever gets the address may write through it
  for (const Expr *Arg : Call->arguments())
    escapeValueRefs(Arg, P);
  return true;
}

/// A branch that some instantiation may decide once and for all: the
/// resources live across it report nothing (head comment).
void Analysis::noteDependentBranch(const CFGBlock *From, const StateSet &Out) {
  if (!InPattern)
    return;
  const Stmt *Term = From->getTerminatorStmt();
  if (!Term || isa<ForStmt>(Term) || isa<WhileStmt>(Term) || isa<DoStmt>(Term) ||
      isa<CXXForRangeStmt>(Term))
    return;
  const Expr *Cond = nullptr;
  if (const auto *Switch = dyn_cast<SwitchStmt>(Term))
    Cond = Switch->getCond();
  else if (From->succ_size() == 2)
    Cond = From->getLastCondition();
  if (!Cond || !dependsOnTemplateArguments(Cond))
    return;
  for (const PathState &P : Out)
    for (const auto &Entry : P.Res)
      if (Entry.second.Bits & Live)
        DependentlyDecided.insert(Entry.first);
}

} // namespace lifetime
} // namespace cgt
