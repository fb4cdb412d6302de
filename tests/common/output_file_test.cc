// Writing result files: a failed write is an error naming the file and the reason, and a
// CSV cut short ends at a whole line.
#include "common/output_file.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <sys/resource.h>

#include <csignal>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

#include "model/model_error.h"
#include "tests/support/acceptance_helpers.h"

namespace twinblocks::graph {
namespace {

namespace fs = std::filesystem;
using ::testing::HasSubstr;
using twinblocks::testing::FreshDirectory;

std::string Contents(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

TEST(OutputFileTest, AFullDeviceIsAnErrorWithTheReason) {
  try {
    WriteWholeFile("/dev/full", "abc");
    ADD_FAILURE() << "no error";
  } catch (const OutputFileError& e) {
    EXPECT_EQ(std::string(e.what()), "cannot write '/dev/full': No space left on device");
    EXPECT_TRUE(e.opened());
  }
  LineFileWriter rows("/dev/full");
  rows.Append("time,x\n");
  EXPECT_THROW(rows.Close(), OutputFileError);
}

TEST(OutputFileTest, APathThatCannotBeMadeIsRefusedAtOnce) {
  const fs::path dir = FreshDirectory("twinblocks_output_file_", "refused");
  std::ofstream(dir / "file") << "x";
  try {
    WriteWholeFile((dir / "file" / "a.svg").string(), "abc");
    ADD_FAILURE() << "no error";
  } catch (const OutputFileError& e) {
    EXPECT_THAT(e.what(), HasSubstr("a.svg': Not a directory"));
    EXPECT_FALSE(e.opened());
  }
}

// RLIMIT_FSIZE stands for a disk that fills up part way: the CSV keeps its whole rows.
TEST(OutputFileTest, ACsvCutShortEndsAtAWholeRow) {
  const fs::path dir = FreshDirectory("twinblocks_output_file_", "cut");
  const fs::path path = dir / "r.csv";
  std::string row = "0.125,1.5,-2.25\n";
  struct rlimit saved {};
  ASSERT_EQ(getrlimit(RLIMIT_FSIZE, &saved), 0);
  const auto previous_handler = std::signal(SIGXFSZ, SIG_IGN);
  struct rlimit small = saved;
  small.rlim_cur = 100000;  // bytes: the first 64 KiB chunk fits, the second does not
  ASSERT_EQ(setrlimit(RLIMIT_FSIZE, &small), 0);
  bool failed = false;
  try {
    LineFileWriter rows(path.string());
    rows.Append("time,x,y\n");
    for (int i = 0; i < 20000; ++i) rows.Append(row);
    rows.Close();
  } catch (const OutputFileError& e) {
    failed = true;
    EXPECT_THAT(e.what(), HasSubstr("r.csv': File too large"));
  }
  setrlimit(RLIMIT_FSIZE, &saved);
  std::signal(SIGXFSZ, previous_handler);
  EXPECT_TRUE(failed);
  const std::string text = Contents(path);
  ASSERT_FALSE(text.empty());
  EXPECT_LE(text.size(), 100000u);
  EXPECT_EQ(text.back(), '\n');
  EXPECT_EQ(text.rfind("time,x,y\n", 0), 0u);
  EXPECT_EQ((text.size() - 9) % row.size(), 0u) << "whole rows only";
}

TEST(ReadableLineTest, ElidesLongQuotesAndKeepsOneLine) {
  const std::string expression(250000, 'x');
  const std::string line =
      ReadableLine("m.xml:4: parameter 'k': cannot evaluate '" + expression + "': too long");
  EXPECT_LT(line.size(), 300u);
  EXPECT_THAT(line, HasSubstr("cannot evaluate 'xxxx"));
  EXPECT_THAT(line, HasSubstr("...x"));
  EXPECT_THAT(line, HasSubstr("' (250000 characters): too long"));
  EXPECT_EQ(ReadableLine("a\nb 'short'"), "a\\nb 'short'");
  EXPECT_LE(ReadableLine(std::string(10000, 'y')).size(), 2003u);
}

}  // namespace
}  // namespace twinblocks::graph
