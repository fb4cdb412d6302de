#pragma once

// The MAT plugin's table (io/plugins/mat_plugin.cc, libtwinblocks_mat.so): MATLAB v5 files
// through libmatio, for io/mat_writer.cc and io/results_reader.cc, which keep the
// format's rules (names, fields, checks); the plugin only moves numbers and text in and out.
// Built with the program, by the same compiler: C++ types cross the boundary; kAbiVersion
// guards against a stale plugin.

#include <optional>
#include <string>
#include <vector>

namespace twinblocks::graph::internal {

/// A real double matrix, column-major.
struct MatMatrix {
  size_t rows = 0;
  size_t cols = 0;
  std::vector<double> data;
};

/// One struct variable of a file as read back: its fields time, values and name, each when
/// it is of the kind asked for (a real double matrix; a char row), nullopt otherwise.
struct MatSignalStruct {
  std::string variable;
  std::optional<MatMatrix> time;
  std::optional<MatMatrix> values;
  std::optional<std::string> name;
};

struct MatPlugin {
  /// Raised whenever a function's signature or meaning changes.
  static constexpr int kAbiVersion = 1;

  /// A MAT v5 file created at `path` for writing, or null when it cannot be.
  void* (*create)(const std::string& path);
  /// Appends the struct `variable` with the fields time (rows x 1), values (rows x width,
  /// column-major), signal and name (char rows). False when it could not be written.
  bool (*write_signal)(void* file, const std::string& variable, const double* time, size_t rows,
                       const double* values, size_t width, const std::string& signal,
                       const std::string& name);
  /// Closes a file from `create`; false when the last of it could not be written.
  bool (*close)(void* file);

  /// Every struct variable of the file at `path` that has the fields time, values and name,
  /// in file order; nullopt when the file cannot be read as a .mat file.
  std::optional<std::vector<MatSignalStruct>> (*read)(const std::string& path);
};

}  // namespace twinblocks::graph::internal

/// The table for `abi_version`, or null for any other version.
extern "C" const void* twinblocks_mat_plugin(int abi_version);
