#pragma once

#include <string>

#include "model/model.h"

namespace twinblocks::xml {

/// Writes a model as XML (format 1), readable and diffable: one element a line, children
/// indented, attributes in the order they were written. Reading the text back gives an equal
/// Model.
std::string WriteModelString(const graph::Model& model);

/// Writes the model to `path`. @throws std::runtime_error when the file cannot be written.
void WriteModelFile(const graph::Model& model, const std::string& path);

}  // namespace twinblocks::xml
