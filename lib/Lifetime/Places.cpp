//===- Places.cpp - places, locations, text -------------------------------===//
//
// The places an expression names (variables, members, array elements), the
// resources acquired at each site, and source locations and text for
// diagnostics.
//
// Part of the Analysis class declared in Analysis.h.
//
//===----------------------------------------------------------------------===//
#include "Lifetime/Analysis.h"

#include "clang/Lex/Lexer.h"

namespace cgt {
namespace lifetime {

/// Where to point in the file: inside `CUDA_CHECK(cudaGraphInstantiate(...))`
/// that is the call as written in the argument, not the macro's name.
SourceLocation Analysis::loc(const Stmt *S) const {
  return SM.getFileLoc(S->getBeginLoc());
}

SourceLocation Analysis::endLoc(const Stmt *S) const {
  SourceLocation End = SM.getFileLoc(S->getEndLoc());
  // A range must not end before it starts (call spelled in an argument,
  // closing parenthesis in the macro body).
  return SM.isBeforeInTranslationUnit(End, loc(S)) ? loc(S) : End;
}

/// The callee as the user wrote it: `cuGraphInstantiate`, not the
/// `cuGraphInstantiateWithFlags` that cuda.h's macro turns it into.
std::string Analysis::spelledName(const CallExpr *Call, const std::string &Fallback) const {
  const auto *DRE = dyn_cast<DeclRefExpr>(Call->getCallee()->IgnoreParenImpCasts());
  if (!DRE)
    return Fallback;
  SourceLocation L = SM.getFileLoc(DRE->getLocation());
  StringRef T = Lexer::getSourceText(CharSourceRange::getTokenRange(L, L), SM,
                                     Ctx.getLangOpts());
  if (T.empty() || !llvm::all_of(T, [](char C) { return isAsciiIdentifierContinue(C); }))
    return Fallback;
  if (T != Fallback && ApiModel::canonicalName(Fallback) != T &&
      !StringRef(Fallback).starts_with(T))
    return Fallback;
  return T.str();
}

std::string Analysis::text(const Expr *E) const { return shortSourceText(E, Ctx); }

/// In a lambda's body, a variable of the function around it (captured by
/// reference or by copy): like a member, it outlives the call, and the
/// task that acquired into it is not the one that must release it
/// (`tf.emplace([&] { cudaMalloc(&d_x, n); })`, a sibling task frees it).
bool Analysis::isEnclosingVariable(Key K) const {
  const auto *MD = dyn_cast<CXXMethodDecl>(FD);
  if (!MD || !MD->getParent()->isLambda())
    return false;
  const auto *VD = dyn_cast<VarDecl>(K->Decl);
  return VD && VD->hasLocalStorage() && !isa<ParmVarDecl>(VD) &&
         VD->getParentFunctionOrMethod() != FD;
}

unsigned Analysis::resourceFor(const Expr *Site, int ParamIndex,
                               const std::string &Kind, const std::string &By,
                               Key Var, int Slot) {
  auto Id = std::make_tuple(Site, ParamIndex, Slot);
  auto It = ResourceIds.find(Id);
  if (It != ResourceIds.end())
    return It->second;
  Resource R;
  R.Site = Site;
  R.Kind = Kind;
  R.AcquiredBy = By;
  R.VarName = varName(Var);
  R.IntoField = Var && (isField(Var) || isEnclosingVariable(Var));
  R.IntoElement = Var && Var->Element;
  R.ParamIndex = ParamIndex;
  Resources.push_back(R);
  unsigned N = Resources.size() - 1;
  ResourceIds[Id] = N;
  return N;
}

Key Analysis::placeOf(const ValueDecl *D, const FieldDecl *Member, bool Element,
                      bool Capture, bool ExecRefs) {
  auto &Slot = Places[std::make_tuple(D, Member, Element, Capture, ExecRefs)];
  if (!Slot) {
    Slot = std::make_unique<Place>();
    Slot->Decl = D;
    Slot->Member = Member;
    Slot->Element = Element;
    Slot->Capture = Capture;
    Slot->ExecRefs = ExecRefs;
  }
  return Slot.get();
}

/// `Ctx &ctx` or `const Streams &st` of this function: one object
/// throughout, whose members hold handles (a const struct's handles are
/// still released and captured on through it).
bool Analysis::isStructReferenceParam(const ValueDecl *D) const {
  const auto *PVD = dyn_cast<ParmVarDecl>(D);
  return PVD && PVD->getDeclContext() == FD && PVD->getType()->isLValueReferenceType() &&
         PVD->getType()->getPointeeType()->isRecordType();
}

/// The place an expression names, if the analysis can follow it.
namespace {

/// How many fields of `T`, at any depth, have the type `RD` (stops at 2).
unsigned nestedOccurrences(QualType T, const RecordDecl *RD, unsigned Depth = 0) {
  const RecordDecl *Outer = T->getAsRecordDecl();
  if (!Outer || !Outer->getDefinition() || Depth > 4)
    return 0;
  unsigned N = 0;
  for (const FieldDecl *F : Outer->getDefinition()->fields()) {
    const RecordDecl *Inner = F->getType()->getAsRecordDecl();
    if (!Inner)
      continue;
    if (Inner->getCanonicalDecl() == RD->getCanonicalDecl())
      ++N;
    N += nestedOccurrences(F->getType(), RD, Depth + 1);
    if (N > 1)
      return N;
  }
  return N;
}

/// The fields from `T` down to `Member`, joined by dots; empty if it is not
/// there within four levels.
std::string pathTo(QualType T, const FieldDecl *Member, unsigned Depth = 0) {
  const RecordDecl *Outer = T->getAsRecordDecl();
  if (!Outer || !Outer->getDefinition() || Depth > 4)
    return "";
  for (const FieldDecl *F : Outer->getDefinition()->fields()) {
    if (F == Member)
      return F->getNameAsString();
    std::string Rest = pathTo(F->getType(), Member, Depth + 1);
    if (!Rest.empty())
      return F->getNameAsString() + "." + Rest;
  }
  return "";
}

} // namespace

std::string memberPath(const ValueDecl *Decl, const FieldDecl *Member) {
  QualType T = Decl->getType();
  if (T->isPointerType())
    T = T->getPointeeType();
  T = T.getNonReferenceType();
  if (const RecordDecl *RD = T->getAsRecordDecl(); RD && declaresSameEntity(RD, Member->getParent()))
    return Member->getNameAsString();
  std::string Path = pathTo(T, Member);
  return Path.empty() ? Member->getNameAsString() : Path;
}

/// `rd.res.array.array = arr` of a local `cudaResourceDesc`: a member at a
/// depth, through `.` only, of a plain local aggregate. It is the place of
/// its innermost field, which names one position only where the struct
/// that declares it occurs once in the local's type.
const VarDecl *Analysis::nestedPlainAggregate(const MemberExpr *ME) {
  const auto *Field = dyn_cast<FieldDecl>(ME->getMemberDecl());
  const auto *Mid = dyn_cast<MemberExpr>(ME->getBase()->IgnoreParenImpCasts());
  if (!Field || ME->isArrow() || !Mid)
    return nullptr;
  const Expr *Base = Mid;
  while (const auto *Up = dyn_cast<MemberExpr>(Base)) {
    if (Up->isArrow() || !isa<FieldDecl>(Up->getMemberDecl()))
      return nullptr;
    Base = Up->getBase()->IgnoreParenImpCasts();
  }
  const auto *DRE = dyn_cast<DeclRefExpr>(Base);
  const auto *VD = DRE ? dyn_cast<VarDecl>(DRE->getDecl()) : nullptr;
  if (!VD || !isPlainLocalAggregate(VD) ||
      nestedOccurrences(VD->getType(), Field->getParent()) != 1)
    return nullptr;
  return VD;
}

Key Analysis::storageOf(const Expr *E) {
  E = strip(E);
  if (const auto *DRE = dyn_cast<DeclRefExpr>(E)) {
    if (const auto *VD = dyn_cast<VarDecl>(DRE->getDecl()))
      if (VD->hasLocalStorage() && !VD->getType()->isReferenceType())
        return placeOf(VD);
    return nullptr;
  }
  if (const auto *ME = dyn_cast<MemberExpr>(E)) {
    const Expr *Base = ME->getBase()->IgnoreParenImpCasts();
    const auto *Field = dyn_cast<FieldDecl>(ME->getMemberDecl());
    if (!Field)
      return nullptr;
    if (isa<CXXThisExpr>(Base))
      return placeOf(Field);
    if (const VarDecl *VD = nestedPlainAggregate(ME))
      return placeOf(VD, Field);
    if (const FieldDecl *Outer = memberObjectOfThis(Base, Field))
      return placeOf(Outer, Field);
    if (const auto *DRE = dyn_cast<DeclRefExpr>(Base); DRE && !ME->isArrow()) {
      if (const auto *VD = dyn_cast<VarDecl>(DRE->getDecl()); VD && isPlainLocalAggregate(VD))
        return placeOf(VD, Field);
      // `ctx.stream` of `Ctx &ctx` or `const Streams &st`: a member of the
      // caller's object, one object throughout as through a fixed pointer
      // parameter; a summary says which members the helper leaves acquired
      // or releases (summary(), releaseUntracked), and a capture begun on
      // `st.work` is followed.
      if (isStructReferenceParam(DRE->getDecl()))
        return placeOf(DRE->getDecl(), Field);
    }
    // `ctx->stream` through a pointer parameter that always points to the
    // same object.
    if (const auto *DRE = dyn_cast<DeclRefExpr>(Base); DRE && ME->isArrow()) {
      if (isFixedPointerParam(DRE->getDecl()))
        return placeOf(DRE->getDecl(), Field);
      // `sl->ev` of `Slot* sl = &slots[i];` never reseated (LocalPointers.cpp).
      if (const ValueDecl *Owner = fixedLocalPointee(DRE->getDecl()))
        return placeOf(Owner, Field);
    }
    return nullptr;
  }
  if (const auto *ASE = dyn_cast<ArraySubscriptExpr>(E))
    if (const auto *DRE = dyn_cast<DeclRefExpr>(ASE->getBase()->IgnoreParenImpCasts()))
      if (const auto *VD = dyn_cast<VarDecl>(DRE->getDecl());
          VD && VD->hasLocalStorage() && VD->getType()->isConstantArrayType())
        return placeOf(VD, nullptr, /*Element=*/true);
  return nullptr;
}

} // namespace lifetime
} // namespace cgt
