#pragma once

// Libraries that only some runs need live in plugins: shared libraries opened the first time
// they are used. Linked into the program, they are loaded, relocated and initialized at every
// start, also by runs that never use them: librsvg with cairo and GLib and libmatio with HDF5
// (PNG images, .mat files) were 60 of the 109 libraries it loaded and two thirds of its
// start-up; assimp (mesh files), Graphviz (diagram pictures) and OpenMPI (sweeps over ranks)
// were 4.2 ms of the 7 ms that were left. The loader sits in the lowest layer that has a
// plugin (blocks: mesh files), so that every layer above can open its own.

#include <string>
#include <vector>

namespace twinblocks::blocks::internal {

/// The entry table of plugin `name`: the shared library libtwinblocks_<name>.so, whose
/// function `twinblocks_<name>_plugin(abi_version)` returns it. Opened on first use, then kept
/// open for the life of the program; thread-safe.
///
/// Looked for, in this order, in: the directory the environment variable
/// TWINBLOCKS_PLUGIN_DIR names; ../lib/twinblocks from the program (or the Python module) that
/// holds this code; the build tree's lib/twinblocks; the installed libdir/twinblocks.
///
/// @throws std::runtime_error (one line) when no directory has it, naming them; when the one
///   found cannot be opened (with the loader's reason); or when it is of another version.
const void* OpenPlugin(const std::string& name, int abi_version);

/// The directories OpenPlugin looks in, in its order (those that do not exist too). Block
/// libraries a model names are looked for there last (blocks/user/block_library.h).
std::vector<std::string> PluginDirectories();

/// OpenPlugin for a table type with its own kAbiVersion.
template <class Table>
const Table& Plugin(const std::string& name) {
  return *static_cast<const Table*>(OpenPlugin(name, Table::kAbiVersion));
}

}  // namespace twinblocks::blocks::internal
