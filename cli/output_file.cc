#include "cli/output_file.h"

#include <cctype>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <system_error>

#include "cli/commands.h"
#include "common/output_file.h"

namespace twinblocks::cli {

std::string LowerExtension(const std::string& path) {
  std::string ext = std::filesystem::path(path).extension().string();
  for (char& c : ext) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return ext;
}

bool IsInsideFolder(const std::string& folder, const std::string& path) {
  namespace fs = std::filesystem;
  std::error_code ec;
  const fs::path base = fs::weakly_canonical(fs::absolute(folder, ec), ec);
  if (ec) return false;
  // The file itself may be a link, and a dangling one, which weakly_canonical leaves as it
  // is (the write would create its target): follow links to the end first, as open() would.
  fs::path file = fs::absolute(path, ec);
  for (int hops = 0; fs::is_symlink(fs::symlink_status(file, ec)); ++hops) {
    if (hops == 40) return false;  // a loop: open() would fail with ELOOP
    const fs::path to = fs::read_symlink(file, ec);
    if (ec) return false;
    file = to.is_absolute() ? to : file.parent_path() / to;
  }
  const fs::path target = fs::weakly_canonical(file, ec);
  if (ec) return false;
  const fs::path relative = target.lexically_relative(base);
  return !relative.empty() && *relative.begin() != "..";
}

void WriteOutputFile(const std::string& path, const std::string& bytes) {
  if (path == "-") {
    if (std::fwrite(bytes.data(), 1, bytes.size(), stdout) != bytes.size() ||
        std::fflush(stdout) != 0) {
      throw graph::OutputFileError("standard output", std::strerror(errno), /*opened=*/true);
    }
    return;
  }
  const std::filesystem::path dir = std::filesystem::path(path).parent_path();
  std::error_code ec;
  if (!dir.empty()) std::filesystem::create_directories(dir, ec);
  graph::WriteWholeFile(path, bytes);
}

}  // namespace twinblocks::cli
