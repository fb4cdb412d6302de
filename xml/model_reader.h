#pragma once

#include <string>

#include "model/model.h"

namespace twinblocks::xml {

/// Reads a model file (docs/model-format.md) and, recursively, the files it includes (their
/// defines go to Model::library).
/// @throws graph::ModelError with file:line for malformed XML, unknown elements or attributes,
///   invalid or duplicate names, a missing or recursive include.
graph::Model ReadModelFile(const std::string& path);

/// Reads a model from text. `file_name` is used in messages and to resolve includes.
graph::Model ReadModelString(const std::string& text, const std::string& file_name = "<string>");

}  // namespace twinblocks::xml
