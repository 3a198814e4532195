//===- MemberAliases.cpp - members that hold one value under two names ----===//
//
// Two places are two streams (StreamEngine.h). Members are the exception
// real code shows: a runner keeps `forward_stream_` and `sampling_stream_`
// so that a later version can split them, and its only constructor sets
// both from one parameter. Work on one then follows work on the other in
// stream order, and reading them as two streams reports every hand-over.
//
// Two fields of a class are one place when
//   - every constructor that is not a copy or a move sets both from the
//     same parameter in its initialiser list, and each such constructor is
//     defined in this translation unit;
//   - a copy or move constructor the user wrote copies each from its own
//     field of the source (the implicit ones do);
//   - no method defined here assigns either, takes its address or binds it
//     to a non-const reference parameter (`std::swap`), and every
//     non-const method the class declares is defined here (one defined in
//     another file could give a member a value of its own).
// The place of each is the first of them in declaration order. Anything
// less certain keeps the members apart, which is what the engine did before.
//
//===----------------------------------------------------------------------===//
#include "Streams/StreamEngine.h"

#include "clang/AST/RecursiveASTVisitor.h"

namespace cgt {
namespace streams {

using namespace clang;

namespace {

const FieldDecl *memberOfThis(const Expr *E) {
  const auto *ME = dyn_cast<MemberExpr>(E->IgnoreParenImpCasts());
  if (!ME || !isa<CXXThisExpr>(ME->getBase()->IgnoreParenImpCasts()))
    return nullptr;
  return dyn_cast<FieldDecl>(ME->getMemberDecl());
}

/// Fields some method body assigns or takes the address of.
struct WrittenMembers : RecursiveASTVisitor<WrittenMembers> {
  std::set<const FieldDecl *> Written;
  bool VisitBinaryOperator(BinaryOperator *BO) {
    if (BO->isAssignmentOp())
      if (const FieldDecl *F = memberOfThis(BO->getLHS()))
        Written.insert(F);
    return true;
  }
  bool VisitUnaryOperator(UnaryOperator *UO) {
    if (UO->getOpcode() == UO_AddrOf || UO->isIncrementDecrementOp())
      if (const FieldDecl *F = memberOfThis(UO->getSubExpr()))
        Written.insert(F);
    return true;
  }
  /// `std::swap(fwd_, o.fwd_)`: a member bound to a non-const reference
  /// parameter (or handed to a call with no prototype to say) may be written.
  bool VisitCallExpr(CallExpr *Call) {
    const FunctionDecl *Callee = Call->getDirectCallee();
    unsigned Skip = isa<CXXOperatorCallExpr>(Call) && isa_and_nonnull<CXXMethodDecl>(Callee);
    for (unsigned I = Skip; I < Call->getNumArgs(); ++I) {
      const FieldDecl *F = memberOfThis(Call->getArg(I));
      if (!F)
        continue;
      unsigned Param = I - Skip;
      if (!Callee || Param >= Callee->getNumParams() ||
          writableReference(Callee->getParamDecl(Param)->getType()))
        Written.insert(F);
    }
    return true;
  }
  static bool writableReference(QualType T) {
    return T->isReferenceType() && !T.getNonReferenceType().isConstQualified();
  }
};

const CXXConstructorDecl *definitionOf(const CXXConstructorDecl *C) {
  const FunctionDecl *Def = nullptr;
  if (!C->hasBody(Def))
    return nullptr;
  return dyn_cast<CXXConstructorDecl>(Def);
}

/// The parameter a constructor initialises the field from, or -1.
int parameterInitialising(const CXXConstructorDecl *C, const FieldDecl *F) {
  for (const CXXCtorInitializer *Init : C->inits()) {
    if (Init->getMember() != F || !Init->isWritten())
      continue;
    const auto *DR = dyn_cast<DeclRefExpr>(Init->getInit()->IgnoreImplicit()->IgnoreParenImpCasts());
    const auto *P = DR ? dyn_cast<ParmVarDecl>(DR->getDecl()) : nullptr;
    return P ? static_cast<int>(P->getFunctionScopeIndex()) : -1;
  }
  return -1;
}

/// A user copy or move constructor keeps the alias only by copying each
/// member from the same member of its source.
bool copiesMemberwise(const CXXConstructorDecl *C, const FieldDecl *F) {
  for (const CXXCtorInitializer *Init : C->inits()) {
    if (Init->getMember() != F)
      continue;
    const auto *ME = dyn_cast<MemberExpr>(Init->getInit()->IgnoreImplicit()->IgnoreParenImpCasts());
    return ME && ME->getMemberDecl() == F;
  }
  return false;
}

/// Each field's parameter in every plain constructor, in constructor order;
/// empty where the field is not a candidate.
std::map<const FieldDecl *, std::vector<int>> parameterSignatures(const CXXRecordDecl *RD) {
  std::map<const FieldDecl *, std::vector<int>> Sig;
  std::vector<const CXXConstructorDecl *> Plain, Copies;
  for (const CXXConstructorDecl *C : RD->ctors()) {
    if (C->isDeleted() || C->isImplicit())
      continue;
    const CXXConstructorDecl *Def = definitionOf(C);
    if (!Def || Def->isDelegatingConstructor())
      return {};
    (C->isCopyOrMoveConstructor() ? Copies : Plain).push_back(Def);
  }
  if (Plain.empty())
    return {};
  for (const FieldDecl *F : RD->fields()) {
    std::vector<int> Params;
    for (const CXXConstructorDecl *C : Plain)
      Params.push_back(parameterInitialising(C, F));
    bool Ok = llvm::all_of(Params, [](int P) { return P >= 0; }) &&
              llvm::all_of(Copies, [&](const CXXConstructorDecl *C) { return copiesMemberwise(C, F); });
    if (Ok)
      Sig[F] = std::move(Params);
  }
  return Sig;
}

/// Members some method may write; null when a non-const method is defined
/// in another file and could write anything.
std::optional<std::set<const FieldDecl *>> writtenMembers(const CXXRecordDecl *RD) {
  WrittenMembers W;
  for (const CXXMethodDecl *M : RD->methods()) {
    if (M->isDeleted() || M->isImplicit())
      continue;
    const FunctionDecl *Def = nullptr;
    if (!M->hasBody(Def)) {
      if (!M->isConst() && !M->isStatic() && !isa<CXXDestructorDecl>(M))
        return std::nullopt;
      continue;
    }
    W.TraverseStmt(Def->getBody());
  }
  return W.Written;
}

std::map<const FieldDecl *, const FieldDecl *> memberAliasesOf(const CXXRecordDecl *RD) {
  std::map<const FieldDecl *, const FieldDecl *> Alias;
  if (!RD || !RD->hasDefinition() || RD->isDependentContext())
    return Alias;
  RD = RD->getDefinition();
  auto Sig = parameterSignatures(RD);
  if (Sig.size() < 2)
    return Alias;
  auto Written = writtenMembers(RD);
  if (!Written)
    return Alias;
  std::map<std::pair<QualType, std::vector<int>>, const FieldDecl *> First;
  for (const FieldDecl *F : RD->fields()) {
    auto It = Sig.find(F);
    if (It == Sig.end() || Written->count(F))
      continue;
    auto Key = std::make_pair(F->getType().getCanonicalType(), It->second);
    auto [Rep, Fresh] = First.try_emplace(Key, F);
    if (!Fresh)
      Alias[F] = Rep->second;
  }
  return Alias;
}

} // namespace

const FieldDecl *FunctionRun::placeOfMember(const FieldDecl *F) {
  const auto *RD = dyn_cast<CXXRecordDecl>(F->getParent());
  if (!RD)
    return F;
  auto [It, Fresh] = A.MemberAliases.try_emplace(RD);
  if (Fresh)
    It->second = memberAliasesOf(RD);
  auto Rep = It->second.find(F);
  return Rep == It->second.end() ? F : Rep->second;
}

} // namespace streams
} // namespace cgt
