//===- CodeClimateWriterTest.cpp - GitLab Code Quality issues -------------===//
//
// What the lit test (test/sarif/codeclimate.test) cannot reach from real
// findings: the severity of a finding at error level of a warning rule, a
// check the rule table does not know, files outside the root, and hidden
// (baseline) findings keeping the others' fingerprints.
//
//===----------------------------------------------------------------------===//
#include "Sarif/CodeClimateWriter.h"
#include "Sarif/SarifWriter.h"
#include "gtest/gtest.h"

#include <nlohmann/json.hpp>

#include <cstdlib>
#include <fstream>
#include <unistd.h>

using namespace cgt;
using nlohmann::json;

namespace {

class CodeClimateWriterTest : public ::testing::Test {
protected:
  void SetUp() override {
    char Tmpl[] = "/tmp/cgt-codeclimate-unit-XXXXXX";
    Root = mkdtemp(Tmpl);
    std::system(("mkdir -p '" + Root + "/src'").c_str());
    std::ofstream(Root + "/src/a.cu") << "void f() {\n  leak();\n  leak();\n}\n";
  }
  void TearDown() override { std::system(("rm -rf '" + Root + "'").c_str()); }

  FindingRecord finding(const std::string &Check, const std::string &Level,
                        unsigned Line, const std::string &File = "") {
    FindingRecord F;
    F.CheckName = Check;
    F.Level = Level;
    F.Message = "m";
    F.Pos = {File.empty() ? Root + "/src/a.cu" : File, Line, 3, Line, 7, 0};
    return F;
  }

  std::string Root;
};

} // namespace

TEST_F(CodeClimateWriterTest, SeverityFollowsLevelAndRuleTable) {
  EXPECT_EQ(codeClimateSeverity(finding("cudagraph-handle-leak", "warning", 2)), "major");
  EXPECT_EQ(codeClimateSeverity(finding("cudagraph-handle-leak", "error", 2)), "critical");
  EXPECT_EQ(codeClimateSeverity(finding("cudagraph-shared-index-overflow", "warning", 2)),
            "critical");
  EXPECT_EQ(codeClimateSeverity(finding("cudagraph-shared-bank-conflict", "warning", 2)),
            "minor");
  EXPECT_EQ(codeClimateSeverity(finding("bugprone-something", "warning", 2)), "major");
}

TEST_F(CodeClimateWriterTest, FingerprintsAreSarifsAndHiddenOnesKeepNumbering) {
  std::vector<FindingRecord> Fs = {finding("cudagraph-handle-leak", "warning", 2),
                                   finding("cudagraph-handle-leak", "warning", 2)};
  SourceText Text;
  std::vector<std::string> Prints = computeFingerprints(Fs, Root, Text);
  json All = json::parse(writeCodeClimate(Fs, {}, Root));
  ASSERT_EQ(All.size(), 2u);
  EXPECT_EQ(All[0]["fingerprint"], Prints[0]);
  EXPECT_EQ(All[1]["fingerprint"], Prints[1]);
  EXPECT_NE(Prints[0], Prints[1]); // the same finding twice stays two issues
  json Second = json::parse(writeCodeClimate(Fs, {true, false}, Root));
  ASSERT_EQ(Second.size(), 1u);
  EXPECT_EQ(Second[0]["fingerprint"], Prints[1]);
}

TEST_F(CodeClimateWriterTest, PathsAreRelativeAndNeverAbsolute) {
  std::ofstream("/tmp/cgt-codeclimate-outside.cu") << "x\n";
  std::vector<FindingRecord> Fs = {
      finding("cudagraph-handle-leak", "warning", 2),
      finding("cudagraph-handle-leak", "warning", 1, "/tmp/cgt-codeclimate-outside.cu")};
  json Issues = json::parse(writeCodeClimate(Fs, {}, Root));
  EXPECT_EQ(Issues[0]["location"]["path"], "src/a.cu");
  EXPECT_EQ(Issues[0]["location"]["lines"]["begin"], 2);
  EXPECT_EQ(Issues[0]["categories"][0], "Bug Risk");
  EXPECT_EQ(Issues[0]["type"], "issue");
  EXPECT_EQ(Issues[1]["location"]["path"], "cgt-codeclimate-outside.cu");
  std::remove("/tmp/cgt-codeclimate-outside.cu");
}
