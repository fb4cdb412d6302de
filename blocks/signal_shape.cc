#include "blocks/signal_shape.h"

#include <utility>

#include "blocks/block_error.h"
#include "common/suggest.h"

namespace twinblocks::blocks {

SignalShape SignalShape::Matrix(int rows, int cols) {
  SignalShape s;
  if (cols > 1) {
    s.rows = rows;
    s.cols = cols;
  }
  return s;
}

SignalShape SignalShape::Bus(std::shared_ptr<const BusLayout> bus) {
  SignalShape s;
  s.bus = std::move(bus);
  return s;
}

bool SignalShape::Fits(int width) const {
  if (is_matrix()) return rows * cols == width;
  if (is_bus()) return bus->width == width;
  return true;
}

std::string SignalShape::Describe() const {
  if (is_matrix()) return std::to_string(rows) + "x" + std::to_string(cols) + " matrix";
  if (!is_bus()) return "vector";
  std::string names;
  for (const BusElement& e : bus->elements) names += (names.empty() ? "" : ", ") + e.name;
  return "bus (" + names + ")";
}

bool operator==(const SignalShape& a, const SignalShape& b) {
  if (a.rows != b.rows || a.cols != b.cols || a.is_bus() != b.is_bus()) return false;
  if (!a.is_bus() || a.bus == b.bus) return true;
  const auto& ea = a.bus->elements;
  const auto& eb = b.bus->elements;
  if (ea.size() != eb.size()) return false;
  for (size_t i = 0; i < ea.size(); ++i) {
    if (ea[i].name != eb[i].name || ea[i].width != eb[i].width || !(ea[i].shape == eb[i].shape)) {
      return false;
    }
  }
  return true;
}

const BusElement* BusLayout::Find(std::string_view name) const {
  for (const BusElement& e : elements) {
    if (e.name == name) return &e;
  }
  return nullptr;
}

std::vector<std::string> BusLayout::Paths() const {
  std::vector<std::string> paths;
  for (const BusElement& e : elements) {
    paths.push_back(e.name);
    if (!e.shape.is_bus()) continue;
    for (const std::string& inner : e.shape.bus->Paths()) paths.push_back(e.name + "." + inner);
  }
  return paths;
}

BusSelection SelectFromBus(const BusLayout& bus, const std::string& dotted_name,
                           const char* param) {
  BusSelection sel;
  const BusLayout* level = &bus;
  size_t start = 0;
  while (true) {
    const size_t dot = dotted_name.find('.', start);
    const std::string part = dotted_name.substr(start, dot - start);
    const std::string so_far = dotted_name.substr(0, dot);
    const BusElement* e = level == nullptr ? nullptr : level->Find(part);
    if (e == nullptr) {
      std::string names;
      for (const std::string& p : bus.Paths()) names += (names.empty() ? "" : ", ") + p;
      if (level == nullptr) {
        throw BlockError("parameter '" + std::string(param) + "' asks for '" + dotted_name +
                             "', but '" + dotted_name.substr(0, start - 1) +
                             "' is no bus; the bus has: " + names,
                         param);
      }
      throw BlockError("parameter '" + std::string(param) + "' asks for '" + so_far +
                           "', which the bus does not have" +
                           graph::SuggestionFor(so_far, bus.Paths()) + "; the bus has: " + names,
                       param);
    }
    sel.offset += e->offset;
    sel.width = e->width;
    sel.shape = e->shape;
    if (dot == std::string::npos) return sel;
    level = e->shape.bus.get();
    start = dot + 1;
  }
}

}  // namespace twinblocks::blocks
