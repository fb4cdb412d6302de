#include "param_text.h"

#include "graph/suggest.h"

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
    // numpy arrays and scalars
    return ParamText(value.attr("tolist")(), what);
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

}  // namespace twinblocks::python
