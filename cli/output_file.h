#pragma once

// Files the commands write besides results: plots and diagram pictures.

#include <string>

namespace twinblocks::cli {

/// The extension of `path` in lower case, with its dot (".svg"), or "".
std::string LowerExtension(const std::string& path);

/// True when `path`, with every link in it followed (the file need not exist yet), lies
/// inside `folder`.
bool IsInsideFolder(const std::string& folder, const std::string& path);

/// Writes `bytes` to `path` ("-" for stdout), making its folder when missing.
/// @throws UsageError (one line naming the path) when it cannot be written.
void WriteOutputFile(const std::string& path, const std::string& bytes);

}  // namespace twinblocks::cli
