#pragma once

// Python values as the parameter texts a model holds: a model keeps every parameter as the
// text the user wrote, so numbers and lists given from Python are written the way a model
// file would hold them.

#include <pybind11/pybind11.h>

#include <optional>
#include <string>
#include <vector>

namespace twinblocks::python {

/// str as it is; int in decimal; float in the shortest text that reads back to the same double
/// (graph::FormatNumber: 0.045, 1000, 1e+06); a list, tuple or numpy array as "[a, b, c]",
/// nested for matrices ("[[1, 0], [0, 1]]").
/// @throws pybind11::type_error for anything else (bool, None, dict ...), naming `what`.
std::string ParamText(pybind11::handle value, const std::string& what);

/// A Python float or int (numpy scalars too; not bool, not text) as a double; nullopt for
/// anything else.
std::optional<double> AsNumber(pybind11::handle value);

/// A flat list, tuple or 1-D numpy array of numbers as doubles; nullopt for anything else
/// (text, nested lists: those are ParamText's).
std::optional<std::vector<double>> AsNumbers(pybind11::handle value);

}  // namespace twinblocks::python
