#pragma once

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <string>

/// Checks that `needle` occurs in `haystack`, printing both when it does not.
#define EXPECT_CONTAINS(haystack, needle)                          \
  EXPECT_NE(std::string(haystack).find(needle), std::string::npos) \
      << "expected \"" << (needle) << "\" in \"" << (haystack) << "\""

namespace twinblocks::xml::test {

/// A fresh directory under the test temp dir for files a test writes (include trees), removed
/// when the test ends.
class TempFiles {
 public:
  explicit TempFiles(const std::string& name)
      : dir_((std::filesystem::path(::testing::TempDir()) / ("twinblocks_xml_" + name))
                 .lexically_normal()) {
    std::filesystem::remove_all(dir_);
    std::filesystem::create_directories(dir_);
  }
  ~TempFiles() {
    std::error_code ec;
    std::filesystem::remove_all(dir_, ec);
  }
  TempFiles(const TempFiles&) = delete;
  TempFiles& operator=(const TempFiles&) = delete;

  /// The absolute path of `relative` in the directory.
  std::string Path(const std::string& relative) const { return (dir_ / relative).string(); }

  /// Writes `text` to `relative`, creating directories as needed.
  void Write(const std::string& relative, const std::string& text) const {
    std::filesystem::path p = dir_ / relative;
    std::filesystem::create_directories(p.parent_path());
    std::ofstream(p, std::ios::binary) << text;
  }

 private:
  std::filesystem::path dir_;
};

}  // namespace twinblocks::xml::test
