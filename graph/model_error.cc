#include "graph/model_error.h"

namespace twinblocks::graph {

std::string SourceLocation::ToString() const {
  if (file.empty()) return {};
  if (line <= 0) return file;
  return file + ":" + std::to_string(line);
}

std::string OneLine(std::string_view s) {
  std::string out;
  for (char c : s) {
    if (c == '\n') {
      out += "\\n";
    } else if (c == '\r') {
      out += "\\r";
    } else if (c == '\t') {
      out += "\\t";
    } else if (static_cast<unsigned char>(c) < 0x20) {
      out += "?";
    } else {
      out += c;
    }
  }
  return out;
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
  // The one-line rule holds whatever the parts quote.
  return OneLine(s + message);
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
