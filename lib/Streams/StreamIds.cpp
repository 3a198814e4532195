//===- StreamIds.cpp - which stream, event or pointer an expression names -===//
//
// Streams are compared as places (StreamEngine.h): `s`, `ctx.stream`,
// `this->stream_`, `streams[1]`. A local that is given one place's value
// once (`cudaStream_t s = streams[0];`) is that place; a local given values
// twice, or a call's result, is unknown, except the result of a helper of
// the file that returns a stream it creates. The literal 0 (and nullptr, and
// an omitted stream argument) is the default stream: the legacy one, or
// the per-thread one in a translation unit built with
// --default-stream per-thread (the API names then carry _ptsz/_ptds);
// cudaStreamLegacy and cudaStreamPerThread are the constants 1 and 2.
//
// Whether a stream is blocking comes from where this function creates it:
// cudaStreamCreate, or a create call whose constant flags lack the model's
// non-blocking bit, makes a blocking stream.
//
//===----------------------------------------------------------------------===//
#include "Streams/StreamEngine.h"

#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/Lex/Lexer.h"

namespace cgt {
namespace streams {

using namespace clang;

namespace {
/// Locals of the function and what they are given: an initialiser or an
/// assignment each counts once; a local whose address is taken is filled
/// through it (a create call) and stays its own place.
struct CopyScanner : RecursiveASTVisitor<CopyScanner> {
  std::map<const VarDecl *, std::vector<const Expr *>> Given;
  std::set<const VarDecl *> AddressTaken;
  bool VisitUnaryOperator(UnaryOperator *UO) {
    if (UO->getOpcode() == UO_AddrOf)
      if (const auto *DR = dyn_cast<DeclRefExpr>(UO->getSubExpr()->IgnoreParens()))
        if (const auto *VD = dyn_cast<VarDecl>(DR->getDecl()))
          AddressTaken.insert(VD);
    return true;
  }
  bool VisitVarDecl(VarDecl *VD) {
    if (VD->isLocalVarDecl() && VD->getInit())
      Given[VD].push_back(VD->getInit());
    return true;
  }
  bool VisitBinaryOperator(BinaryOperator *BO) {
    if (!BO->isAssignmentOp())
      return true;
    if (const auto *DR = dyn_cast<DeclRefExpr>(BO->getLHS()->IgnoreParenImpCasts()))
      if (const auto *VD = dyn_cast<VarDecl>(DR->getDecl()); VD && VD->isLocalVarDecl())
        Given[VD].push_back(BO->getOpcode() == BO_Assign ? BO->getRHS() : nullptr);
    return true;
  }
};

/// `static cudaStream_t make_stream() { cudaStream_t s = nullptr;
/// cudaStreamCreate(&s); return s; }`: a helper of the file whose every
/// return gives back one automatic local that a create call fills (or
/// null). What it returns is a stream no other place names.
bool returnsCreatedStream(const FunctionDecl *Callee, const StreamOrderAnalyzer::Impl &A) {
  const FunctionDecl *Def = Callee ? Callee->getDefinition() : nullptr;
  if (!Def || !Def->hasBody())
    return false;
  struct Scan : RecursiveASTVisitor<Scan> {
    const VarDecl *Returned = nullptr;
    bool Other = false;
    std::vector<const CallExpr *> Calls;
    std::vector<const Expr *> Assigned;
    bool VisitReturnStmt(ReturnStmt *R) {
      const Expr *V = R->getRetValue() ? R->getRetValue()->IgnoreParenImpCasts() : nullptr;
      if (V && (isa<CXXNullPtrLiteralExpr>(V) || isa<GNUNullExpr>(V)))
        return true;
      const auto *DR = V ? dyn_cast<DeclRefExpr>(V) : nullptr;
      const auto *VD = DR ? dyn_cast<VarDecl>(DR->getDecl()) : nullptr;
      // A static local (`static cudaStream_t s; if (!s) create(&s);`) is
      // one stream for every call: not a new one.
      if (!VD || !VD->hasLocalStorage() || (Returned && Returned != VD))
        Other = true;
      else
        Returned = VD;
      return true;
    }
    bool VisitCallExpr(CallExpr *C) {
      Calls.push_back(C);
      return true;
    }
    bool VisitBinaryOperator(BinaryOperator *BO) {
      if (BO->isAssignmentOp())
        Assigned.push_back(BO->getLHS()->IgnoreParenImpCasts());
      return true;
    }
    bool TraverseLambdaExpr(LambdaExpr *) { return true; }
  } S;
  S.TraverseStmt(Def->getBody());
  if (S.Other || !S.Returned)
    return false;
  auto Names = [&](const Expr *E) {
    const auto *DR = dyn_cast<DeclRefExpr>(E->IgnoreParenImpCasts());
    return DR && DR->getDecl() == S.Returned;
  };
  if (llvm::any_of(S.Assigned, Names))
    return false;
  return llvm::any_of(S.Calls, [&](const CallExpr *Call) {
    const FunctionModel *M = A.modelFor(Call);
    if (!M || M->Order.Role != OrderRole::CreateStream || M->Order.StreamArg < 0 ||
        M->Order.StreamArg >= static_cast<int>(Call->getNumArgs()))
      return false;
    const auto *UO = dyn_cast<UnaryOperator>(Call->getArg(M->Order.StreamArg)->IgnoreParenImpCasts());
    return UO && UO->getOpcode() == UO_AddrOf && Names(UO->getSubExpr());
  });
}

} // namespace

std::optional<long long> constantOf(const Expr *E, ASTContext &Ctx) {
  if (!E || E->isValueDependent())
    return std::nullopt;
  Expr::EvalResult R;
  if (!E->EvaluateAsInt(R, Ctx))
    return std::nullopt;
  return R.Val.getInt().getExtValue();
}

const Expr *stripDefault(const Expr *E) {
  if (const auto *D = dyn_cast_or_null<CXXDefaultArgExpr>(E))
    return D->getExpr();
  return E;
}

bool isDefaultStreamLiteral(const Expr *E, ASTContext &Ctx) {
  const Expr *Bare = stripDefault(E);
  if (!Bare)
    return false;
  Bare = Bare->IgnoreParenCasts();
  if (isa<CXXNullPtrLiteralExpr>(Bare) || isa<GNUNullExpr>(Bare))
    return true;
  auto C = constantOf(Bare, Ctx);
  return C && *C == 0;
}

const Expr *memoryBase(const Expr *E) {
  E = stripDefault(E);
  for (unsigned Depth = 0; E && Depth < 4; ++Depth) {
    E = E->IgnoreParenCasts();
    if (const auto *BO = dyn_cast<BinaryOperator>(E);
        BO && BO->isAdditiveOp() && BO->getLHS()->getType()->isPointerType()) {
      E = BO->getLHS();
      continue;
    }
    if (const auto *UO = dyn_cast<UnaryOperator>(E); UO && UO->getOpcode() == UO_AddrOf)
      if (const auto *AS = dyn_cast<ArraySubscriptExpr>(UO->getSubExpr()->IgnoreParens())) {
        E = AS->getBase();
        continue;
      }
    break;
  }
  return E;
}

unsigned FunctionRun::idFor(const PlaceKey &K, const std::string &Name, bool Fuzzy) {
  auto [It, Fresh] = Ids.try_emplace(K, static_cast<unsigned>(Streams.size()));
  if (Fresh)
    Streams.push_back({K, Name, Blocking::Unknown, Fuzzy});
  return It->second;
}

bool FunctionRun::keyOf(const Expr *E, PlaceKey &K, std::string &Name, bool &Fuzzy) {
  E = E->IgnoreParenImpCasts();
  if (const auto *DR = dyn_cast<DeclRefExpr>(E)) {
    const auto *VD = dyn_cast<VarDecl>(DR->getDecl());
    if (!VD)
      return false;
    K.Base = VD;
    Name = VD->getNameAsString();
    return true;
  }
  if (const auto *ME = dyn_cast<MemberExpr>(E)) {
    const auto *Field = dyn_cast<FieldDecl>(ME->getMemberDecl());
    if (!Field)
      return false;
    const Expr *Base = ME->getBase()->IgnoreParenImpCasts();
    if (isa<CXXThisExpr>(Base)) {
      K.Member = placeOfMember(Field);
      Name = Field->getNameAsString();
      return true;
    }
    PlaceKey Inner;
    if (!keyOf(Base, Inner, Name, Fuzzy) || Inner.Index >= 0 || !Inner.Text.empty())
      return false;
    if (Inner.Base && Inner.Member)
      return false;
    K.Base = Inner.Base ? Inner.Base : Inner.Member;
    K.Member = placeOfMember(Field);
    Name += (ME->isArrow() ? "->" : ".") + Field->getNameAsString();
    return true;
  }
  if (const auto *AS = dyn_cast<ArraySubscriptExpr>(E)) {
    if (!keyOf(AS->getBase(), K, Name, Fuzzy) || K.Index >= 0 || !K.Text.empty())
      return false;
    if (auto C = constantOf(AS->getIdx(), Ctx)) {
      K.Index = *C;
      Name += "[" + std::to_string(*C) + "]";
      return true;
    }
    const SourceManager &SM = Ctx.getSourceManager();
    K.Text = Lexer::getSourceText(CharSourceRange::getTokenRange(AS->getIdx()->getSourceRange()),
                                  SM, Ctx.getLangOpts())
                 .str();
    Name += "[" + K.Text + "]";
    Fuzzy = true;
    return !K.Text.empty();
  }
  return false;
}

unsigned FunctionRun::keyedId(const Expr *E) {
  PlaceKey K;
  std::string Name;
  bool Fuzzy = false;
  if (!E || !keyOf(E, K, Name, Fuzzy))
    return Unknown;
  return idFor(K, Name, Fuzzy);
}

unsigned FunctionRun::placeId(const Expr *E) {
  for (unsigned Depth = 0; E && Depth < 4; ++Depth) {
    E = stripDefault(E)->IgnoreParenImpCasts();
    const auto *DR = dyn_cast<DeclRefExpr>(E);
    const auto *VD = DR ? dyn_cast<VarDecl>(DR->getDecl()) : nullptr;
    if (!VD || !VD->isLocalVarDecl())
      break;
    auto It = CopiedFrom.find(VD);
    if (It == CopiedFrom.end())
      break;            // never given a value: its own place
    if (!It->second)
      return Unknown;   // given several, or a call's result
    E = It->second;
  }
  return keyedId(E);
}

unsigned FunctionRun::streamOf(const Expr *E) {
  E = stripDefault(E);
  if (!E || isDefaultStreamLiteral(E, Ctx))
    return defaultStream();
  const Expr *Bare = E->IgnoreParenCasts();
  if (auto C = constantOf(Bare, Ctx))
    return *C == 1 ? LegacyStream : *C == 2 ? PerThreadStream : Unknown;
  // A local stream that is the default stream by its only value.
  if (const auto *DR = dyn_cast<DeclRefExpr>(Bare))
    if (const auto *VD = dyn_cast<VarDecl>(DR->getDecl()))
      if (auto It = CopiedFrom.find(VD); It != CopiedFrom.end() && It->second) {
        if (isDefaultStreamLiteral(It->second, Ctx) || constantOf(It->second->IgnoreParenCasts(), Ctx))
          return streamOf(It->second);
      }
  unsigned Id = placeId(E);
  return Id < MaxStreams ? Id : Unknown;
}

unsigned FunctionRun::pointerOf(const Expr *E) {
  E = memoryBase(E);
  if (!E)
    return Unknown;
  if (E->getType()->isPointerType())
    return keyedId(E);
  if (E->getType()->isIntegerType())
    return allocatedAddressOf(E);
  return Unknown;
}

/// A driver-API address (`CUdeviceptr d`, `d + off`) is an integer: it is
/// memory only where an allocation already filled its place, since most
/// integers given to a stream call are sizes and values.
unsigned FunctionRun::allocatedAddressOf(const Expr *E) {
  for (unsigned Depth = 0; Depth < 4; ++Depth) {
    const auto *BO = dyn_cast<BinaryOperator>(E->IgnoreParenCasts());
    if (!BO || !BO->isAdditiveOp() || !BO->getLHS()->getType()->isIntegerType())
      break;
    E = BO->getLHS();
  }
  PlaceKey K;
  std::string Name;
  bool Fuzzy = false;
  if (!keyOf(E->IgnoreParenCasts(), K, Name, Fuzzy))
    return Unknown;
  auto It = Ids.find(K);
  return It != Ids.end() ? It->second : Unknown;
}

unsigned FunctionRun::pointerOutOf(const Expr *E) {
  E = stripDefault(E);
  const auto *UO = E ? dyn_cast<UnaryOperator>(E->IgnoreParenCasts()) : nullptr;
  if (!UO || UO->getOpcode() != UO_AddrOf)
    return Unknown;
  return keyedId(UO->getSubExpr());
}

void FunctionRun::scanStreamCreations() {
  CopyScanner Copies;
  Copies.TraverseStmt(FD->getBody());
  for (const auto &[VD, Values] : Copies.Given) {
    if (Copies.AddressTaken.count(VD))
      continue; // filled through its address (a create call): its own place
    if (Values.size() == 1 && Values[0])
      if (const auto *Call = dyn_cast<CallExpr>(Values[0]->IgnoreParenImpCasts());
          Call && returnsCreatedStream(Call->getDirectCallee(), A))
        continue; // a stream a helper of the file creates: its own place
    bool OneCopy = Values.size() == 1 && Values[0] &&
                   !isa<CallExpr>(Values[0]->IgnoreParenImpCasts());
    CopiedFrom[VD] = OneCopy ? Values[0] : nullptr;
  }
  // Creations: the stream is its own place; the flags say whether it blocks.
  struct Calls : RecursiveASTVisitor<Calls> {
    std::vector<const CallExpr *> All;
    bool VisitCallExpr(CallExpr *C) {
      All.push_back(C);
      return true;
    }
  } C;
  C.TraverseStmt(FD->getBody());
  std::map<unsigned, Blocking> Seen;
  for (const CallExpr *Call : C.All) {
    const FunctionModel *M = A.modelFor(Call);
    if (!M || M->Order.Role != OrderRole::CreateStream ||
        M->Order.StreamArg >= static_cast<int>(Call->getNumArgs()))
      continue;
    unsigned S = pointerOutOf(Call->getArg(M->Order.StreamArg));
    if (S == Unknown)
      continue;
    Blocking B = Blocking::Yes;
    if (M->Order.FlagsArg >= 0 && M->Order.FlagsArg < static_cast<int>(Call->getNumArgs())) {
      auto Flags = constantOf(Call->getArg(M->Order.FlagsArg), Ctx);
      B = !Flags ? Blocking::Unknown : (*Flags & M->Order.FlagBit) ? Blocking::No : Blocking::Yes;
    }
    auto [It, Fresh] = Seen.try_emplace(S, B);
    if (!Fresh && It->second != B)
      It->second = Blocking::Unknown;
  }
  for (auto [S, B] : Seen) {
    Streams[S].IsBlocking = B;
    Streams[S].CreatedHere = true;
  }
}

/// A stream this function creates blocks as its flags say; a member or a
/// global created elsewhere in the file, as every creation there says.
Blocking FunctionRun::blockingOf(unsigned S) const {
  if (S >= Streams.size())
    return Blocking::Unknown;
  const StreamInfo &Info = Streams[S];
  if (S < FirstPlaceId || Info.CreatedHere || Info.Fuzzy)
    return Info.IsBlocking;
  const clang::ValueDecl *Shared = Info.Key.Member;
  if (!Shared)
    if (const auto *VD = dyn_cast_or_null<clang::VarDecl>(Info.Key.Base); VD && VD->hasGlobalStorage())
      Shared = VD;
  return Shared && Info.Key.Index < 0 ? A.fileWideBlocking(Shared) : Info.IsBlocking;
}

std::string FunctionRun::streamName(unsigned S) const {
  if (S == LegacyStream)
    return "the legacy default stream";
  if (S == PerThreadStream)
    return "the per-thread default stream";
  return "stream '" + placeName(S) + "'";
}

std::string FunctionRun::placeName(unsigned Id) const {
  return Id < Streams.size() ? Streams[Id].Name : std::string("?");
}

} // namespace streams
} // namespace cgt
