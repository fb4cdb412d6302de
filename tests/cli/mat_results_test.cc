// `twinblocks run -o FILE` picks the results format by extension: .csv (or none), or .mat
// (MATLAB v5, when built with libmatio); any other extension is one line and exit status 2,
// before the run.
#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>

#include "io/mat_writer.h"
#include "tests/support/acceptance_helpers.h"

namespace {

namespace fs = std::filesystem;
using twinblocks::testing::CliResult;
using twinblocks::testing::CountLines;
using twinblocks::testing::FreshDirectory;
using twinblocks::testing::RunCliWithStdout;

constexpr const char* kMatDirPrefix = "twinblocks_cli_mat_";

std::string Model() { return twinblocks::testing::SourcePath("tests/data/mat/oscillator.xml"); }

TEST(CliMatResultsTest, MatExtensionWritesMatV5) {
  if (!twinblocks::graph::MatSupported()) GTEST_SKIP() << "built without libmatio";
  const fs::path dir = FreshDirectory(kMatDirPrefix, "mat");
  for (const char* file : {"run.mat", "RUN.MAT"}) {
    const fs::path out = dir / "sub" / file;
    const CliResult r = RunCliWithStdout("run " + Model() + " --quiet -o " + out.string());
    ASSERT_EQ(r.status, 0) << r.text;
    EXPECT_NE(r.text.find("results: " + out.string()), std::string::npos) << r.text;
    // A MAT v5 header: 116 bytes of text, 8 of subsystem offset, version 0x0100, "IM" or "MI".
    std::ifstream in(out, std::ios::binary);
    char header[128] = {};
    ASSERT_TRUE(in.read(header, sizeof header)) << out;
    EXPECT_EQ(std::string(header, 19), "MATLAB 5.0 MAT-file");
    const std::string endian(header + 126, 2);
    EXPECT_TRUE(endian == "IM" || endian == "MI") << endian;
    EXPECT_GT(fs::file_size(out), 1000u);  // three structs of ~40 rows
  }
}

TEST(CliMatResultsTest, UnknownExtensionIsOneLineBeforeTheRun) {
  const fs::path dir = FreshDirectory(kMatDirPrefix, "bad_extension");
  for (const char* file : {"run.txt", "run.mat.gz", "run.xml"}) {
    const fs::path out = dir / file;
    const CliResult r = RunCliWithStdout("run " + Model() + " -o " + out.string());
    EXPECT_EQ(r.status, 2) << r.text;
    EXPECT_EQ(CountLines(r.text), 1) << r.text;
    EXPECT_NE(r.text.find("unknown results format"), std::string::npos) << r.text;
    EXPECT_NE(r.text.find(".csv or .mat"), std::string::npos) << r.text;
    EXPECT_EQ(r.text.find("stats:"), std::string::npos) << "it ran: " << r.text;
    EXPECT_FALSE(fs::exists(out)) << out;
  }
}

TEST(CliMatResultsTest, NoExtensionIsCsv) {
  const fs::path dir = FreshDirectory(kMatDirPrefix, "no_extension");
  const CliResult r =
      RunCliWithStdout("run " + Model() + " --quiet -o " + (dir / "results").string());
  ASSERT_EQ(r.status, 0) << r.text;
  std::ifstream in(dir / "results");
  std::string header;
  std::getline(in, header);
  EXPECT_EQ(header, "time,x,v.y,both.y[0],both.y[1]");
}

TEST(CliMatResultsTest, UnwritableMatIsOneLine) {
  if (!twinblocks::graph::MatSupported()) GTEST_SKIP() << "built without libmatio";
  const fs::path dir = FreshDirectory(kMatDirPrefix, "unwritable");
  fs::create_directories(dir / "taken.mat");  // a directory where the file should go
  const CliResult r = RunCliWithStdout("run " + Model() + " -o " + (dir / "taken.mat").string());
  EXPECT_EQ(r.status, 2) << r.text;
  EXPECT_EQ(CountLines(r.text), 1) << r.text;
  EXPECT_NE(r.text.find("cannot write results to '" + (dir / "taken.mat").string() + "'"),
            std::string::npos)
      << r.text;
}

// The .mat format's plugin is opened before the run: one that cannot be opened is one line and
// exit status 2, with no run spent and no file made.
TEST(CliMatResultsTest, UnusableMatPluginIsOneLineBeforeTheRun) {
  if (!twinblocks::graph::MatSupported()) GTEST_SKIP() << "built without libmatio";
  const fs::path dir = FreshDirectory(kMatDirPrefix, "bad_plugin");
  fs::create_directories(dir / "plugins");
  std::ofstream(dir / "plugins" / "libtwinblocks_mat.so") << "not a shared library\n";
  ASSERT_EQ(setenv("TWINBLOCKS_PLUGIN_DIR", (dir / "plugins").c_str(), 1), 0);
  const CliResult r = RunCliWithStdout("run " + Model() + " -o " + (dir / "run.mat").string());
  unsetenv("TWINBLOCKS_PLUGIN_DIR");
  EXPECT_EQ(r.status, 2) << r.text;
  EXPECT_EQ(CountLines(r.text), 1) << r.text;
  EXPECT_NE(
      r.text.find("cannot write '" + (dir / "run.mat").string() + "': cannot open the plugin " +
                  (dir / "plugins" / "libtwinblocks_mat.so").string() + ": "),
      std::string::npos)
      << r.text;
  EXPECT_EQ(r.text.find("stats:"), std::string::npos) << "it ran: " << r.text;
  EXPECT_FALSE(fs::exists(dir / "run.mat"));
}

TEST(CliMatResultsTest, WithoutLibmatioMatIsOneLine) {
  if (twinblocks::graph::MatSupported()) GTEST_SKIP() << "built with libmatio";
  const fs::path dir = FreshDirectory(kMatDirPrefix, "no_matio");
  const CliResult r = RunCliWithStdout("run " + Model() + " -o " + (dir / "run.mat").string());
  EXPECT_EQ(r.status, 2) << r.text;
  EXPECT_EQ(CountLines(r.text), 1) << r.text;
  EXPECT_NE(r.text.find("built without MAT support"), std::string::npos) << r.text;
}

}  // namespace
