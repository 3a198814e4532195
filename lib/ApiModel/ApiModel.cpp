//===- ApiModel.cpp - loading the CUDA API model from JSON ----------------===//
//
// Schema (docs/api-model.md has the full description):
//   { "version": 1,
//     "statusTypes": { "cudaError_t": "cudaSuccess", ... },
//     "kinds": { "graphExec": { "noun": "graph exec",
//                               "releasedBy": ["cudaGraphExecDestroy"],
//                               "leakCheck": "cudagraph-unpaired-instantiate" } },
//     "functions": [ { "name": "cudaGraphInstantiate", "params": 3,
//                      "signature": ["CUgraphExec_st **", ...],
//                      "returns": "cudaError_t",
//                      "acquires": [ { "arg": 0, "kind": "graphExec" } ],
//                      "releases": [ { "arg": 0, "kinds": ["graphExec"],
//                                      "deref": false, "streamOrdered": false } ],
//                      "uses": [ { "arg": 1, "kind": "graph", "launch": false } ],
//                      "legalDuringCapture": true, "captureNote": "...",
//                      "legalInRelaxedCapture": false,
//                      "capture": "begin" | "end" | "exchangeMode", "stream": 0,
//                      "queriesCapture": true, "captureStatusOut": 1,
//                      "captureMode": { "arg": 1, "relaxed": 2 },
//                      "autoFreeOnLaunch": { "arg": 2, "bit": 1 } | false,
//                      "statusOut": { "arg": 2, "field": "result_out" },
//                      "streamOrder": { "role": "enqueue", "stream": 4,
//                                       "memory": [0, 1], "flags": 2, "bit": 1,
//                                       "synchronous": false },
//                      "unlistedArgsEscape": true, "returnValues": [32],
//                      "doc": "..." } ],
//     "constantFields": { "cudaDeviceProp::warpSize": 32 },
//     "kernelLaunches": { "ns::kernel<64>": [ { "block": [8, 8, 1],
//                                               "dynamicSharedBytes": 1024,
//                                               "at": "src/launch.cu:42" } ] } }
// "arg" is a 0-based parameter index or the string "return".
//
// Every problem is reported as "<file>: <json path>: <what is wrong>"; a
// malformed file never crashes the tool.
//
//===----------------------------------------------------------------------===//
#include "ApiModel/ApiModel.h"

#include "llvm/Support/MemoryBuffer.h"
#include <algorithm>
#include <nlohmann/json.hpp>

using nlohmann::json;

namespace cgt {

static const char BuiltinModelText[] =
#include "CudaApiModelData.inc"
    ;

namespace {

/// Reads one JSON document into the model, remembering where it is so that
/// every error names the offending element.
class ModelReader {
public:
  ModelReader(llvm::StringRef Source) : Source(Source.str()) {}

  llvm::Error error(const std::string &Path, const std::string &What) const {
    return llvm::createStringError(llvm::inconvertibleErrorCode(),
                                   "%s: %s: %s", Source.c_str(), Path.c_str(),
                                   What.c_str());
  }

  llvm::Error expectKeys(const json &Obj, const std::string &Path,
                         std::initializer_list<const char *> Allowed) const {
    if (!Obj.is_object())
      return error(Path, "expected an object");
    for (auto It = Obj.begin(); It != Obj.end(); ++It) {
      bool Known = false;
      for (const char *A : Allowed)
        Known |= It.key() == A;
      if (!Known)
        return error(Path, "unknown key '" + It.key() + "'");
    }
    return llvm::Error::success();
  }

  llvm::Error readString(const json &Obj, const char *Key,
                         const std::string &Path, std::string &Out,
                         bool Required) const {
    auto It = Obj.find(Key);
    if (It == Obj.end())
      return Required ? error(Path, std::string("missing '") + Key + "'")
                      : llvm::Error::success();
    if (!It->is_string())
      return error(Path + "." + Key, "expected a string");
    Out = It->get<std::string>();
    return llvm::Error::success();
  }

  llvm::Error readBool(const json &Obj, const char *Key,
                       const std::string &Path, bool &Out) const {
    auto It = Obj.find(Key);
    if (It == Obj.end())
      return llvm::Error::success();
    if (!It->is_boolean())
      return error(Path + "." + Key, "expected true or false");
    Out = It->get<bool>();
    return llvm::Error::success();
  }

  llvm::Error readArg(const json &Obj, const std::string &Path, int NumParams,
                      int &Out) const {
    auto It = Obj.find("arg");
    if (It == Obj.end())
      return error(Path, "missing 'arg'");
    if (It->is_string() && It->get<std::string>() == "return") {
      Out = ReturnValue;
      return llvm::Error::success();
    }
    if (!It->is_number_integer() || It->get<int>() < 0)
      return error(Path + ".arg",
                   "expected a parameter index >= 0 or \"return\"");
    Out = It->get<int>();
    if (NumParams >= 0 && Out >= NumParams)
      return error(Path + ".arg", "index " + std::to_string(Out) +
                                      " is past the " +
                                      std::to_string(NumParams) +
                                      " declared parameters");
    return llvm::Error::success();
  }

  llvm::Error readStringList(const json &Obj, const char *Key,
                             const std::string &Path,
                             std::vector<std::string> &Out) const {
    auto It = Obj.find(Key);
    if (It == Obj.end())
      return llvm::Error::success();
    if (!It->is_array())
      return error(Path + "." + Key, "expected an array of strings");
    for (const json &E : *It) {
      if (!E.is_string())
        return error(Path + "." + Key, "expected an array of strings");
      Out.push_back(E.get<std::string>());
    }
    return llvm::Error::success();
  }

  /// "returnValues": [32] or [128, 256], sorted and unique once read.
  llvm::Error readReturnValues(const json &F, const std::string &Where,
                               std::vector<long long> &Out) const {
    auto It = F.find("returnValues");
    if (It == F.end())
      return llvm::Error::success();
    if (!It->is_array() || It->empty() || It->size() > FunctionModel::MaxReturnValues)
      return error(Where + ".returnValues",
                   "expected an array of 1 to " + std::to_string(FunctionModel::MaxReturnValues) +
                       " integers");
    for (const json &V : *It) {
      if (!V.is_number_integer())
        return error(Where + ".returnValues",
                     "expected an array of 1 to " + std::to_string(FunctionModel::MaxReturnValues) +
                         " integers");
      Out.push_back(V.get<long long>());
    }
    llvm::sort(Out);
    Out.erase(std::unique(Out.begin(), Out.end()), Out.end());
    return llvm::Error::success();
  }

  /// "constantFields": { "cudaDeviceProp::warpSize": 32 }; a later file's
  /// value replaces an earlier one's.
  llvm::Error readConstantFields(const json &Doc, llvm::StringMap<long long> &Out) const {
    auto It = Doc.find("constantFields");
    if (It == Doc.end())
      return llvm::Error::success();
    if (!It->is_object())
      return error("constantFields", "expected an object of \"Struct::field\": integer");
    for (auto F = It->begin(); F != It->end(); ++F) {
      llvm::StringRef Name = F.key();
      auto [Struct, Field] = Name.rsplit("::");
      if (Struct.empty() || Field.empty() || Field.contains(':'))
        return error("constantFields." + F.key(), "expected a name \"Struct::field\"");
      if (!F.value().is_number_integer())
        return error("constantFields." + F.key(), "expected an integer");
      Out[Name] = F.value().get<long long>();
    }
    return llvm::Error::success();
  }

  /// "kernelLaunches": the block shapes kernels are launched with in other
  /// files (a project's summaries); appended to those of earlier files.
  llvm::Error readLaunches(const json &Doc,
                           llvm::StringMap<std::vector<KernelLaunch>> &Out) const {
    auto It = Doc.find("kernelLaunches");
    if (It == Doc.end())
      return llvm::Error::success();
    if (!It->is_object())
      return error("kernelLaunches", "expected an object of kernel: [launch, ...]");
    for (auto K = It->begin(); K != It->end(); ++K) {
      std::string Path = "kernelLaunches." + K.key();
      if (!K.value().is_array())
        return error(Path, "expected an array of launches");
      for (size_t I = 0; I < K.value().size(); ++I) {
        KernelLaunch L;
        if (auto E = readLaunch(K.value()[I], Path + "[" + std::to_string(I) + "]", L))
          return E;
        auto &V = Out[K.key()];
        if (std::find(V.begin(), V.end(), L) == V.end())
          V.push_back(std::move(L));
      }
    }
    return llvm::Error::success();
  }

  llvm::Error readLaunch(const json &J, const std::string &Path, KernelLaunch &L) const {
    if (auto E = expectKeys(J, Path, {"block", "dynamicSharedBytes", "at"}))
      return E;
    auto B = J.find("block");
    if (B == J.end() || !B->is_array() || B->empty() || B->size() > 3)
      return error(Path + ".block", "expected [x, y, z]");
    unsigned long long Threads = 1;
    for (size_t D = 0; D < B->size(); ++D) {
      if (!(*B)[D].is_number_unsigned() || (*B)[D].get<unsigned long long>() == 0 ||
          (*B)[D].get<unsigned long long>() > 1024)
        return error(Path + ".block", "expected [x, y, z] of 1 to 1024 each");
      L.Block[D] = (*B)[D].get<unsigned>();
      Threads *= L.Block[D];
    }
    if (Threads > 1024)
      return error(Path + ".block", "more than 1024 threads in a block");
    if (auto D = J.find("dynamicSharedBytes"); D != J.end()) {
      if (!D->is_number_unsigned())
        return error(Path + ".dynamicSharedBytes", "expected a number >= 0");
      L.DynamicSharedBytes = D->get<long long>();
    }
    return readString(J, "at", Path, L.At, /*Required=*/false);
  }

  llvm::Error readKinds(const json &Doc, llvm::StringMap<ResourceKind> &Kinds) {
    auto It = Doc.find("kinds");
    if (It == Doc.end())
      return llvm::Error::success();
    if (!It->is_object())
      return error("kinds", "expected an object of resource kinds");
    for (auto K = It->begin(); K != It->end(); ++K) {
      std::string Path = "kinds." + K.key();
      if (auto E = expectKeys(K.value(), Path, {"noun", "releasedBy", "leakCheck", "graphAllocatable", "mismatchOnly", "types", "doc"}))
        return E;
      ResourceKind RK;
      RK.Name = K.key();
      if (auto E = readString(K.value(), "noun", Path, RK.Noun, true))
        return E;
      if (auto E = readStringList(K.value(), "releasedBy", Path, RK.ReleasedBy))
        return E;
      if (auto E = readString(K.value(), "leakCheck", Path, RK.LeakCheck, false))
        return E;
      if (auto E = readBool(K.value(), "graphAllocatable", Path, RK.GraphAllocatable))
        return E;
      if (auto E = readBool(K.value(), "mismatchOnly", Path, RK.MismatchOnly))
        return E;
      if (auto E = readStringList(K.value(), "types", Path, RK.Types))
        return E;
      if (auto E = readString(K.value(), "doc", Path, RK.Doc, false))
        return E;
      Kinds[RK.Name] = std::move(RK);
    }
    return llvm::Error::success();
  }

  llvm::Error readFunction(const json &F, const std::string &Path,
                           FunctionModel &Out) const {
    if (auto E = expectKeys(F, Path,
                            {"name", "params", "returns", "acquires",
                             "releases", "uses", "writes", "legalDuringCapture",
                             "captureNote", "capture", "stream", "statusOut",
                             "returnsLastStatus", "releasesAll", "legalInRelaxedCapture",
                             "legalInRelaxedCaptureOnOtherStream",
                             "captureMode", "autoFreeOnLaunch", "intoGraph", "queriesCapture",
                             "captureStatusOut", "streamOrder", "streamMember",
                             "unlistedArgsEscape", "returnValues", "doc", "signature"}))
      return E;
    if (auto E = readString(F, "name", Path, Out.Name, true))
      return E;
    if (Out.Name.empty())
      return error(Path + ".name", "empty function name");
    std::string Where = Path + " (" + Out.Name + ")";
    if (auto It = F.find("params"); It != F.end()) {
      if (!It->is_number_integer() || It->get<int>() < 0)
        return error(Where + ".params", "expected a parameter count >= 0");
      Out.NumParams = It->get<int>();
    }
    if (auto E = readStringList(F, "signature", Where, Out.Signature))
      return E;
    if (F.contains("signature") &&
        static_cast<int>(Out.Signature.size()) != Out.NumParams)
      return error(Where + ".signature",
                   "expected one type per parameter (\"params\": " +
                       std::to_string(Out.NumParams) + ")");
    if (auto E = readString(F, "returns", Where, Out.StatusType, false))
      return E;
    if (auto E = readBool(F, "legalDuringCapture", Where, Out.LegalDuringCapture))
      return E;
    if (auto E = readBool(F, "returnsLastStatus", Where, Out.ReturnsLastStatus))
      return E;
    if (auto E = readBool(F, "releasesAll", Where, Out.ReleasesAll))
      return E;
    if (auto E = readBool(F, "legalInRelaxedCapture", Where, Out.LegalInRelaxedCapture))
      return E;
    if (auto E = readBool(F, "legalInRelaxedCaptureOnOtherStream", Where,
                          Out.LegalInRelaxedCaptureOnOtherStream))
      return E;
    if (auto E = readBool(F, "queriesCapture", Where, Out.QueriesCapture))
      return E;
    if (auto E = readBool(F, "unlistedArgsEscape", Where, Out.UnlistedArgsEscape))
      return E;
    if (auto E = readReturnValues(F, Where, Out.ReturnValues))
      return E;
    if (auto E = readString(F, "doc", Where, Out.Doc, false))
      return E;
    if (auto E = readString(F, "captureNote", Where, Out.CaptureNote, false))
      return E;
    std::string Capture;
    if (auto E = readString(F, "capture", Where, Capture, false))
      return E;
    if (Capture == "begin")
      Out.Capture = CaptureRole::Begin;
    else if (Capture == "end")
      Out.Capture = CaptureRole::End;
    else if (Capture == "exchangeMode")
      Out.Capture = CaptureRole::ExchangeMode;
    else if (!Capture.empty())
      return error(Where + ".capture", "expected \"begin\", \"end\" or \"exchangeMode\"");
    if (auto It = F.find("stream"); It != F.end()) {
      if (!It->is_number_integer() || It->get<int>() < 0)
        return error(Where + ".stream", "expected a parameter index >= 0");
      Out.StreamArg = It->get<int>();
    }
    if (auto E = readString(F, "streamMember", Where, Out.StreamMember, false))
      return E;
    if (!Out.StreamMember.empty() && Out.Capture != CaptureRole::Begin &&
        Out.Capture != CaptureRole::End)
      return error(Where + ".streamMember", "expected with a \"capture\": \"begin\" or \"end\"");
    if (auto It = F.find("captureStatusOut"); It != F.end()) {
      if (!It->is_number_integer() || It->get<int>() < 0 || Out.StreamArg < 0)
        return error(Where + ".captureStatusOut",
                     "expected a parameter index >= 0, with a \"stream\"");
      Out.CaptureStatusOutArg = It->get<int>();
      Out.QueriesCapture = true;
    }
    if (auto It = F.find("intoGraph"); It != F.end()) {
      if (!It->is_number_integer() || It->get<int>() < 0 || Out.Capture != CaptureRole::Begin)
        return error(Where + ".intoGraph", "expected a parameter index >= 0, on a \"capture\": \"begin\"");
      Out.IntoGraphArg = It->get<int>();
    }
    if (auto It = F.find("statusOut"); It != F.end()) {
      if (auto E = expectKeys(*It, Where + ".statusOut", {"arg", "field"}))
        return E;
      if (auto E = readArg(*It, Where + ".statusOut", Out.NumParams, Out.StatusOutArg))
        return E;
      if (auto E = readString(*It, "field", Where + ".statusOut", Out.StatusOutField, true))
        return E;
    }
    if (auto It = F.find("captureMode"); It != F.end()) {
      if (auto E = expectKeys(*It, Where + ".captureMode", {"arg", "relaxed"}))
        return E;
      if (auto E = readArg(*It, Where + ".captureMode", Out.NumParams, Out.CaptureModeArg))
        return E;
      auto R = It->find("relaxed");
      if (R == It->end() || !R->is_number_integer())
        return error(Where + ".captureMode.relaxed", "expected the relaxed mode's value");
      Out.RelaxedCaptureMode = R->get<long long>();
      if ((Out.Capture != CaptureRole::Begin && Out.Capture != CaptureRole::ExchangeMode) ||
          Out.CaptureModeArg < 0)
        return error(Where + ".captureMode",
                     "only for \"capture\": \"begin\" or \"exchangeMode\", with a parameter index");
    }
    if (auto It = F.find("autoFreeOnLaunch"); It != F.end()) {
      if (It->is_boolean() && !It->get<bool>()) {
        Out.NoAutoFree = true;
      } else {
        std::string P = Where + ".autoFreeOnLaunch";
        if (auto E = expectKeys(*It, P, {"arg", "bit"}))
          return E;
        if (auto E = readArg(*It, P, Out.NumParams, Out.AutoFreeArg))
          return E;
        auto Bit = It->find("bit");
        if (Bit == It->end() || !Bit->is_number_integer() || Out.AutoFreeArg < 0)
          return error(P, "expected false, or {\"arg\": <flags parameter>, \"bit\": <flag value>}");
        Out.AutoFreeBit = Bit->get<long long>();
      }
    }
    if ((Out.Capture == CaptureRole::Begin || Out.Capture == CaptureRole::End) &&
        Out.StreamArg < 0 && Out.StreamMember.empty())
      return error(Where, "'capture' needs the 'stream' argument index or a 'streamMember'");
    if (auto It = F.find("streamOrder"); It != F.end())
      if (auto E = readOrder(*It, Where + ".streamOrder", Out.NumParams, Out.Order))
        return E;
    return readEffects(F, Where, Out);
  }

  /// "streamOrder": { "role": "enqueue", "stream": 4, "memory": [0, 1] }.
  llvm::Error readOrder(const json &O, const std::string &P, int NumParams,
                        OrderEffect &Out) const {
    if (auto E = expectKeys(O, P, {"role", "stream", "event", "memory", "flags", "bit",
                                   "synchronous", "pending"}))
      return E;
    static const std::pair<const char *, OrderRole> Roles[] = {
        {"enqueue", OrderRole::Enqueue},         {"alloc", OrderRole::Alloc},
        {"free", OrderRole::Free},               {"record", OrderRole::Record},
        {"wait", OrderRole::Wait},               {"syncStream", OrderRole::SyncStream},
        {"syncEvent", OrderRole::SyncEvent},     {"syncDevice", OrderRole::SyncDevice},
        {"createStream", OrderRole::CreateStream}, {"pollStream", OrderRole::PollStream},
        {"pollEvent", OrderRole::PollEvent}};
    std::string Role;
    if (auto E = readString(O, "role", P, Role, true))
      return E;
    for (auto [Name, R] : Roles)
      if (Role == Name)
        Out.Role = R;
    if (Out.Role == OrderRole::None)
      return error(P + ".role", "expected one of enqueue, alloc, free, record, wait, "
                                "syncStream, syncEvent, syncDevice, createStream, pollStream, "
                                "pollEvent");
    auto ReadIndex = [&](const char *Key, int &To) -> llvm::Error {
      auto It = O.find(Key);
      if (It == O.end())
        return llvm::Error::success();
      if (!It->is_number_integer() || It->get<int>() < 0 ||
          (NumParams >= 0 && It->get<int>() >= NumParams))
        return error(P + "." + Key, "expected a parameter index");
      To = It->get<int>();
      return llvm::Error::success();
    };
    if (auto E = ReadIndex("stream", Out.StreamArg))
      return E;
    if (auto E = ReadIndex("event", Out.EventArg))
      return E;
    if (auto E = ReadIndex("flags", Out.FlagsArg))
      return E;
    if (auto It = O.find("bit"); It != O.end()) {
      if (!It->is_number_integer() || Out.FlagsArg < 0)
        return error(P + ".bit", "expected the flag's value, with \"flags\"");
      Out.FlagBit = It->get<long long>();
    }
    if (auto It = O.find("memory"); It != O.end()) {
      if (!It->is_array())
        return error(P + ".memory", "expected an array of parameter indices");
      for (const json &I : *It) {
        if (!I.is_number_integer() || I.get<int>() < 0)
          return error(P + ".memory", "expected an array of parameter indices");
        Out.MemoryArgs.push_back(I.get<int>());
      }
    }
    if (auto E = readBool(O, "synchronous", P, Out.Synchronous))
      return E;
    bool Poll = Out.Role == OrderRole::PollStream || Out.Role == OrderRole::PollEvent;
    if (auto It = O.find("pending"); It != O.end()) {
      if (!It->is_number_integer() || !Poll)
        return error(P + ".pending", "expected the status a poll returns while the work runs, "
                                     "with role pollStream or pollEvent");
      Out.PendingStatus = It->get<long long>();
    }
    bool NeedsEvent = Out.Role == OrderRole::Record || Out.Role == OrderRole::Wait ||
                      Out.Role == OrderRole::SyncEvent || Out.Role == OrderRole::PollEvent;
    bool NeedsStream = Out.Role == OrderRole::Wait || Out.Role == OrderRole::SyncStream ||
                       Out.Role == OrderRole::CreateStream || Out.Role == OrderRole::PollStream;
    bool NeedsMemory = Out.Role == OrderRole::Alloc || Out.Role == OrderRole::Free;
    if (NeedsEvent && Out.EventArg < 0)
      return error(P, "role '" + Role + "' needs \"event\"");
    if (NeedsStream && Out.StreamArg < 0)
      return error(P, "role '" + Role + "' needs \"stream\"");
    if (NeedsMemory && Out.MemoryArgs.size() != 1)
      return error(P, "role '" + Role + "' needs one \"memory\" argument");
    return llvm::Error::success();
  }

  llvm::Error forEachEffect(const json &F, const char *Key,
                            const std::string &Where,
                            llvm::function_ref<llvm::Error(const json &,
                                                           const std::string &)>
                                Fn) const {
    auto It = F.find(Key);
    if (It == F.end())
      return llvm::Error::success();
    if (!It->is_array())
      return error(Where + "." + Key, "expected an array");
    for (size_t I = 0; I < It->size(); ++I)
      if (auto E = Fn((*It)[I], Where + "." + Key + "[" + std::to_string(I) + "]"))
        return E;
    return llvm::Error::success();
  }

  llvm::Error readEffects(const json &F, const std::string &Where,
                          FunctionModel &Out) const {
    if (auto E = forEachEffect(F, "acquires", Where,
                               [&](const json &A, const std::string &P) -> llvm::Error {
      if (auto E = expectKeys(A, P, {"arg", "kind", "owned", "field", "streamOrdered", "ifEmpty"}))
        return E;
      AcquireEffect Eff;
      if (auto E = readBool(A, "streamOrdered", P, Eff.StreamOrdered))
        return E;
      if (auto E = readString(A, "ifEmpty", P, Eff.IfEmpty, false))
        return E;
      if (auto E = readString(A, "field", P, Eff.Field, false))
        return E;
      if (auto E = readArg(A, P, Out.NumParams, Eff.Arg))
        return E;
      if (auto E = readString(A, "kind", P, Eff.Kind, true))
        return E;
      if (auto E = readBool(A, "owned", P, Eff.Owned))
        return E;
      Out.Acquires.push_back(Eff);
      return llvm::Error::success();
    }))
      return E;
    if (auto E = forEachEffect(F, "releases", Where,
                               [&](const json &A, const std::string &P) -> llvm::Error {
      if (auto E = expectKeys(A, P, {"arg", "kinds", "deref", "field", "streamOrdered", "resets",
                                    "onSomePaths"}))
        return E;
      ReleaseEffect Eff;
      if (auto E = readBool(A, "resets", P, Eff.Resets))
        return E;
      if (auto E = readBool(A, "onSomePaths", P, Eff.OnSomePaths))
        return E;
      if (auto E = readString(A, "field", P, Eff.Field, false))
        return E;
      if (auto E = readArg(A, P, Out.NumParams, Eff.Arg))
        return E;
      if (auto E = readBool(A, "deref", P, Eff.ThroughPointer))
        return E;
      if (auto E = readBool(A, "streamOrdered", P, Eff.StreamOrdered))
        return E;
      if (auto E = readStringList(A, "kinds", P, Eff.Kinds))
        return E;
      if (Eff.Kinds.empty())
        return error(P, "'kinds' must name at least one resource kind");
      Out.Releases.push_back(Eff);
      return llvm::Error::success();
    }))
      return E;
    if (auto E = forEachEffect(F, "writes", Where,
                               [&](const json &A, const std::string &P) -> llvm::Error {
      if (auto E = expectKeys(A, P, {"arg", "field"}))
        return E;
      WriteEffect Eff;
      if (auto E = readArg(A, P, Out.NumParams, Eff.Arg))
        return E;
      if (auto E = readString(A, "field", P, Eff.Field, true))
        return E;
      Out.Writes.push_back(Eff);
      return llvm::Error::success();
    }))
      return E;
    return forEachEffect(F, "uses", Where,
                         [&](const json &A, const std::string &P) -> llvm::Error {
      if (auto E = expectKeys(A, P, {"arg", "kind", "launch", "instantiates", "rebinds", "copies"}))
        return E;
      UseEffect Eff;
      if (auto E = readArg(A, P, Out.NumParams, Eff.Arg))
        return E;
      if (auto E = readString(A, "kind", P, Eff.Kind, false))
        return E;
      if (auto E = readBool(A, "launch", P, Eff.Launch))
        return E;
      if (auto E = readBool(A, "instantiates", P, Eff.Instantiates))
        return E;
      if (auto E = readBool(A, "rebinds", P, Eff.Rebinds))
        return E;
      if (auto E = readBool(A, "copies", P, Eff.Copies))
        return E;
      Out.Uses.push_back(Eff);
      return llvm::Error::success();
    });
  }

  /// Kinds named by functions must be declared, in this file or earlier.
  llvm::Error checkKindsKnown(const FunctionModel &F, const std::string &Path,
                              const llvm::StringMap<ResourceKind> &Kinds) const {
    auto Known = [&](const std::string &K) { return Kinds.count(K) != 0; };
    for (const auto &A : F.Acquires)
      if (!Known(A.Kind))
        return error(Path, "unknown resource kind '" + A.Kind + "'");
    for (const auto &R : F.Releases)
      for (const auto &K : R.Kinds)
        if (!Known(K))
          return error(Path, "unknown resource kind '" + K + "'");
    for (const auto &U : F.Uses)
      if (!U.Kind.empty() && !Known(U.Kind))
        return error(Path, "unknown resource kind '" + U.Kind + "'");
    return llvm::Error::success();
  }

  std::string Source;
};

} // namespace

llvm::Error ApiModel::addJson(llvm::StringRef Text, llvm::StringRef SourceName) {
  ModelReader R(SourceName);
  json Doc;
  try {
    Doc = json::parse(Text.begin(), Text.end());
  } catch (const json::parse_error &E) {
    return R.error("(document)", std::string("invalid JSON: ") + E.what());
  }
  if (auto E = R.expectKeys(Doc, "(document)",
                            {"version", "statusTypes", "kinds", "functions", "doc",
                             "unitSeconds", "kernelLaunches", "constantFields"}))
    return E;
  // A summaries artifact's costs per unit (ApiModelWriter.h): checked here,
  // read by the driver's --shard, not part of the model.
  if (auto It = Doc.find("unitSeconds"); It != Doc.end()) {
    if (!It->is_object())
      return R.error("unitSeconds", "expected an object of file: seconds");
    for (auto S = It->begin(); S != It->end(); ++S)
      if (!S.value().is_number() || S.value().get<double>() < 0)
        return R.error("unitSeconds." + S.key(), "expected a number >= 0");
  }
  if (auto It = Doc.find("version"); It == Doc.end() || *It != 1)
    return R.error("version", "expected \"version\": 1");

  // Parse everything into temporaries first: a bad file changes nothing.
  llvm::StringMap<ResourceKind> NewKinds = Kinds;
  if (auto E = R.readKinds(Doc, NewKinds))
    return E;
  llvm::StringMap<std::string> NewStatus = StatusTypes;
  if (auto It = Doc.find("statusTypes"); It != Doc.end()) {
    if (!It->is_object())
      return R.error("statusTypes", "expected an object of type: success value");
    for (auto S = It->begin(); S != It->end(); ++S) {
      if (!S.value().is_string())
        return R.error("statusTypes." + S.key(), "expected a string");
      NewStatus[S.key()] = S.value().get<std::string>();
    }
  }
  llvm::StringMap<std::vector<KernelLaunch>> NewLaunches = KernelLaunches;
  if (auto E = R.readLaunches(Doc, NewLaunches))
    return E;
  llvm::StringMap<long long> NewFields = ConstantFields;
  if (auto E = R.readConstantFields(Doc, NewFields))
    return E;
  std::vector<FunctionModel> NewFunctions;
  if (auto It = Doc.find("functions"); It != Doc.end()) {
    if (!It->is_array())
      return R.error("functions", "expected an array");
    for (size_t I = 0; I < It->size(); ++I) {
      std::string Path = "functions[" + std::to_string(I) + "]";
      FunctionModel F;
      if (auto E = R.readFunction((*It)[I], Path, F))
        return E;
      if (auto E = R.checkKindsKnown(F, Path + " (" + F.Name + ")", NewKinds))
        return E;
      if (!F.StatusType.empty() && !NewStatus.count(F.StatusType) &&
          !isPseudoStatusType(F.StatusType))
        return R.error(Path + " (" + F.Name + ").returns",
                       "unknown status type '" + F.StatusType + "'");
      F.Origin = SourceName.str();
      NewFunctions.push_back(std::move(F));
    }
  }

  Kinds = std::move(NewKinds);
  StatusTypes = std::move(NewStatus);
  KernelLaunches = std::move(NewLaunches);
  ConstantFields = std::move(NewFields);
  for (FunctionModel &F : NewFunctions) {
    auto &Overloads = Functions[F.Name];
    // A later entry with the same arity replaces the earlier one, unless
    // both have signatures and they differ: overloads.
    llvm::erase_if(Overloads, [&](const FunctionModel &Old) {
      return Old.NumParams == F.NumParams &&
             (Old.Signature.empty() || F.Signature.empty() || Old.Signature == F.Signature);
    });
    Overloads.push_back(std::move(F));
  }
  return llvm::Error::success();
}

llvm::Error ApiModel::addFile(llvm::StringRef Path) {
  auto Buf = llvm::MemoryBuffer::getFile(Path, /*IsText=*/true);
  if (!Buf)
    return llvm::createStringError(Buf.getError(), "%s: cannot read API model file: %s",
                                   Path.str().c_str(),
                                   Buf.getError().message().c_str());
  return addJson((*Buf)->getBuffer(), Path);
}

llvm::Expected<std::shared_ptr<ApiModel>> ApiModel::builtin() {
  auto M = std::make_shared<ApiModel>();
  if (auto E = M->addJson(BuiltinModelText, "builtin cuda_api_model.json"))
    return std::move(E);
  return M;
}

std::optional<long long> ApiModel::constantField(llvm::StringRef QualifiedField) const {
  auto It = ConstantFields.find(QualifiedField);
  if (It == ConstantFields.end())
    return std::nullopt;
  return It->second;
}

const std::vector<KernelLaunch> *ApiModel::launchesOf(llvm::StringRef Kernel) const {
  auto It = KernelLaunches.find(Kernel);
  return It == KernelLaunches.end() ? nullptr : &It->second;
}

llvm::StringRef ApiModel::canonicalName(llvm::StringRef Name) {
  for (llvm::StringRef Suffix : {"_ptsz", "_ptds", "_v2", "_v3", "_v4"})
    Name.consume_back(Suffix);
  Name.consume_front("::");
  return Name;
}

const FunctionModel *
ApiModel::lookup(llvm::StringRef Name, unsigned NumArgs,
                 llvm::function_ref<std::vector<std::string>()> Signature) const {
  auto It = Functions.find(Name);
  if (It == Functions.end())
    It = Functions.find(canonicalName(Name));
  if (It == Functions.end())
    return nullptr;
  const FunctionModel *AnyArity = nullptr, *AnySignature = nullptr;
  std::vector<const FunctionModel *> Signed;
  for (const FunctionModel &F : It->second) {
    if (F.NumParams == static_cast<int>(NumArgs) && F.Signature.empty())
      AnySignature = &F;
    else if (F.NumParams == static_cast<int>(NumArgs))
      Signed.push_back(&F);
    else if (F.NumParams < 0)
      AnyArity = &F;
  }
  if (AnySignature)
    return AnySignature;
  if (Signed.size() == 1 && !Signature)
    return Signed.front();
  if (!Signed.empty() && Signature) {
    std::vector<std::string> Want = Signature();
    for (const FunctionModel *F : Signed)
      if (F->Signature == Want)
        return F;
    return nullptr;
  }
  return AnyArity;
}

const ResourceKind *ApiModel::kindOfType(llvm::StringRef TypeName) const {
  for (const auto &K : Kinds)
    if (llvm::is_contained(K.getValue().Types, TypeName))
      return &K.getValue();
  return nullptr;
}

std::vector<std::string> ApiModel::kindNames() const {
  std::vector<std::string> Names;
  for (const auto &K : Kinds)
    Names.push_back(K.getKey().str());
  llvm::sort(Names);
  return Names;
}

const ResourceKind *ApiModel::kind(llvm::StringRef Name) const {
  auto It = Kinds.find(Name);
  return It == Kinds.end() ? nullptr : &It->second;
}

llvm::StringRef ApiModel::successValue(llvm::StringRef StatusType) const {
  auto It = StatusTypes.find(StatusType);
  return It == StatusTypes.end() ? llvm::StringRef() : llvm::StringRef(It->second);
}

bool ApiModel::isStatusType(llvm::StringRef TypeName) const {
  return StatusTypes.count(TypeName) != 0;
}

std::vector<std::pair<std::string, std::string>> ApiModel::statusTypes() const {
  std::vector<std::pair<std::string, std::string>> Out;
  for (const auto &S : StatusTypes)
    Out.emplace_back(S.getKey().str(), S.getValue());
  llvm::sort(Out);
  return Out;
}

bool ApiModel::isPseudoStatusType(llvm::StringRef TypeName) {
  return TypeName == "bool" || TypeName == "int";
}

std::vector<const FunctionModel *> ApiModel::functions() const {
  std::vector<const FunctionModel *> Out;
  for (const auto &Entry : Functions)
    for (const FunctionModel &F : Entry.second)
      Out.push_back(&F);
  llvm::sort(Out, [](const FunctionModel *A, const FunctionModel *B) {
    return std::make_pair(A->Name, A->NumParams) < std::make_pair(B->Name, B->NumParams);
  });
  return Out;
}

} // namespace cgt
