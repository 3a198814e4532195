//===- ApiModelTest.cpp - loading and validating API model files ----------===//
#include "ApiModel/ApiModel.h"
#include "ApiModel/ApiModelWriter.h"
#include "gtest/gtest.h"

using namespace cgt;

namespace {

std::string errorOf(ApiModel &M, const std::string &Json) {
  llvm::Error E = M.addJson(Json, "user.json");
  return E ? llvm::toString(std::move(E)) : "";
}

const char *Header = R"({"version": 1, "kinds": {"thing": {"noun": "thing"}}, )";

} // namespace

TEST(ApiModel, BuiltinCoversBothInstantiateArities) {
  auto M = ApiModel::builtin();
  ASSERT_TRUE(bool(M)) << llvm::toString(M.takeError());
  const FunctionModel *Three = (*M)->lookup("cudaGraphInstantiate", 3);
  const FunctionModel *Five = (*M)->lookup("cudaGraphInstantiate", 5);
  ASSERT_NE(Three, nullptr);
  ASSERT_NE(Five, nullptr);
  EXPECT_NE(Three, Five);
  ASSERT_EQ(Five->Acquires.size(), 1u);
  EXPECT_EQ(Five->Acquires[0].Kind, "graphExec");
  EXPECT_EQ(Five->Acquires[0].Arg, 0);
  EXPECT_EQ((*M)->lookup("cudaGraphInstantiate", 4), nullptr);
  const FunctionModel *WithParams = (*M)->lookup("cudaGraphInstantiateWithParams", 3);
  ASSERT_NE(WithParams, nullptr);
  EXPECT_EQ(WithParams->StatusOutArg, 2);
  EXPECT_EQ(WithParams->StatusOutField, "result_out");
}

TEST(ApiModel, BuiltinCoversTheFamilies) {
  auto M = ApiModel::builtin();
  ASSERT_TRUE(bool(M));
  for (const char *Name :
       {"cudaGraphCreate", "cudaGraphExecDestroy", "cudaStreamBeginCapture",
        "cudaStreamEndCapture", "cudaEventCreate", "cudaStreamCreate",
        "cudaMemPoolCreate", "cudaMalloc", "cudaMallocHost", "cuMemAlloc",
        "cuGraphInstantiateWithFlags", "cuGraphExecDestroy"})
    EXPECT_NE((*M)->lookup(Name, 3), nullptr) << Name;
  const FunctionModel *Free = (*M)->lookup("cudaFree", 1);
  ASSERT_NE(Free, nullptr);
  EXPECT_FALSE(Free->LegalDuringCapture);
  EXPECT_EQ((*M)->successValue("cudaError_t"), "cudaSuccess");
  EXPECT_EQ((*M)->successValue("CUresult"), "CUDA_SUCCESS");
}

// The stream-order roles (lib/Streams) are data: the built-in entries carry
// the arguments the engine reads.
TEST(ApiModel, BuiltinStreamOrderRoles) {
  auto M = ApiModel::builtin();
  ASSERT_TRUE(bool(M));
  const FunctionModel *Alloc = (*M)->lookup("cudaMallocAsync", 3);
  ASSERT_TRUE(Alloc);
  EXPECT_EQ(Alloc->Order.Role, OrderRole::Alloc);
  EXPECT_EQ(Alloc->Order.StreamArg, 2);
  EXPECT_EQ(Alloc->Order.MemoryArgs, std::vector<int>{0});
  const FunctionModel *Wait = (*M)->lookup("cudaStreamWaitEvent", 3);
  ASSERT_TRUE(Wait);
  EXPECT_EQ(Wait->Order.Role, OrderRole::Wait);
  EXPECT_EQ(Wait->Order.EventArg, 1);
  EXPECT_EQ(Wait->Order.FlagBit, 1); // cudaEventWaitExternal
  const FunctionModel *Copy = (*M)->lookup("cudaMemcpy", 4);
  ASSERT_TRUE(Copy);
  EXPECT_TRUE(Copy->Order.Synchronous);
  EXPECT_EQ(Copy->Order.StreamArg, -1); // the default stream
  const FunctionModel *Create = (*M)->lookup("cudaStreamCreateWithFlags", 2);
  ASSERT_TRUE(Create);
  EXPECT_EQ(Create->Order.Role, OrderRole::CreateStream);
  EXPECT_EQ(Create->Order.FlagsArg, 1);
}

TEST(ApiModel, HeaderSuffixesAreIgnored) {
  auto M = ApiModel::builtin();
  ASSERT_TRUE(bool(M));
  EXPECT_NE((*M)->lookup("cuMemFree_v2", 1), nullptr);
  EXPECT_NE((*M)->lookup("cudaStreamBeginCapture_ptsz", 2), nullptr);
  EXPECT_EQ(ApiModel::canonicalName("cuStreamDestroy_v2"), "cuStreamDestroy");
}

TEST(ApiModel, UserEntriesExtendAndOverride) {
  auto M = ApiModel::builtin();
  ASSERT_TRUE(bool(M));
  llvm::Error E = (*M)->addJson(
      R"({"version": 1, "functions": [
           {"name": "myMakeExec", "returns": "cudaError_t",
            "acquires": [{"arg": 0, "kind": "graphExec"}]},
           {"name": "cudaGraphExecDestroy", "releases": [{"arg": 0, "kinds": ["graphExec", "graph"]}]}]})",
      "wrappers.json");
  ASSERT_FALSE(bool(E)) << llvm::toString(std::move(E));
  const FunctionModel *F = (*M)->lookup("myMakeExec", 2);
  ASSERT_NE(F, nullptr);
  EXPECT_EQ(F->Origin, "wrappers.json");
  EXPECT_EQ((*M)->lookup("cudaGraphExecDestroy", 1)->Releases[0].Kinds.size(), 2u);
}

TEST(ApiModel, SignaturesTellOverloadsApart) {
  auto M = ApiModel::builtin();
  ASSERT_TRUE(bool(M));
  llvm::Error E = (*M)->addJson(
      R"({"version": 1, "functions": [
           {"name": "destroy", "params": 1, "signature": ["CUstream_st *"],
            "releases": [{"arg": 0, "kinds": ["stream"]}]},
           {"name": "destroy", "params": 1, "signature": ["CUevent_st *"],
            "releases": [{"arg": 0, "kinds": ["event"]}]},
           {"name": "lone", "params": 1, "signature": ["int"]}]})",
      "overloads.json");
  ASSERT_FALSE(bool(E)) << llvm::toString(std::move(E));
  auto Sig = [](std::string T) {
    return [T] { return std::vector<std::string>{T}; };
  };
  const FunctionModel *Stream = (*M)->lookup("destroy", 1, Sig("CUstream_st *"));
  const FunctionModel *Event = (*M)->lookup("destroy", 1, Sig("CUevent_st *"));
  ASSERT_NE(Stream, nullptr);
  ASSERT_NE(Event, nullptr);
  EXPECT_EQ(Stream->Releases[0].Kinds, std::vector<std::string>{"stream"});
  EXPECT_EQ(Event->Releases[0].Kinds, std::vector<std::string>{"event"});
  // A third overload has no entry; without the types, two are ambiguous.
  EXPECT_EQ((*M)->lookup("destroy", 1, Sig("int")), nullptr);
  EXPECT_EQ((*M)->lookup("destroy", 1), nullptr);
  // A lone signed entry answers a lookup by name.
  EXPECT_NE((*M)->lookup("lone", 1), nullptr);
  // An entry without a signature replaces both.
  ASSERT_FALSE(bool((*M)->addJson(
      R"({"version": 1, "functions": [{"name": "destroy", "params": 1}]})", "later.json")));
  EXPECT_EQ((*M)->lookup("destroy", 1, Sig("CUevent_st *"))->Origin, "later.json");
}

TEST(ApiModel, MalformedFilesNameTheFileAndTheProblem) {
  ApiModel M;
  EXPECT_NE(errorOf(M, "{ not json"), "");
  EXPECT_NE(errorOf(M, "{ not json").find("user.json: (document): invalid JSON"), std::string::npos);
  EXPECT_NE(errorOf(M, R"({"version": 2})").find("version"), std::string::npos);
  EXPECT_NE(errorOf(M, std::string(Header) + R"("functions": [{"name": "f", "acquires": [{"arg": 0, "kind": "nope"}]}]})").find("unknown resource kind 'nope'"), std::string::npos);
  EXPECT_NE(errorOf(M, std::string(Header) + R"("functions": [{"name": "f", "params": 1, "releases": [{"arg": 3, "kinds": ["thing"]}]}]})").find("functions[0] (f).releases[0].arg"), std::string::npos);
  EXPECT_NE(errorOf(M, std::string(Header) + R"("functions": [{"name": "f", "acquire": []}]})").find("unknown key 'acquire'"), std::string::npos);
  EXPECT_NE(errorOf(M, std::string(Header) + R"("functions": [{"acquires": []}]})").find("missing 'name'"), std::string::npos);
  EXPECT_NE(errorOf(M, std::string(Header) + R"("functions": [{"name": "f", "capture": "begin"}]})").find("stream"), std::string::npos);
  EXPECT_NE(errorOf(M, std::string(Header) + R"("functions": [{"name": "f", "streamOrder": {"role": "sync"}}]})").find("streamOrder.role: expected one of"), std::string::npos);
  EXPECT_NE(errorOf(M, std::string(Header) + R"("functions": [{"name": "f", "streamOrder": {"role": "wait", "stream": 0}}]})").find("role 'wait' needs \"event\""), std::string::npos);
  EXPECT_NE(errorOf(M, std::string(Header) + R"("functions": [{"name": "f", "params": 2, "streamOrder": {"role": "enqueue", "stream": 4}}]})").find("streamOrder.stream"), std::string::npos);
  EXPECT_NE(errorOf(M, std::string(Header) + R"("functions": [{"name": "f", "streamOrder": {"role": "syncStream", "stream": 0, "pending": 600}}]})").find("streamOrder.pending: expected the status a poll returns"), std::string::npos);
  EXPECT_NE(errorOf(M, std::string(Header) + R"("functions": [{"name": "f", "streamOrder": {"role": "pollEvent", "stream": 0}}]})").find("role 'pollEvent' needs \"event\""), std::string::npos);
  EXPECT_NE(errorOf(M, std::string(Header) + R"("functions": [{"name": "f", "params": 2, "signature": ["int"]}]})").find("signature: expected one type per parameter"), std::string::npos);
  // A rejected file leaves the model unchanged.
  EXPECT_EQ(M.numFunctions(), 0u);
  llvm::Error Missing = M.addFile("/nonexistent/model.json");
  ASSERT_TRUE(bool(Missing));
  EXPECT_NE(llvm::toString(std::move(Missing)).find("/nonexistent/model.json"), std::string::npos);
}

namespace {

/// Everything a model holds, as a document the writer takes.
ModelDocument documentOf(const ApiModel &M) {
  ModelDocument D;
  D.StatusTypes = M.statusTypes();
  for (const std::string &K : M.kindNames())
    D.Kinds.push_back(*M.kind(K));
  for (const FunctionModel *F : M.functions())
    D.Functions.push_back(*F);
  return D;
}

void expectSameModel(const ApiModel &A, const ApiModel &B) {
  EXPECT_EQ(A.statusTypes(), B.statusTypes());
  ASSERT_EQ(A.kindNames(), B.kindNames());
  for (const std::string &K : A.kindNames())
    EXPECT_TRUE(sameKind(*A.kind(K), *B.kind(K))) << K;
  std::vector<const FunctionModel *> FA = A.functions(), FB = B.functions();
  ASSERT_EQ(FA.size(), FB.size());
  for (size_t I = 0; I < FA.size(); ++I)
    EXPECT_TRUE(sameEntry(*FA[I], *FB[I])) << FA[I]->Name << "/" << FA[I]->NumParams;
}

} // namespace

TEST(ApiModelWriter, BuiltinModelRoundTrips) {
  auto M = ApiModel::builtin();
  ASSERT_TRUE(bool(M));
  std::string Text = writeModelJson(documentOf(**M));
  ApiModel Back;
  llvm::Error E = Back.addJson(Text, "written.json");
  ASSERT_FALSE(bool(E)) << llvm::toString(std::move(E));
  expectSameModel(**M, Back);
  // Writing what was read gives the same bytes.
  EXPECT_EQ(writeModelJson(documentOf(Back)), Text);
}

TEST(ApiModelWriter, SummaryEntriesRoundTrip) {
  auto M = ApiModel::builtin();
  ASSERT_TRUE(bool(M));
  FunctionModel Free;
  Free.Name = "util::cuda_free";
  Free.NumParams = 1;
  Free.Releases.push_back({0, {"deviceMemory", "asyncMemory"}, false});
  Free.LegalDuringCapture = false;
  Free.CaptureNote = "it calls 'cudaFree' at util.cu:3";
  Free.UnlistedArgsEscape = true;
  Free.Doc = "summary of util.cu:2";
  FunctionModel Make;
  Make.Name = "make_stream";
  Make.NumParams = 0;
  Make.Acquires.push_back({ReturnValue, "stream", true});
  FunctionModel Init;
  Init.Name = "init_graph";
  Init.NumParams = 3;
  Init.StatusType = "int";
  Init.Acquires.push_back({0, "graphExec", true, ""});
  Init.Acquires.push_back({2, "stream", true, "stream"});
  Init.Releases.push_back({1, {"graphExec"}, true});
  Init.Uses.push_back({1, "", false});
  Init.Capture = CaptureRole::End;
  Init.StreamArg = 2;
  Init.Writes.push_back({1, "weights"});
  FunctionModel Ok = Make;
  Ok.Name = "try_make";
  Ok.StatusType = "bool";
  ModelDocument D;
  D.Doc = "exported";
  D.Functions = {Free, Make, Init, Ok};
  std::string Text = writeModelJson(D);
  llvm::Error E = (*M)->addJson(Text, "summaries.json");
  ASSERT_FALSE(bool(E)) << llvm::toString(std::move(E));
  for (const FunctionModel &F : D.Functions) {
    const FunctionModel *Read = (*M)->lookup(F.Name, F.NumParams);
    ASSERT_NE(Read, nullptr) << F.Name;
    EXPECT_TRUE(sameEntry(F, *Read)) << F.Name;
    EXPECT_EQ(Read->Origin, "summaries.json");
  }
  // A field the entry does not carry makes a different entry.
  FunctionModel Other = Init;
  Other.Acquires[1].Field = "exec";
  EXPECT_FALSE(sameEntry(Init, Other));
  FunctionModel OtherWrite = Init;
  OtherWrite.Writes[0].Field = "bias";
  EXPECT_FALSE(sameEntry(Init, OtherWrite));
}

TEST(ApiModelWriter, KernelLaunchesRoundTripAndAddUp) {
  ModelDocument D;
  KernelLaunch A;
  A.Block[0] = 128;
  A.At = "launch.cu:8";
  KernelLaunch B;
  B.Block[0] = 8;
  B.Block[1] = 8;
  B.DynamicSharedBytes = 1024;
  D.KernelLaunches["fill<64>"] = {A};
  D.KernelLaunches["ns::scale"] = {A, B};
  std::string Text = writeModelJson(D);
  ApiModel M;
  llvm::Error E = M.addJson(Text, "summaries.json");
  ASSERT_FALSE(bool(E)) << llvm::toString(std::move(E));
  ASSERT_NE(M.launchesOf("ns::scale"), nullptr);
  EXPECT_EQ(*M.launchesOf("ns::scale"), (std::vector<KernelLaunch>{A, B}));
  EXPECT_EQ(M.launchesOf("scale"), nullptr);
  // A second file adds its launches; one already known is not repeated.
  KernelLaunch C = A;
  C.Block[0] = 256;
  ModelDocument More;
  More.KernelLaunches["ns::scale"] = {A, C};
  E = M.addJson(writeModelJson(More), "more.json");
  ASSERT_FALSE(bool(E)) << llvm::toString(std::move(E));
  EXPECT_EQ(*M.launchesOf("ns::scale"), (std::vector<KernelLaunch>{A, B, C}));
  // Written back, the same bytes.
  ModelDocument Back;
  for (const auto &K : M.kernelLaunches())
    Back.KernelLaunches[K.getKey().str()] = K.getValue();
  ApiModel Again;
  E = Again.addJson(writeModelJson(Back), "again.json");
  ASSERT_FALSE(bool(E)) << llvm::toString(std::move(E));
  EXPECT_EQ(*Again.launchesOf("fill<64>"), (std::vector<KernelLaunch>{A}));
}

TEST(ApiModel, MalformedKernelLaunchesAreErrors) {
  ApiModel M;
  auto bad = [&](const std::string &Launches) {
    return errorOf(M, std::string(R"({"version": 1, "kernelLaunches": )") + Launches + "}");
  };
  EXPECT_NE(bad("[]").find("kernelLaunches: expected an object"), std::string::npos);
  EXPECT_NE(bad(R"({"k": {}})").find("kernelLaunches.k: expected an array"), std::string::npos);
  EXPECT_NE(bad(R"({"k": [{"block": [0]}]})").find("kernelLaunches.k[0].block"), std::string::npos);
  EXPECT_NE(bad(R"({"k": [{"block": [64, 64]}]})").find("more than 1024 threads"), std::string::npos);
  EXPECT_NE(bad(R"({"k": [{"block": [64], "bytes": 4}]})").find("unknown key 'bytes'"), std::string::npos);
  EXPECT_NE(bad(R"({"k": [{"block": [64], "dynamicSharedBytes": -4}]})").find("dynamicSharedBytes"), std::string::npos);
  EXPECT_EQ(M.launchesOf("k"), nullptr);
}

TEST(ApiModelWriter, ReturnValuesRoundTripSortedAndCompared) {
  ApiModel M;
  llvm::Error E = M.addJson(
      R"({"version": 1, "functions": [{"name": "ns::rows", "params": 1, "returnValues": [8, 4, 8]}]})",
      "user.json");
  ASSERT_FALSE(bool(E)) << llvm::toString(std::move(E));
  const FunctionModel *F = M.lookup("ns::rows", 1);
  ASSERT_NE(F, nullptr);
  EXPECT_EQ(F->ReturnValues, (std::vector<long long>{4, 8})); // sorted, once each
  ModelDocument D;
  D.Functions.push_back(*F);
  ApiModel Again;
  E = Again.addJson(writeModelJson(D), "again.json");
  ASSERT_FALSE(bool(E)) << llvm::toString(std::move(E));
  ASSERT_NE(Again.lookup("ns::rows", 1), nullptr);
  EXPECT_EQ(Again.lookup("ns::rows", 1)->ReturnValues, F->ReturnValues);
  // Entries that return other values differ: the passes parse callers again.
  FunctionModel Other = *F;
  Other.ReturnValues = {4};
  EXPECT_FALSE(sameEntry(*F, Other));
  // A conflict names the keys that differ, with both values.
  EXPECT_EQ(describeDifference(*F, Other), "returnValues: [4,8] and [4]");
  Other.ReturnValues.clear();
  EXPECT_EQ(describeDifference(*F, Other), "returnValues: [4,8] and none");
  Other.ReturnValues = F->ReturnValues;
  Other.Origin = F->Origin;
  EXPECT_TRUE(sameEntry(*F, Other));
}

TEST(ApiModel, ConstantFieldsLaterFileWins) {
  auto Builtin = ApiModel::builtin();
  ASSERT_TRUE(bool(Builtin)) << llvm::toString(Builtin.takeError());
  EXPECT_EQ((*Builtin)->constantField("cudaDeviceProp::warpSize"), 32);
  EXPECT_EQ((*Builtin)->constantField("cudaDeviceProp::maxThreadsPerBlock"), std::nullopt);
  ApiModel M;
  llvm::Error E = M.addJson(R"({"version": 1, "constantFields": {"hip::Prop::warpSize": 64}})", "a.json");
  ASSERT_FALSE(bool(E)) << llvm::toString(std::move(E));
  E = M.addJson(R"({"version": 1, "constantFields": {"hip::Prop::warpSize": 32}})", "b.json");
  ASSERT_FALSE(bool(E)) << llvm::toString(std::move(E));
  EXPECT_EQ(M.constantField("hip::Prop::warpSize"), 32);
}

TEST(ApiModel, MalformedReturnValuesAndConstantFieldsAreErrors) {
  ApiModel M;
  auto fn = [&](const std::string &Values) {
    return errorOf(M, R"({"version": 1, "functions": [{"name": "f", "returnValues": )" + Values +
                          "}]}");
  };
  EXPECT_NE(fn("[]").find("functions[0] (f).returnValues: expected an array of 1 to 16 integers"),
            std::string::npos);
  EXPECT_NE(fn("[1.5]").find("returnValues"), std::string::npos);
  EXPECT_NE(fn("32").find("returnValues"), std::string::npos);
  EXPECT_NE(fn("[1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17]").find("returnValues"),
            std::string::npos);
  auto field = [&](const std::string &Fields) {
    return errorOf(M, R"({"version": 1, "constantFields": )" + Fields + "}");
  };
  EXPECT_NE(field("[]").find("constantFields: expected an object"), std::string::npos);
  EXPECT_NE(field(R"({"warpSize": 32})").find("constantFields.warpSize: expected a name"),
            std::string::npos);
  EXPECT_NE(field(R"({"P::warpSize": "32"})").find("constantFields.P::warpSize: expected an integer"),
            std::string::npos);
  EXPECT_EQ(M.constantField("P::warpSize"), std::nullopt); // a bad file changes nothing
  EXPECT_EQ(M.lookup("f", 0), nullptr);
}

TEST(ApiModelWriter, ConditionalReleasesRoundTripAndDiffer) {
  auto M = ApiModel::builtin();
  ASSERT_TRUE(bool(M));
  llvm::Error E = (*M)->addJson(
      R"({"version": 1, "functions": [{"name": "grow", "params": 2,
          "acquires": [{"arg": 0, "kind": "deviceMemory"}],
          "releases": [{"arg": 0, "kinds": ["deviceMemory"], "deref": true, "onSomePaths": true}]}]})",
      "user.json");
  ASSERT_FALSE(bool(E)) << llvm::toString(std::move(E));
  const FunctionModel *F = (*M)->lookup("grow", 2);
  ASSERT_NE(F, nullptr);
  ASSERT_EQ(F->Releases.size(), 1u);
  EXPECT_TRUE(F->Releases[0].OnSomePaths);
  EXPECT_TRUE(F->Releases[0].ThroughPointer);
  FunctionModel Copy = *F;
  Copy.Name = "grow_again";
  ModelDocument D;
  D.Functions.push_back(Copy);
  E = (*M)->addJson(writeModelJson(D), "again.json");
  ASSERT_FALSE(bool(E)) << llvm::toString(std::move(E));
  const FunctionModel *Read = (*M)->lookup("grow_again", 2);
  ASSERT_NE(Read, nullptr);
  EXPECT_TRUE(Read->Releases[0].OnSomePaths);
  EXPECT_TRUE(sameEntry(Copy, *Read));
  // A release that became unconditional changes what callers are told.
  FunctionModel Always = *F;
  Always.Releases[0].OnSomePaths = false;
  EXPECT_FALSE(sameEntry(*F, Always));
  EXPECT_NE(errorOf(**M, R"({"version": 1, "functions": [{"name": "g", "releases":
                [{"arg": 0, "kinds": ["deviceMemory"], "onSomePaths": 1}]}]})")
                .find("onSomePaths"),
            std::string::npos);
}

TEST(ApiModelWriter, MemberCapturesRoundTripAndNeedARole) {
  auto M = ApiModel::builtin();
  ASSERT_TRUE(bool(M));
  FunctionModel Begin;
  Begin.Name = "StepGraph::begin";
  Begin.NumParams = 1;
  Begin.Capture = CaptureRole::Begin;
  Begin.StreamArg = 0;
  Begin.StreamMember = "s_";
  FunctionModel End;
  End.Name = "StepGraph::end";
  End.NumParams = 0;
  End.Capture = CaptureRole::End;
  End.StreamMember = "s_";
  ModelDocument D;
  D.Functions = {Begin, End};
  llvm::Error E = (*M)->addJson(writeModelJson(D), "summaries.json");
  ASSERT_FALSE(bool(E)) << llvm::toString(std::move(E));
  for (const FunctionModel &F : D.Functions) {
    const FunctionModel *Read = (*M)->lookup(F.Name, F.NumParams);
    ASSERT_NE(Read, nullptr) << F.Name;
    EXPECT_EQ(Read->StreamMember, "s_");
    EXPECT_TRUE(sameEntry(F, *Read)) << F.Name;
  }
  FunctionModel Other = End;
  Other.StreamMember = "side_";
  EXPECT_FALSE(sameEntry(End, Other));
  EXPECT_NE(errorOf(**M, R"({"version": 1, "functions": [{"name": "g", "streamMember": "s_"}]})")
                .find("functions[0] (g).streamMember: expected with a \"capture\""),
            std::string::npos);
}
