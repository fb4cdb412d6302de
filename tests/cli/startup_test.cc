// The program starts without the optional formats' libraries: librsvg with cairo and GLib
// (PNG images) and libmatio (.mat files) are opened from their plugins on first use
// (graph/detail/plugin_loader.h). Linked in, they were 60 of 109 libraries and two thirds of
// every start-up (31 ms of `twinblocks blocks Gain`, against 14 ms without).
#include <gtest/gtest.h>

#include <cstdio>
#include <string>

#include "tests/acceptance/acceptance_helpers.h"

namespace {

// The shared libraries the dynamic loader maps at the program's start, as `ldd` lists them
// (glibc's loader lists them and exits when LD_TRACE_LOADED_OBJECTS is set).
std::string LibrariesAtStart() {
  const std::string cmd = std::string("LD_TRACE_LOADED_OBJECTS=1 ") + TWINBLOCKS_CLI;
  std::string text;
  FILE* pipe = popen(cmd.c_str(), "r");
  if (pipe == nullptr) return text;
  char buf[4096];
  size_t n;
  while ((n = fread(buf, 1, sizeof buf, pipe)) > 0) text.append(buf, n);
  pclose(pipe);
  return text;
}

TEST(CliStartupTest, LoadsNoFormatLibraryAtStart) {
  const std::string libraries = LibrariesAtStart();
  ASSERT_NE(libraries.find("libc.so"), std::string::npos) << libraries;
  for (const char* format_library :
       {"librsvg", "libcairo", "libglib", "libgobject", "libmatio", "libhdf5"}) {
    EXPECT_EQ(libraries.find(format_library), std::string::npos)
        << format_library << " is loaded at start:\n"
        << libraries;
  }
}

}  // namespace
