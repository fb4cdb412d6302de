// The program starts without the libraries only some runs need. librsvg with cairo and GLib
// (PNG images), libmatio (.mat files), assimp (mesh files), Graphviz (diagram pictures) and
// OpenMPI (sweeps under mpirun) are opened from their plugins on first use
// (common/detail/plugin_loader.h); FCL is used through its headers alone. Linked in, they were
// 93 of 109 libraries: `twinblocks --version` took 31 ms with all of them, 14.5 ms with the
// last five, and takes 3.3 ms with none.
#include <gtest/gtest.h>

#include <string>

#include "tests/support/acceptance_helpers.h"

namespace {

using twinblocks::testing::CliResult;
using twinblocks::testing::RunShell;

// The shared libraries the dynamic loader maps at the program's start, as `ldd` lists them
// (glibc's loader lists them and exits when LD_TRACE_LOADED_OBJECTS is set).
std::string LibrariesAtStart() {
  return RunShell(std::string("LD_TRACE_LOADED_OBJECTS=1 ") + TWINBLOCKS_CLI).text;
}

TEST(CliStartupTest, LoadsNoOptionalLibraryAtStart) {
  const std::string libraries = LibrariesAtStart();
  ASSERT_NE(libraries.find("libc.so"), std::string::npos) << libraries;
  for (const char* optional :
       {"librsvg", "libcairo", "libglib", "libgobject", "libmatio", "libhdf5", "libassimp",
        "libfcl", "liboctomap", "libgvc", "libcgraph", "libmpi", "libopen-pal", "libhwloc"}) {
    EXPECT_EQ(libraries.find(optional), std::string::npos) << optional << " is loaded at start:\n"
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
