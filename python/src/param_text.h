#pragma once

// Python values as the parameter texts a model holds: a model keeps every parameter as the
// text the user wrote, so numbers and lists given from Python are written the way a model
// file would hold them.

#include <pybind11/pybind11.h>

#include <string>

namespace twinblocks::python {

/// str as it is; int in decimal; float in the shortest text that reads back to the same double
/// (graph::FormatNumber: 0.045, 1000, 1e+06); a list, tuple or numpy array as "[a, b, c]",
/// nested for matrices ("[[1, 0], [0, 1]]").
/// @throws pybind11::type_error for anything else (bool, None, dict ...), naming `what`.
std::string ParamText(pybind11::handle value, const std::string& what);

}  // namespace twinblocks::python
