#pragma once

// How large an input may be before twinblocks refuses it. A model, a URDF or a data file can
// state sizes far beyond what it costs to write them (`<block type="Delay" n="1e9"/>` is 30
// bytes and asks for gigabytes): every such size is checked against these limits before any
// memory is taken for it, and refused in one line. The defaults are far above what real
// models need (docs/model-format.md, "Limits"); a user who needs more raises one with
// `--limit NAME=VALUE` on the command line or `twinblocks.set_limits(NAME=VALUE)` in Python.

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace twinblocks::blocks {

/// The limits in force. They are process-wide, like the operating system's resource limits:
/// set them once before reading models (sweep threads only read them).
struct InputLimits {
  /// Bytes of any file read: model files, includes, URDF, FromFile data, meshes, results.
  std::int64_t file_bytes = std::int64_t{256} << 20;
  /// Depth of element nesting in an XML file (model or URDF): parsers that recurse must not
  /// exhaust the stack.
  std::int64_t xml_depth = 1000;
  /// Subsystems and define instances inside one another.
  std::int64_t nesting = 100;
  /// Blocks in a model once its defines have expanded.
  std::int64_t blocks = 100'000;
  /// Elements of one signal (a port's width, an inport's `width`).
  std::int64_t signal_width = 1'000'000;
  /// Ports of one block (a Mux's inputs, a Demux's outputs, a Sum's signs).
  std::int64_t ports = 100'000;
  /// Values one block keeps (its states and work memory: a Delay's n times its width).
  std::int64_t block_values = 10'000'000;
  /// Values of a whole model: every block's outputs, states and work memory (8 bytes each, in
  /// every copy a run keeps).
  std::int64_t model_values = 50'000'000;
  /// Values of one numeric parameter (a vector or a matrix written out or computed).
  std::int64_t parameter_values = 10'000'000;
  /// Runs of one sweep.
  std::int64_t sweep_runs = 1'000'000;
};

/// One limit's name, its documentation and where it lives, for `--limit` and the docs.
struct InputLimitInfo {
  const char* name;
  std::int64_t InputLimits::*field;
  const char* unit;  ///< what is counted: "bytes", "levels", "blocks", ...
  const char* doc;
};
const std::vector<InputLimitInfo>& InputLimitTable();

/// The limits in force (the defaults until SetInputLimits).
const InputLimits& CurrentInputLimits();
void SetInputLimits(const InputLimits& limits);

/// Sets one limit from `NAME=VALUE` (`blocks=1e6`, `file_bytes=2e9`): a whole number >= 1.
/// @throws std::invalid_argument naming the valid names or what is wrong with the value.
void SetInputLimit(std::string_view assignment);

/// The tail of a message about a size over `name`'s limit: "over the limit of 100000 blocks
/// (--limit blocks=N raises it)".
std::string OverLimit(std::string_view name);

}  // namespace twinblocks::blocks
