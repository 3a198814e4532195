//===- LspServer.cpp - `cudagraph-tidy lsp`, a language server ------------===//
//
// One thread: messages are handled in order and an analysis blocks the
// loop until it ends, which keeps the state (the last findings of each open
// document, for code actions) free of locks; a save is one translation
// unit, seconds at most once the preamble is cached.
//
// Unsaved edits (didChange, full or incremental) are analysed from the
// editor's text, which the worker's parse reads through an in-memory layer
// over the disk (UnitTask::Unsaved). As clangd does, an edit waits for a
// pause of DebounceMs before it is analysed, so that typing costs one
// analysis, not one per keystroke: while one is due, the loop waits for
// input only until then. An analysis that a newer edit of the same document
// (or its save or close) supersedes is stopped: while its worker runs, the
// driver asks UnitLimits::Cancelled, which reads whatever messages have
// arrived into a backlog and says whether one of them supersedes it.
//
// The protocol's channel is kept apart from everything else in the process:
// lspMain moves it to private descriptors and points 0 at /dev/null and 1
// at stderr, so that no library message and no worker process can read
// the client's input or corrupt its output.
//
//===----------------------------------------------------------------------===//
#include "lsp/LspServer.h"
#include "run/DriverRun.h"
#include "lsp/LspProtocol.h"
#include "lsp/LspTransport.h"
#include "run/NvccCompat.h"
#include "summaries/CrossTu.h"

#include "clang-tidy/ClangTidyOptions.h"
#include "clang/Tooling/CompilationDatabase.h"
#include "clang/Tooling/JSONCompilationDatabase.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/VirtualFileSystem.h"
#include "llvm/Support/raw_ostream.h"

#include <chrono>
#include <deque>
#include <fcntl.h>
#include <map>
#include <memory>
#include <unistd.h>

using json = nlohmann::json;
using namespace clang;

namespace cgt {
namespace {

struct LspOptions {
  std::string BuildPath;
  std::string Checks;
  std::string ConfigFile;
  std::string PreambleMode;
  std::string CacheDir; ///< --cache-dir, as the driver's: "" for the default
  unsigned CacheMaxMb = 0; ///< --cache-max-mb: 0 for the driver's default
  std::string Fault; ///< tests only: --inject-fault=KIND:FILE, as the driver's
  std::vector<std::string> FallbackFlags;
};

bool parseArgs(int Argc, const char **Argv, LspOptions &O, std::string &Error) {
  for (int I = 2; I < Argc; ++I) {
    llvm::StringRef A = Argv[I];
    if (A == "--") {
      O.FallbackFlags.assign(Argv + I + 1, Argv + Argc);
      return true;
    }
    if ((A == "-p" || A == "--p") && I + 1 < Argc)
      O.BuildPath = Argv[++I];
    else if (A.consume_front("-p=") || A.consume_front("--p="))
      O.BuildPath = A.str();
    else if (A.consume_front("--checks="))
      O.Checks = A.str();
    else if (A.consume_front("--config-file="))
      O.ConfigFile = A.str();
    else if (A.consume_front("--preamble-cache="))
      O.PreambleMode = A.str();
    else if (A == "--cache-dir" && I + 1 < Argc)
      O.CacheDir = Argv[++I];
    else if (A.consume_front("--cache-dir="))
      O.CacheDir = A.str();
    else if (A.consume_front("--cache-max-mb=")) {
      if (A.getAsInteger(10, O.CacheMaxMb) || O.CacheMaxMb == 0) {
        Error = "--cache-max-mb expects a positive number of MiB, not '" + A.str() + "'";
        return false;
      }
    } else if (A.consume_front("--inject-fault="))
      O.Fault = A.str();
    else {
      Error = "unknown argument '" + A.str() + "'";
      return false;
    }
  }
  return true;
}

bool isAnalysable(llvm::StringRef Path) {
  llvm::StringRef Ext = llvm::sys::path::extension(Path);
  for (llvm::StringRef E : {".cu", ".cuh", ".cpp", ".cc", ".cxx", ".c++", ".C",
                            ".h", ".hh", ".hpp", ".hxx"})
    if (Ext == E)
      return true;
  return false;
}

/// How long an edit waits for the next one before it is analysed (clangd
/// waits about as long).
constexpr int DebounceMs = 500;

/// The byte offset of an LSP position (line, UTF-16 column) in `Text`;
/// past the end of a line or of the text, its end.
size_t offsetOf(const std::string &Text, unsigned Line, unsigned Column) {
  size_t At = 0;
  for (unsigned L = 0; L < Line; ++L) {
    size_t Next = Text.find('\n', At);
    if (Next == std::string::npos)
      return Text.size();
    At = Next + 1;
  }
  for (unsigned Units = 0; At < Text.size() && Text[At] != '\n' && Units < Column;) {
    unsigned char C = Text[At];
    unsigned Len = C < 0x80 ? 1 : C < 0xE0 ? 2 : C < 0xF0 ? 3 : 4;
    Units += Len == 4 ? 2 : 1; // a code point past the BMP is a surrogate pair
    At = std::min(Text.size(), At + Len);
  }
  return At;
}

/// Applies one TextDocumentContentChangeEvent: a range and its new text,
/// or (without a range) the whole new text.
void applyChange(std::string &Text, const json &Change) {
  std::string New = Change.at("text");
  if (!Change.contains("range")) {
    Text = std::move(New);
    return;
  }
  const json &Start = Change["range"].at("start"), &End = Change["range"].at("end");
  size_t From = offsetOf(Text, Start.at("line"), Start.at("character"));
  size_t To = std::max(From, offsetOf(Text, End.at("line"), End.at("character")));
  Text.replace(From, To - From, New);
}

/// A database as `-p` loads it: response files expanded, the driver mode
/// inferred, headers and unlisted files given their nearest neighbour's
/// command.
std::unique_ptr<tooling::CompilationDatabase> prepared(
    std::unique_ptr<tooling::CompilationDatabase> Db) {
  Db = tooling::expandResponseFiles(std::move(Db), llvm::vfs::getRealFileSystem());
  Db = tooling::inferTargetAndDriverMode(std::move(Db));
  return tooling::inferMissingCompileCommands(std::move(Db));
}

class LspServer {
public:
  LspServer(LspTransport &T, LspOptions O, PreambleCacheConfig P)
      : Transport(T), Options(std::move(O)), Preamble(std::move(P)) {
    Preamble.Stats = &Stats;
  }

  int run() {
    json Msg;
    while (next(Msg)) {
      if (Msg.is_discarded() || !Msg.is_object()) {
        send({{"jsonrpc", "2.0"}, {"id", nullptr},
              {"error", {{"code", -32700}, {"message", "not JSON"}}}});
        continue;
      }
      if (Msg.value("method", "") == "exit")
        return ShutDown ? 0 : 1;
      try {
        handle(Msg);
      } catch (const json::exception &E) {
        // A message with the wrong shape answers with an error, it does not
        // end the session.
        if (Msg.contains("id"))
          replyError(Msg["id"], -32602, std::string("invalid params: ") + E.what());
      }
    }
    return 1; // the client closed the stream without exit
  }

private:
  /// The next message, from the backlog or the client; runs the analyses
  /// that fall due while it waits. False at the end of the input.
  bool next(json &Msg) {
    while (Backlog.empty()) {
      if (InputEnded)
        return false;
      if (!Due.empty()) {
        auto First = std::min_element(Due.begin(), Due.end(), [](auto &A, auto &B) {
          return A.second < B.second;
        });
        auto Wait = std::chrono::duration_cast<std::chrono::milliseconds>(
                        First->second - std::chrono::steady_clock::now())
                        .count();
        if (!Transport.waitReadable(static_cast<int>(std::max<long long>(0, Wait)))) {
          std::string Uri = First->first;
          Due.erase(First);
          analyseAndPublish(Uri);
          continue;
        }
      }
      readOne();
    }
    Msg = std::move(Backlog.front());
    Backlog.pop_front();
    return true;
  }

  /// Reads one message into the backlog (a body that is not JSON as a
  /// discarded value, answered as such in run()).
  void readOne() {
    std::optional<std::string> Body = Transport.read();
    if (!Body) {
      InputEnded = true;
      return;
    }
    Backlog.push_back(json::parse(*Body, nullptr, /*allow_exceptions=*/false));
  }

  /// UnitLimits::Cancelled for an analysis of `Uri`: reads what has arrived
  /// and says whether an edit, save or close of the document is among it.
  bool superseded(const std::string &Uri) {
    while (!InputEnded && Transport.waitReadable(0)) {
      readOne();
      if (InputEnded)
        return true;
      const json &M = Backlog.back();
      if (!M.is_object())
        continue;
      std::string Method = M.value("method", "");
      if ((Method == "textDocument/didChange" || Method == "textDocument/didSave" ||
           Method == "textDocument/didClose") &&
          M.value("params", json::object()).value("textDocument", json::object()).value(
              "uri", "") == Uri)
        return true;
    }
    return InputEnded;
  }
  void handle(const json &Msg) {
    std::string Method = Msg.value("method", "");
    const json Params = Msg.value("params", json::object());
    bool IsRequest = Msg.contains("id");
    if (Method == "initialize")
      reply(Msg["id"], capabilities());
    else if (Method == "shutdown") {
      ShutDown = true;
      reply(Msg["id"], nullptr);
    } else if (Method == "textDocument/didOpen") {
      std::string Uri = Params.at("textDocument").at("uri");
      Texts[Uri] = Params["textDocument"].value("text", "");
      analyseAndPublish(Uri);
    } else if (Method == "textDocument/didChange") {
      std::string Uri = Params.at("textDocument").at("uri");
      auto It = Texts.find(Uri);
      if (It == Texts.end())
        return; // not open: nothing to apply the change to
      for (const json &C : Params.at("contentChanges"))
        applyChange(It->second, C);
      Due[Uri] = std::chrono::steady_clock::now() + std::chrono::milliseconds(DebounceMs);
    } else if (Method == "textDocument/didSave") {
      // What was saved is the file: the text is read again from disk (a
      // client may have written it without a didChange, e.g. after
      // applying a code action itself).
      std::string Uri = Params.at("textDocument").at("uri");
      Due.erase(Uri);
      if (auto Buf = llvm::MemoryBuffer::getFile(pathOfUri(Uri)))
        Texts[Uri] = (*Buf)->getBuffer().str();
      analyseAndPublish(Uri);
    } else if (Method == "textDocument/didClose")
      close(Params.at("textDocument").at("uri"));
    else if (Method == "textDocument/codeAction")
      reply(Msg["id"], codeActions(Params));
    else if (IsRequest)
      replyError(Msg["id"], -32601, "method not found: " + Method);
    // Other notifications (initialized, $/...) need nothing.
  }

  json capabilities() {
    return {{"capabilities",
             {{"textDocumentSync",
               // 2: incremental; full-text changes (no range) are taken too.
               {{"openClose", true}, {"change", 2}, {"save", {{"includeText", false}}}}},
              {"codeActionProvider", {{"codeActionKinds", {"quickfix"}}}}}},
            {"serverInfo", {{"name", "cudagraph-tidy"}, {"version", CUDAGRAPH_TIDY_VERSION}}}};
  }

  void analyseAndPublish(const std::string &Uri) {
    std::string Path = pathOfUri(Uri);
    if (Path.empty() || !isAnalysable(Path))
      return;
    auto Started = std::chrono::steady_clock::now();
    unsigned Hits = Stats.Hits, Builds = Stats.Builds;
    json Diags = json::array();
    Cancelled = false;
    std::vector<FindingRecord> Found = analyse(Uri, Path, Diags);
    if (Cancelled) {
      // A newer text is due (or the document is gone): its analysis
      // publishes; this one's findings are of a text no longer shown.
      log(Path + ": analysis cancelled, superseded by a newer edit");
      return;
    }
    std::vector<FindingRecord> &Findings = Documents[Uri];
    Findings = std::move(Found);
    LspConverter Convert;
    Convert.knowDocument(Path, Uri);
    for (json &D : Convert.diagnostics(Findings))
      Diags.push_back(std::move(D));
    notify("textDocument/publishDiagnostics", {{"uri", Uri}, {"diagnostics", Diags}});
    double Seconds = std::chrono::duration<double>(
                         std::chrono::steady_clock::now() - Started).count();
    std::string Cache = Stats.Hits > Hits       ? "hit"
                        : Stats.Builds > Builds ? "built"
                                                : "not used";
    char Time[32];
    snprintf(Time, sizeof(Time), "%.2f", Seconds);
    notify("window/logMessage",
           {{"type", 4},
            {"message", "cudagraph-tidy: " + Path + ": " + std::to_string(Findings.size()) +
                            " findings in " + Time + " s; preamble cache " + Cache}});
  }

  /// The findings of the file itself (a check may also report in headers
  /// it includes, which are other documents); `Diags` gets what kept the
  /// file from being analysed.
  std::vector<FindingRecord> analyse(const std::string &Uri, const std::string &Path,
                                     json &Diags) {
    std::string Problem;
    DriverRun Run;
    Run.OptionsProvider = optionsProvider(Problem);
    Run.Compilations = databaseFor(Path);
    Run.Preamble = Preamble;
    // The editor's text, saved or not, is what the diagnostics are about.
    auto Text = Texts.find(Uri);
    if (Text != Texts.end())
      Run.Unsaved[Path] = Text->second;
    Run.Limits.Cancelled = [this, Uri] { return Cancelled = Cancelled || superseded(Uri); };
    Run.Limits.Fault = Options.Fault;
    if (!Run.OptionsProvider) {
      Diags.push_back(LspConverter::notAnalysed(Problem));
      return {};
    }
    RunResult Result = runChecks(Run, {Path});
    for (const UnitStatus &U : Result.Units)
      if (!U.Analyzed)
        Diags.push_back(LspConverter::notAnalysed(U.Problem));
    for (const std::string &C : Result.ConfigErrors)
      Diags.push_back(LspConverter::notAnalysed(C));
    std::vector<FindingRecord> Mine;
    for (FindingRecord &F : Result.Findings)
      if (F.Pos.File == Path)
        Mine.push_back(std::move(F));
    return Mine;
  }

  void close(const std::string &Uri) {
    Documents.erase(Uri);
    Texts.erase(Uri);
    Due.erase(Uri);
    notify("textDocument/publishDiagnostics", {{"uri", Uri}, {"diagnostics", json::array()}});
  }

  json codeActions(const json &Params) {
    std::string Uri = Params.at("textDocument").at("uri");
    auto It = Documents.find(Uri);
    if (It == Documents.end())
      return json::array();
    LspConverter Convert;
    std::string Path = pathOfUri(Uri);
    Convert.knowDocument(Path, Uri);
    return Convert.codeActions(It->second, Path, Params.at("range"));
  }

  /// As the driver's: the file's .clang-tidy files, or --config-file, then
  /// --checks, over the default "-*,cudagraph-*". Made per analysis, so an
  /// edited .clang-tidy counts from the next save on.
  std::unique_ptr<tidy::ClangTidyOptionsProvider> optionsProvider(std::string &Problem) {
    tidy::ClangTidyGlobalOptions Global;
    tidy::ClangTidyOptions Defaults = tidy::ClangTidyOptions::getDefaults();
    Defaults.Checks = "-*,cudagraph-*";
    tidy::ClangTidyOptions Override;
    if (!Options.Checks.empty())
      Override.Checks = Options.Checks;
    if (Options.ConfigFile.empty())
      return std::make_unique<tidy::FileOptionsProvider>(Global, Defaults, Override);
    auto Buf = llvm::MemoryBuffer::getFile(Options.ConfigFile);
    if (!Buf) {
      Problem = "cannot read config file '" + Options.ConfigFile + "'";
      return nullptr;
    }
    auto Parsed = tidy::parseConfiguration(**Buf);
    if (!Parsed) {
      Problem = "invalid configuration: " + Parsed.getError().message();
      return nullptr;
    }
    return std::make_unique<tidy::ConfigOptionsProvider>(
        Global, Defaults, Defaults.merge(*Parsed, 0), Override);
  }

  /// -p when given; else the nearest compile_commands.json in the file's
  /// directory or above, or in a build/ directory beside one of them (as
  /// clangd looks); else the fallback flags after `--`.
  const tooling::CompilationDatabase *databaseFor(const std::string &Path) {
    if (!Options.BuildPath.empty())
      return loaded(Options.BuildPath);
    for (llvm::StringRef Dir = llvm::sys::path::parent_path(Path); !Dir.empty();
         Dir = llvm::sys::path::parent_path(Dir)) {
      for (std::string Candidate : {Dir.str(), (Dir + "/build").str()}) {
        if (llvm::sys::fs::exists(Candidate + "/compile_commands.json"))
          if (const tooling::CompilationDatabase *Db = loaded(Candidate))
            return Db;
      }
      if (Dir == llvm::sys::path::root_path(Dir))
        break;
    }
    if (!Fallback)
      Fallback = std::make_unique<tooling::FixedCompilationDatabase>(
          ".", Options.FallbackFlags.empty() ? std::vector<std::string>{"-std=c++17"}
                                             : Options.FallbackFlags);
    return Fallback.get();
  }

  /// Loaded once per directory; a compile database that changes needs a
  /// restart of the server, as with clangd.
  const tooling::CompilationDatabase *loaded(const std::string &Dir) {
    auto It = Databases.find(Dir);
    if (It != Databases.end())
      return It->second.get();
    std::string Err;
    auto Db = tooling::CompilationDatabase::loadFromDirectory(Dir, Err);
    if (!Db)
      log("cannot load a compilation database from '" + Dir + "': " + Err);
    auto &Slot = Databases[Dir];
    if (Db)
      Slot = prepared(std::move(Db));
    return Slot.get();
  }

  void log(const std::string &Message) {
    notify("window/logMessage", {{"type", 3}, {"message", "cudagraph-tidy: " + Message}});
  }
  void send(const json &Msg) {
    Transport.write(Msg.dump(-1, ' ', false, json::error_handler_t::replace));
  }
  void reply(const json &Id, const json &Result) {
    send({{"jsonrpc", "2.0"}, {"id", Id}, {"result", Result}});
  }
  void replyError(const json &Id, int Code, const std::string &Message) {
    send({{"jsonrpc", "2.0"}, {"id", Id}, {"error", {{"code", Code}, {"message", Message}}}});
  }
  void notify(const std::string &Method, const json &Params) {
    send({{"jsonrpc", "2.0"}, {"method", Method}, {"params", Params}});
  }

  LspTransport &Transport;
  LspOptions Options;
  PreambleCacheConfig Preamble;
  PreambleCacheStats Stats;
  bool ShutDown = false;
  std::map<std::string, std::vector<FindingRecord>> Documents; ///< by URI
  std::map<std::string, std::string> Texts; ///< the editor's text, by URI
  /// Documents edited and not analysed since: when their analysis is due.
  std::map<std::string, std::chrono::steady_clock::time_point> Due;
  std::deque<json> Backlog; ///< messages read ahead (next, superseded)
  bool InputEnded = false;
  bool Cancelled = false; ///< the running analysis was superseded
  std::map<std::string, std::unique_ptr<tooling::CompilationDatabase>> Databases;
  std::unique_ptr<tooling::CompilationDatabase> Fallback;
};

/// Moves the protocol to descriptors of its own: 0 becomes /dev/null and 1
/// a copy of stderr. False when the descriptors cannot be set up.
bool privateChannel(int &In, int &Out) {
  In = ::dup(0);
  Out = ::dup(1);
  int Null = ::open("/dev/null", O_RDONLY);
  if (In < 0 || Out < 0 || Null < 0 || ::dup2(Null, 0) < 0 || ::dup2(2, 1) < 0)
    return false;
  ::close(Null);
  ::fcntl(In, F_SETFD, FD_CLOEXEC);
  ::fcntl(Out, F_SETFD, FD_CLOEXEC);
  return true;
}

} // namespace

/// --cache-dir as the driver takes it: a folder that is one or can be
/// made one, and the nvcc compatibility header lies in it too (before
/// anything asks for the header's path, which is then fixed).
bool useCacheDir(const std::string &Dir, std::string &Error) {
  if (Dir.empty())
    return true;
  if (!usableCacheDirectory(Dir, Error))
    return false;
  setNvccCompatFolder(Dir);
  return true;
}

int lspMain(int Argc, const char **Argv) {
  LspOptions Options;
  std::string Error;
  if (!parseArgs(Argc, Argv, Options, Error)) {
    llvm::errs() << "cudagraph-tidy lsp: error: " << Error
                 << "\nusage: cudagraph-tidy lsp [-p DIR] [--checks=GLOBS] "
                    "[--config-file=FILE] [--preamble-cache=auto|on|off] "
                    "[--cache-dir=DIR] [--cache-max-mb=MIB] [-- FLAGS]\n";
    return 2;
  }
  // Every analysis is one file: "auto" builds missing preambles, which is
  // what makes the second analysis of a file (its first save) warm.
  PreambleCacheConfig Preamble;
  if (!useCacheDir(Options.CacheDir, Error) ||
      !preambleCacheConfig(Options.PreambleMode, 1, Options.CacheDir, Preamble, Error)) {
    llvm::errs() << "cudagraph-tidy lsp: error: " << Error << "\n";
    return 2;
  }
  if (Options.CacheMaxMb)
    Preamble.MaxBytes = uint64_t(Options.CacheMaxMb) << 20;
  int In, Out;
  if (!privateChannel(In, Out)) {
    llvm::errs() << "cudagraph-tidy lsp: error: cannot set up stdio\n";
    return 2;
  }
  LspTransport Transport(In, Out);
  LspServer Server(Transport, std::move(Options), std::move(Preamble));
  return Server.run();
}

} // namespace cgt
