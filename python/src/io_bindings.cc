// The XML reader and writer (xml/model_reader.h, xml/model_writer.h).
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>
#include <pybind11/stl/filesystem.h>

#include <filesystem>
#include <string>
#include <vector>

#include "bindings.h"
#include "common/input_limits.h"
#include "xml/model_reader.h"
#include "xml/model_writer.h"
#include "xml/urdf_reader.h"

namespace py = pybind11;
using namespace pybind11::literals;

namespace twinblocks::python {

void BindModelIo(py::module_& m) {
  m.def(
      "limits",
      [] {
        py::dict out;
        for (const blocks::InputLimitInfo& info : blocks::InputLimitTable()) {
          out[info.name] = blocks::CurrentInputLimits().*info.field;
        }
        return out;
      },
      R"(The limits on the size of inputs in force, by name (docs/model-format.md, "Limits").

A model, a URDF or a data file can state sizes far beyond what it costs to write them; each
is checked against these limits before memory is taken for it.
)");
  m.def(
      "set_limits",
      [](const py::kwargs& limits) {
        // All or nothing: a bad value leaves every limit as it was.
        const blocks::InputLimits before = blocks::CurrentInputLimits();
        try {
          for (const auto& [name, value] : limits) {
            blocks::SetInputLimit(py::str(name).cast<std::string>() + "=" +
                                  py::str(value).cast<std::string>());
          }
        } catch (const std::invalid_argument&) {
          blocks::SetInputLimits(before);
          throw;
        }
      },
      R"(Raises (or lowers) limits on the size of inputs, for this process: set_limits(blocks=1e6).

Names: file_bytes, xml_depth, nesting, blocks, signal_width, ports, block_values, model_values,
parameter_values, sweep_runs (twinblocks.limits() lists them with their values).

Raises:
    ValueError: for an unknown name or a value that is not a whole number >= 1.
)");
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
  m.def(
      "import_urdf",
      [](const std::filesystem::path& path, const std::string& actuation,
         const std::vector<std::filesystem::path>& mesh_paths, double t_end) {
        xml::UrdfImportOptions options;
        options.actuation = xml::ParseUrdfActuation(actuation);  // ValueError when unknown
        for (const auto& dir : mesh_paths) options.mesh_paths.push_back(dir.string());
        options.t_end = t_end;
        xml::UrdfImport import = xml::ReadUrdfFile(path.string(), options);
        // What was left out (a mesh not found) is worth a warning, not an error: the dynamics
        // never need it.
        const py::object warn = py::module_::import("warnings").attr("warn");
        for (const std::string& w : import.warnings)
          warn(w, py::module_::import("builtins").attr("UserWarning"), 2);
        return std::move(import.model);
      },
      "path"_a, "actuation"_a = "none", "mesh_paths"_a = std::vector<std::filesystem::path>{},
      "t_end"_a = 1.0,
      R"(Reads a URDF robot as a model, as `twinblocks import` does (docs/urdf.md): links become
Solids with their inertials (and visual shapes), joints RevoluteJoint, PrismaticJoint,
RigidTransform (fixed) or FreeJoint (floating), mimic tags JointCouplers.

Args:
    path: the .urdf file (str or os.PathLike).
    actuation: "none" (passive: it falls under gravity), "torque" (top-level inport `tau`,
        one entry per driven joint) or "motion" (inport `q`).
    mesh_paths: directories in which package:// meshes are looked up, in order.
    t_end: the model's simulated time, s.

Returns:
    The Model; each part left out (a visual mesh not found) is a UserWarning naming it.

Raises:
    ModelError: with file:line, for a file that is not URDF, a missing parent link, a cycle,
        a negative mass, a mesh that exists but cannot be read, a planar joint.
    ValueError: an unknown actuation.
)");
}

}  // namespace twinblocks::python
