// The plugin loader (common/detail/plugin_loader.h): where it looks, and its one-line errors
// for a plugin that is missing, of another version, or not a library. The plugins' own work is
// tested through their formats (multibody/mesh_test.cc, graph/svg_raster_test.cc,
// graph/mat_writer_test.cc, graph/results_reader_test.cc).
#include "common/detail/plugin_loader.h"

#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <stdexcept>
#include <string>

#include "physics/multibody/detail/mesh_plugin.h"

namespace twinblocks::blocks::internal {
namespace {

namespace fs = std::filesystem;

std::string OpenError(const std::string& name, int abi_version) {
  try {
    OpenPlugin(name, abi_version);
  } catch (const std::runtime_error& ex) {
    return ex.what();
  }
  return "";
}

// Sets TWINBLOCKS_PLUGIN_DIR for one test.
class ScopedPluginDir {
 public:
  explicit ScopedPluginDir(const fs::path& dir) { setenv("TWINBLOCKS_PLUGIN_DIR", dir.c_str(), 1); }
  ~ScopedPluginDir() { unsetenv("TWINBLOCKS_PLUGIN_DIR"); }
};

TEST(PluginLoaderTest, AMissingPluginNamesWhereItLookedFirstTheEnvironmentsDirectory) {
  const fs::path dir = fs::temp_directory_path() / "twinblocks_plugin_loader_missing";
  fs::create_directories(dir);
  const ScopedPluginDir env(dir);
  const std::string message = OpenError("nonexistent", 1);
  EXPECT_EQ(
      message.rfind("the plugin libtwinblocks_nonexistent.so is not in " + dir.string() + ", ", 0),
      0u)
      << message;
  EXPECT_NE(message.find(TWINBLOCKS_BINARY_DIR "/lib/twinblocks"), std::string::npos) << message;
  EXPECT_NE(message.find("TWINBLOCKS_PLUGIN_DIR"), std::string::npos) << message;
  EXPECT_EQ(message.find('\n'), std::string::npos) << message;
}

TEST(PluginLoaderTest, AFileThatIsNoLibraryIsOneLineNamingIt) {
  const fs::path dir = fs::temp_directory_path() / "twinblocks_plugin_loader_bad";
  fs::create_directories(dir);
  std::ofstream(dir / "libtwinblocks_broken.so") << "not a shared library\n";
  const ScopedPluginDir env(dir);
  const std::string message = OpenError("broken", 1);
  EXPECT_EQ(message.rfind(
                "cannot open the plugin " + (dir / "libtwinblocks_broken.so").string() + ": ", 0),
            0u)
      << message;
  EXPECT_EQ(message.find('\n'), std::string::npos) << message;
}

TEST(PluginLoaderTest, APluginOfAnotherVersionIsRefused) {
  using multibody::internal::MeshPlugin;
  EXPECT_NE(&Plugin<MeshPlugin>("mesh"), nullptr);
  EXPECT_EQ(OpenError("mesh", MeshPlugin::kAbiVersion + 1),
            "the plugin libtwinblocks_mesh.so is of another twinblocks version than this program");
  // The version it is of still opens.
  EXPECT_NE(Plugin<MeshPlugin>("mesh").read_triangles, nullptr);
}

}  // namespace
}  // namespace twinblocks::blocks::internal
