//===- UnitText.cpp - what a unit's text says it defines and calls -------===//
//
// The scan is a tokenizer, not a parser: comments, literals and
// preprocessor lines are skipped; `name ( ... ) {` outside `.`/`->` is a
// definition, `name ( args` anything else a call. It reads a few hundred
// kilobytes per project in milliseconds, against seconds per parse.
//
// Methods are left out (`Class::name ( ... ) {`, `obj.name (`): a unit is
// given the entries whose plain name its text calls, and plain method
// names (`Run`, `Forward`) match across classes. Ordered by them, lmdeploy
// took 342 parses (48 of them checks parsed again alone, as a unit's own
// function had been given an entry) against 252 without.
//
// The project headers a main file includes (`#include "..."`, found beside
// the including file or under a folder above the main file, as
// `"src/core/check.h"` is from the repository root) add the calls of their
// inline functions: lmdeploy's `EnsureNotNull`, a template in check.h that
// every unit instantiates, calls `ReportNullError` of check.cc, and without
// it 166 of 196 units were parsed a second time for that entry. What the
// headers define is not a definition of the unit (every includer has it).
// A macro the unit uses calls what its body calls (xgboost's `safe_cuda`
// expands to `ThrowOnCudaError` of common.cu), from the headers' `#define`s
// and the main file's.
//
//===----------------------------------------------------------------------===//
#include "summaries/UnitText.h"

#include "llvm/ADT/StringSet.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include <map>
#include <optional>

namespace cgt {
namespace {

bool isIdentStart(char C) { return (C >= 'a' && C <= 'z') || (C >= 'A' && C <= 'Z') || C == '_'; }
bool isIdentChar(char C) { return isIdentStart(C) || (C >= '0' && C <= '9'); }

/// The tokens of `Text` that matter here: identifiers and punctuation,
/// with `->` and `::` as one token each.
std::vector<llvm::StringRef> tokens(llvm::StringRef Text) {
  std::vector<llvm::StringRef> Out;
  size_t I = 0, N = Text.size();
  bool LineStart = true;
  while (I < N) {
    char C = Text[I];
    if (C == '\n') {
      LineStart = true;
      ++I;
    } else if (C == ' ' || C == '\t' || C == '\r' || C == '\f' || C == '\v') {
      ++I;
    } else if (LineStart && C == '#') { // a directive, continued lines too
      while (I < N && Text[I] != '\n')
        I += Text[I] == '\\' && I + 1 < N ? 2 : 1;
    } else if (Text.substr(I).starts_with("//")) {
      I = std::min(N, Text.find('\n', I));
    } else if (Text.substr(I).starts_with("/*")) {
      size_t End = Text.find("*/", I + 2);
      I = End == llvm::StringRef::npos ? N : End + 2;
    } else if (C == '"' || C == '\'') {
      for (++I; I < N && Text[I] != C && Text[I] != '\n';)
        I += Text[I] == '\\' ? 2 : 1;
      ++I;
      LineStart = false;
    } else if (isIdentStart(C)) {
      size_t B = I;
      while (I < N && isIdentChar(Text[I]))
        ++I;
      Out.push_back(Text.slice(B, I));
      LineStart = false;
    } else {
      size_t Len = Text.substr(I).starts_with("->") || Text.substr(I).starts_with("::") ? 2 : 1;
      Out.push_back(Text.substr(I, Len));
      I += Len;
      LineStart = false;
    }
  }
  return Out;
}

bool isKeyword(llvm::StringRef T) {
  static const llvm::StringSet<> Words = {
      "if", "for", "while", "switch", "return", "sizeof", "decltype", "static_assert",
      "alignof", "alignas", "catch", "defined", "noexcept", "throw", "__attribute__",
      "__launch_bounds__", "__declspec", "static_cast", "reinterpret_cast", "const_cast",
      "dynamic_cast", "typeid", "operator", "new", "delete", "do", "else", "case"};
  return Words.contains(T);
}

/// The index of the `)` closing the `(` at `Open`, or the end.
size_t closing(const std::vector<llvm::StringRef> &T, size_t Open) {
  int Depth = 0;
  for (size_t I = Open; I < T.size(); ++I) {
    Depth += T[I] == "(" ? 1 : T[I] == ")" ? -1 : 0;
    if (Depth == 0)
      return I;
  }
  return T.size();
}

/// Whether the declaration that ends at token `Name` says other files
/// cannot call it: the tokens back to the previous `;`, `{` or `}`.
bool notCallableElsewhere(const std::vector<llvm::StringRef> &T, size_t Name) {
  for (size_t I = Name; I-- > 0;) {
    llvm::StringRef W = T[I];
    if (W == ";" || W == "{" || W == "}")
      return false;
    if (W == "static" || W == "template" || W == "__global__" || W == "__device__" ||
        W == "inline" || W == ">" || W == "::")
      return true; // a template, a member, device code, internal or inline
  }
  return false;
}

/// `obj.name (`, `p->name (`.
bool isMethodCall(const std::vector<llvm::StringRef> &T, size_t Name) {
  return Name > 0 && (T[Name - 1] == "." || T[Name - 1] == "->");
}

/// Whether `name (` at token `Name` reads as a declaration rather than a
/// call: after a type (`void buf_release(`, `T *make(`, `std::vector<int>
/// sizes(`), not after what starts an expression (`{`, `;`, `=`, `(`, `,`,
/// `return`). A header declares far more than it calls.
bool looksDeclared(const std::vector<llvm::StringRef> &T, size_t Name) {
  size_t I = Name;
  while (I >= 2 && T[I - 1] == "::" && isIdentStart(T[I - 2][0]))
    I -= 2; // `ns::f(`: what stands before the qualifier
  if (I >= 1 && T[I - 1] == "::")
    --I; // `::ns::f(`
  if (I == 0)
    return false; // a macro's body starts with its call
  llvm::StringRef Before = T[I - 1];
  static const llvm::StringSet<> StartExpressions = {"return", "else", "do", "throw",
                                                     "case", "co_return", "co_await"};
  if (isIdentStart(Before[0]))
    return !StartExpressions.contains(Before);
  return Before == "*" || Before == "&" || Before == ">" || Before == "~" || Before == "::";
}

} // namespace

MainFileNames scanMainFile(llvm::StringRef Text) {
  MainFileNames Out;
  std::vector<llvm::StringRef> T = tokens(Text);
  for (size_t I = 0; I + 1 < T.size(); ++I) {
    if (!isIdentStart(T[I][0]) || T[I + 1] != "(" || isKeyword(T[I]))
      continue;
    if (isMethodCall(T, I))
      continue; // entries of methods are looked up by their plain name too:
                // `Run`, `Forward` would give a unit its own methods' names
    size_t Close = closing(T, I + 1);
    size_t After = Close + 1;
    while (After < T.size() && (T[After] == "const" || T[After] == "override"))
      ++After;
    if (After < T.size() && T[After] == "{") {
      if (!notCallableElsewhere(T, I))
        Out.Defines.insert(T[I].str());
    } else if (Close > I + 2) {
      Out.Calls.insert(T[I].str());
    }
  }
  return Out;
}

std::set<std::string> scanHeaderCalls(llvm::StringRef Text) {
  std::set<std::string> Out;
  std::vector<llvm::StringRef> T = tokens(Text);
  for (size_t I = 0; I + 1 < T.size(); ++I) {
    if (!isIdentStart(T[I][0]) || T[I + 1] != "(" || isKeyword(T[I]) || isMethodCall(T, I) ||
        looksDeclared(T, I))
      continue;
    if (closing(T, I + 1) > I + 2)
      Out.insert(T[I].str());
  }
  return Out;
}

namespace {

/// What follows `# Name` on a directive line (`#  include "a.h"` gives
/// `"a.h"`), or nothing when the line is not that directive.
std::optional<llvm::StringRef> directiveOperands(llvm::StringRef Line, llvm::StringRef Name) {
  Line = Line.ltrim();
  if (!Line.consume_front("#"))
    return std::nullopt;
  Line = Line.ltrim();
  if (!Line.consume_front(Name))
    return std::nullopt;
  return Line.ltrim();
}

/// The names of the `#include "..."` lines of `Text` (angle brackets name
/// system and third-party headers: not followed).
std::vector<std::string> quotedIncludes(llvm::StringRef Text) {
  std::vector<std::string> Out;
  while (!Text.empty()) {
    auto [Whole, Rest] = Text.split('\n');
    Text = Rest;
    std::optional<llvm::StringRef> Operands = directiveOperands(Whole, "include");
    llvm::StringRef Line = Operands.value_or("");
    if (!Line.consume_front("\""))
      continue;
    size_t End = Line.find('"');
    if (End != llvm::StringRef::npos && End > 0)
      Out.push_back(Line.take_front(End).str());
  }
  return Out;
}

/// Per macro, the names its body calls (`#define safe_cuda(ans)
/// ThrowOnCudaError((ans), __FILE__, __LINE__)`): a use of the macro calls
/// them.
using MacroCalls = std::map<std::string, std::set<std::string>>;

MacroCalls macroCalls(llvm::StringRef Text) {
  MacroCalls Out;
  while (!Text.empty()) {
    auto [First, Rest] = Text.split('\n');
    std::string Line = First.rtrim().str();
    while (!Line.empty() && Line.back() == '\\' && !Rest.empty()) {
      Line.pop_back();
      auto [Next, After] = Rest.split('\n');
      Line += " " + Next.rtrim().str();
      Rest = After;
    }
    Text = Rest;
    std::optional<llvm::StringRef> Operands = directiveOperands(Line, "define");
    if (!Operands)
      continue;
    llvm::StringRef L = *Operands;
    size_t N = 0;
    while (N < L.size() && isIdentChar(L[N]))
      ++N;
    if (N == 0)
      continue;
    llvm::StringRef Body = L.drop_front(N);
    if (Body.starts_with("(")) { // parameters of a function-like macro
      size_t Close = Body.find(')');
      if (Close == llvm::StringRef::npos)
        continue;
      Body = Body.drop_front(Close + 1);
    }
    std::set<std::string> Calls = scanHeaderCalls(Body);
    if (!Calls.empty())
      Out[L.take_front(N).str()].insert(Calls.begin(), Calls.end());
  }
  return Out;
}

/// Adds to `Calls` what the macros among them call, and what those call.
void expandMacros(std::set<std::string> &Calls, const MacroCalls &Macros) {
  std::vector<std::string> Work(Calls.begin(), Calls.end());
  while (!Work.empty()) {
    std::string Name = std::move(Work.back());
    Work.pop_back();
    auto It = Macros.find(Name);
    if (It == Macros.end())
      continue;
    for (const std::string &Call : It->second)
      if (Calls.insert(Call).second)
        Work.push_back(Call);
  }
}

} // namespace

/// The project headers a unit reaches, scanned once per run however many
/// units include them.
class HeaderCalls {
public:
  /// The calls of the headers `MainFile` includes, transitively, up to
  /// MaxHeaders of them, and their macros'.
  struct Reached {
    std::set<std::string> Calls;
    MacroCalls Macros;
  };
  Reached of(const std::string &MainFile, llvm::StringRef MainText) {
    Reached Out;
    std::set<std::string> &Calls = Out.Calls;
    std::set<std::string> Seen;
    std::vector<std::pair<std::string, std::string>> Work; // (includer, name)
    for (std::string &Name : quotedIncludes(MainText))
      Work.push_back({MainFile, std::move(Name)});
    while (!Work.empty() && Seen.size() < MaxHeaders) {
      auto [Includer, Name] = Work.back();
      Work.pop_back();
      std::string Path = resolve(Includer, Name, MainFile);
      if (Path.empty() || !Seen.insert(Path).second)
        continue;
      const Scanned &H = scan(Path);
      Calls.insert(H.Calls.begin(), H.Calls.end());
      for (const auto &[Macro, Called] : H.Macros)
        Out.Macros[Macro].insert(Called.begin(), Called.end());
      for (const std::string &Next : H.Includes)
        Work.push_back({Path, Next});
    }
    return Out;
  }

private:
  static constexpr size_t MaxHeaders = 512;
  static constexpr uint64_t MaxBytes = 4 << 20;
  struct Scanned {
    std::set<std::string> Calls;
    MacroCalls Macros;
    std::vector<std::string> Includes;
  };

  /// Beside the includer, else under a folder above the main file.
  static std::string resolve(const std::string &Includer, const std::string &Name,
                             const std::string &MainFile) {
    if (llvm::sys::path::is_absolute(Name))
      return llvm::sys::fs::is_regular_file(Name) ? Name : "";
    llvm::SmallString<256> Candidate(llvm::sys::path::parent_path(Includer));
    llvm::sys::path::append(Candidate, Name);
    if (llvm::sys::fs::is_regular_file(Candidate))
      return std::string(Candidate);
    for (llvm::StringRef Dir = llvm::sys::path::parent_path(MainFile); !Dir.empty();
         Dir = llvm::sys::path::parent_path(Dir)) {
      Candidate = Dir;
      llvm::sys::path::append(Candidate, Name);
      if (llvm::sys::fs::is_regular_file(Candidate))
        return std::string(Candidate);
      if (Dir == llvm::sys::path::root_path(Dir))
        break;
    }
    return "";
  }

  const Scanned &scan(const std::string &Path) {
    auto [It, New] = Cache.try_emplace(Path);
    if (!New)
      return It->second;
    auto Buf = llvm::MemoryBuffer::getFile(Path);
    if (!Buf || (*Buf)->getBufferSize() > MaxBytes)
      return It->second;
    It->second.Calls = scanHeaderCalls((*Buf)->getBuffer());
    It->second.Macros = macroCalls((*Buf)->getBuffer());
    It->second.Includes = quotedIncludes((*Buf)->getBuffer());
    return It->second;
  }

  std::map<std::string, Scanned> Cache;
};

UnitCalls UnitTextScanner::scan(const std::string &MainFile, llvm::StringRef Text) {
  UnitCalls Out;
  Out.Main = scanMainFile(Text);
  HeaderCalls::Reached FromHeaders = Headers->of(MainFile, Text);
  for (auto &[Macro, Called] : macroCalls(Text))
    FromHeaders.Macros[Macro].insert(Called.begin(), Called.end());
  std::set<std::string> All = Out.Main.Calls;
  All.insert(FromHeaders.Calls.begin(), FromHeaders.Calls.end());
  expandMacros(All, FromHeaders.Macros);
  for (const std::string &C : All)
    if (!Out.Main.Calls.count(C))
      Out.Indirect.insert(C);
  return Out;
}

UnitTextScanner::UnitTextScanner() : Headers(std::make_unique<HeaderCalls>()) {}
UnitTextScanner::~UnitTextScanner() = default;

} // namespace cgt
