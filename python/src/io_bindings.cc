// The XML reader and writer (xml/model_reader.h, xml/model_writer.h).
#include <pybind11/pybind11.h>
#include <pybind11/stl/filesystem.h>

#include <filesystem>
#include <string>

#include "bindings.h"
#include "xml/model_reader.h"
#include "xml/model_writer.h"

namespace py = pybind11;
using namespace pybind11::literals;

namespace twinblocks::python {

void BindModelIo(py::module_& m) {
  m.def(
      "load", [](const std::filesystem::path& path) { return xml::ReadModelFile(path.string()); },
      "path"_a,
      R"(Reads a model file and, recursively, the files it includes (their defines go to
Model.library).

Args:
    path: the model file (str or os.PathLike).

Raises:
    ModelError: with file:line, for a missing file, malformed XML, unknown elements or
        attributes, invalid or duplicate names, a missing or recursive include.
)");
  m.def("load_string", &xml::ReadModelString, "text"_a, "file_name"_a = "<string>",
        R"(Reads a model from XML text.

Args:
    text: the XML.
    file_name: used in messages and to resolve includes (relative to its directory).

Raises:
    ModelError: as for load.
)");
  m.def(
      "save",
      [](const graph::Model& model, const std::filesystem::path& path) {
        xml::WriteModelFile(model, path.string());
      },
      "model"_a, "path"_a,
      R"(Writes the model as XML (format 1): one element a line, attributes in the order written.
Reading the file back gives an equal Model. Includes are written as they are: save next to
the files they name.

Raises:
    RuntimeError: the file cannot be written.
)");
  m.def("to_xml", &xml::WriteModelString, "model"_a, "The model as XML text, as save() writes it.");
}

}  // namespace twinblocks::python
