//===- ApiModelWriter.cpp - writing API model JSON ------------------------===//
//
// Every field ApiModel.cpp reads is written when it differs from the
// reader's default, under the same key, so reading the text back gives the
// same entries. Keys keep a fixed order (ordered_json) and numbers are
// written as integers: the same entries always give the same bytes.
//
//===----------------------------------------------------------------------===//
#include "ApiModel/ApiModelWriter.h"

#include "llvm/ADT/STLExtras.h"
#include <nlohmann/json.hpp>
#include <cstdio>
#include <tuple>

using Json = nlohmann::ordered_json;

namespace cgt {
namespace {

Json argValue(int Arg) {
  return Arg == ReturnValue ? Json("return") : Json(Arg);
}

Json kindJson(const ResourceKind &K) {
  Json J = Json::object();
  if (!K.Types.empty())
    J["types"] = K.Types;
  J["noun"] = K.Noun;
  if (!K.ReleasedBy.empty())
    J["releasedBy"] = K.ReleasedBy;
  if (!K.LeakCheck.empty())
    J["leakCheck"] = K.LeakCheck;
  if (K.GraphAllocatable)
    J["graphAllocatable"] = true;
  if (K.MismatchOnly)
    J["mismatchOnly"] = true;
  if (!K.Doc.empty())
    J["doc"] = K.Doc;
  return J;
}

Json acquiresJson(const std::vector<AcquireEffect> &Effects) {
  Json Out = Json::array();
  for (const AcquireEffect &A : Effects) {
    Json J = {{"arg", argValue(A.Arg)}, {"kind", A.Kind}};
    if (!A.Owned)
      J["owned"] = false;
    if (!A.Field.empty())
      J["field"] = A.Field;
    if (A.StreamOrdered)
      J["streamOrdered"] = true;
    if (!A.IfEmpty.empty())
      J["ifEmpty"] = A.IfEmpty;
    Out.push_back(std::move(J));
  }
  return Out;
}

Json releasesJson(const std::vector<ReleaseEffect> &Effects) {
  Json Out = Json::array();
  for (const ReleaseEffect &R : Effects) {
    Json J = {{"arg", argValue(R.Arg)}, {"kinds", R.Kinds}};
    if (R.ThroughPointer)
      J["deref"] = true;
    if (!R.Field.empty())
      J["field"] = R.Field;
    if (R.StreamOrdered)
      J["streamOrdered"] = true;
    if (R.Resets)
      J["resets"] = true;
    if (R.OnSomePaths)
      J["onSomePaths"] = true;
    Out.push_back(std::move(J));
  }
  return Out;
}

Json usesJson(const std::vector<UseEffect> &Effects) {
  Json Out = Json::array();
  for (const UseEffect &U : Effects) {
    Json J = {{"arg", argValue(U.Arg)}};
    if (!U.Kind.empty())
      J["kind"] = U.Kind;
    if (U.Launch)
      J["launch"] = true;
    if (U.Instantiates)
      J["instantiates"] = true;
    if (U.Rebinds)
      J["rebinds"] = true;
    if (U.Copies)
      J["copies"] = true;
    Out.push_back(std::move(J));
  }
  return Out;
}

Json writesJson(const std::vector<WriteEffect> &Effects) {
  Json Out = Json::array();
  for (const WriteEffect &W : Effects)
    Out.push_back({{"arg", argValue(W.Arg)}, {"field", W.Field}});
  return Out;
}

/// "streamOrder": the roles of ApiModel.h OrderRole, as the loader reads them.
Json orderJson(const OrderEffect &O) {
  static const char *const Names[] = {"",         "enqueue",    "alloc",
                                      "free",     "record",     "wait",
                                      "syncStream", "syncEvent", "syncDevice",
                                      "createStream", "pollStream", "pollEvent"};
  Json J = {{"role", Names[static_cast<int>(O.Role)]}};
  if (O.StreamArg >= 0)
    J["stream"] = O.StreamArg;
  if (O.EventArg >= 0)
    J["event"] = O.EventArg;
  if (!O.MemoryArgs.empty())
    J["memory"] = O.MemoryArgs;
  if (O.FlagsArg >= 0) {
    J["flags"] = O.FlagsArg;
    J["bit"] = O.FlagBit;
  }
  if (O.Synchronous)
    J["synchronous"] = true;
  if (O.PendingStatus >= 0)
    J["pending"] = O.PendingStatus;
  return J;
}

void captureJson(const FunctionModel &F, Json &J) {
  switch (F.Capture) {
  case CaptureRole::None:
    break;
  case CaptureRole::Begin:
    J["capture"] = "begin";
    break;
  case CaptureRole::End:
    J["capture"] = "end";
    break;
  case CaptureRole::ExchangeMode:
    J["capture"] = "exchangeMode";
    break;
  }
  if (F.StreamArg >= 0)
    J["stream"] = F.StreamArg;
  if (!F.StreamMember.empty())
    J["streamMember"] = F.StreamMember;
  if (F.IntoGraphArg >= 0)
    J["intoGraph"] = F.IntoGraphArg;
  if (F.CaptureStatusOutArg >= 0)
    J["captureStatusOut"] = F.CaptureStatusOutArg;
  if (F.CaptureModeArg >= 0)
    J["captureMode"] = {{"arg", argValue(F.CaptureModeArg)},
                        {"relaxed", F.RelaxedCaptureMode}};
  if (F.Order.Role != OrderRole::None)
    J["streamOrder"] = orderJson(F.Order);
}

Json functionJson(const FunctionModel &F) {
  Json J = {{"name", F.Name}};
  if (F.NumParams >= 0)
    J["params"] = F.NumParams;
  if (!F.Signature.empty())
    J["signature"] = F.Signature;
  if (!F.StatusType.empty())
    J["returns"] = F.StatusType;
  if (!F.Acquires.empty())
    J["acquires"] = acquiresJson(F.Acquires);
  if (!F.Releases.empty())
    J["releases"] = releasesJson(F.Releases);
  if (!F.Uses.empty())
    J["uses"] = usesJson(F.Uses);
  if (!F.Writes.empty())
    J["writes"] = writesJson(F.Writes);
  if (F.UnlistedArgsEscape)
    J["unlistedArgsEscape"] = true;
  if (F.StatusOutArg >= 0)
    J["statusOut"] = {{"arg", argValue(F.StatusOutArg)}, {"field", F.StatusOutField}};
  if (F.ReturnsLastStatus)
    J["returnsLastStatus"] = true;
  if (!F.ReturnValues.empty())
    J["returnValues"] = F.ReturnValues;
  if (F.ReleasesAll)
    J["releasesAll"] = true;
  if (!F.LegalDuringCapture)
    J["legalDuringCapture"] = false;
  if (F.LegalInRelaxedCaptureOnOtherStream)
    J["legalInRelaxedCaptureOnOtherStream"] = true;
  if (F.LegalInRelaxedCapture)
    J["legalInRelaxedCapture"] = true;
  if (!F.CaptureNote.empty())
    J["captureNote"] = F.CaptureNote;
  if (F.QueriesCapture)
    J["queriesCapture"] = true;
  captureJson(F, J);
  if (F.NoAutoFree)
    J["autoFreeOnLaunch"] = false;
  else if (F.AutoFreeArg >= 0)
    J["autoFreeOnLaunch"] = {{"arg", argValue(F.AutoFreeArg)}, {"bit", F.AutoFreeBit}};
  if (!F.Doc.empty())
    J["doc"] = F.Doc;
  return J;
}

} // namespace

std::string writeModelJson(const ModelDocument &D) {
  std::string Out = "{\n  \"version\": 1";
  if (!D.Doc.empty())
    Out += ",\n  \"doc\": " + Json(D.Doc).dump();
  auto StatusTypes = D.StatusTypes;
  llvm::sort(StatusTypes);
  if (!StatusTypes.empty()) {
    Json S = Json::object();
    for (const auto &[Type, Success] : StatusTypes)
      S[Type] = Success;
    Out += ",\n  \"statusTypes\": " + S.dump();
  }
  std::vector<const ResourceKind *> Kinds;
  for (const ResourceKind &K : D.Kinds)
    Kinds.push_back(&K);
  llvm::sort(Kinds, [](const ResourceKind *A, const ResourceKind *B) { return A->Name < B->Name; });
  if (!Kinds.empty()) {
    Out += ",\n  \"kinds\": {";
    for (size_t I = 0; I < Kinds.size(); ++I)
      Out += std::string(I ? "," : "") + "\n    " + Json(Kinds[I]->Name).dump() + ": " +
             kindJson(*Kinds[I]).dump();
    Out += "\n  }";
  }
  if (!D.UnitSeconds.empty()) {
    Out += ",\n  \"unitSeconds\": {";
    bool First = true;
    for (const auto &[Unit, Seconds] : D.UnitSeconds) {
      // Hundredths: what a measurement on a shared machine can tell apart.
      char Text[32];
      std::snprintf(Text, sizeof(Text), "%.2f", Seconds);
      Out += std::string(First ? "" : ",") + "\n    " + Json(Unit).dump() + ": " + Text;
      First = false;
    }
    Out += "\n  }";
  }
  if (!D.KernelLaunches.empty()) {
    Out += ",\n  \"kernelLaunches\": {";
    bool First = true;
    for (const auto &[Kernel, Launches] : D.KernelLaunches) {
      Json List = Json::array();
      for (const KernelLaunch &L : Launches) {
        Json One = Json::object();
        One["block"] = Json::array({L.Block[0], L.Block[1], L.Block[2]});
        if (L.DynamicSharedBytes >= 0)
          One["dynamicSharedBytes"] = L.DynamicSharedBytes;
        if (!L.At.empty())
          One["at"] = L.At;
        List.push_back(One);
      }
      Out += std::string(First ? "" : ",") + "\n    " + Json(Kernel).dump() + ": " + List.dump();
      First = false;
    }
    Out += "\n  }";
  }
  Out += ",\n  \"functions\": [";
  for (size_t I = 0; I < D.Functions.size(); ++I)
    Out += std::string(I ? "," : "") + "\n    " + functionJson(D.Functions[I]).dump();
  Out += D.Functions.empty() ? "]\n}\n" : "\n  ]\n}\n";
  return Out;
}

std::string describeDifference(const FunctionModel &A, const FunctionModel &B) {
  Json JA = functionJson(A), JB = functionJson(B);
  JA.erase("doc");
  JB.erase("doc");
  std::string Out;
  auto Add = [&](const std::string &Key) {
    Out += (Out.empty() ? "" : "; ") + Key + ": " +
           (JA.contains(Key) ? JA[Key].dump() : std::string("none")) + " and " +
           (JB.contains(Key) ? JB[Key].dump() : std::string("none"));
  };
  for (auto &[Key, Value] : JA.items())
    if (!JB.contains(Key) || JB[Key] != Value)
      Add(Key);
  for (auto &[Key, Value] : JB.items())
    if (!JA.contains(Key))
      Add(Key);
  return Out;
}

bool sameKind(const ResourceKind &A, const ResourceKind &B) {
  return std::tie(A.Name, A.Noun, A.ReleasedBy, A.LeakCheck, A.GraphAllocatable, A.MismatchOnly, A.Types, A.Doc) ==
         std::tie(B.Name, B.Noun, B.ReleasedBy, B.LeakCheck, B.GraphAllocatable, B.MismatchOnly, B.Types, B.Doc);
}

bool sameEntry(const FunctionModel &A, const FunctionModel &B) {
  auto Acq = [](const AcquireEffect &E) {
    return std::tie(E.Arg, E.Kind, E.Owned, E.Field, E.StreamOrdered, E.IfEmpty);
  };
  auto Rel = [](const ReleaseEffect &E) {
    return std::tie(E.Arg, E.Kinds, E.ThroughPointer, E.Field, E.StreamOrdered, E.Resets,
                    E.OnSomePaths);
  };
  auto Use = [](const UseEffect &E) {
    return std::tie(E.Arg, E.Kind, E.Launch, E.Instantiates, E.Rebinds, E.Copies);
  };
  auto Write = [](const WriteEffect &E) { return std::tie(E.Arg, E.Field); };
  auto Same = [](const auto &X, const auto &Y, auto Fields) {
    return X.size() == Y.size() &&
           std::equal(X.begin(), X.end(), Y.begin(),
                      [&](const auto &L, const auto &R) { return Fields(L) == Fields(R); });
  };
  auto Order = [](const OrderEffect &E) {
    return std::tie(E.Role, E.StreamArg, E.EventArg, E.MemoryArgs, E.FlagsArg, E.FlagBit,
                    E.Synchronous);
  };
  return Same(A.Acquires, B.Acquires, Acq) && Same(A.Releases, B.Releases, Rel) &&
         Same(A.Uses, B.Uses, Use) && Same(A.Writes, B.Writes, Write) && Order(A.Order) == Order(B.Order) &&
         std::tie(A.Name, A.NumParams, A.StatusType, A.StatusOutArg, A.StatusOutField,
                  A.ReturnsLastStatus, A.ReleasesAll, A.LegalDuringCapture, A.CaptureNote,
                  A.LegalInRelaxedCapture, A.LegalInRelaxedCaptureOnOtherStream, A.QueriesCapture, A.CaptureStatusOutArg, A.Capture, A.StreamArg, A.StreamMember,
                  A.IntoGraphArg, A.CaptureModeArg, A.RelaxedCaptureMode, A.AutoFreeArg,
                  A.AutoFreeBit, A.NoAutoFree, A.UnlistedArgsEscape, A.ReturnValues, A.Doc) ==
             std::tie(B.Name, B.NumParams, B.StatusType, B.StatusOutArg, B.StatusOutField,
                      B.ReturnsLastStatus, B.ReleasesAll, B.LegalDuringCapture, B.CaptureNote,
                      B.LegalInRelaxedCapture, B.LegalInRelaxedCaptureOnOtherStream, B.QueriesCapture, B.CaptureStatusOutArg, B.Capture, B.StreamArg, B.StreamMember,
                      B.IntoGraphArg, B.CaptureModeArg, B.RelaxedCaptureMode, B.AutoFreeArg,
                      B.AutoFreeBit, B.NoAutoFree, B.UnlistedArgsEscape, B.ReturnValues, B.Doc);
}

} // namespace cgt
