//===- Exceptions.cpp - throws that leave the function --------------------===//
//
// A `throw` that leaves the function while a local resource is live loses
// that resource: the caller may catch the exception and carry on, and nothing
// releases what only a local variable held. So such a throw is a leak path
// (exception safety), where calls that end the program stay sinks:
//
//   throw (no handler of this function around it)     -> live locals leak here;
//                                                        a capture this function
//                                                        begins and ends elsewhere
//                                                        is left open here
//   call of a helper that always throws (its body in
//   this file throws and ends no program; libstdc++'s
//   std::__throw_* )                                  -> the same, at the call
//   call of a checking helper, `check(cudaMalloc(&b,
//   n), ...)` whose body is `if (e) throw ...;` on one
//   of its parameters                                 -> two ways: where the status
//                                                        argument fails, a throw at
//                                                        the call (b Absent, what
//                                                        was live before leaks);
//                                                        where it succeeds, the
//                                                        path goes on
//   a temporary whose destructor throws (TVM's ICHECK:
//   `LogFatal(__FILE__, __LINE__).stream() << ...`
//   with `[[noreturn]] ~LogFatal() { throw ...; }`)      -> the same, at the temporary
//   exit, abort, __trap, assert(false), a [[noreturn]]
//   function whose body is not here                   -> sink (nothing reported)
//   throw or throwing call that leaves `main`, or a    -> sink: no caller can catch
//   function of the main file that only `main` calls     it, so std::terminate ends
//   (directly or through such functions) outside a try   the program, as exit does
//   throw or throwing call inside a try of this
//   function                                          -> its handlers (Dataflow.cpp);
//                                                        what no handler catches
//                                                        stays a sink, as the
//                                                        handlers' types are not
//                                                        matched
//
// With LifetimeOptions::ReportConstructorThrowLeaks (off by default), in a
// constructor the members of the object being built count as locals:
// an exception that leaves the constructor ends the object without running
// its destructor, so a handle the constructor put in a member of it is lost
// (`timer() { CHECK(cudaEventCreate(&start_)); CHECK(cudaEventCreate(&stop_)); }`
// leaks start_ when the second create throws).
//
// RAII needs no rule of its own: a resource handed to a local object whose
// destructor releases it (a unique_ptr with a deleter, an owning class) has
// escaped into that object, and escaped resources do not leak. The usual
// `CHECK(cudaMalloc(&b, n))` that throws when the call fails is silent about
// `b` (the failure edge makes it Absent) but not about an `a` acquired before
// and still live: that is the leak this rule finds.
//
// LifetimeOptions::ReportLeaksOnThrow turns the rule off (every throw is a
// sink again, as the Static Analyzer's SuppressOnSink has it).
//
//===----------------------------------------------------------------------===//
#include "Lifetime/Analysis.h"

#include "clang/AST/RecursiveASTVisitor.h"

namespace cgt {
using namespace lifetime;

namespace {

/// What a body does that ends it without returning.
class EndingScan : public RecursiveASTVisitor<EndingScan> {
public:
  bool Throws = false;
  bool EndsProgram = false;
  bool VisitCXXThrowExpr(CXXThrowExpr *) {
    Throws = true;
    return true;
  }
  bool VisitCallExpr(CallExpr *C) {
    if (const FunctionDecl *F = C->getDirectCallee(); F && F->isNoReturn() && !isStdThrower(F))
      EndsProgram = true;
    return true;
  }
  bool TraverseLambdaExpr(LambdaExpr *) { return true; }
  bool TraverseCXXTryStmt(CXXTryStmt *) { return true; } // caught there, or rethrown: unknown

  /// libstdc++'s `std::__throw_runtime_error` and friends, and the
  /// standard's own throwing functions.
  static bool isStdThrower(const FunctionDecl *F) {
    if (!F->getIdentifier() || !F->isInStdNamespace())
      return false;
    StringRef N = F->getName();
    return N.starts_with("__throw_") || N == "rethrow_exception" || N == "throw_with_nested";
  }
};

} // namespace

bool LifetimeAnalyzer::Impl::alwaysThrows(const FunctionDecl *Callee) {
  if (!Callee)
    return false;
  if (EndingScan::isStdThrower(Callee))
    return true;
  const FunctionDecl *Def = Callee->getDefinition();
  if (!Def || !Def->hasBody() || Ctx.getSourceManager().isInSystemHeader(Def->getLocation()))
    return false;
  auto [It, New] = Throwers.try_emplace(Def, false);
  if (!New)
    return It->second;
  EndingScan S;
  S.TraverseStmt(Def->getBody());
  // A body that both throws and exits is left a sink: which one a failure
  // takes is not ours to guess.
  return It->second = S.Throws && !S.EndsProgram;
}

namespace {

/// The parameter a condition compares with zero (`e`, `!e`, `e != 0`,
/// `e == cudaSuccess`), and whether the condition holds where it is non-zero.
std::optional<std::pair<const ParmVarDecl *, bool>> parameterZeroTest(const Expr *C,
                                                                      ASTContext &Ctx) {
  C = C->IgnoreParenImpCasts();
  if (const auto *UO = dyn_cast<UnaryOperator>(C); UO && UO->getOpcode() == UO_LNot) {
    auto T = parameterZeroTest(UO->getSubExpr(), Ctx);
    if (T)
      T->second = !T->second;
    return T;
  }
  if (const auto *DRE = dyn_cast<DeclRefExpr>(C))
    if (const auto *PV = dyn_cast<ParmVarDecl>(DRE->getDecl()))
      return std::make_pair(PV, true);
  const auto *BO = dyn_cast<BinaryOperator>(C);
  if (!BO || !BO->isEqualityOp())
    return std::nullopt;
  auto IsZero = [&](const Expr *E) {
    E = E->IgnoreParenImpCasts();
    Expr::EvalResult R;
    return isa<CXXNullPtrLiteralExpr>(E) ||
           (!E->isValueDependent() && E->EvaluateAsInt(R, Ctx) && R.Val.getInt() == 0);
  };
  for (auto [Side, Other] : {std::make_pair(BO->getLHS(), BO->getRHS()),
                             std::make_pair(BO->getRHS(), BO->getLHS())}) {
    const auto *DRE = dyn_cast<DeclRefExpr>(Side->IgnoreParenImpCasts());
    const auto *PV = DRE ? dyn_cast<ParmVarDecl>(DRE->getDecl()) : nullptr;
    if (PV && IsZero(Other))
      return std::make_pair(PV, BO->getOpcode() == BO_NE);
  }
  return std::nullopt;
}

/// A status, flag or pointer passed by value or const reference: what a
/// checking helper tests.
bool isTestableValue(QualType T) {
  T = T.getNonReferenceType();
  return T->isIntegralOrEnumerationType() || T->isPointerType();
}

} // namespace

/// Every way through `S` ends in a throw: a throw, a call of a helper that
/// always throws, or a block whose last statement does.
static bool endsInThrow(const Stmt *S, LifetimeAnalyzer::Impl &A) {
  if (const auto *Block = dyn_cast_or_null<CompoundStmt>(S))
    return !Block->body_empty() && endsInThrow(Block->body_back(), A);
  if (const auto *E = dyn_cast_or_null<Expr>(S)) {
    E = E->IgnoreParenImpCasts();
    if (isa<CXXThrowExpr>(E))
      return true;
    if (const auto *Call = dyn_cast<CallExpr>(E))
      return A.alwaysThrows(Call->getDirectCallee());
  }
  return false;
}

/// `void check(cudaError_t e, const char *what) { if (e != cudaSuccess)
/// throw std::runtime_error(...); }`: one if on a parameter whose arm
/// always throws, no else, and nothing else in the body that throws or
/// ends the program.
std::optional<LifetimeAnalyzer::Impl::StatusThrow>
LifetimeAnalyzer::Impl::throwsOnStatus(const FunctionDecl *Callee) {
  const FunctionDecl *Def = Callee ? Callee->getDefinition() : nullptr;
  if (!Def || !Def->hasBody() || Ctx.getSourceManager().isInSystemHeader(Def->getLocation()))
    return std::nullopt;
  auto [It, New] = StatusThrowers.try_emplace(Def);
  if (!New)
    return It->second;
  const auto *Body = dyn_cast<CompoundStmt>(Def->getBody());
  std::optional<StatusThrow> Found;
  for (const Stmt *S : Body ? Body->body() : llvm::ArrayRef<Stmt *>()) {
    const auto *If = dyn_cast<IfStmt>(S);
    std::optional<std::pair<const ParmVarDecl *, bool>> Test;
    if (If && !Found && !If->getElse() && !If->getInit() && !If->getConditionVariable())
      Test = parameterZeroTest(If->getCond(), Ctx);
    EndingScan Arm;
    if (Test && isTestableValue(Test->first->getType()) && endsInThrow(If->getThen(), *this) &&
        (Arm.TraverseStmt(const_cast<Stmt *>(If->getThen())), !Arm.EndsProgram)) {
      Found = StatusThrow{Test->first->getFunctionScopeIndex(), Test->second};
      continue;
    }
    EndingScan Other;
    Other.TraverseStmt(const_cast<Stmt *>(S));
    if (Other.Throws || Other.EndsProgram)
      return It->second = std::nullopt;
  }
  return StatusThrowers[Def] = Found;
}

/// A destructor that ends in a throw (its last statement throws), or one
/// marked [[noreturn]] that does not throw (glog's aborts).
LifetimeAnalyzer::Impl::DestructorEnd LifetimeAnalyzer::Impl::destructorEnd(QualType Temporary) {
  auto [It, New] = DestructorEnds.try_emplace(Temporary.getCanonicalType().getTypePtr(),
                                              DestructorEnd::Returns);
  if (!New)
    return It->second;
  const CXXRecordDecl *RD = Temporary->getAsCXXRecordDecl();
  const CXXDestructorDecl *Dtor = RD && RD->hasDefinition() ? RD->getDestructor() : nullptr;
  const FunctionDecl *Def = Dtor ? Dtor->getDefinition() : nullptr;
  DestructorEnd End = DestructorEnd::Returns;
  if (Def && Def->hasBody() && !Ctx.getSourceManager().isInSystemHeader(Def->getLocation()) &&
      endsInThrow(Def->getBody(), *this))
    End = DestructorEnd::Throws;
  else if (Dtor && Dtor->isNoReturn())
    End = DestructorEnd::EndsProgram;
  return DestructorEnds[Temporary.getCanonicalType().getTypePtr()] = End;
}

namespace {

/// Collects, for each function, where the unit names it: as the callee of
/// a call (with the function whose body holds the call) or otherwise (its
/// address taken, a reference bound to it).
class MentionScan : public RecursiveASTVisitor<MentionScan> {
public:
  using Mention = LifetimeAnalyzer::Impl::Mention;
  llvm::DenseMap<const FunctionDecl *, std::vector<Mention>> &Out;
  explicit MentionScan(llvm::DenseMap<const FunctionDecl *, std::vector<Mention>> &Out)
      : Out(Out) {}
  bool shouldVisitTemplateInstantiations() const { return true; }
  bool TraverseFunctionDecl(FunctionDecl *F) { return inside(F, [&] { return Base::TraverseFunctionDecl(F); }); }
  bool TraverseCXXMethodDecl(CXXMethodDecl *F) { return inside(F, [&] { return Base::TraverseCXXMethodDecl(F); }); }
  bool VisitCallExpr(CallExpr *C) {
    if (const FunctionDecl *Callee = C->getDirectCallee())
      Out[Callee->getCanonicalDecl()].push_back({C, Caller});
    Callees.insert(C->getCallee()->IgnoreParenImpCasts());
    return true;
  }
  bool VisitDeclRefExpr(DeclRefExpr *D) {
    if (const auto *F = dyn_cast<FunctionDecl>(D->getDecl()); F && !Callees.count(D))
      Out[F->getCanonicalDecl()].push_back({nullptr, Caller});
    return true;
  }

private:
  using Base = RecursiveASTVisitor<MentionScan>;
  const FunctionDecl *Caller = nullptr;
  llvm::DenseSet<const Expr *> Callees; ///< visited before their DeclRefExpr
  template <class F> bool inside(const FunctionDecl *Fn, F Traverse) {
    const FunctionDecl *Saved = Caller;
    Caller = Fn;
    bool R = Traverse();
    Caller = Saved;
    return R;
  }
};

/// Whether `S` lies in a try block of `Body` (a handler there may catch).
bool insideTry(const Stmt *Body, const Stmt *S) {
  bool Found = false;
  std::function<bool(const Stmt *, bool)> Walk = [&](const Stmt *Cur, bool InTry) {
    if (!Cur)
      return false;
    if (Cur == S) {
      Found = InTry;
      return true;
    }
    if (const auto *Try = dyn_cast<CXXTryStmt>(Cur))
      return Walk(Try->getTryBlock(), true) ||
             llvm::any_of(llvm::drop_begin(Try->children()), [&](const Stmt *H) { return Walk(H, InTry); });
    return llvm::any_of(Cur->children(), [&](const Stmt *C) { return Walk(C, InTry); });
  };
  Walk(Body, false);
  return Found;
}

} // namespace

const std::vector<LifetimeAnalyzer::Impl::Mention> &
LifetimeAnalyzer::Impl::mentionsOf(const FunctionDecl *FD) {
  if (!Mentions) {
    Mentions.emplace();
    MentionScan Scan(*Mentions);
    Scan.TraverseDecl(Ctx.getTranslationUnitDecl());
  }
  return (*Mentions)[FD->getCanonicalDecl()];
}

/// `main` has no caller. A function defined in the main file that other
/// units cannot call (internal linkage, or a template, whose definition a
/// caller must see) and that is only called, outside a try, by functions
/// with that property, lets its exceptions reach no handler either: the
/// samples' `residual_check` called from a `main` that catches nothing.
bool LifetimeAnalyzer::Impl::uncatchableThrows(const FunctionDecl *FD, unsigned Depth) {
  if (!FD)
    return false;
  if (FD->isMain())
    return true;
  const FunctionDecl *Pattern = FD->getTemplateInstantiationPattern();
  const FunctionDecl *Written = Pattern ? Pattern : FD;
  SourceManager &SM = Ctx.getSourceManager();
  if (Depth > 3 || isa<CXXMethodDecl>(FD) || !SM.isInMainFile(SM.getExpansionLoc(Written->getLocation())) ||
      (FD->isExternallyVisible() && !Pattern))
    return false;
  auto [It, New] = Uncatchable.try_emplace(FD, false);
  if (!New)
    return It->second;
  const std::vector<Mention> &Uses = mentionsOf(FD);
  bool Ends = !Uses.empty() && llvm::all_of(Uses, [&](const Mention &M) {
    return M.Call && M.Caller && M.Caller->hasBody() && !insideTry(M.Caller->getBody(), M.Call) &&
           uncatchableThrows(M.Caller, Depth + 1);
  });
  return Uncatchable[FD] = Ends;
}

namespace lifetime {

/// The throw or throwing call that ended a path, if that is what it was.
bool Analysis::throwsOut(const Stmt *S) {
  // An exception that leaves `main` has no handler left to reach: the
  // program terminates there (the samples' `CHECK` macros that throw from
  // main), so the path is a sink like exit(), not a leak. The same holds
  // for a helper only `main` calls outside a try.
  if (!A.Opts.ReportLeaksOnThrow || !S || A.uncatchableThrows(FD))
    return false;
  if (isa<CXXThrowExpr>(S))
    return true;
  if (const auto *Temp = dyn_cast<CXXBindTemporaryExpr>(S))
    return A.destructorEnd(Temp->getType()) == LifetimeAnalyzer::Impl::DestructorEnd::Throws;
  const auto *Call = dyn_cast<CallExpr>(S);
  return Call && A.alwaysThrows(A.calleeOf(Call));
}

/// The status argument of a call of a checking helper (see throwsOnStatus),
/// if `S` is one.
const Expr *Analysis::statusThrowArgument(const Stmt *S, bool &ThrowsWhenNonZero) {
  const auto *Call = dyn_cast_or_null<CallExpr>(S);
  if (!Call || isa<CXXOperatorCallExpr>(Call))
    return nullptr;
  std::optional<LifetimeAnalyzer::Impl::StatusThrow> T = A.throwsOnStatus(A.calleeOf(Call));
  if (!T || T->Param >= Call->getNumArgs())
    return nullptr;
  ThrowsWhenNonZero = T->ThrowsWhenNonZero;
  return Call->getArg(T->Param);
}

/// `check(cudaMalloc(&b, n), ...)`: where the status fails, the helper
/// throws, and that way leaves the function (or goes to a handler of it)
/// here, as `if (e) throw` written in place would; the call goes on only
/// where the status succeeded.
void Analysis::forkOnStatusThrow(const Stmt *S, PathState &P, bool &Dead) {
  bool ThrowsWhenNonZero = true;
  const Expr *Status = statusThrowArgument(S, ThrowsWhenNonZero);
  if (!Status)
    return;
  PathState Failed = P;
  bool FailureInfeasible = false;
  refineOnBranch(Status, ThrowsWhenNonZero, Failed, FailureInfeasible, /*TwoWay=*/false);
  if (!FailureInfeasible) {
    if (const CFGBlock *Dispatch = handlerDispatchFor(S))
      Diverted.push_back({Dispatch, std::move(Failed)});
    else if (A.Opts.ReportLeaksOnThrow && !A.uncatchableThrows(FD))
      onThrowLeaving(S, Failed);
  }
  bool SuccessInfeasible = false;
  refineOnBranch(Status, !ThrowsWhenNonZero, P, SuccessInfeasible, /*TwoWay=*/false);
  Dead = SuccessInfeasible;
}

/// Every local resource still live where an exception leaves the function
/// is leaked there; the path ends.
/// `timer() { CHECK(cudaEventCreate(&start_)); CHECK(cudaEventCreate(&stop_)); }`:
/// an exception that leaves a constructor ends an object whose destructor
/// never runs, so a handle its own members hold is lost with it.
/// A delegating constructor's object is built once its target returns:
/// its destructor runs for an exception the delegating body throws.
bool Analysis::buildsObject() const {
  const auto *Ctor = dyn_cast<CXXConstructorDecl>(FD);
  return Ctor && !SummaryMode && !Ctor->isDelegatingConstructor() &&
         A.Opts.ReportConstructorThrowLeaks;
}

bool Analysis::ownMemberOfConstructor(Key K) const {
  const auto *Field = K ? dyn_cast<FieldDecl>(K->Decl) : nullptr;
  return buildsObject() && Field && !K->Element && !K->shadow() &&
         Field->getParent() == cast<CXXConstructorDecl>(FD)->getParent();
}

void Analysis::onThrowLeaving(const Stmt *Throw, const PathState &P) {
  SourceLocation Where = loc(Throw);
  for (const auto &Entry : P.Res) {
    const Resource &Res = Resources[Entry.first];
    // A member's owner outlives the exception, unless it is being built.
    if (!(Entry.second.Bits & Live) || Res.ParamIndex >= 0 || Res.LeftLiveBy ||
        (Res.IntoField && !buildsObject()))
      continue;
    // The stream stays capturing in the caller that catches: work it
    // enqueues there is recorded, not run, and a synchronisation of the
    // stream fails and invalidates the capture.
    if (isCapture(Entry.first)) {
      // Captures on several streams (`ss[k]`): not after the first end call
      // on them, as at an exit (isLeakedAtEnd).
      bool MayBeEnded = llvm::any_of(P.Bind, [&](const auto &B) {
        return B.second.count(Entry.first) && !isLeakedAtEnd(B.first, Entry.second);
      });
      if (!MayBeEnded && Res.Site && !SummaryMode && Leaked.insert(Entry.first).second)
        reportCaptureOpen(Entry.first, Entry.second, Where);
      continue;
    }
    Key Holder = nullptr;
    for (const auto &B : P.Bind)
      if (B.second.count(Entry.first) && !B.first->shadow()) {
        Holder = B.first;
        if (ownMemberOfConstructor(B.first))
          break;
        if (!isLeakedAtEnd(B.first, Entry.second) || isField(B.first))
          Holder = nullptr;
        break;
      }
    if (!Holder)
      continue;
    std::string Why = "'" + Holder->name() + "' is leaked when the exception thrown here leaves the ";
    if (ownMemberOfConstructor(Holder))
      Why += "constructor: the destructor of '" +
             cast<CXXConstructorDecl>(FD)->getParent()->getNameAsString() + "' does not run";
    else
      Why += "function";
    reportLeak(Entry.first, Entry.second, Where, Why);
  }
}

} // namespace lifetime
} // namespace cgt
