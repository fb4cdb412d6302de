#pragma once

// The optional file formats (PNG images, MATLAB .mat files) live in plugins: shared libraries
// opened the first time a format is used. Linked into the program, their libraries (librsvg
// with cairo and GLib, libmatio with HDF5) were 60 of the 109 it loaded, and two thirds of its
// start-up, at every start, also of runs that write neither format.

#include <string>

namespace twinblocks::graph::internal {

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

/// OpenPlugin for a table type with its own kAbiVersion.
template <class Table>
const Table& Plugin(const std::string& name) {
  return *static_cast<const Table*>(OpenPlugin(name, Table::kAbiVersion));
}

}  // namespace twinblocks::graph::internal
