//===- SarifWriterTest.cpp - SARIF log content, fingerprints, baselines ---===//
#include "Report/Rules.h"
#include "Sarif/SarifWriter.h"
#include "gtest/gtest.h"

#include <nlohmann/json.hpp>

#include <cstdio>
#include <fstream>
#include <unistd.h>

using namespace cgt;
using nlohmann::json;

namespace {

/// A scratch directory with one source file, removed at the end.
class SarifWriterTest : public ::testing::Test {
protected:
  void SetUp() override {
    char Tmpl[] = "/tmp/cgt-sarif-unit-XXXXXX";
    Root = mkdtemp(Tmpl);
    write("src/a.cu", "#include <x.h>\n"
                      "void f() {\n"
                      "  /* \xC3\xA9t\xC3\xA9 */ leak();\n"
                      "}\n");
  }
  void TearDown() override { std::system(("rm -rf '" + Root + "'").c_str()); }

  void write(const std::string &Rel, const std::string &Text) {
    std::system(("mkdir -p \"$(dirname '" + Root + "/" + Rel + "')\"").c_str());
    std::ofstream(Root + "/" + Rel, std::ios::binary) << Text;
  }

  FindingRecord finding(unsigned Line, unsigned Col, unsigned EndCol) {
    FindingRecord F;
    F.CheckName = "cudagraph-unpaired-instantiate";
    F.Level = "warning";
    F.Message = "graph exec leaked";
    F.Pos = {Root + "/src/a.cu", Line, Col, Line, EndCol, 0};
    NoteRecord N;
    N.Message = "goes out of scope here";
    N.Pos = {Root + "/src/a.cu", Line + 1, 1, Line + 1, 1, 0};
    F.Notes.push_back(N);
    return F;
  }

  json log(const SarifInput &In) {
    SarifOptions O;
    O.SourceRoot = Root;
    O.ToolVersion = "1.2.3";
    return json::parse(writeSarif(In, O));
  }

  std::string Root;
};

} // namespace

TEST_F(SarifWriterTest, RulesComeFromTheOneTable) {
  json Run = log({})["runs"][0];
  const json &Rules = Run["tool"]["driver"]["rules"];
  ASSERT_EQ(Rules.size(), allRules().size());
  for (size_t I = 0; I < Rules.size(); ++I) {
    const RuleInfo &R = allRules()[I];
    EXPECT_EQ(Rules[I]["id"], R.Id);
    EXPECT_EQ(Rules[I]["name"], R.Name);
    EXPECT_EQ(Rules[I]["shortDescription"]["text"], R.ShortDescription);
    EXPECT_EQ(Rules[I]["fullDescription"]["text"], R.FullDescription);
    EXPECT_EQ(Rules[I]["helpUri"], ruleHelpUri(R));
    EXPECT_EQ(Rules[I]["defaultConfiguration"]["level"], R.Level);
    EXPECT_EQ(Rules[I]["properties"]["precision"], R.Precision);
    EXPECT_EQ(Rules[I]["properties"]["tags"].size(), R.Tags.size());
    EXPECT_NE(Rules[I]["help"]["markdown"].get<std::string>().find(ruleHelpUri(R)),
              std::string::npos);
  }
  EXPECT_EQ(Run["tool"]["driver"]["semanticVersion"], "1.2.3");
  EXPECT_TRUE(Run["invocations"][0]["executionSuccessful"].get<bool>());
  EXPECT_EQ(Run["results"].size(), 0u);
}

TEST_F(SarifWriterTest, ResultHasRelativeUriCodePointRegionNotesAndFlow) {
  SarifInput In;
  // Byte column 16 is after "  /* été */ " (two 2-byte characters).
  In.Findings.push_back(finding(3, 16, 22));
  json R = log(In)["runs"][0]["results"][0];
  EXPECT_EQ(R["ruleId"], "cudagraph-unpaired-instantiate");
  json Rules = log(In)["runs"][0]["tool"]["driver"]["rules"];
  EXPECT_EQ(Rules[R["ruleIndex"].get<size_t>()]["id"], R["ruleId"]);
  ASSERT_EQ(R["locations"].size(), 1u);
  const json &PL = R["locations"][0]["physicalLocation"];
  EXPECT_EQ(PL["artifactLocation"]["uri"], "src/a.cu");
  EXPECT_EQ(PL["artifactLocation"]["uriBaseId"], "%SRCROOT%");
  EXPECT_EQ(PL["region"]["startLine"], 3);
  EXPECT_EQ(PL["region"]["startColumn"], 14);
  EXPECT_EQ(PL["region"]["endColumn"], 20);
  // The snippet is the region's text: code points 14 to 20 of the line.
  EXPECT_EQ(PL["region"]["snippet"]["text"], "eak();");
  ASSERT_EQ(R["relatedLocations"].size(), 1u);
  EXPECT_EQ(R["relatedLocations"][0]["id"], 1);
  // A point note covers the character under the caret, and shows it.
  EXPECT_EQ(R["relatedLocations"][0]["physicalLocation"]["region"]["snippet"]["text"], "}");
  const json &Flow = R["codeFlows"][0]["threadFlows"][0]["locations"];
  ASSERT_EQ(Flow.size(), 2u);
  EXPECT_EQ(Flow[0]["location"]["message"]["text"], "goes out of scope here");
  EXPECT_EQ(Flow[1]["location"]["message"]["text"], "graph exec leaked");
  EXPECT_FALSE(R.contains("baselineState"));
  // The root is declared, but its path is not in the log.
  json Base = log(In)["runs"][0]["originalUriBaseIds"]["%SRCROOT%"];
  EXPECT_FALSE(Base.contains("uri"));
  EXPECT_FALSE(Base["description"]["text"].get<std::string>().empty());
  EXPECT_FALSE(log(In)["runs"][0]["originalUriBaseIds"].contains("%OUTSIDE_SRCROOT%"));
  EXPECT_FALSE(log(In)["runs"][0].contains("versionControlProvenance"));
}

TEST_F(SarifWriterTest, FilesOutsideTheRootKeepOnlyTheirName) {
  char Tmpl[] = "/tmp/cgt-sarif-outside-XXXXXX";
  std::string Outside = mkdtemp(Tmpl);
  std::ofstream(Outside + "/b.cu") << "void g() {\n  leak();\n}\n";
  SarifInput In;
  FindingRecord F = finding(3, 16, 22); // in the root, with a note there
  F.Notes[0].Pos.File = Outside + "/b.cu";
  F.Notes[0].Pos = {Outside + "/b.cu", 2, 3, 2, 3, 0};
  F.Message = "exec from " + Outside + "/b.cu:2:3 leaks (see " + Root + "/src/a.cu)";
  In.Findings.push_back(F);
  UnitStatus U;
  U.File = Outside + "/broken.cu";
  U.Analyzed = false;
  U.Problem = "does not parse (first: " + Outside + "/broken.cu:1:2: error)";
  In.Units.push_back(U);
  json Run = log(In)["runs"][0];
  const json &R = Run["results"][0];
  EXPECT_EQ(R["locations"][0]["physicalLocation"]["artifactLocation"]["uri"], "src/a.cu");
  const json &Note = R["relatedLocations"][0]["physicalLocation"]["artifactLocation"];
  EXPECT_EQ(Note["uri"], "b.cu");
  EXPECT_EQ(Note["uriBaseId"], "%OUTSIDE_SRCROOT%");
  EXPECT_EQ(R["relatedLocations"][0]["physicalLocation"]["region"]["snippet"]["text"], "l");
  // Messages: paths in the root become relative, others keep their name.
  EXPECT_EQ(R["message"]["text"], "exec from b.cu:2:3 leaks (see src/a.cu)");
  const json &N = Run["invocations"][0]["toolExecutionNotifications"][0];
  EXPECT_EQ(N["message"]["text"], "broken.cu: does not parse (first: broken.cu:1:2: error)");
  EXPECT_EQ(N["locations"][0]["physicalLocation"]["artifactLocation"]["uriBaseId"],
            "%OUTSIDE_SRCROOT%");
  EXPECT_TRUE(Run["originalUriBaseIds"].contains("%OUTSIDE_SRCROOT%"));
  EXPECT_FALSE(Run["originalUriBaseIds"]["%OUTSIDE_SRCROOT%"].contains("uri"));
  // Nothing in the whole log names either directory.
  std::string Text = Run.dump();
  EXPECT_EQ(Text.find(Outside), std::string::npos);
  EXPECT_EQ(Text.find(Root), std::string::npos);
  EXPECT_EQ(Text.find("file:"), std::string::npos);
  std::system(("rm -rf '" + Outside + "'").c_str());
}

TEST_F(SarifWriterTest, SnippetsFollowCodePointsAcrossLines) {
  SourceText Text;
  // "été" is three code points, five bytes.
  EXPECT_EQ(Text.text(Root + "/src/a.cu", 3, 6, 3, 9), "\xC3\xA9t\xC3\xA9");
  EXPECT_EQ(Text.text(Root + "/src/a.cu", 2, 10, 3, 3), "{\n  ");
  EXPECT_EQ(Text.text(Root + "/missing.cu", 1, 1, 1, 5), "");
}

TEST_F(SarifWriterTest, ProvenanceNamesTheCommit) {
  SarifOptions O;
  O.SourceRoot = Root;
  O.RepositoryUri = "https://example.com/org/repo.git";
  O.RevisionId = "0123456789abcdef0123456789abcdef01234567";
  O.Branch = "main";
  json V = json::parse(writeSarif({}, O))["runs"][0]["versionControlProvenance"];
  ASSERT_EQ(V.size(), 1u);
  EXPECT_EQ(V[0]["repositoryUri"], O.RepositoryUri);
  EXPECT_EQ(V[0]["revisionId"], O.RevisionId);
  EXPECT_EQ(V[0]["branch"], "main");
  EXPECT_EQ(V[0]["mappedTo"]["uriBaseId"], "%SRCROOT%");
}

TEST(SarifProvenance, RemoteUrlsBecomeUrisWithoutCredentials) {
  EXPECT_EQ(repositoryUriFromRemote("https://github.com/o/r.git"), "https://github.com/o/r.git");
  EXPECT_EQ(repositoryUriFromRemote("https://x-access-token:ghs_abc@github.com/o/r\n"),
            "https://github.com/o/r");
  EXPECT_EQ(repositoryUriFromRemote("ssh://git@host:2222/o/r.git"), "ssh://host:2222/o/r.git");
  EXPECT_EQ(repositoryUriFromRemote("git@github.com:o/r.git"), "ssh://github.com/o/r.git");
  EXPECT_EQ(repositoryUriFromRemote("/srv/git/my repo"), "file:///srv/git/my%20repo");
  EXPECT_EQ(repositoryUriFromRemote("file:///srv/git/r"), "file:///srv/git/r");
  EXPECT_EQ(repositoryUriFromRemote("../relative"), "");
  EXPECT_EQ(repositoryUriFromRemote(""), "");
}

TEST_F(SarifWriterTest, FixesBecomeReplacements) {
  SarifInput In;
  FindingRecord F = finding(3, 16, 22);
  FixRecord X;
  X.Pos = {Root + "/src/a.cu", 4, 1, 4, 1, 0};
  X.Replacement = "  cudaGraphExecDestroy(exec);\n";
  F.Fixes.push_back(X);
  In.Findings.push_back(F);
  json Fix = log(In)["runs"][0]["results"][0]["fixes"][0];
  const json &Change = Fix["artifactChanges"][0];
  EXPECT_EQ(Change["artifactLocation"]["uri"], "src/a.cu");
  EXPECT_EQ(Change["replacements"][0]["deletedRegion"]["startLine"], 4);
  EXPECT_EQ(Change["replacements"][0]["insertedContent"]["text"], X.Replacement);
}

TEST_F(SarifWriterTest, FailedUnitsAreNotificationsWithoutAbsolutePaths) {
  SarifInput In;
  In.Units.push_back({Root + "/src/a.cu", true, ""});
  In.Units.push_back({Root + "/src/b.cu", false,
                      "does not parse; first: " + Root + "/src/b.cu:1:1: x"});
  In.ConfigErrors.push_back("bad model");
  json Inv = log(In)["runs"][0]["invocations"][0];
  EXPECT_FALSE(Inv["executionSuccessful"].get<bool>());
  ASSERT_EQ(Inv["toolExecutionNotifications"].size(), 2u);
  const json &N = Inv["toolExecutionNotifications"][0];
  EXPECT_EQ(N["level"], "error");
  EXPECT_EQ(N["message"]["text"], "src/b.cu: does not parse; first: src/b.cu:1:1: x");
  EXPECT_EQ(N["locations"][0]["physicalLocation"]["artifactLocation"]["uri"], "src/b.cu");
  EXPECT_EQ(Inv["toolExecutionNotifications"][1]["descriptor"]["id"],
            "cudagraph-tidy/configuration");
}

TEST_F(SarifWriterTest, FingerprintsIgnoreLineNumbersButNotTheLine) {
  SourceText Text;
  std::vector<FindingRecord> Before = {finding(3, 16, 22)};
  std::string P1 = computeFingerprints(Before, Root, Text)[0];
  write("src/a.cu", "#include <x.h>\n// new\nint g();\n"
                    "void f() {\n"
                    "  /* \xC3\xA9t\xC3\xA9 */ leak();\n"
                    "}\n");
  SourceText Text2;
  std::vector<FindingRecord> After = {finding(5, 16, 22)};
  EXPECT_EQ(computeFingerprints(After, Root, Text2)[0], P1);
  // Another enclosing function: a different finding.
  write("src/a.cu", "#include <x.h>\nvoid h() {\n  /* \xC3\xA9t\xC3\xA9 */ leak();\n}\n");
  SourceText Text3;
  EXPECT_NE(computeFingerprints(Before, Root, Text3)[0], P1);
  // Two identical findings stay distinct.
  SourceText Text4;
  std::vector<std::string> Twice =
      computeFingerprints({finding(3, 16, 22), finding(3, 16, 22)}, Root, Text4);
  EXPECT_NE(Twice[0], Twice[1]);
}

TEST_F(SarifWriterTest, BaselineRoundTripAndStates) {
  SarifInput In;
  In.Findings.push_back(finding(3, 16, 22));
  SarifOptions O;
  O.SourceRoot = Root;
  write("base.sarif", writeSarif(In, O));
  std::set<std::string> Prints;
  std::string Error;
  ASSERT_TRUE(readBaseline(Root + "/base.sarif", Prints, Error)) << Error;
  SourceText Text;
  EXPECT_EQ(Prints.count(computeFingerprints(In.Findings, Root, Text)[0]), 1u);
  In.BaselineStates = {"unchanged"};
  EXPECT_EQ(log(In)["runs"][0]["results"][0]["baselineState"], "unchanged");

  write("bad.sarif", "{\"version\": \"2.1.0\", \"runs\": [{\"results\": [{}]}]}");
  EXPECT_FALSE(readBaseline(Root + "/bad.sarif", Prints, Error));
  EXPECT_NE(Error.find("has no partialFingerprints"), std::string::npos) << Error;
  EXPECT_FALSE(readBaseline(Root + "/missing.sarif", Prints, Error));
  EXPECT_NE(Error.find("cannot read baseline"), std::string::npos) << Error;
}

TEST(SarifPaths, RelativeAndEncoded) {
  EXPECT_EQ(relativeToRoot("/r/src/a.cu", "/r"), "src/a.cu");
  EXPECT_EQ(relativeToRoot("/r/src/a.cu", "/r/"), "src/a.cu");
  EXPECT_EQ(relativeToRoot("/rx/a.cu", "/r"), "");
  EXPECT_EQ(relativeToRoot("/other/a.cu", "/r"), "");
  EXPECT_EQ(encodeUriPath("dir with space/\xC3\xA9.cu"), "dir%20with%20space/%C3%A9.cu");
}

TEST(SarifOutput, DeterministicBytes) {
  SarifInput In;
  FindingRecord F;
  F.CheckName = "clang-diagnostic-unused-variable";
  F.Level = "warning";
  F.Message = "unused variable 'x'";
  F.Pos = {"/nonexistent/a.cu", 2, 3, 2, 4, 10};
  In.Findings.push_back(F);
  SarifOptions O;
  O.SourceRoot = "/nonexistent";
  std::string A = writeSarif(In, O), B = writeSarif(In, O);
  EXPECT_EQ(A, B);
  json Run = json::parse(A)["runs"][0];
  // A rule outside the table still gets a descriptor.
  EXPECT_EQ(Run["tool"]["driver"]["rules"].back()["id"], "clang-diagnostic-unused-variable");
  EXPECT_EQ(Run["tool"]["driver"]["rules"].back()["name"], "ClangDiagnosticUnusedVariable");
}
