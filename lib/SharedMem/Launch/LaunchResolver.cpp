//===- LaunchResolver.cpp - host-side values that reach a launch ----------===//
//
// See LaunchResolver.h. The folds: integers, block shapes, kernels, struct
// fields and driver-API functions a host expression may hold. What a function
// does to its locals is LocalValues.cpp, the call paths CallPaths.cpp, the
// `case` pins SwitchArms.cpp, what a call returns CallResults.cpp.
//
//===----------------------------------------------------------------------===//
#include "SharedMem/Launch/HostExprs.h"
#include "SharedMem/Launch/LaunchResolver.h"

#include "clang/AST/ExprCXX.h"
#include "clang/AST/ParentMap.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include <optional>

using namespace clang;

namespace cgt::smem {

namespace {

constexpr int MaxDepth = 10;
constexpr size_t MaxValues = 16;

template <typename T> void addUnique(std::vector<T> &V, const T &X) {
  if (V.size() < MaxValues && std::find(V.begin(), V.end(), X) == V.end())
    V.push_back(X);
}

/// "blockSize[1]" -> ("blockSize", 1); "blockDim" -> ("blockDim", none).
std::pair<StringRef, std::optional<uint64_t>> splitElement(StringRef Field) {
  auto [Name, Rest] = Field.split('[');
  uint64_t Index = 0;
  if (Rest.consume_back("]") && !Rest.getAsInteger(10, Index))
    return {Name, Index};
  return {Field, std::nullopt};
}

/// Element `Index` of an array's initialiser (`= {1, 1, 1}`); nullptr when
/// it is not a braced list that long (a value initialisation `= {}` has no
/// elements to give, and is not folded).
const Expr *elementOf(const Expr *Array, uint64_t Index) {
  const auto *IL = dyn_cast<InitListExpr>(strip(Array));
  if (!IL)
    return nullptr;
  if (!IL->isSemanticForm() && IL->getSemanticForm())
    IL = IL->getSemanticForm();
  if (Index < IL->getNumInits())
    return IL->getInit(Index);
  if (Index < 4096 && IL->hasArrayFiller())
    return IL->getArrayFiller();
  return nullptr;
}

} // namespace

void LaunchResolver::addKernelName(const FunctionDecl *K) {
  KernelsByName[K->getNameAsString()].insert(K);
}

bool LaunchResolver::addEveryFold(const Expr *X, const CallPath &P, int Depth,
                                  std::vector<int64_t> &Out) {
  std::vector<int64_t> One = ints(X, P, Depth);
  if (One.empty()) {
    Incomplete = true;
    return false;
  }
  for (int64_t I : One)
    addUnique(Out, I);
  return true;
}

std::vector<int64_t> LaunchResolver::ints(const Expr *E, const CallPath &P,
                                          int Depth) {
  std::vector<int64_t> Out;
  if (!E || Depth > MaxDepth) {
    Incomplete = true;
    return Out;
  }
  E = strip(E);
  if (E->isValueDependent() || E->isTypeDependent()) {
    Incomplete = true;
    return Out;
  }
  Expr::EvalResult R;
  if (E->getType()->isIntegralOrEnumerationType() && E->EvaluateAsInt(R, Ctx) &&
      R.Val.getInt().getSignificantBits() <= 64) {
    Out.push_back(R.Val.getInt().getExtValue());
    return Out;
  }
  if (const auto *D = dyn_cast<DeclRefExpr>(E)) {
    if (const auto *V = dyn_cast<VarDecl>(D->getDecl()); V && Pinned.count(V))
      return Pinned[V];
    if (const auto *PV = dyn_cast<ParmVarDecl>(D->getDecl())) {
      CallPath CP;
      if (const Expr *A = argumentFor(PV, P, CP))
        return ints(A, CP, Depth + 1);
      Incomplete = true;
      return Out;
    }
    if (const auto *V = dyn_cast<VarDecl>(D->getDecl())) {
      std::vector<const Expr *> Vals;
      if (!valuesOf(V, Vals) || Vals.empty()) {
        Incomplete = true;
        return Out;
      }
      // Every value the variable may hold must fold: `b = 64; if (n) b = n;`
      // is unknown, not 64.
      for (const Expr *X : Vals)
        if (reachesPinnedArm(X, ownerOf(V)) && !addEveryFold(X, P, Depth + 1, Out))
          return {};
      return Out;
    }
  }
  if (const auto *B = dyn_cast<BinaryOperator>(E)) {
    auto L = ints(B->getLHS(), P, Depth + 1), Rv = ints(B->getRHS(), P, Depth + 1);
    for (int64_t X : L)
      for (int64_t Y : Rv) {
        std::optional<int64_t> Z;
        switch (B->getOpcode()) {
        case BO_Add: Z = X + Y; break;
        case BO_Sub: Z = X - Y; break;
        case BO_Mul: Z = X * Y; break;
        case BO_Div: if (Y) Z = X / Y; break;
        case BO_Rem: if (Y) Z = X % Y; break;
        case BO_Shl: if (Y >= 0 && Y < 40) Z = X << Y; break;
        case BO_Shr: if (Y >= 0 && Y < 63) Z = X >> Y; break;
        default: break;
        }
        if (Z)
          addUnique(Out, *Z);
        else
          Incomplete = true;
      }
    return Out;
  }
  if (const auto *C = dyn_cast<ConditionalOperator>(E)) {
    for (int64_t X : ints(C->getTrueExpr(), P, Depth + 1))
      addUnique(Out, X);
    for (int64_t X : ints(C->getFalseExpr(), P, Depth + 1))
      addUnique(Out, X);
    return Out;
  }
  if (const auto *C = dyn_cast<CallExpr>(E)) {
    const FunctionDecl *F = C->getDirectCallee();
    StringRef N = F && F->getIdentifier() ? F->getName() : "";
    if ((N == "min" || N == "max") && C->getNumArgs() == 2) {
      for (int64_t X : ints(C->getArg(0), P, Depth + 1))
        for (int64_t Y : ints(C->getArg(1), P, Depth + 1))
          addUnique(Out, N == "min" ? std::min(X, Y) : std::max(X, Y));
      return Out;
    }
    return callResults(C, P, Depth); // CallResults.cpp
  }
  uint64_t Index = 0;
  if (const Expr *Array = literalSubscript(E, Index))
    if (const auto *M = dyn_cast<MemberExpr>(Array->IgnoreParenImpCasts())) {
      // As for a local, every value the element may hold must fold:
      // `blockSize[0] = 256` in a constructor and `= t` in a setter is no shape.
      std::string Element =
          M->getMemberDecl()->getNameAsString() + "[" + std::to_string(Index) + "]";
      for (auto &[X, XP] : fieldValues(M->getBase(), Element, P, Depth + 1))
        if (!addEveryFold(X, XP, Depth + 1, Out))
          return {};
      if (Out.empty())
        Incomplete = true;
      return Out;
    }
  if (const auto *M = dyn_cast<MemberExpr>(E)) {
    if (std::optional<int64_t> V = constantField(M))
      return {*V}; // `prop.warpSize`: CallResults.cpp
    StringRef N = M->getMemberDecl()->getName();
    const Expr *Base = M->getBase();
    // dim3's x/y/z: the coordinate of the shape.
    if (!M->isArrow() && (N == "x" || N == "y" || N == "z")) {
      if (const auto *RD = Base->getType()->getAsCXXRecordDecl();
          RD && RD->getName() == "dim3") {
        for (const BlockShape &S : shapes(Base, P, Depth + 1))
          addUnique<int64_t>(Out, N == "x" ? S.X : N == "y" ? S.Y : S.Z);
        return Out;
      }
    }
    for (auto &[X, XP] : fieldValues(Base, N, P, Depth + 1))
      for (int64_t I : ints(X, XP, Depth + 1))
        addUnique(Out, I);
    if (Out.empty())
      Incomplete = true;
    return Out;
  }
  Incomplete = true;
  return Out;
}

std::vector<BlockShape> LaunchResolver::shapes(const Expr *E, const CallPath &P,
                                               int Depth) {
  std::vector<BlockShape> Out;
  if (!E || Depth > MaxDepth)
    return Out;
  E = strip(E);
  if (E->isValueDependent() || E->isTypeDependent())
    return Out;
  auto fromArgs = [&](llvm::ArrayRef<const Expr *> Args) {
    std::vector<BlockShape> Acc{BlockShape{}};
    for (unsigned I = 0; I < Args.size() && I < 3; ++I) {
      std::vector<BlockShape> Next;
      for (int64_t V : ints(Args[I], P, Depth + 1)) {
        if (V <= 0 || V > 1024)
          continue;
        for (BlockShape S : Acc) {
          (I == 0 ? S.X : I == 1 ? S.Y : S.Z) = static_cast<unsigned>(V);
          addUnique(Next, S);
        }
      }
      Acc = std::move(Next);
    }
    for (const BlockShape &S : Acc)
      addUnique(Out, S);
  };
  if (const auto *C = dyn_cast<CXXConstructExpr>(E)) {
    if (C->getNumArgs() == 1 && C->getArg(0)->getType()->isRecordType())
      return shapes(C->getArg(0), P, Depth + 1);
    std::vector<const Expr *> Args(C->arg_begin(), C->arg_end());
    fromArgs(Args);
    return Out;
  }
  if (const auto *IL = dyn_cast<InitListExpr>(E)) {
    if (IL->getNumInits() == 1 && IL->getInit(0)->getType()->isRecordType())
      return shapes(IL->getInit(0), P, Depth + 1);
    std::vector<const Expr *> Args(IL->inits().begin(), IL->inits().end());
    fromArgs(Args);
    return Out;
  }
  if (E->getType()->isIntegralOrEnumerationType()) {
    for (int64_t V : ints(E, P, Depth + 1))
      if (V > 0 && V <= 1024)
        addUnique(Out, BlockShape{static_cast<unsigned>(V), 1, 1});
    return Out;
  }
  if (const auto *D = dyn_cast<DeclRefExpr>(E)) {
    if (const auto *PV = dyn_cast<ParmVarDecl>(D->getDecl())) {
      CallPath CP;
      if (const Expr *A = argumentFor(PV, P, CP))
        return shapes(A, CP, Depth + 1);
      return Out;
    }
    const auto *V = dyn_cast<VarDecl>(D->getDecl());
    std::vector<const Expr *> Vals;
    if (!V || !valuesOf(V, Vals))
      return Out;
    // `dim3 threads;` then assigned: the default (1,1,1) is not a launch shape.
    auto Defaulted = [](const Expr *X) {
      const auto *C = dyn_cast<CXXConstructExpr>(X->IgnoreImplicit());
      if (!C)
        return false;
      for (const Expr *A : C->arguments())
        if (!isa<CXXDefaultArgExpr>(A))
          return false;
      return true;
    };
    if (Vals.size() > 1 && Defaulted(Vals.front()))
      Vals.erase(Vals.begin());
    std::vector<BlockShape> Base;
    for (const Expr *X : Vals) {
      std::vector<BlockShape> One = shapes(X, P, Depth + 1);
      if (One.empty())
        return {}; // one value that does not fold: the shape is unknown
      for (const BlockShape &S : One)
        addUnique(Base, S);
    }
    // `dim3 b; b.x = 32; b.y = 8;`: fields assigned one by one.
    if (const FunctionDecl *F = ownerOf(V)) {
      FunctionFacts &FF = factsOf(F);
      if (Base.empty() && !V->getInit())
        Base.push_back(BlockShape{});
      for (int I = 0; I < 3; ++I) {
        auto It = FF.FieldAssigned.find({V, I == 0 ? "x" : I == 1 ? "y" : "z"});
        if (It == FF.FieldAssigned.end())
          continue;
        std::vector<BlockShape> Next;
        for (const Expr *X : It->second)
          for (int64_t C : ints(X, P, Depth + 1)) {
            if (C <= 0 || C > 1024)
              continue;
            for (BlockShape S : Base) {
              (I == 0 ? S.X : I == 1 ? S.Y : S.Z) = static_cast<unsigned>(C);
              addUnique(Next, S);
            }
          }
        Base = std::move(Next);
      }
    }
    for (const BlockShape &S : Base)
      if (S.count() <= 1024)
        addUnique(Out, S);
    return Out;
  }
  if (const auto *M = dyn_cast<MemberExpr>(E)) {
    for (auto &[X, XP] : fieldValues(M->getBase(), M->getMemberDecl()->getName(),
                                     P, Depth + 1))
      for (const BlockShape &S : shapes(X, XP, Depth + 1))
        addUnique(Out, S);
    return Out;
  }
  if (const auto *C = dyn_cast<ConditionalOperator>(E)) {
    for (const BlockShape &S : shapes(C->getTrueExpr(), P, Depth + 1))
      addUnique(Out, S);
    for (const BlockShape &S : shapes(C->getFalseExpr(), P, Depth + 1))
      addUnique(Out, S);
  }
  return Out;
}

void LaunchResolver::objectsOf(
    const Expr *E, const CallPath &P, int Depth,
    std::vector<std::pair<const Expr *, CallPath>> &Out,
    std::vector<std::pair<const Expr *, CallPath>> *FieldOut, StringRef Field) {
  if (!E || Depth > MaxDepth || Out.size() >= MaxValues)
    return;
  E = strip(E);
  if (const auto *U = dyn_cast<UnaryOperator>(E)) {
    if (U->getOpcode() == UO_AddrOf || U->getOpcode() == UO_Deref)
      return objectsOf(U->getSubExpr(), P, Depth + 1, Out, FieldOut, Field);
    return;
  }
  // A member of `this` (`kernelLaunchConfig_`): what the class's methods
  // give it, parts assigned one by one first, as for a local. Its values do
  // not depend on the launch's call path.
  if (const FieldDecl *FD = thisMember(E)) {
    std::vector<const Expr *> Whole, Parts;
    if (!memberValues(FD, FieldOut ? Field : StringRef(), Whole, Parts))
      return;
    if (FieldOut && !Parts.empty()) {
      for (const Expr *X : Parts)
        FieldOut->push_back({X, CallPath{}});
      return;
    }
    for (const Expr *X : Whole)
      objectsOf(X, CallPath{}, Depth + 1, Out, FieldOut, Field);
    return;
  }
  // `this` asked for a member's own value (`kernel_`, `threads_`).
  if (isa<CXXThisExpr>(E) && FieldOut && !Field.empty()) {
    const auto *RD = E->getType()->getPointeeCXXRecordDecl();
    if (!RD)
      return;
    for (const FieldDecl *FD : RD->fields()) {
      if (FD->getName() != Field)
        continue;
      std::vector<const Expr *> Whole, Parts;
      if (memberValues(FD, StringRef(), Whole, Parts))
        for (const Expr *X : Whole)
          FieldOut->push_back({X, CallPath{}});
    }
    return;
  }
  if (const auto *D = dyn_cast<DeclRefExpr>(E)) {
    if (const auto *PV = dyn_cast<ParmVarDecl>(D->getDecl())) {
      CallPath CP;
      if (const Expr *A = argumentFor(PV, P, CP))
        objectsOf(A, CP, Depth + 1, Out, FieldOut, Field);
      return;
    }
    const auto *V = dyn_cast<VarDecl>(D->getDecl());
    if (!V)
      return;
    // Fields assigned one by one win over the initialiser.
    if (FieldOut && !Field.empty())
      if (const FunctionDecl *F = ownerOf(V)) {
        FunctionFacts &FF = factsOf(F);
        auto It = FF.FieldAssigned.find({V, Field.str()});
        if (It != FF.FieldAssigned.end() && !FF.Tainted.count(V)) {
          for (const Expr *X : It->second)
            FieldOut->push_back({X, P});
          return;
        }
      }
    std::vector<const Expr *> Vals;
    if (!valuesOf(V, Vals))
      return;
    for (const Expr *X : Vals)
      objectsOf(X, P, Depth + 1, Out, FieldOut, Field);
    return;
  }
  if (isa<CXXConstructExpr>(E) || isa<InitListExpr>(E))
    Out.push_back({E, P});
}

std::vector<std::pair<const Expr *, CallPath>>
LaunchResolver::fieldValues(const Expr *Object, StringRef Field, const CallPath &P,
                            int Depth) {
  std::vector<std::pair<const Expr *, CallPath>> Objects, Vals;
  objectsOf(Object, P, Depth, Objects, &Vals, Field);
  // "blockSize[1]": element 1 of the field blockSize's initialiser.
  auto [Name, Index] = splitElement(Field);
  auto addValue = [&](const Expr *X, const CallPath &XP) {
    if (Index)
      X = elementOf(X, *Index);
    if (X)
      Vals.push_back({X, XP});
  };
  for (auto &[O, OP] : Objects) {
    const RecordDecl *RD = O->getType()->getAsRecordDecl();
    if (!RD)
      continue;
    if (const auto *IL = dyn_cast<InitListExpr>(O)) {
      const InitListExpr *Sem = IL->isSemanticForm() ? IL : IL->getSemanticForm();
      if (!Sem)
        continue;
      unsigned I = 0;
      for (const FieldDecl *FD : RD->fields()) {
        if (FD->getName() == Name && I < Sem->getNumInits()) {
          // An ImplicitValueInitExpr (`cfg = {}`) folds to zero.
          addValue(Sem->getInit(I), OP);
        }
        ++I;
      }
      continue;
    }
    const auto *C = cast<CXXConstructExpr>(O);
    const CXXConstructorDecl *Ctor = C->getConstructor();
    if (!Ctor)
      continue;
    if (Ctor->isCopyOrMoveConstructor() && C->getNumArgs() >= 1) {
      for (auto &V : fieldValues(C->getArg(0), Field, OP, Depth + 1))
        Vals.push_back(V);
      continue;
    }
    const CXXConstructorDecl *Def = Ctor;
    if (const FunctionDecl *D = nullptr; Ctor->hasBody(D))
      Def = cast<CXXConstructorDecl>(D);
    for (const CXXCtorInitializer *Init : Def->inits()) {
      const FieldDecl *FD = Init->getMember();
      if (!FD || FD->getName() != Name || !Init->getInit())
        continue;
      const Expr *X = strip(Init->getInit());
      if (const auto *CE = dyn_cast<CXXConstructExpr>(X);
          CE && CE->getNumArgs() == 1)
        X = strip(CE->getArg(0));
      // A constructor parameter: the construction's argument.
      if (const auto *D = dyn_cast<DeclRefExpr>(X))
        if (const auto *PV = dyn_cast<ParmVarDecl>(D->getDecl())) {
          unsigned Idx = PV->getFunctionScopeIndex();
          if (Idx < C->getNumArgs())
            addValue(C->getArg(Idx), OP);
          continue;
        }
      addValue(X, OP);
    }
  }
  return Vals;
}

std::set<const FunctionDecl *> LaunchResolver::kernels(const Expr *E,
                                                      const CallPath &P,
                                                      int Depth) {
  std::set<const FunctionDecl *> Out;
  if (!E || Depth > MaxDepth)
    return Out;
  E = E->IgnoreParenCasts();
  E = strip(E);
  if (const auto *U = dyn_cast<UnaryOperator>(E)) {
    if (U->getOpcode() == UO_AddrOf || U->getOpcode() == UO_Deref)
      return kernels(U->getSubExpr(), P, Depth + 1);
    return Out;
  }
  if (const auto *D = dyn_cast<DeclRefExpr>(E)) {
    if (const auto *F = dyn_cast<FunctionDecl>(D->getDecl())) {
      if (F->hasAttr<CUDAGlobalAttr>())
        Out.insert(F);
      return Out;
    }
    if (const auto *PV = dyn_cast<ParmVarDecl>(D->getDecl())) {
      CallPath CP;
      if (const Expr *A = argumentFor(PV, P, CP))
        return kernels(A, CP, Depth + 1);
      return Out;
    }
    if (const auto *V = dyn_cast<VarDecl>(D->getDecl())) {
      std::vector<const Expr *> Vals;
      if (valuesOf(V, Vals))
        for (const Expr *X : Vals)
          for (const FunctionDecl *K : kernels(X, P, Depth + 1))
            Out.insert(K);
    }
    return Out;
  }
  if (const auto *A = dyn_cast<ArraySubscriptExpr>(E))
    return kernels(A->getBase(), P, Depth + 1);
  if (const auto *IL = dyn_cast<InitListExpr>(E)) {
    for (const Expr *I : IL->inits())
      for (const FunctionDecl *K : kernels(I, P, Depth + 1))
        Out.insert(K);
    return Out;
  }
  if (const auto *C = dyn_cast<ConditionalOperator>(E)) {
    for (const FunctionDecl *K : kernels(C->getTrueExpr(), P, Depth + 1))
      Out.insert(K);
    for (const FunctionDecl *K : kernels(C->getFalseExpr(), P, Depth + 1))
      Out.insert(K);
    return Out;
  }
  if (const auto *M = dyn_cast<MemberExpr>(E)) {
    for (auto &[X, XP] : fieldValues(M->getBase(), M->getMemberDecl()->getName(),
                                     P, Depth + 1))
      for (const FunctionDecl *K : kernels(X, XP, Depth + 1))
        Out.insert(K);
    return Out;
  }
  // A selector (`auto k = selectKernel(flags)`): every kernel its returns
  // may give, its parameters left unbound (the union over its branches).
  if (const auto *C = dyn_cast<CallExpr>(E))
    if (const FunctionDecl *F = C->getDirectCallee();
        F && F->getReturnType()->isFunctionPointerType())
      for (const Expr *R : returnedValues(F))
        for (const FunctionDecl *K : kernels(R, CallPath{}, Depth + 1))
          Out.insert(K);
  return Out;
}

std::set<const FunctionDecl *> LaunchResolver::driverFunctions(const Expr *E,
                                                              const CallPath &P) {
  std::set<const FunctionDecl *> Out;
  const VarDecl *V = varOf(E);
  const FunctionDecl *F = V ? ownerOf(V) : nullptr;
  if (!V || !F)
    return Out;
  auto It = factsOf(F).OutArgs.find(V);
  if (It == factsOf(F).OutArgs.end())
    return Out;
  for (const auto &[Call, Arg] : It->second) {
    const FunctionDecl *Callee = Call->getDirectCallee();
    if (!Callee || !Callee->getIdentifier() || Arg != 0 || Call->getNumArgs() < 2)
      continue;
    StringRef N = Callee->getName();
    if (N == "cudaGetFuncBySymbol") {
      for (const FunctionDecl *K : kernels(Call->getArg(1), P))
        Out.insert(K);
    } else if ((N == "cuModuleGetFunction" || N == "cuLibraryGetKernel") &&
               Call->getNumArgs() >= 3) {
      const auto *S = dyn_cast<StringLiteral>(Call->getArg(2)->IgnoreParenImpCasts());
      if (!S)
        continue;
      auto KI = KernelsByName.find(S->getString().str());
      if (KI != KernelsByName.end())
        Out.insert(KI->second.begin(), KI->second.end());
    }
  }
  return Out;
}

} // namespace cgt::smem
