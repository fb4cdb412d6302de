#include "blocks/block_registry.h"

#include <algorithm>
#include <sstream>
#include <stdexcept>

namespace twinblocks::blocks {

const ParamSpec* BlockType::FindParam(std::string_view param) const {
  for (const ParamSpec& p : params) {
    if (p.name == param) return &p;
  }
  return nullptr;
}

void BlockRegistry::Add(BlockType type) {
  if (Find(type.name) != nullptr) {
    throw std::logic_error("block type '" + type.name + "' registered twice");
  }
  types_.push_back(std::move(type));
}

const BlockType* BlockRegistry::Find(std::string_view name) const {
  for (const BlockType& t : types_) {
    if (t.name == name) return &t;
  }
  return nullptr;
}

std::vector<std::string> BlockRegistry::Names() const {
  std::vector<std::string> names;
  names.reserve(types_.size());
  for (const BlockType& t : types_) names.push_back(t.name);
  std::sort(names.begin(), names.end());
  return names;
}

namespace {

const char* KindName(ParamKind kind) {
  switch (kind) {
    case ParamKind::kScalar:
      return "scalar";
    case ParamKind::kVector:
      return "vector";
    case ParamKind::kMatrix:
      return "matrix";
    case ParamKind::kWord:
      return "word";
    case ParamKind::kString:
      return "string";
  }
  return "";
}

}  // namespace

std::string FormatBlockDoc(const BlockType& type) {
  std::ostringstream os;
  os << type.name << " (" << type.category << ")\n";
  os << "  " << type.summary << "\n\n";
  if (!type.doc.empty()) os << type.doc << "\n\n";
  auto ports = [&os](const char* title, const std::vector<PortDoc>& list) {
    if (list.empty()) return;
    os << title << ":\n";
    for (const PortDoc& p : list) os << "  " << p.name << "  " << p.doc << "\n";
  };
  ports("Inputs", type.inputs);
  ports("Outputs", type.outputs);
  ports("Physical ports", type.physical_ports);
  if (!type.params.empty()) {
    os << "Parameters:\n";
    for (const ParamSpec& p : type.params) {
      os << "  " << p.name << " (" << KindName(p.kind);
      if (p.required) {
        os << ", required";
      } else if (!p.default_text.empty()) {
        os << ", default " << p.default_text;
      }
      os << ")";
      if (!p.words.empty()) {
        os << " one of:";
        for (const std::string& w : p.words) os << " " << w;
      }
      os << "\n      " << p.doc << "\n";
    }
  }
  if (!type.reference.empty()) os << "\nReference: " << type.reference << "\n";
  return os.str();
}

}  // namespace twinblocks::blocks
