// `twinblocks import` and `twinblocks run ROBOT.urdf` on the real robots of tests/data/urdf, and
// their bad input: one line, FILE:LINE, exit status 2.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

#include "tests/support/acceptance_helpers.h"
#include "xml/urdf_reader.h"

namespace {

using twinblocks::testing::CliResult;
using twinblocks::testing::RunCli;

const std::string kData = std::string(TWINBLOCKS_TEST_DATA) + "/urdf/";

std::string Temp(const std::string& name) {
  return (std::filesystem::path(::testing::TempDir()) / ("twinblocks_urdf_" + name)).string();
}

class UrdfCommandTest : public ::testing::TestWithParam<const char*> {
 protected:
  void SetUp() override {
    if (!twinblocks::xml::UrdfSupported()) GTEST_SKIP() << "this build has no URDF support";
  }
};

TEST_P(UrdfCommandTest, ImportThenRunAndRunDirectly) {
  const std::string robot = GetParam();
  const std::string xml = Temp(robot + ".xml");
  const CliResult imported = RunCli("import " + kData + robot + ".urdf -o " + xml, true);
  ASSERT_EQ(imported.status, 0) << imported.text;
  EXPECT_NE(imported.text.find("warning: link"), std::string::npos) << "meshes left out";
  const CliResult run = RunCli("run " + xml + " --t-end 0.2 -q -o " + Temp(robot + ".csv"), true);
  EXPECT_EQ(run.status, 0) << run.text;
  const CliResult direct = RunCli(
      "run " + kData + robot + ".urdf --t-end 0.2 -q -o " + Temp(robot + "_direct.csv"), true);
  EXPECT_EQ(direct.status, 0) << direct.text;
  // The same model either way: the same results, bit for bit.
  std::ifstream a(Temp(robot + ".csv")), b(Temp(robot + "_direct.csv"));
  std::stringstream sa, sb;
  sa << a.rdbuf();
  sb << b.rdbuf();
  EXPECT_FALSE(sa.str().empty());
  EXPECT_EQ(sa.str(), sb.str());
}

INSTANTIATE_TEST_SUITE_P(RealRobots, UrdfCommandTest,
                         ::testing::Values("ur5", "panda", "iiwa14_drake"));

class UrdfCommandErrorTest : public UrdfCommandTest {};

TEST_F(UrdfCommandErrorTest, ActuationOptionsWriteInports) {
  const std::string xml = Temp("panda_torque.xml");
  ASSERT_EQ(RunCli("import " + kData + "panda.urdf --actuation torque -o " + xml).status, 0);
  std::ifstream in(xml);
  std::stringstream text;
  text << in.rdbuf();
  EXPECT_NE(text.str().find("<inport name=\"tau\" width=\"8\"/>"), std::string::npos);
  EXPECT_NE(text.str().find("Not represented"), std::string::npos);
  const CliResult bad = RunCli("import " + kData + "panda.urdf --actuation force -o " + xml);
  EXPECT_EQ(bad.status, 2);
  EXPECT_NE(bad.text.find("--actuation: unknown actuation 'force'"), std::string::npos) << bad.text;
}

void ExpectOneLine(const CliResult& r, const std::string& says) {
  EXPECT_EQ(r.status, 2) << r.text;
  EXPECT_EQ(r.text.find('\n'), r.text.size() - 1) << r.text;
  EXPECT_NE(r.text.find(says), std::string::npos) << r.text;
}

TEST_F(UrdfCommandErrorTest, MissingParentLinkIsOneLineForImportAndRun) {
  const std::string f = kData + "bad/missing_parent.urdf";
  ExpectOneLine(RunCli("import " + f + " -o " + Temp("x.xml")),
                "missing_parent.urdf:7: joint 'hinge': parent link 'bsae' is not defined");
  ExpectOneLine(RunCli("run " + f + " -o " + Temp("x.csv")), "missing_parent.urdf:7:");
}

TEST_F(UrdfCommandErrorTest, UnreadableMeshUnderTheMeshPath) {
  ExpectOneLine(RunCli("import " + kData + "bad/unreadable_mesh.urdf --mesh-path " + kData +
                       "meshes -o " + Temp("x.xml")),
                "unreadable_mesh.urdf:6: link 'arm': visual mesh "
                "'package://demo_pkg/meshes/garbage.stl' cannot be read");
}

TEST_F(UrdfCommandErrorTest, RunTakesTheImportOptions) {
  // `run ROBOT.urdf --mesh-path` finds the meshes `import` would, and reads the bad one too.
  ExpectOneLine(RunCli("run " + kData + "bad/unreadable_mesh.urdf --mesh-path " + kData +
                       "meshes -o " + Temp("x.csv")),
                "unreadable_mesh.urdf:6: link 'arm': visual mesh "
                "'package://demo_pkg/meshes/garbage.stl' cannot be read");
  ExpectOneLine(RunCli("run " + kData + "ur5.urdf --actuation force -o " + Temp("x.csv")),
                "--actuation: unknown actuation 'force'");
  // Torque-driven with its inport unset (0): the same fall as the passive arm.
  const CliResult torque = RunCli(
      "run " + kData + "ur5.urdf --actuation torque --t-end 0.2 -q -o " + Temp("ur5_tau.csv"));
  EXPECT_EQ(torque.status, 0) << torque.text;
  const CliResult passive =
      RunCli("run " + kData + "ur5.urdf --t-end 0.2 -q -o " + Temp("ur5_none.csv"));
  EXPECT_EQ(passive.status, 0) << passive.text;
  std::ifstream a(Temp("ur5_tau.csv")), b(Temp("ur5_none.csv"));
  std::string last_a, last_b, line;
  while (std::getline(a, line)) last_a = line;
  while (std::getline(b, line)) last_b = line;
  EXPECT_FALSE(last_a.empty());
  EXPECT_EQ(last_a, last_b);
}

TEST_F(UrdfCommandErrorTest, MissingFile) {
  ExpectOneLine(RunCli("import " + kData + "nothing.urdf -o " + Temp("x.xml")),
                "nothing.urdf: no such URDF file");
}

}  // namespace
