// `twinblocks grasp OBJECT` (H6 of issue 41): the Barrett hand's pregrasp planned, its model
// written with the files it includes into the results folder, run, and the grasp reached
// reported; and its bad input, one line and exit status 2.
#include <gtest/gtest.h>

#include <filesystem>
#include <string>

#include "io/results_reader.h"
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

// Issue 45 (begun): the same pregrasp with the sphere as a foam DeformableBody on the table,
// the hand's fingertips pressing it (BarrettHandSoft). A short run: the model is written, runs
// with ode23s, and the fingers close at the approach rate (0.2 rad/s: 0.2 * 0.1 s * 125 *
// 180 / pi = 143 counts in 0.1 s, less the motion filters' lag).
TEST(GraspCommand, TheDeformableSphereModelIsWrittenAndTheFingersClose) {
  const fs::path dir = FreshDirectory("twinblocks_grasp_", "deformable");
  const CliResult r =
      RunCliWithStdout("grasp sphere --deformable --t-end 0.1 -q -o " + dir.string());
  ASSERT_EQ(r.status, 0) << r.text;
  const fs::path model = dir / "barrett" / "barrett_sphere_deformable.xml";
  ASSERT_TRUE(fs::exists(model));
  const graph::ResultsTable table =
      graph::ReadResultsCsv((dir / "barrett_sphere_deformable.csv").string());
  for (int k = 0; k < 3; ++k) {
    const int q = table.FindColumn("hand.q_M[" + std::to_string(k) + "]");
    const int f = table.FindColumn("object.contact_normal_force[" + std::to_string(k) + "]");
    ASSERT_GE(q, 0);
    ASSERT_GE(f, 0);
    EXPECT_NEAR(table.values[q].back(), 143.0, 15.0) << "finger " << k + 1;
    EXPECT_EQ(table.values[f].back(), 0.0);  // not touching yet
  }
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

// An OBJ file of the reference cube (0.080 m at (0.60, 0, 0.040)), its triangles
// counter-clockwise from outside; without its last triangle when `open`.
std::string CubeObj(bool open) {
  const int triangles[12][3] = {{0, 2, 3}, {0, 3, 1}, {4, 5, 7}, {4, 7, 6}, {0, 1, 5}, {0, 5, 4},
                                {2, 7, 3}, {2, 6, 7}, {0, 4, 6}, {0, 6, 2}, {1, 3, 7}, {1, 7, 5}};
  std::string text;
  for (int k = 0; k < 8; ++k) {
    text += "v " + std::to_string(k & 1 ? 0.64 : 0.56) + " " +
            std::to_string(k & 2 ? 0.04 : -0.04) + " " + std::to_string(k & 4 ? 0.08 : 0.0) + "\n";
  }
  for (int t = 0; t < (open ? 11 : 12); ++t) {
    text += "f " + std::to_string(triangles[t][0] + 1) + " " + std::to_string(triangles[t][1] + 1) +
            " " + std::to_string(triangles[t][2] + 1) + "\n";
  }
  return text;
}

TEST(GraspCommand, AClosedMeshIsGraspedLikeTheCube) {
  const fs::path dir = FreshDirectory("twinblocks_grasp_", "mesh");
  WriteText(dir / "cube.obj", CubeObj(false));
  const CliResult r =
      RunCliWithStdout("grasp " + (dir / "cube.obj").string() + " -q -o " + (dir / "out").string());
  ASSERT_EQ(r.status, 0) << r.text;
  EXPECT_NE(r.text.find("pregrasp: mesh, 250 candidate points"), std::string::npos) << r.text;
  EXPECT_NE(r.text.find("grasp: target forces reached; force closure yes"), std::string::npos)
      << r.text;
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
  WriteText(dir / "open.obj", CubeObj(true));
  const CliResult open = RunCli("grasp " + (dir / "open.obj").string() + " -q -o " + dir.string());
  EXPECT_EQ(open.status, 2) << open.text;
  EXPECT_EQ(CountLines(open.text), 1) << open.text;
  EXPECT_NE(open.text.find("is shared by 1 triangle(s)"), std::string::npos) << open.text;
  EXPECT_NE(open.text.find("open.obj"), std::string::npos) << open.text;
  const CliResult missing =
      RunCli("grasp " + (dir / "none.stl").string() + " -q -o " + dir.string());
  EXPECT_EQ(missing.status, 2) << missing.text;
  EXPECT_NE(missing.text.find("not found"), std::string::npos) << missing.text;
  for (const auto& c : cases) {
    const CliResult r = RunCli(c.args + " -q -o " + dir.string());
    EXPECT_EQ(r.status, 2) << c.args << ": " << r.text;
    EXPECT_EQ(CountLines(r.text), 1) << c.args << ": " << r.text;
    EXPECT_NE(r.text.find(c.says), std::string::npos) << c.args << ": " << r.text;
  }
}

}  // namespace
}  // namespace twinblocks::testing
