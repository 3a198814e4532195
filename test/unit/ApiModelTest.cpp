//===- ApiModelTest.cpp - loading and validating API model files ----------===//
#include "ApiModel/ApiModel.h"
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
  // A rejected file leaves the model unchanged.
  EXPECT_EQ(M.numFunctions(), 0u);
  llvm::Error Missing = M.addFile("/nonexistent/model.json");
  ASSERT_TRUE(bool(Missing));
  EXPECT_NE(llvm::toString(std::move(Missing)).find("/nonexistent/model.json"), std::string::npos);
}
