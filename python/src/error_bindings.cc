// graph::ModelError becomes twinblocks.ModelError, a ValueError whose message is the C++
// one-line message and whose attributes give its parts.
#include <pybind11/pybind11.h>

#include "bindings.h"
#include "common/output_file.h"
#include "model/model_error.h"

namespace py = pybind11;

namespace twinblocks::python {

namespace {

// twinblocks.WriteError: an OSError (what Python's own file writing raises for a full disk or
// a missing folder) that is also a RuntimeError (what these failures raised before it was
// made, so that code catching that still does).
PyObject* write_error_type = nullptr;

}  // namespace

void RaiseWriteError(const std::string& message) {
  PyErr_SetString(write_error_type, message.c_str());
  throw py::error_already_set();
}

void BindErrors(py::module_& m) {
  {
    py::tuple bases = py::make_tuple(py::handle(PyExc_OSError), py::handle(PyExc_RuntimeError));
    write_error_type = PyErr_NewExceptionWithDoc(
        "twinblocks.WriteError",
        "A file could not be written (a full disk, a read-only or missing folder): the message "
        "names the file and the operating system's reason. An OSError, and a RuntimeError.",
        bases.ptr(), nullptr);
    if (write_error_type == nullptr) throw py::error_already_set();
    m.add_object("WriteError", py::handle(write_error_type));
  }
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
    } catch (const graph::OutputFileError& e) {
      PyErr_SetString(write_error_type, e.what());
    }
  });
}

}  // namespace twinblocks::python
