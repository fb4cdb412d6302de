// graph::ModelError becomes twinblocks.ModelError, a ValueError whose message is the C++
// one-line message and whose attributes give its parts.
#include <pybind11/pybind11.h>

#include "bindings.h"
#include "graph/model_error.h"

namespace py = pybind11;

namespace twinblocks::python {

void BindErrors(py::module_& m) {
  static py::exception<graph::ModelError> model_error(m, "ModelError", PyExc_ValueError);
  model_error.attr("__module__") = "twinblocks";
  model_error.doc() =
      "A problem with a model: one line, 'FILE:LINE: block 'PATH' (TYPE): what is wrong'.\n\n"
      "A ValueError. Attributes: file and line (where it was written; '' and 0 for a model\n"
      "made in code), block_path and block_type ('' when no block is concerned), detail (the\n"
      "message without location and block).";
  py::register_exception_translator([](std::exception_ptr p) {
    if (!p) return;
    try {
      std::rethrow_exception(p);
    } catch (const graph::ModelError& e) {
      // The instance is made here (not by PyErr_SetString) to give it its attributes.
      py::object error = py::handle(model_error.ptr())(e.what());
      error.attr("file") = e.where().file;
      error.attr("line") = e.where().line;
      error.attr("block_path") = e.block_path();
      error.attr("block_type") = e.block_type();
      error.attr("detail") = e.message();
      PyErr_SetObject(model_error.ptr(), error.ptr());
    }
  });
}

}  // namespace twinblocks::python
