#pragma once

// Reading the files a model names (the model itself, its includes, URDF, FromFile data,
// meshes, results to plot): only regular files, only up to the file_bytes limit
// (common/input_limits.h). A device (/dev/zero), a FIFO or a directory given where a file is
// expected would otherwise be read until memory runs out, or block forever.

#include <stdexcept>
#include <string>
#include <string_view>

namespace twinblocks::blocks {

/// A file that cannot be read as input. The message names the file and why, in one line:
/// "cannot read 'x.xml': it is a directory".
class InputFileError : public std::runtime_error {
 public:
  InputFileError(const std::string& path, const std::string& reason)
      : std::runtime_error("cannot read '" + path + "': " + reason), reason_(reason) {}
  /// Why, without the file: "it is a directory".
  const std::string& reason() const { return reason_; }

 private:
  std::string reason_;
};

/// Checks that `path` names a regular file (links followed) within the file_bytes limit,
/// without reading it: for files a library opens itself (assimp, urdfdom).
/// @throws InputFileError
void CheckInputFile(const std::string& path);

/// The bytes of the regular file `path`, at most the file_bytes limit.
/// @throws InputFileError
std::string ReadInputFile(const std::string& path);

/// The text of `path`, read as ReadInputFile does and checked to be UTF-8 or ASCII text: a
/// UTF-16 or UTF-32 file is named as such, and binary data (a NUL byte) is refused, since
/// either would otherwise be parsed as garbage. A UTF-8 byte-order mark is dropped.
/// @throws InputFileError
std::string ReadTextFile(const std::string& path);

/// Why `bytes` are not UTF-8 text ("it is UTF-16 (little-endian) text; save it as UTF-8"),
/// or "" when they are (or when nothing says otherwise: invalid UTF-8 sequences are left to
/// the readers, which quote what they cannot parse).
std::string TextEncodingProblem(std::string_view bytes);

}  // namespace twinblocks::blocks
