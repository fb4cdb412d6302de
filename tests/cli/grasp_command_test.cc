// `twinblocks grasp OBJECT` (H6 of issue 41): the Barrett hand's pregrasp planned, its model
// written with the files it includes into the results folder, run, and the grasp reached
// reported; and its bad input, one line and exit status 2.
#include <gtest/gtest.h>

#include <filesystem>
#include <string>

#include "tests/support/acceptance_helpers.h"

namespace twinblocks::testing {
namespace {

namespace fs = std::filesystem;

TEST(GraspCommand, TheSphereIsHeldWithTheTargetForcesAndForceClosure) {
  const fs::path dir = FreshDirectory("twinblocks_grasp_", "sphere");
  const CliResult r = RunCliWithStdout("grasp sphere -q -o " + dir.string());
  ASSERT_EQ(r.status, 0) << r.text;
  EXPECT_NE(r.text.find("pregrasp: sphere"), std::string::npos) << r.text;
  EXPECT_NE(r.text.find("grasp: target forces reached; force closure yes"), std::string::npos)
      << r.text;
  // The results folder holds the model and what it includes: it runs again on its own.
  const fs::path model = dir / "barrett" / "barrett_sphere.xml";
  for (const fs::path& file : {model, dir / "lib" / "barrett.xml", dir / "lib" / "dh.xml",
                               dir / "robot6dof" / "arm.xml", dir / "barrett_sphere.csv"}) {
    EXPECT_TRUE(fs::exists(file)) << file;
  }
  const CliResult again =
      RunCli("run " + model.string() + " -q --no-plots -o " + (dir / "again.csv").string());
  EXPECT_EQ(again.status, 0) << again.text;
}

// The cube and the cylinder: every fingertip reaches the 2 N target, and the contacts reached
// are force closure (the triangle is chosen by the contacts the coupled fingers will reach).
TEST(GraspCommand, TheCubeAndTheCylinderAreHeldWithTheTargetForcesAndForceClosure) {
  for (const std::string object : {"cube", "cylinder"}) {
    const fs::path dir = FreshDirectory("twinblocks_grasp_", object);
    const CliResult r = RunCliWithStdout("grasp " + object + " -q -o " + dir.string());
    ASSERT_EQ(r.status, 0) << r.text;
    EXPECT_NE(r.text.find("grasp: target forces reached; force closure yes"), std::string::npos)
        << r.text;
  }
}

// Algorithm 1 as published (--closure-mu 0) still plans and closes: every finger reaches 2 N.
TEST(GraspCommand, AlgorithmOneAsPublishedReachesTheTargetForcesOnTheCube) {
  const fs::path dir = FreshDirectory("twinblocks_grasp_", "cube_paper");
  const CliResult r =
      RunCliWithStdout("grasp cube --closure-mu 0 --edge-margin 0 -q -o " + dir.string());
  ASSERT_EQ(r.status, 0) << r.text;
  EXPECT_NE(r.text.find("triangle (21, 124, 193)"), std::string::npos) << r.text;
  EXPECT_NE(r.text.find("grasp: target forces reached"), std::string::npos) << r.text;
}

TEST(GraspCommand, BadInputIsOneLineAndStatus2) {
  const fs::path dir = FreshDirectory("twinblocks_grasp_", "bad");
  const struct {
    std::string args;
    std::string says;
  } cases[] = {
      {"grasp teapot", "reference object 'teapot'; expected 'sphere', 'cube' or 'cylinder'"},
      {"grasp sphere --spacing -0.01", "--spacing"},
      {"grasp sphere --spacing 0.001", "more than 300"},
      {"grasp cube --closure-mu -1", "--edge-margin and --closure-mu must be 0 or positive"},
      {"grasp cube --force 0", "--force"},
  };
  for (const auto& c : cases) {
    const CliResult r = RunCli(c.args + " -q -o " + dir.string());
    EXPECT_EQ(r.status, 2) << c.args << ": " << r.text;
    EXPECT_EQ(CountLines(r.text), 1) << c.args << ": " << r.text;
    EXPECT_NE(r.text.find(c.says), std::string::npos) << c.args << ": " << r.text;
  }
}

}  // namespace
}  // namespace twinblocks::testing
