// The program starts without the optional formats' libraries: librsvg with cairo and GLib
// (PNG images) and libmatio (.mat files) are opened from their plugins on first use
// (graph/detail/plugin_loader.h). Linked in, they were 60 of 109 libraries and two thirds of
// every start-up (31 ms of `twinblocks blocks Gain`, against 14 ms without).
#include <gtest/gtest.h>

#include <string>

#include "tests/acceptance/acceptance_helpers.h"

namespace {

using twinblocks::testing::CliResult;
using twinblocks::testing::RunShell;

// The shared libraries the dynamic loader maps at the program's start, as `ldd` lists them
// (glibc's loader lists them and exits when LD_TRACE_LOADED_OBJECTS is set).
std::string LibrariesAtStart() {
  return RunShell(std::string("LD_TRACE_LOADED_OBJECTS=1 ") + TWINBLOCKS_CLI).text;
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

// The program finds its libraries where it was built to, whatever folder it is started in.
// CMake's build RUNPATH used to end in an empty entry (room for the install-time rewrite),
// which the loader reads as the current folder: a file there named as one of the program's
// libraries was loaded instead, and the program died before main (exit status 127).
TEST(CliStartupTest, IgnoresLibrariesInTheCurrentFolder) {
  const auto dir = twinblocks::testing::FreshDirectory("startup_", "decoys");
  for (const char* decoy : {"libpugixml.so.1", "libmuparser.so.2", "libsundials_cvode.so.6"}) {
    twinblocks::testing::WriteText(dir / decoy, "not a library\n");
  }
  const CliResult r =
      RunShell("cd '" + dir.string() + "' && " + TWINBLOCKS_CLI + " --version 2>&1");
  EXPECT_EQ(r.status, 0) << r.text;
  EXPECT_NE(r.text.find("twinblocks"), std::string::npos) << r.text;
}

}  // namespace
