#include "param_text.h"

#include "common/suggest.h"

namespace py = pybind11;

namespace twinblocks::python {

std::string ParamText(py::handle value, const std::string& what) {
  // bool first: it is an int to Python, but "True" means nothing to a model.
  if (py::isinstance<py::bool_>(value) || value.is_none()) {
    throw py::type_error(what + ": expected text, a number or a list of numbers, got " +
                         std::string(py::repr(value)));
  }
  if (py::isinstance<py::str>(value)) return value.cast<std::string>();
  if (py::isinstance<py::int_>(value)) return std::string(py::str(value));
  if (py::isinstance<py::float_>(value)) return graph::FormatNumber(value.cast<double>());
  if (py::hasattr(value, "tolist") && !py::isinstance<py::list>(value)) {
    // numpy arrays and scalars. A numpy longdouble's tolist() is itself (no Python type holds
    // it): refused, rather than converted again and again until the stack runs out.
    py::object listed = value.attr("tolist")();
    if (listed.get_type().is(value.get_type())) {
      throw py::type_error(what + ": cannot read a value of type " +
                           std::string(py::str(value.get_type().attr("__name__"))) +
                           " exactly; convert it with float() first");
    }
    return ParamText(listed, what);
  }
  if (py::isinstance<py::list>(value) || py::isinstance<py::tuple>(value)) {
    std::string text = "[";
    bool first = true;
    for (py::handle item : value) {
      if (!first) text += ", ";
      first = false;
      text += ParamText(item, what);
    }
    return text + "]";
  }
  throw py::type_error(what + ": expected text, a number or a list of numbers, got " +
                       std::string(py::repr(value)));
}

// A Python float or int (numpy scalars too, not bool) as a double; nullopt for anything else.
std::optional<double> AsNumber(py::handle value) {
  if (py::isinstance<py::bool_>(value) || py::isinstance<py::str>(value)) return std::nullopt;
  if (py::isinstance<py::float_>(value) || py::isinstance<py::int_>(value)) {
    return value.cast<double>();
  }
  if (py::hasattr(value, "dtype") && py::hasattr(value, "ndim") &&
      value.attr("ndim").cast<int>() == 0 && !py::isinstance<py::bool_>(value.attr("item")())) {
    py::object item = value.attr("item")();
    if (item.get_type().is(value.get_type())) return std::nullopt;  // a longdouble: no double
    return AsNumber(item);
  }
  return std::nullopt;
}

// A flat list, tuple or 1-D array of numbers as doubles; nullopt for anything else (text,
// nested lists: those go through ParamText).
std::optional<std::vector<double>> AsNumbers(py::handle value) {
  py::object items = py::reinterpret_borrow<py::object>(value);
  if (py::hasattr(value, "tolist") && !py::isinstance<py::list>(value)) {
    items = value.attr("tolist")();
  }
  if (!py::isinstance<py::list>(items) && !py::isinstance<py::tuple>(items)) return std::nullopt;
  std::vector<double> out;
  for (py::handle item : items) {
    std::optional<double> x = AsNumber(item);
    if (!x) return std::nullopt;
    out.push_back(*x);
  }
  return out;
}

}  // namespace twinblocks::python
