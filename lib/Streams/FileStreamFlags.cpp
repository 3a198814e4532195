//===- FileStreamFlags.cpp - stream flags set elsewhere in the file -------===//
//
// Whether a stream blocks decides what the legacy default stream orders
// (OrderTransfer.cpp, isOrdered) and what legacy work does to a capture
// (CaptureStructure.cpp). A function creates its local streams itself; a
// member or a global is usually created once, in an init function or a
// constructor (`cudaStreamCreateWithFlags(&e->s, cudaStreamNonBlocking)`),
// and used everywhere else. This scan reads every creation of the
// translation unit outside system headers into a member or a global, once:
// a member or global whose every creation gives the same constant flags
// blocks (or not) in every function; one also given a value any other way
// (assigned, initialised, created with flags that are not constant) is
// Unknown, as it is when never created here.
//
//===----------------------------------------------------------------------===//
#include "Streams/StreamEngine.h"

#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/Basic/SourceManager.h"

namespace cgt {
namespace streams {

using namespace clang;

namespace {

/// The member or global a stream expression names (`e->s`, `ctx.stream`,
/// `this->s`, `g_work`), or null.
const ValueDecl *sharedPlaceOf(const Expr *E) {
  E = E->IgnoreParenImpCasts();
  if (const auto *ME = dyn_cast<MemberExpr>(E))
    return dyn_cast<FieldDecl>(ME->getMemberDecl());
  if (const auto *DR = dyn_cast<DeclRefExpr>(E))
    if (const auto *VD = dyn_cast<VarDecl>(DR->getDecl()); VD && VD->hasGlobalStorage())
      return VD;
  return nullptr;
}

bool isNullValue(const Expr *E, ASTContext &Ctx) {
  return E && E->IgnoreParenImpCasts()->isNullPointerConstant(
                  Ctx, Expr::NPC_ValueDependentIsNotNull) != Expr::NPCK_NotNull;
}

struct FlagScan : RecursiveASTVisitor<FlagScan> {
  StreamOrderAnalyzer::Impl &A;
  std::map<const ValueDecl *, Blocking> &Out;
  FlagScan(StreamOrderAnalyzer::Impl &A, std::map<const ValueDecl *, Blocking> &Out)
      : A(A), Out(Out) {}

  void note(const ValueDecl *D, Blocking B) {
    auto [It, Fresh] = Out.try_emplace(D, B);
    if (!Fresh && It->second != B)
      It->second = Blocking::Unknown;
  }
  bool TraverseDecl(Decl *D) {
    if (D && !isa<TranslationUnitDecl>(D) &&
        A.Ctx.getSourceManager().isInSystemHeader(D->getLocation()))
      return true;
    return RecursiveASTVisitor::TraverseDecl(D);
  }
  bool VisitCallExpr(CallExpr *Call) {
    const FunctionModel *M = A.modelFor(Call);
    if (!M || M->Order.Role != OrderRole::CreateStream ||
        M->Order.StreamArg >= static_cast<int>(Call->getNumArgs()))
      return true;
    const auto *AddrOf =
        dyn_cast<UnaryOperator>(Call->getArg(M->Order.StreamArg)->IgnoreParenImpCasts());
    if (!AddrOf || AddrOf->getOpcode() != UO_AddrOf)
      return true;
    const ValueDecl *D = sharedPlaceOf(AddrOf->getSubExpr());
    if (!D)
      return true;
    Blocking B = Blocking::Yes;
    if (M->Order.FlagsArg >= 0 && M->Order.FlagsArg < static_cast<int>(Call->getNumArgs())) {
      auto Flags = constantOf(Call->getArg(M->Order.FlagsArg), A.Ctx);
      B = !Flags ? Blocking::Unknown
                 : (*Flags & M->Order.FlagBit) ? Blocking::No : Blocking::Yes;
    }
    note(D, B);
    return true;
  }
  // A stream given a value any other way may be any stream.
  bool VisitBinaryOperator(BinaryOperator *BO) {
    if (BO->getOpcode() == BO_Assign && !isNullValue(BO->getRHS(), A.Ctx))
      if (const ValueDecl *D = sharedPlaceOf(BO->getLHS()))
        note(D, Blocking::Unknown);
    return true;
  }
  bool VisitCXXConstructorDecl(CXXConstructorDecl *Ctor) {
    for (const CXXCtorInitializer *Init : Ctor->inits())
      if (const FieldDecl *F = Init->getMember(); F && Init->isWritten() &&
                                                  !isNullValue(Init->getInit(), A.Ctx))
        note(F, Blocking::Unknown);
    return true;
  }
  bool VisitFieldDecl(FieldDecl *F) {
    if (F->hasInClassInitializer() && !isNullValue(F->getInClassInitializer(), A.Ctx))
      note(F, Blocking::Unknown);
    return true;
  }
  bool VisitVarDecl(VarDecl *VD) {
    if (VD->hasGlobalStorage() && VD->getInit() && !isNullValue(VD->getInit(), A.Ctx))
      note(VD, Blocking::Unknown);
    return true;
  }
};

} // namespace

Blocking StreamOrderAnalyzer::Impl::fileWideBlocking(const clang::ValueDecl *D) {
  if (!FileStreamFlags) {
    FileStreamFlags.emplace();
    FlagScan Scan(*this, *FileStreamFlags);
    Scan.TraverseDecl(Ctx.getTranslationUnitDecl());
  }
  auto It = FileStreamFlags->find(D);
  return It == FileStreamFlags->end() ? Blocking::Unknown : It->second;
}

} // namespace streams
} // namespace cgt
