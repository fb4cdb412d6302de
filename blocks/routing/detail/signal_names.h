#pragma once

#include <cctype>
#include <string>
#include <vector>

#include "blocks/block_error.h"

namespace twinblocks::blocks::internal {

/// The names in a list such as BusCreator's `names` ("pos, vel" or "pos vel"): each a letter
/// or '_' followed by letters, digits and '_'; with `dotted`, such names joined by dots
/// ("arm.q", a nested bus's element). @throws BlockError naming `param` for an empty list, a
/// name that is not one, or a name given twice.
inline std::vector<std::string> ParseSignalNames(const std::string& text, const char* param,
                                                 bool dotted) {
  std::vector<std::string> names;
  std::string name;
  auto finish = [&] {
    if (name.empty()) return;
    bool ok = true;
    bool start = true;  // at the start of a name or of a dotted part
    for (char ch : name) {
      const unsigned char u = static_cast<unsigned char>(ch);
      if (ch == '.' && dotted && !start) {
        start = true;
      } else if (std::isalpha(u) || ch == '_' || (!start && std::isdigit(u))) {
        start = false;
      } else {
        ok = false;
      }
    }
    if (!ok || start) {
      throw BlockError("parameter '" + std::string(param) + "': '" + name +
                           "' is not a signal name (a letter or '_', then letters, digits and "
                           "'_'" +
                           (dotted ? "; dots join the names of nested buses)" : ")"),
                       param);
    }
    for (const std::string& other : names) {
      if (other == name) {
        throw BlockError("parameter '" + std::string(param) + "' names '" + name + "' twice",
                         param);
      }
    }
    names.push_back(name);
    name.clear();
  };
  for (char ch : text) {
    if (ch == ',' || std::isspace(static_cast<unsigned char>(ch))) {
      finish();
    } else {
      name += ch;
    }
  }
  finish();
  if (names.empty()) {
    throw BlockError("parameter '" + std::string(param) + "' names no signal", param);
  }
  return names;
}

}  // namespace twinblocks::blocks::internal
