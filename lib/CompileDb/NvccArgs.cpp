//===- NvccArgs.cpp - nvcc command lines as clang command lines -----------===//
//
// nvcc accepts every long option with one or two dashes and its value either
// after '=' or as the next argument, so options are looked up by their bare
// name (dashes and "=value" removed) in one table that says what to do.
//
//===----------------------------------------------------------------------===//
#include "CompileDb/NvccArgs.h"

#include <algorithm>
#include <cctype>
#include <map>

namespace cgt {
namespace {

enum class Action {
  DropFlag,      ///< nvcc-only switch without a value
  DropValue,     ///< nvcc-only option with a value
  HostOptions,   ///< -Xcompiler: comma-separated host flags
  Arch,          ///< -arch / -gencode: becomes --offload-arch
  OptionsFile,   ///< --options-file: a response file
  Language,      ///< -x
  Std,           ///< -std
  Joined,        ///< long form of a clang flag: "--include-path X" -> "-IX"
  Flag,          ///< long form of a clang switch: "--compile" -> "-c"
  /// --default-stream: per-thread is what nvcc makes of it, the macro that
  /// renames the API (cudaMemcpyAsync_ptsz) and the launches' stream 0.
  DefaultStream,
  /// -dc: separate compilation, which clang calls -fgpu-rdc.
  DeviceC,
  /// -rdc=true|false: -fgpu-rdc when true.
  Rdc,
};

struct Rule {
  Action Act;
  const char *Clang = ""; ///< for Joined and Flag
};

const std::map<std::string, Rule> &rules() {
  static const std::map<std::string, Rule> R = {
      // Language extensions nvcc enables by flag; clang's CUDA mode has
      // them (relaxed constexpr, extended lambdas) on already.
      {"expt-relaxed-constexpr", {Action::DropFlag}},
      {"extended-lambda", {Action::DropFlag}},
      {"expt-extended-lambda", {Action::DropFlag}},
      // Device code generation and debugging.
      {"G", {Action::DropFlag}},
      {"device-debug", {Action::DropFlag}},
      {"lineinfo", {Action::DropFlag}},
      {"generate-line-info", {Action::DropFlag}},
      {"use_fast_math", {Action::DropFlag}},
      {"use-fast-math", {Action::DropFlag}},
      {"src-in-ptx", {Action::DropFlag}},
      {"source-in-ptx", {Action::DropFlag}},
      {"restrict", {Action::DropFlag}},
      {"keep", {Action::DropFlag}},
      {"keep-device-functions", {Action::DropFlag}},
      {"res-usage", {Action::DropFlag}},
      {"resource-usage", {Action::DropFlag}},
      {"extensible-whole-program", {Action::DropFlag}},
      {"ewp", {Action::DropFlag}},
      // Relocatable device code changes what parses: clang accepts
      // `extern __shared__ T x;` (a non-array) only with -fgpu-rdc.
      {"dc", {Action::DeviceC}},
      {"device-c", {Action::DeviceC}},
      {"dw", {Action::DropFlag}},
      {"device-w", {Action::DropFlag}},
      {"dlink", {Action::DropFlag}},
      {"device-link", {Action::DropFlag}},
      {"dryrun", {Action::DropFlag}},
      // Driver behaviour and diagnostics of nvcc itself.
      {"forward-unknown-to-host-compiler", {Action::DropFlag}},
      {"forward-unknown-to-host-linker", {Action::DropFlag}},
      {"forward-unknown-opts", {Action::DropFlag}},
      {"allow-unsupported-compiler", {Action::DropFlag}},
      {"Wno-deprecated-gpu-targets", {Action::DropFlag}},
      {"Wreorder", {Action::DropFlag}},
      {"Wext-lambda-captures-this", {Action::DropFlag}},
      {"Wmissing-launch-bounds", {Action::DropFlag}},
      {"Wdefault-stream-launch", {Action::DropFlag}},
      {"display-error-number", {Action::DropFlag}},
      {"no-display-error-number", {Action::DropFlag}},
      {"err-no", {Action::DropFlag}},
      {"no-host-device-initializer-list", {Action::DropFlag}},
      {"no-host-device-move-forward", {Action::DropFlag}},
      {"no-exceptions", {Action::DropFlag}},
      // Options with a value that only nvcc, ptxas, cudafe, fatbinary or
      // nvlink understand.
      {"ccbin", {Action::DropValue}},
      {"compiler-bindir", {Action::DropValue}},
      {"Xptxas", {Action::DropValue}},
      {"ptxas-options", {Action::DropValue}},
      {"Xcudafe", {Action::DropValue}},
      {"Xnvlink", {Action::DropValue}},
      {"nvlink-options", {Action::DropValue}},
      {"Xfatbin", {Action::DropValue}},
      {"fatbin-options", {Action::DropValue}},
      {"Xarchive", {Action::DropValue}},
      {"archive-options", {Action::DropValue}},
      {"Xnvvm", {Action::DropValue}},
      {"Xlinker", {Action::DropValue}},
      {"linker-options", {Action::DropValue}},
      {"default-stream", {Action::DefaultStream}},
      {"diag-suppress", {Action::DropValue}},
      {"diag-error", {Action::DropValue}},
      {"diag-warn", {Action::DropValue}},
      {"diag-default", {Action::DropValue}},
      {"rdc", {Action::Rdc}},
      {"relocatable-device-code", {Action::Rdc}},
      {"maxrregcount", {Action::DropValue}},
      {"keep-dir", {Action::DropValue}},
      {"odir", {Action::DropValue}},
      {"output-directory", {Action::DropValue}},
      {"threads", {Action::DropValue}},
      {"t", {Action::DropValue}},
      {"split-compile", {Action::DropValue}},
      {"code", {Action::DropValue}},
      {"gpu-code", {Action::DropValue}},
      {"cudart", {Action::DropValue}},
      {"cudadevrt", {Action::DropValue}},
      {"ftz", {Action::DropValue}},
      {"prec-div", {Action::DropValue}},
      {"prec-sqrt", {Action::DropValue}},
      {"fmad", {Action::DropValue}},
      {"dopt", {Action::DropValue}},
      {"static-global-template-stub", {Action::DropValue}},
      {"time", {Action::DropValue}},
      {"target-directory", {Action::DropValue}},
      {"Werror", {Action::DropValue}},
      // Host compiler flags and GPU architectures.
      {"Xcompiler", {Action::HostOptions}},
      {"compiler-options", {Action::HostOptions}},
      {"arch", {Action::Arch}},
      {"gpu-architecture", {Action::Arch}},
      {"gencode", {Action::Arch}},
      {"generate-code", {Action::Arch}},
      {"options-file", {Action::OptionsFile}},
      {"optf", {Action::OptionsFile}},
      {"x", {Action::Language}},
      {"std", {Action::Std}},
      // Long spellings of flags clang knows by their short name.
      {"include-path", {Action::Joined, "-I"}},
      {"system-include", {Action::Joined, "-isystem"}},
      {"define-macro", {Action::Joined, "-D"}},
      {"undefine-macro", {Action::Joined, "-U"}},
      {"pre-include", {Action::Joined, "-include"}},
      {"output-file", {Action::Joined, "-o"}},
      {"optimize", {Action::Joined, "-O"}},
      {"compile", {Action::Flag, "-c"}},
      {"disable-warnings", {Action::Flag, "-w"}},
  };
  return R;
}

std::string baseName(const std::string &Path) {
  size_t Slash = Path.find_last_of("/\\");
  std::string Base = Slash == std::string::npos ? Path : Path.substr(Slash + 1);
  if (Base.size() > 4 && Base.compare(Base.size() - 4, 4, ".exe") == 0)
    Base.resize(Base.size() - 4);
  return Base;
}

bool isNvcc(const std::string &Arg) { return baseName(Arg) == "nvcc"; }

bool isLauncher(const std::string &Arg) {
  std::string B = baseName(Arg);
  return B == "ccache" || B == "sccache" || B == "buildcache";
}

/// Index of nvcc in the command, or npos.
size_t nvccIndex(const std::vector<std::string> &Args) {
  if (Args.empty())
    return std::string::npos;
  if (isNvcc(Args[0]))
    return 0;
  if (Args.size() > 1 && isLauncher(Args[0]) && isNvcc(Args[1]))
    return 1;
  return std::string::npos;
}

std::vector<std::string> splitHostOptions(const std::string &Value) {
  std::vector<std::string> Out;
  std::string Cur;
  for (char C : Value) {
    if (C == ',' || std::isspace(static_cast<unsigned char>(C))) {
      if (!Cur.empty())
        Out.push_back(Cur);
      Cur.clear();
    } else {
      Cur += C;
    }
  }
  if (!Cur.empty())
    Out.push_back(Cur);
  return Out;
}

/// "sm_90a" / "compute_100f" -> "100" style digits after a prefix, else "".
std::string archNumber(const std::string &Token, const std::string &Prefix) {
  if (Token.compare(0, Prefix.size(), Prefix) != 0)
    return "";
  std::string Digits;
  for (size_t I = Prefix.size(); I < Token.size() && std::isdigit(
                                       static_cast<unsigned char>(Token[I]));
       ++I)
    Digits += Token[I];
  return Digits;
}

std::vector<std::string> tokens(const std::string &S) {
  std::vector<std::string> Out;
  std::string Cur;
  for (char C : S) {
    if (std::isalnum(static_cast<unsigned char>(C)) || C == '_') {
      Cur += C;
    } else {
      if (!Cur.empty())
        Out.push_back(Cur);
      Cur.clear();
    }
  }
  if (!Cur.empty())
    Out.push_back(Cur);
  return Out;
}

/// Splits "--name=value" / "-name=value" into the bare name and value.
void splitOption(const std::string &Arg, std::string &Name, std::string &Value,
                 bool &HasValue) {
  size_t Start = Arg.compare(0, 2, "--") == 0 ? 2 : 1;
  size_t Eq = Arg.find('=');
  HasValue = Eq != std::string::npos;
  Name = Arg.substr(Start, HasValue ? Eq - Start : std::string::npos);
  Value = HasValue ? Arg.substr(Eq + 1) : "";
}

/// Builds the clang command while walking the nvcc one.
class Translator {
public:
  Translator(const std::vector<std::string> &In) : In(In) {}

  NvccTranslation run(const std::string &Compiler);

private:
  void handle(size_t &I);
  bool takeValue(size_t &I, bool HasValue, std::string &Value,
                 bool DashValue = true);
  void addArch(const std::string &Value, const std::string &Original);
  void addRdc();

  const std::vector<std::string> &In;
  NvccTranslation Out;
  std::vector<std::string> Archs;
  size_t ArchPos = std::string::npos; ///< where the first arch flag was
  bool Rdc = false;                   ///< -fgpu-rdc added already
};

std::string lower(std::string S) {
  for (char &C : S)
    C = static_cast<char>(std::tolower(static_cast<unsigned char>(C)));
  return S;
}

/// -dc and -rdc=true say the same; one -fgpu-rdc for both.
void Translator::addRdc() {
  if (!Rdc)
    Out.Args.push_back("-fgpu-rdc");
  Rdc = true;
}

/// The value of an option given as "-opt value". Values of the -X* family
/// are flags themselves; for other options a following "-..." is the next
/// option, not a value (a stray "-Werror" must not swallow "-c").
bool Translator::takeValue(size_t &I, bool HasValue, std::string &Value,
                           bool DashValue) {
  if (HasValue)
    return true;
  if (I + 1 >= In.size())
    return false;
  if (!DashValue && !In[I + 1].empty() && In[I + 1][0] == '-')
    return false;
  Value = In[++I];
  return true;
}

void Translator::addArch(const std::string &Value, const std::string &Original) {
  std::string Arch = nvccArchToOffloadArch(Value);
  if (ArchPos == std::string::npos)
    ArchPos = Out.Args.size();
  if (Arch.empty()) {
    Out.Dropped.push_back(Original);
    return;
  }
  if (std::find(Archs.begin(), Archs.end(), Arch) == Archs.end())
    Archs.push_back(Arch);
}

void Translator::handle(size_t &I) {
  const std::string &Arg = In[I];
  if (Arg.size() < 2 || Arg[0] != '-') {
    Out.Args.push_back(Arg);
    return;
  }
  std::string Name, Value;
  bool HasValue;
  splitOption(Arg, Name, Value, HasValue);
  auto It = rules().find(Name);
  if (It == rules().end()) {
    Out.Args.push_back(Arg); // -I, -D, -O2, -Wall, -fPIC, ...: host flags
    return;
  }
  const Rule &R = It->second;
  std::string Original = Arg;
  switch (R.Act) {
  case Action::DropFlag:
    Out.Dropped.push_back(Arg);
    return;
  case Action::DropValue:
    if (takeValue(I, HasValue, Value, Name[0] == 'X' || Name.find("options") != std::string::npos) &&
        !HasValue)
      Original += " " + Value;
    Out.Dropped.push_back(Original);
    return;
  case Action::HostOptions:
    if (takeValue(I, HasValue, Value))
      for (const std::string &H : splitHostOptions(Value))
        Out.Args.push_back(H);
    return;
  case Action::Arch:
    if (takeValue(I, HasValue, Value))
      addArch(Value, HasValue ? Original : Original + " " + Value);
    return;
  case Action::OptionsFile:
    if (takeValue(I, HasValue, Value))
      Out.Args.push_back("@" + Value);
    return;
  case Action::Language:
    if (takeValue(I, HasValue, Value)) {
      Out.Args.push_back("-x");
      Out.Args.push_back(Value == "cu" ? "cuda" : Value);
    }
    return;
  case Action::Std:
    if (takeValue(I, HasValue, Value))
      Out.Args.push_back("-std=" + Value);
    return;
  case Action::Joined:
    if (takeValue(I, HasValue, Value)) {
      std::string Flag = R.Clang;
      // "-isystem" and "-include" take their value as a separate argument.
      if (Flag == "-isystem" || Flag == "-include") {
        Out.Args.push_back(Flag);
        Out.Args.push_back(Value);
      } else {
        Out.Args.push_back(Flag + Value);
      }
    }
    return;
  case Action::Flag:
    Out.Args.push_back(R.Clang);
    return;
  case Action::DeviceC:
    addRdc();
    return;
  case Action::Rdc:
    // "-rdc true" as well as "-rdc=true"; a following "-..." is the next
    // option (nvcc would reject the command).
    if (!takeValue(I, HasValue, Value, /*DashValue=*/false))
      return;
    if (!HasValue)
      Original += " " + Value;
    if (lower(Value) == "true")
      addRdc();
    else
      Out.Dropped.push_back(Original); // false: clang's default
    return;
  case Action::DefaultStream:
    if (!takeValue(I, HasValue, Value))
      return;
    if (Value == "per-thread") {
      Out.Args.push_back("-fgpu-default-stream=per-thread");
      Out.Args.push_back("-DCUDA_API_PER_THREAD_DEFAULT_STREAM=1");
    } else {
      // legacy and null are clang's default.
      Out.Dropped.push_back(HasValue ? Original : Original + " " + Value);
    }
    return;
  }
}

NvccTranslation Translator::run(const std::string &Compiler) {
  size_t Nvcc = nvccIndex(In);
  if (Nvcc == std::string::npos) {
    Out.Args = In;
    return Out;
  }
  Out.Args.push_back(Compiler);
  for (size_t I = Nvcc + 1; I < In.size(); ++I)
    handle(I);
  std::vector<std::string> ArchArgs;
  for (const std::string &A : Archs)
    ArchArgs.push_back("--offload-arch=" + A);
  if (ArchPos == std::string::npos)
    ArchPos = Out.Args.size();
  Out.Args.insert(Out.Args.begin() + ArchPos, ArchArgs.begin(), ArchArgs.end());
  // The toolkit nvcc belongs to is the one the project builds against.
  const std::string &NvccPath = In[Nvcc];
  bool HasCudaPath = std::any_of(Out.Args.begin(), Out.Args.end(),
                                 [](const std::string &A) {
                                   return A.compare(0, 11, "--cuda-path") == 0;
                                 });
  size_t BinPos = NvccPath.rfind("/bin/");
  if (!HasCudaPath && !NvccPath.empty() && NvccPath[0] == '/' &&
      BinPos != std::string::npos && BinPos > 0 &&
      NvccPath.find('/', BinPos + 5) == std::string::npos)
    Out.Args.insert(Out.Args.begin() + 1,
                    "--cuda-path=" + NvccPath.substr(0, BinPos));
  return Out;
}

} // namespace

bool isNvccCommand(const std::vector<std::string> &Args) {
  return nvccIndex(Args) != std::string::npos;
}

std::string nvccArchToOffloadArch(const std::string &Value) {
  // "arch=compute_80,code=[compute_80,sm_80]": the real GPU is in code=;
  // "-arch=sm_80" or "-arch=compute_80" name it directly. Suffixes such as
  // sm_90a/sm_100f select device-only features; the base architecture is
  // what clang knows and is all a host-side analysis needs.
  size_t CodePos = Value.find("code=");
  std::string CodePart = CodePos == std::string::npos ? "" : Value.substr(CodePos);
  for (const std::string &T : tokens(CodePart)) {
    std::string N = archNumber(T, "sm_");
    if (!N.empty())
      return "sm_" + N;
  }
  for (const std::string &T : tokens(Value)) {
    std::string N = archNumber(T, "sm_");
    if (N.empty())
      N = archNumber(T, "compute_");
    if (!N.empty())
      return "sm_" + N;
  }
  return "";
}

NvccTranslation translateNvccArgs(const std::vector<std::string> &Args,
                                  const std::string &Compiler) {
  return Translator(Args).run(Compiler);
}

} // namespace cgt
