// User blocks from a block library (blocks/user/, docs/user-blocks.md): the example library's
// blocks against the catalog's blocks and closed forms, a model with a library written back
// to XML and edited, and the library's problems as one line with file:line.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <string>
#include <vector>

#include "blocks/user/block_library.h"
#include "blocks/user/block_types.h"
#include "blocks/user/user_block_adapter.h"
#include "compiler/compile.h"
#include "model/model.h"
#include "model/model_error.h"
#include "tests/support/acceptance_helpers.h"
#include "tests/support/model_error_matchers.h"
#include "xml/model_reader.h"
#include "xml/model_writer.h"

namespace twinblocks {
namespace {

namespace fs = std::filesystem;
using ::testing::HasSubstr;

const std::string kExampleLibrary = TWINBLOCKS_EXAMPLE_BLOCKS;
const std::string kTestLibraries = TWINBLOCKS_TEST_BLOCK_LIBRARIES;

// The oscillator of the example's MassSpringDamper, driven by a sine force. m, c and k are no
// powers of two, so that (F - c v - k x) / m and the diagram's F/m - (c/m) v - (k/m) x round
// differently.
std::string OscillatorModel(const std::string& solver, const std::string& plant) {
  return R"(<model name="oscillator">
  <var name="m" value="1.3"/>
  <var name="c" value="0.45"/>
  <var name="k" value="7.1"/>
  <var name="x0" value="0.2"/>
  <var name="v0" value="-0.3"/>
  <simulation solver=")" +
         solver + R"(" t_end="6" step="1e-3" rtol="1e-9" atol="1e-11"/>
  <block type="Sine" name="force" amplitude="1.7" frequency="2.3"/>
)" + plant +
         R"(
</model>)";
}

std::string PluginPlant() {
  return R"(<block type="MassSpringDamper" library=")" + kExampleLibrary +
         R"(" name="plant" m="m" c="c" k="k" x0="x0" v0="v0"/>
  <connect from="force.y" to="plant.F"/>
  <log signal="plant.x" as="x"/>
  <log signal="plant.v" as="v"/>)";
}

// The same oscillator from catalog blocks: v' = F/m - (c/m) v - (k/m) x, x' = v; position
// first, so that the states are in the library block's order [x, v].
std::string DiagramPlant() {
  return R"(<block type="Gain" name="input_gain" k="1/m"/>
  <block type="Gain" name="damping" k="-c/m"/>
  <block type="Gain" name="spring" k="-k/m"/>
  <block type="Sum" name="acceleration" signs="+++"/>
  <block type="Integrator" name="position" x0="x0"/>
  <block type="Integrator" name="velocity" x0="v0"/>
  <connect from="force.y" to="input_gain.u"/>
  <connect from="input_gain.y" to="acceleration.u1"/>
  <connect from="damping.y" to="acceleration.u2"/>
  <connect from="spring.y" to="acceleration.u3"/>
  <connect from="acceleration.y" to="velocity.u"/>
  <connect from="velocity.y" to="position.u"/>
  <connect from="velocity.y" to="damping.u"/>
  <connect from="position.y" to="spring.u"/>
  <log signal="position.y" as="x"/>
  <log signal="velocity.y" as="v"/>)";
}

// A model with the oscillator twice, driven by one force: the library's block and the
// diagram, for the variable-step solvers. Two runs of their own would step differently: a
// step size comes from an error estimate that is itself the difference of two nearly equal
// solutions, so rounding the two plants do differently moves it by 1e-7 relative, and the
// runs then differ by the solver's tolerance, not by what the blocks compute.
std::string BothPlants() {
  std::string both = PluginPlant() + "\n" + DiagramPlant();
  auto rename = [&both](const std::string& from, const std::string& to) {
    both.replace(both.rfind(from), from.size(), to);
  };
  rename("as=\"x\"", "as=\"x_blocks\"");
  rename("as=\"v\"", "as=\"v_blocks\"");
  return both;
}

double WorstDifference(const graph::Recording& a, const std::string& a_prefix,
                       const graph::Recording& b, const std::string& b_prefix) {
  double worst = 0.0;
  for (const char* column : {"x", "v"}) {
    const std::vector<double> u = testing::Column(a, std::string(column) + a_prefix);
    const std::vector<double> w = testing::Column(b, std::string(column) + b_prefix);
    EXPECT_EQ(u.size(), w.size());
    for (size_t i = 0; i < u.size() && i < w.size(); ++i) {
      worst = std::max(worst, std::abs(u[i] - w[i]));
    }
  }
  return worst;
}

class PluginMassSpringDamperTest : public ::testing::TestWithParam<std::string> {};

// L6, fixed step: the library's block and the diagram, each in a run of its own with the same
// solver and settings, agree to 1e-12 at every step.
TEST_P(PluginMassSpringDamperTest, MatchesIntegratorGainSumDiagramInRunsOfTheirOwn) {
  const testing::RunOutput plugin =
      testing::RunModelText(OscillatorModel(GetParam(), PluginPlant()));
  const testing::RunOutput diagram =
      testing::RunModelText(OscillatorModel(GetParam(), DiagramPlant()));
  ASSERT_TRUE(plugin.outcome.ok) << plugin.outcome.error;
  ASSERT_TRUE(diagram.outcome.ok) << diagram.outcome.error;
  ASSERT_EQ(testing::Times(plugin.recording), testing::Times(diagram.recording));
  ASSERT_GT(plugin.recording.num_rows(), 1000);
  const double worst = WorstDifference(plugin.recording, "", diagram.recording, "");
  // ode1be takes one Newton step with a finite-difference Jacobian, whose quotients round
  // differently for the two plants (1e-8 relative): the step carries that into the solution.
  EXPECT_LE(worst, GetParam() == std::string("ode1be") ? 1e-10 : 1e-12);
  ::testing::Test::RecordProperty("max_difference", testing::Figure(worst));
}

INSTANTIATE_TEST_SUITE_P(FixedStep, PluginMassSpringDamperTest,
                         ::testing::Values("ode1", "ode3", "ode4", "ode5", "ode1be", "ros2"));

class PluginMassSpringDamperVariableStepTest : public ::testing::TestWithParam<std::string> {};

// L6, variable step: both in one run (one step sequence), every recorded row within 1e-12.
TEST_P(PluginMassSpringDamperVariableStepTest, MatchesIntegratorGainSumDiagramInOneRun) {
  const testing::RunOutput run = testing::RunModelText(OscillatorModel(GetParam(), BothPlants()));
  ASSERT_TRUE(run.outcome.ok) << run.outcome.error;
  ASSERT_GT(run.recording.num_rows(), 50);
  const double worst = WorstDifference(run.recording, "", run.recording, "_blocks");
  EXPECT_LE(worst, 1e-12);
  ::testing::Test::RecordProperty("max_difference", testing::Figure(worst));
}

INSTANTIATE_TEST_SUITE_P(VariableStep, PluginMassSpringDamperVariableStepTest,
                         ::testing::Values("ode23", "ode45", "ode23s", "cvode-bdf", "cvode-adams",
                                           "arkode-erk", "arkode-dirk", "ida"),
                         [](const auto& info) {
                           std::string name = info.param;
                           for (char& c : name) {
                             if (c == '-') c = '_';
                           }
                           return name;
                         });

// The free oscillation against its closed form: a check of the block itself, not only of its
// agreement with the diagram.
TEST(PluginBlockTest, FreeOscillationMatchesClosedForm) {
  const double m = 1.3, c = 0.45, k = 7.1, x0 = 0.2;
  const testing::RunOutput run = testing::RunModelText(
      R"(<model name="free"><simulation solver="ode45" t_end="4" rtol="1e-11" atol="1e-13"/>
  <block type="Constant" name="zero" value="0"/>
  <block type="MassSpringDamper" library=")" +
      kExampleLibrary + R"(" name="plant" m="1.3" c="0.45" k="7.1" x0="0.2"/>
  <connect from="zero.y" to="plant.F"/>
  <log signal="plant.x" as="x"/></model>)");
  ASSERT_TRUE(run.outcome.ok) << run.outcome.error;
  // x = e^{-z w t} (x0 cos(wd t) + x0 z w / wd sin(wd t)) from x(0) = x0, v(0) = 0.
  const double w = std::sqrt(k / m), z = c / (2.0 * std::sqrt(k * m));
  const double wd = w * std::sqrt(1.0 - z * z);
  const std::vector<double> t = testing::Times(run.recording);
  const std::vector<double> x = testing::Column(run.recording, "x");
  for (size_t i = 0; i < t.size(); ++i) {
    const double exact = std::exp(-z * w * t[i]) *
                         (x0 * std::cos(wd * t[i]) + x0 * z * w / wd * std::sin(wd * t[i]));
    EXPECT_NEAR(x[i], exact, 1e-9) << "t = " << t[i];
  }
}

// A zero crossing and a state reset: the first impact at sqrt(2 h0 / g), and the next apex
// at cr^2 h0.
TEST(PluginBlockTest, BouncingBallBouncesAtTheClosedFormTimes) {
  const double g = 9.81, cr = 0.8, h0 = 2.0;
  const testing::RunOutput run = testing::RunModelText(
      R"(<model name="ball"><simulation solver="ode45" t_end="1.5" rtol="1e-10" atol="1e-12"/>
  <block type="BouncingBall" library=")" +
      kExampleLibrary + R"(" name="ball" h0="2" cr="0.8"/>
  <log signal="ball.h" as="h"/><log signal="ball.v" as="v"/></model>)");
  ASSERT_TRUE(run.outcome.ok) << run.outcome.error;
  EXPECT_EQ(run.stats.solver.zero_crossings, 1);
  const double t1 = std::sqrt(2.0 * h0 / g), v1 = g * t1;
  const std::vector<double> t = testing::Times(run.recording);
  const std::vector<double> h = testing::Column(run.recording, "h");
  const std::vector<double> v = testing::Column(run.recording, "v");
  // The row of the impact holds the outputs before the reset (as Simulink logs them); the
  // next one is on the way up: v = cr v1 - g (t - t1).
  size_t impact = 0;
  while (impact + 1 < t.size() && v[impact + 1] < 0.0) ++impact;
  ASSERT_LT(impact + 1, t.size());
  EXPECT_NEAR(t[impact], t1, 1e-9);
  EXPECT_NEAR(v[impact], -v1, 1e-8);
  EXPECT_NEAR(v[impact + 1], cr * v1 - g * (t[impact + 1] - t1), 1e-8);
  double apex = 0.0;
  for (size_t i = impact + 1; i < t.size(); ++i) apex = std::max(apex, h[i]);
  // The apex between recorded rows: at most the height change over one step below it.
  EXPECT_NEAR(apex, cr * cr * h0, 1e-3);
  EXPECT_LE(apex, cr * cr * h0 + 1e-9);
}

// Discrete states at a sample time: y[k] = (u[k] + u[k-1] + u[k-2]) / 3 of u = t.
TEST(PluginBlockTest, MovingAverageMatchesHandRecursion) {
  const testing::RunOutput run = testing::RunModelText(
      R"(<model name="average"><simulation solver="ode4" t_end="1" step="0.01"/>
  <block type="Clock" name="clock"/>
  <block type="ZeroOrderHold" name="hold" Ts="0.1"/>
  <block type="MovingAverage" library=")" +
      kExampleLibrary + R"(" name="average" n="3" Ts="0.1"/>
  <connect from="clock.t" to="hold.u"/>
  <connect from="hold.y" to="average.u"/>
  <log signal="average.y" as="y"/></model>)");
  ASSERT_TRUE(run.outcome.ok) << run.outcome.error;
  const std::vector<double> t = testing::Times(run.recording);
  const std::vector<double> y = testing::Column(run.recording, "y");
  for (size_t i = 0; i < t.size(); ++i) {
    const int k = static_cast<int>(std::floor(t[i] / 0.1 + 1e-9));
    double sum = 0.0;
    for (int j = k; j > k - 3 && j >= 0; --j) sum += 0.1 * j;
    EXPECT_NEAR(y[i], sum / 3.0, 1e-12) << "t = " << t[i];
  }
}

// Modes chosen at major steps with a zero crossing: the output switches exactly where the
// solver located u = 0 (t = k pi), and inside solver steps it holds, so that every step is
// smooth: y at each recorded row is the sign of u there.
TEST(PluginBlockTest, ModesSwitchAtLocatedZeroCrossings) {
  const testing::RunOutput run = testing::RunModelText(
      R"(<model name="sign"><simulation solver="ode45" t_end="10" rtol="1e-10" atol="1e-12"/>
  <block type="Sine" name="u"/>
  <block type="SignWithMode" library=")" +
      kTestLibraries + R"(/libtest_blocks.so" name="sign"/>
  <block type="Integrator" name="area"/>
  <connect from="u.y" to="sign.u"/>
  <connect from="sign.y" to="area.u"/>
  <log signal="u.y" as="u"/><log signal="sign.y" as="y"/><log signal="area.y" as="area"/></model>)");
  ASSERT_TRUE(run.outcome.ok) << run.outcome.error;
  EXPECT_EQ(run.stats.solver.zero_crossings, 3);  // pi, 2 pi, 3 pi
  const std::vector<double> u = testing::Column(run.recording, "u");
  const std::vector<double> y = testing::Column(run.recording, "y");
  for (size_t i = 0; i < u.size(); ++i) {
    if (std::abs(u[i]) > 1e-9) {
      EXPECT_EQ(y[i], u[i] > 0.0 ? 1.0 : -1.0) << "row " << i;
    }
  }
  // The integral of sign(sin t) rises to pi over [0, pi), falls back to 0 over [pi, 2 pi),
  // ...: at t = 10, in [3 pi, 4 pi), it is pi - (t - 3 pi).
  const double t = 10.0, pi = 3.14159265358979323846;
  const double exact = pi - (t - 3.0 * pi);
  EXPECT_NEAR(testing::Column(run.recording, "area").back(), exact, 1e-8);
}

// A block library's block reads, writes and reads back with its library, and the editing API
// checks its parameters and ports against the library's type.
TEST(UserBlockModelTest, LibraryAttributeRoundTripsAndIsEdited) {
  const std::string xml = OscillatorModel("ode4", PluginPlant());
  graph::Model model = xml::ReadModelString(xml, testing::SourcePath("tests/inline.xml"));
  EXPECT_EQ(model.FindBlock("plant")->library, kExampleLibrary);
  const std::string written = xml::WriteModelString(model);
  EXPECT_THAT(written, HasSubstr("type=\"MassSpringDamper\" library=\"" + kExampleLibrary + "\""));
  EXPECT_EQ(xml::ReadModelString(written, testing::SourcePath("tests/inline.xml")), model);

  model.AddBlock("", "MassSpringDamper", "second", {{"m", "3"}}, kExampleLibrary);
  EXPECT_EQ(model.FindBlock("second")->library, kExampleLibrary);
  model.Connect("", "force.y", "second.F");
  using graph::test_support::ErrorOf;
  EXPECT_CONTAINS(ErrorOf([&] { model.Connect("", "force.y", "second.G"); }), "no port 'G'");
  EXPECT_CONTAINS(ErrorOf([&] { model.SetParam("second", "mass", "2"); }),
                  "unknown parameter 'mass'; valid parameters: m, c, k, x0, v0");
  EXPECT_CONTAINS(
      ErrorOf([&] { model.AddBlock("", "MassSpringDamper", "third", {}, "libno_such_blocks.so"); }),
      "block library 'libno_such_blocks.so' not found");
  model.Disconnect("", "force.y", "second.F");
  model.ReplaceBlock("second", "Integrator", {});
  EXPECT_EQ(model.FindBlock("second")->library, "");
  EXPECT_EQ(xml::WriteModelString(model).find("name=\"second\" library"), std::string::npos);
}

// The reader refuses an empty library, and `library` as the name of a define's parameter (an
// instance would write it as the block's library).
TEST(UserBlockModelTest, ReaderRefusesEmptyLibraryAndReservedName) {
  using graph::test_support::ErrorOf;
  EXPECT_CONTAINS(ErrorOf([] {
                    xml::ReadModelString(
                        "<model name=\"m\">\n<block type=\"MassSpringDamper\" library=\"\" "
                        "name=\"p\"/>\n</model>",
                        "m.xml");
                  }),
                  "m.xml:2: block 'p' (MassSpringDamper): the library is empty");
  EXPECT_CONTAINS(ErrorOf([] {
                    xml::ReadModelString(
                        "<model name=\"m\">\n<define name=\"D\" params=\"library\"/>\n</model>",
                        "m.xml");
                  }),
                  "takes a reserved name");
  graph::Model model;
  EXPECT_CONTAINS(ErrorOf([&] { model.AddDefine("D", {"library"}); }), "takes a reserved name");
  EXPECT_CONTAINS(ErrorOf([&] {
                    model.AddBlock("", "Gain", "g", {{"library", "x"}});
                  }),
                  "'library' is not a parameter");
}

// The library is found relative to the model file's folder, then on TWINBLOCKS_BLOCK_PATH.
TEST(UserBlockModelTest, LibraryIsFoundFromModelFolderAndBlockPath) {
  const fs::path dir = testing::FreshDirectory("user_blocks_", "search");
  fs::create_directories(dir / "lib");
  fs::copy_file(kExampleLibrary, dir / "lib" / "libmy_blocks.so");
  const std::string model = R"(<model name="m"><simulation t_end="0.1"/>
  <block type="Constant" name="f" value="1"/>
  <block type="MassSpringDamper" library="LIB" name="plant"/>
  <connect from="f.y" to="plant.F"/></model>)";
  auto with = [&](const std::string& library) {
    std::string text = model;
    text.replace(text.find("LIB"), 3, library);
    return text;
  };
  testing::WriteText(dir / "relative.xml", with("lib/libmy_blocks.so"));
  EXPECT_EQ(testing::RunCli("run " + (dir / "relative.xml").string() + " -o /dev/null").status, 0);

  testing::WriteText(dir / "on_path.xml", with("libmy_blocks.so"));
  const testing::CliResult not_found =
      testing::RunCli("run " + (dir / "on_path.xml").string() + " -o /dev/null");
  EXPECT_EQ(not_found.status, 2);
  EXPECT_THAT(not_found.text, HasSubstr("TWINBLOCKS_BLOCK_PATH (not set)"));
  const testing::CliResult found = testing::RunShell(
      "TWINBLOCKS_BLOCK_PATH=/nonexistent:" + (dir / "lib").string() + " " + TWINBLOCKS_CLI +
      " run " + (dir / "on_path.xml").string() + " -o /dev/null 2>&1");
  EXPECT_EQ(found.status, 0) << found.text;
}

struct BadLibraryCase {
  const char* name;
  std::string library;
  std::string type;
  std::vector<std::string> says;
};

class BadBlockLibraryTest : public ::testing::TestWithParam<BadLibraryCase> {};

// Each problem of a library is one line naming the file, line and block, exit status 2.
TEST_P(BadBlockLibraryTest, IsOneLineWithFileLineAndBlock) {
  const BadLibraryCase& c = GetParam();
  const fs::path dir = testing::FreshDirectory("bad_library_", c.name);
  const std::string file = "model.xml";
  testing::WriteText(dir / file, R"(<model name="bad">
  <simulation t_end="1"/>
  <subsystem name="arm">
    <block type="Constant" name="f" value="1"/>
    <block type=")" + c.type + R"(" library=")" +
                                     c.library +
                                     R"(" name="plant"/>
  </subsystem>
</model>
)");
  std::vector<std::string> says = c.says;
  says.push_back("block 'arm/plant'");
  testing::ExpectOneLineBadInput((dir / file).string(), file, 5, says);
}

INSTANTIATE_TEST_SUITE_P(
    Cases, BadBlockLibraryTest,
    ::testing::Values(
        BadLibraryCase{"unknown_library",
                       "libno_such_blocks.so",
                       "MassSpringDamper",
                       {"block library 'libno_such_blocks.so' not found", "TWINBLOCKS_BLOCK_PATH"}},
        BadLibraryCase{"no_entry_function",
                       kTestLibraries + "/libno_entry.so",
                       "MassSpringDamper",
                       {"is no twinblocks block library", "twinblocks_register_blocks"}},
        BadLibraryCase{"other_abi_version",
                       kTestLibraries + "/libother_abi.so",
                       "MassSpringDamper",
                       {"built for version 99 of the block API", "rebuild it"}},
        BadLibraryCase{"registration_throws",
                       kTestLibraries + "/libregister_throws.so",
                       "MassSpringDamper",
                       {"failed to register its types", "no licence file"}},
        BadLibraryCase{"type_not_in_library",
                       kExampleLibrary,
                       "MassSpringDampr",
                       {"has no block type 'MassSpringDampr'", "did you mean 'MassSpringDamper'",
                        "BouncingBall"}},
        BadLibraryCase{"not_a_shared_library",
                       TWINBLOCKS_SOURCE_DIR "/README.md",
                       "MassSpringDamper",
                       {"cannot open block library"}},
        BadLibraryCase{
            "bad_declaration", kTestLibraries + "/libtest_blocks.so", "BadWidth", {"width 0"}}),
    [](const auto& info) { return std::string(info.param.name); });

// A parameter the user's constructor refuses: the exception's text, with file:line.
TEST(BadBlockLibraryTest, ParameterRefusedByTheBlockIsOneLine) {
  const fs::path dir = testing::FreshDirectory("bad_library_", "parameter");
  testing::WriteText(dir / "model.xml", R"(<model name="bad">
  <simulation t_end="1"/>
  <block type="MassSpringDamper" library=")" +
                                            kExampleLibrary +
                                            R"(" name="plant" m="-1"/>
</model>
)");
  testing::ExpectOneLineBadInput((dir / "model.xml").string(), "model.xml", 3,
                                 {"block 'plant'", "parameter 'm' must be positive"});
}

// An exception from a hook while the model runs ends the run (exit status 3) with the block
// and the time; resetting a state inside a solver step is such an error.
TEST(BadBlockLibraryTest, HookFailureEndsTheRunWithBlockAndTime) {
  const fs::path dir = testing::FreshDirectory("bad_library_", "hooks");
  for (const char* type : {"FailsAt", "ResetsInMinorSteps"}) {
    testing::WriteText(dir / "model.xml", R"(<model name="bad">
  <simulation solver="ode45" t_end="1"/>
  <block type=")" + std::string(type) + R"(" library=")" +
                                              kTestLibraries +
                                              R"(/libtest_blocks.so" name="thing"/>
</model>
)");
    const testing::CliResult r = testing::RunCli("run " + (dir / "model.xml").string() + " -o " +
                                                 (dir / "out.csv").string());
    EXPECT_EQ(r.status, 3) << r.text;
    EXPECT_THAT(r.text, HasSubstr("simulation failed at t = "));
    EXPECT_THAT(r.text, HasSubstr("block 'thing'"));
    EXPECT_THAT(r.text, HasSubstr(std::string(type) == "FailsAt" ? "the test block fails here"
                                                                 : "inside a solver step"));
  }
}

// `twinblocks blocks TYPE --library LIB` documents a library's type; a bad library or type is
// one line and exit status 2.
TEST(UserBlockCliTest, BlocksCommandDocumentsLibraryTypes) {
  const testing::CliResult doc =
      testing::RunCliWithStdout("blocks MassSpringDamper --library " + kExampleLibrary);
  EXPECT_EQ(doc.status, 0) << doc.text;
  EXPECT_THAT(doc.text, HasSubstr("m x'' + c x' + k x = F"));
  EXPECT_THAT(doc.text, HasSubstr("Library: " + kExampleLibrary));
  const testing::CliResult list = testing::RunCliWithStdout("blocks --library " + kExampleLibrary);
  EXPECT_EQ(list.status, 0);
  EXPECT_THAT(list.text, HasSubstr("MovingAverage"));
  for (const std::string& args : {std::string("blocks X --library libno_such_blocks.so"),
                                  "blocks MassSpringDampr --library " + kExampleLibrary,
                                  "blocks X --library " + kTestLibraries + "/libother_abi.so"}) {
    const testing::CliResult r = testing::RunCli(args);
    EXPECT_EQ(r.status, 2) << args;
    EXPECT_EQ(testing::CountLines(r.text), 1) << r.text;
  }
}

// The loader keeps one copy of a library however it is named.
TEST(UserBlockModelTest, LibraryIsLoadedOncePerFile) {
  const blocks::BlockRegistry& a = blocks::LoadBlockLibrary(kExampleLibrary, ".");
  const fs::path example(kExampleLibrary);
  const blocks::BlockRegistry& b =
      blocks::LoadBlockLibrary(example.filename().string(), example.parent_path().string());
  EXPECT_EQ(&a, &b);
  const blocks::BlockType* t = blocks::FindBlockType("MassSpringDamper", kExampleLibrary, ".");
  ASSERT_NE(t, nullptr);
  EXPECT_EQ(t->category, "Example blocks");
  EXPECT_EQ(blocks::FindBlockType("MassSpringDamper", "", "."), nullptr);
}

}  // namespace
}  // namespace twinblocks
