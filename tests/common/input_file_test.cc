// Reading input files: regular files only, within the file_bytes limit, as text.
#include "common/input_file.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <string>

#include "common/input_limits.h"
#include "tests/support/acceptance_helpers.h"

namespace twinblocks::blocks {
namespace {

namespace fs = std::filesystem;
using ::testing::HasSubstr;
using twinblocks::testing::FreshDirectory;

std::string ReasonOf(const std::string& path) {
  try {
    ReadTextFile(path);
  } catch (const InputFileError& e) {
    return e.reason();
  }
  return "(read)";
}

void Write(const fs::path& path, const std::string& bytes) {
  std::ofstream(path, std::ios::binary) << bytes;
}

TEST(InputFileTest, ReadsRegularTextAndDropsAUtf8ByteOrderMark) {
  const fs::path dir = FreshDirectory("twinblocks_input_file_", "text");
  Write(dir / "a.xml", "\xEF\xBB\xBF<model/>\n");
  EXPECT_EQ(ReadTextFile((dir / "a.xml").string()), "<model/>\n");
}

TEST(InputFileTest, RefusesWhatIsNoRegularFileWithoutReadingIt) {
  const fs::path dir = FreshDirectory("twinblocks_input_file_", "kinds");
  ASSERT_EQ(::mkfifo((dir / "fifo").c_str(), 0600), 0);
  EXPECT_EQ(ReasonOf((dir / "fifo").string()), "it is a FIFO (a pipe), not a regular file");
  EXPECT_EQ(ReasonOf("/dev/zero"), "it is a device, not a regular file");
  EXPECT_EQ(ReasonOf(dir.string()), "it is a directory");
  EXPECT_EQ(ReasonOf((dir / "none").string()), "No such file or directory");
  fs::create_symlink(dir / "loop", dir / "loop");
  EXPECT_EQ(ReasonOf((dir / "loop").string()), "Too many levels of symbolic links");
}

TEST(InputFileTest, RefusesAFileOverTheLimitFromItsSize) {
  const fs::path dir = FreshDirectory("twinblocks_input_file_", "large");
  const fs::path big = dir / "big.csv";
  Write(big, "");
  fs::resize_file(big, (std::uintmax_t{300} << 20));  // sparse: no disk, no memory
  EXPECT_THAT(ReasonOf(big.string()),
              HasSubstr("it is 300.0 MiB, over the limit of 268435456 bytes (raise it with "
                        "--limit file_bytes=N)"));
  const InputLimits saved = CurrentInputLimits();
  SetInputLimit("file_bytes=4");
  Write(dir / "five.txt", "12345");
  EXPECT_THAT(ReasonOf((dir / "five.txt").string()), HasSubstr("over the limit of 4 bytes"));
  SetInputLimits(saved);
}

TEST(InputFileTest, NamesUtf16AndBinaryData) {
  EXPECT_EQ(TextEncodingProblem(std::string("\xFF\xFE<\0m\0", 6)),
            "it is UTF-16 (little-endian) text; save it as UTF-8");
  EXPECT_EQ(TextEncodingProblem(std::string("\xFE\xFF\0<\0m", 6)),
            "it is UTF-16 (big-endian) text; save it as UTF-8");
  EXPECT_EQ(TextEncodingProblem(std::string("<\0m\0", 4)),
            "it looks like UTF-16 text (little-endian, no byte-order mark); save it as UTF-8");
  EXPECT_EQ(TextEncodingProblem(std::string("ab\0c", 4)),
            "it holds binary data (a NUL byte at offset 2); expected text");
  EXPECT_EQ(TextEncodingProblem("plain text, \xC3\xA9 too"), "");
}

TEST(InputLimitsTest, SetByNameOrRefusedInOneLine) {
  const InputLimits saved = CurrentInputLimits();
  SetInputLimit("blocks=2e6");
  EXPECT_EQ(CurrentInputLimits().blocks, 2'000'000);
  EXPECT_THROW(SetInputLimit("blocks=0"), std::invalid_argument);
  EXPECT_THROW(SetInputLimit("blocks=1.5"), std::invalid_argument);
  EXPECT_THROW(SetInputLimit("blocks=1e30"), std::invalid_argument);
  try {
    SetInputLimit("blokcs=5");
    ADD_FAILURE() << "no error";
  } catch (const std::invalid_argument& e) {
    EXPECT_THAT(e.what(), HasSubstr("unknown limit 'blokcs'; expected one of: file_bytes"));
  }
  SetInputLimits(saved);
}

}  // namespace
}  // namespace twinblocks::blocks
