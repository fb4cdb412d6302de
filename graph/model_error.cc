#include "graph/model_error.h"

namespace twinblocks::graph {

std::string SourceLocation::ToString() const {
  if (file.empty()) return {};
  if (line <= 0) return file;
  return file + ":" + std::to_string(line);
}

namespace {

std::string Compose(const SourceLocation& where, const std::string& path, const std::string& type,
                    const std::string& message) {
  std::string s = where.ToString();
  if (!s.empty()) s += ": ";
  if (!path.empty()) {
    s += "block '" + path + "'";
    if (!type.empty()) s += " (" + type + ")";
    s += ": ";
  }
  return s + message;
}

}  // namespace

ModelError::ModelError(const SourceLocation& where, const std::string& block_path,
                       const std::string& block_type, const std::string& message)
    : std::runtime_error(Compose(where, block_path, block_type, message)),
      where_(where),
      block_path_(block_path),
      block_type_(block_type),
      message_(message) {}

}  // namespace twinblocks::graph
