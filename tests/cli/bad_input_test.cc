// A7 Bad input: each case gives one line with file:line and exit status 2, never a crash.
// The cases run the real `twinblocks` program, so CI's sanitizer build checks them too.
#include <gtest/gtest.h>

#include <cstdio>
#include <filesystem>
#include <string>

#include "io/mat_writer.h"
#include "io/svg_raster.h"
#include "tests/support/acceptance_helpers.h"

namespace {

using twinblocks::testing::CliResult;
using twinblocks::testing::RunCli;

struct BadCase {
  const char* file;
  int line;
  const char* says;  // a phrase the message must contain
};

class BadInput : public ::testing::TestWithParam<BadCase> {};

TEST_P(BadInput, OneLineWithFileLineAndStatus2) {
  const BadCase& c = GetParam();
  const std::string path = std::string(TWINBLOCKS_TEST_DATA) + "/bad_input/" + c.file;
  twinblocks::testing::ExpectOneLineBadInput(path, c.file, c.line, {c.says});
}

INSTANTIATE_TEST_SUITE_P(
    EveryCase, BadInput,
    ::testing::Values(BadCase{"malformed_xml.xml", 4, "malformed XML"},
                      BadCase{"unknown_block_type.xml", 4, "unknown block type 'Gian'"},
                      BadCase{"unknown_parameter.xml", 4, "unknown parameter 'gain'"},
                      BadCase{"unparsable_expression.xml", 4, "parameter 'k'"},
                      BadCase{"wrong_vector_size.xml", 4, "width"},
                      BadCase{"unknown_port.xml", 5, "no port 'out'"},
                      BadCase{"two_lines_one_input.xml", 7, "already has a line"},
                      BadCase{"port_kind_mismatch.xml", 7, "port kind mismatch"},
                      BadCase{"algebraic_loop.xml", 4, "algebraic loop: s -> g -> s"},
                      BadCase{"undefined_variable.xml", 5, "unknown name 'gain_value'"},
                      BadCase{"missing_include.xml", 3, "no_such_library.xml"},
                      BadCase{"duplicate_name.xml", 4, "duplicate"},
                      BadCase{"recursive_define.xml", 7, "recursive define"},
                      BadCase{"results_too_large.xml", 4,
                              "the fastest sample time (block 'd') = 1e-12 s"}),
    [](const auto& info) {
      std::string name = info.param.file;
      return name.substr(0, name.find('.'));
    });

TEST(CliUsage, VersionNamesTheVersionAndTheOptionalPartsBuilt) {
  const CliResult r = RunCli("--version", /*with_stdout=*/true);
  EXPECT_EQ(r.status, 0) << r.text;
  EXPECT_EQ(r.text.rfind("twinblocks " TWINBLOCKS_VERSION "\nwith: ", 0), 0u) << r.text;
  // The same parts the build's own checks report (the PNG and .mat plugins among them).
  EXPECT_EQ(r.text.find("PNG") != std::string::npos, twinblocks::graph::PngSupported()) << r.text;
  EXPECT_EQ(r.text.find(".mat") != std::string::npos, twinblocks::graph::MatSupported()) << r.text;
}

TEST(CliUsage, UnknownOptionIsOneLineAndStatus2) {
  const CliResult r = RunCli("run --no-such-option x.xml");
  EXPECT_EQ(r.status, 2);
  EXPECT_EQ(r.text.find('\n'), r.text.size() - 1) << r.text;
}

TEST(CliUsage, UnknownSolverIsOneLineAndStatus2) {
  const std::string model = std::string(TWINBLOCKS_SOURCE_DIR) + "/examples/mass_spring_damper.xml";
  const CliResult r = RunCli("run " + model + " --solver ode99 -o /dev/null");
  EXPECT_EQ(r.status, 2);
  EXPECT_NE(r.text.find("ode99"), std::string::npos) << r.text;
  EXPECT_NE(r.text.find("ode45"), std::string::npos) << "lists the valid solvers";
}

// Simulink's `auto` absolute tolerance from the command line: shown by check's summary line
// after a run; refused, in one line, together with --auto-scale-atol off (it always scales).
TEST(CliUsage, AtolAutoScalesAndCannotBeTurnedOff) {
  const std::string model = std::string(TWINBLOCKS_SOURCE_DIR) + "/examples/mass_spring_damper.xml";
  const CliResult ok = RunCli("run " + model + " --atol auto -q --no-plots -o /dev/null");
  EXPECT_EQ(ok.status, 0) << ok.text;
  const CliResult both = RunCli("run " + model + " --atol auto --auto-scale-atol off -o x.csv");
  EXPECT_EQ(both.status, 2);
  EXPECT_NE(both.text.find("--auto-scale-atol off cannot go with --atol auto"), std::string::npos)
      << both.text;
  EXPECT_EQ(both.text.find('\n'), both.text.size() - 1) << both.text;
  const CliResult word = RunCli("run " + model + " --atol automatic -o x.csv");
  EXPECT_EQ(word.status, 2);
  EXPECT_NE(word.text.find("automatic"), std::string::npos) << word.text;
}

// A setting the chosen solver would ignore is refused rather than silently dropped.
TEST(CliUsage, JacobianStepsForASolverWithoutJacobianIsOneLineAndStatus2) {
  const std::string model = std::string(TWINBLOCKS_SOURCE_DIR) + "/examples/mass_spring_damper.xml";
  const CliResult r = RunCli("run " + model + " --solver ode45 --jacobian-steps 3 -o /dev/null");
  EXPECT_EQ(r.status, 2);
  EXPECT_EQ(r.text.find('\n'), r.text.size() - 1) << r.text;
  EXPECT_NE(r.text.find("jacobian_steps = 3 is for the solvers that use a Jacobian"),
            std::string::npos)
      << r.text;
  EXPECT_NE(r.text.find("ode45 forms none"), std::string::npos) << r.text;
  const CliResult ok =
      RunCli("run " + model + " --solver ros2 --jacobian-steps 3 -q --no-plots -o /dev/null");
  EXPECT_EQ(ok.status, 0) << ok.text;
}

// jacobian_method = blocks on a diagram whose blocks give no Jacobian: one line, status 2, and
// no results file made for a run that never starts.
TEST(CliUsage, JacobianMethodBlocksWithoutSuchBlocksIsOneLineAndNoFile) {
  const std::string model = std::string(TWINBLOCKS_SOURCE_DIR) + "/examples/mass_spring_damper.xml";
  const std::string output = ::testing::TempDir() + "/jacobian_method_refused.csv";
  std::remove(output.c_str());
  const CliResult r =
      RunCli("run " + model + " --solver cvode-bdf --jacobian-method blocks -o " + output);
  EXPECT_EQ(r.status, 2);
  EXPECT_EQ(r.text.find('\n'), r.text.size() - 1) << r.text;
  EXPECT_NE(r.text.find("mass_spring_damper.xml:"), std::string::npos) << r.text;
  EXPECT_NE(r.text.find("jacobian_method = blocks: no block of this model gives a Jacobian"),
            std::string::npos)
      << r.text;
  EXPECT_FALSE(std::filesystem::exists(output)) << output << " was made";
  const CliResult bad = RunCli("run " + model + " --jacobian-method exact -o /dev/null");
  EXPECT_EQ(bad.status, 2) << bad.text;
}

// ida takes jacobian_method = blocks where every row is x' - f, but not for a model whose
// mechanism closes a loop: that is a DAE for ida, whose constraint rows no block
// differentiates. One line, status 2; cvode-bdf takes the same model and setting.
TEST(CliUsage, JacobianMethodBlocksWithIdaOnALoopIsOneLine) {
  const std::string model = std::string(TWINBLOCKS_TEST_DATA) + "/four_bar_with_contact.xml";
  const CliResult r =
      RunCli("run " + model + " --solver ida --jacobian-method blocks -o /dev/null");
  EXPECT_EQ(r.status, 2);
  EXPECT_EQ(r.text.find('\n'), r.text.size() - 1) << r.text;
  EXPECT_NE(r.text.find("four_bar_with_contact.xml:"), std::string::npos) << r.text;
  EXPECT_NE(r.text.find("with ida this model is a DAE"), std::string::npos) << r.text;
  const CliResult cvode = RunCli("run " + model +
                                 " --solver cvode-bdf --jacobian-method blocks --t-end 0.05 -q "
                                 "--no-plots -o /dev/null");
  EXPECT_EQ(cvode.status, 0) << cvode.text;
}

TEST(CliUsage, StepThatIsNotPositiveIsOneLineAndStatus2) {
  const std::string model = std::string(TWINBLOCKS_SOURCE_DIR) + "/examples/mass_spring_damper.xml";
  for (const char* option : {"--step 0", "--rtol -1e-3", "--atol abc", "--max-step inf"}) {
    const CliResult r = RunCli("run " + model + " " + option + " -o /dev/null");
    EXPECT_EQ(r.status, 2) << option;
    EXPECT_EQ(r.text.find('\n'), r.text.size() - 1) << r.text;
    EXPECT_NE(r.text.find("expected a positive number"), std::string::npos) << r.text;
  }
}

TEST(CliUsage, SweepStepsAndJobsOutOfRangeAreOneLineAndStatus2) {
  const std::string model = std::string(TWINBLOCKS_TEST_DATA) + "/sweep/growth.xml";
  for (const char* option : {"--step 0", "--output-interval -1", "--atol nan", "-j 0"}) {
    const CliResult r = RunCli("sweep " + model + " --set k=0.1,0.2 " + option + " -o " +
                               ::testing::TempDir() + "/sweep_bad_option");
    EXPECT_EQ(r.status, 2) << option;
    EXPECT_EQ(r.text.find('\n'), r.text.size() - 1) << r.text;
    EXPECT_EQ(r.text.find("1797"), std::string::npos) << "no range of doubles: " << r.text;
  }
}

TEST(CliUsage, MaxConsecutiveZcBelowOneIsOneLineAndStatus2) {
  const std::string model = std::string(TWINBLOCKS_SOURCE_DIR) + "/examples/mass_spring_damper.xml";
  const CliResult r = RunCli("run " + model + " --max-consecutive-zc 0 -o /dev/null");
  EXPECT_EQ(r.status, 2);
  EXPECT_EQ(r.text.find('\n'), r.text.size() - 1) << r.text;
  EXPECT_NE(r.text.find("--max-consecutive-zc"), std::string::npos) << r.text;
}

TEST(CliUsage, UnknownBlockTypeDocIsStatus2WithSuggestion) {
  const CliResult r = RunCli("blocks Gian");
  EXPECT_EQ(r.status, 2);
  EXPECT_NE(r.text.find("Gain"), std::string::npos) << r.text;
}

}  // namespace
