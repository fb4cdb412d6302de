// graph::Model, what the user edits, and snapshots of its parts (Block, Diagram, Define, Port).
// The snapshots are copies: a model is changed only through its editing methods, which
// validate what they are given.
#include <pybind11/numpy.h>
#include <pybind11/operators.h>
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "bindings.h"
#include "common/suggest.h"
#include "io/summary.h"
#include "model/model.h"
#include "model/model_error.h"
#include "param_text.h"
#include "xml/model_reader.h"

namespace py = pybind11;
using namespace pybind11::literals;

namespace twinblocks::python {

namespace {

using graph::BlockNode;
using graph::Define;
using graph::Diagram;
using graph::Model;
using graph::PortDecl;

std::string JoinPath(const std::string& diagram, const std::string& name) {
  return diagram.empty() ? name : diagram + "/" + name;
}

py::dict ParamDict(const std::vector<graph::Parameter>& params) {
  py::dict d;
  for (const graph::Parameter& p : params) d[py::str(p.name)] = p.value;
  return d;
}

std::vector<graph::Parameter> ParamList(const std::string& path, const py::kwargs& params) {
  std::vector<graph::Parameter> list;
  for (auto [key, value] : params) {
    const std::string param = key.cast<std::string>();
    if (param == "library") continue;  // the block's library (LibraryOf), no parameter
    list.push_back({param, ParamText(value, "block '" + path + "' parameter '" + param + "'")});
  }
  return list;
}

// The keyword `library` of add_block and replace_block: the block library of the type.
std::string LibraryOf(const std::string& path, const py::kwargs& params) {
  if (!params.contains("library")) return {};
  py::object library = params["library"];
  if (!py::isinstance<py::str>(library)) {
    throw py::type_error("block '" + path + "': library must be text (a block library's file)");
  }
  return library.cast<std::string>();
}

std::string KindName(PortDecl::Kind kind) {
  switch (kind) {
    case PortDecl::Kind::kInport:
      return "inport";
    case PortDecl::Kind::kOutport:
      return "outport";
    case PortDecl::Kind::kPhysical:
      return "port";
    case PortDecl::Kind::kEnable:
      return "enable";
    case PortDecl::Kind::kTrigger:
      return "trigger";
  }
  return "";
}

std::string BlockRepr(const BlockNode& b) {
  if (b.is_subsystem()) {
    return "<Subsystem '" + b.name + "': " + std::to_string(b.body->blocks.size()) + " blocks>";
  }
  std::string s =
      "<Block '" + b.name + "' (" + b.type + (b.library.empty() ? "" : " from " + b.library) + ")";
  for (const graph::Parameter& p : b.params) s += " " + p.name + "=\"" + p.value + "\"";
  return s + (b.commented ? " commented>" : ">");
}

void BindSnapshots(py::module_& m) {
  py::class_<PortDecl>(m, "Port",
                       "A boundary port of a subsystem or define (a snapshot): kind is 'inport', "
                       "'outport' or 'port' (physical, with a domain such as 'frame').")
      .def_property_readonly(
          "kind", [](const PortDecl& p) { return KindName(p.kind); },
          "'inport', 'outport' or 'port'.")
      .def_readonly("name", &PortDecl::name, "The port's name.")
      .def_readonly("domain", &PortDecl::domain,
                    "Physical ports: 'frame', 'rotational', 'electrical'; '' otherwise.")
      .def_readonly("width", &PortDecl::width,
                    "Top-level inports (external inputs): the width as written; '' for 1.")
      .def(py::self == py::self)
      .def("__repr__", [](const PortDecl& p) {
        return "<Port " + KindName(p.kind) + " '" + p.name + "'" +
               (p.domain.empty() ? "" : " domain='" + p.domain + "'") + ">";
      });

  py::class_<BlockNode>(m, "Block",
                        "A block or subsystem of a diagram (a snapshot: edit through the Model).")
      .def_readonly("name", &BlockNode::name, "The block's name within its diagram.")
      .def_readonly("type", &BlockNode::type,
                    "A catalog type, a define's or a registered type's name; '' for a subsystem.")
      .def_readonly("library", &BlockNode::library,
                    "The block library that defines the type, as written (docs/user-blocks.md); "
                    "'' for any other type.")
      .def_property_readonly(
          "params", [](const BlockNode& b) { return ParamDict(b.params); },
          "The parameters as written: a dict name -> text, in the order written.")
      .def_readonly("commented", &BlockNode::commented, "True when the block is commented out.")
      .def_property_readonly("is_subsystem", &BlockNode::is_subsystem,
                             "True for a subsystem (it has a body and no type).")
      .def_property_readonly(
          "body",
          [](const BlockNode& b) -> py::object {
            if (!b.is_subsystem()) return py::none();
            return py::cast(*b.body);
          },
          "A subsystem's Diagram; None for a block.")
      .def(py::self == py::self)
      .def("__repr__", &BlockRepr);

  py::class_<Diagram>(m, "Diagram",
                      "The contents of a model, subsystem or define: boundary ports, blocks and "
                      "lines (a snapshot: edit through the Model).")
      .def(py::init<>(), "An empty diagram (for Model.add_define).")
      .def_readonly("ports", &Diagram::ports, "Boundary ports (list of Port), in order.")
      .def_readonly("blocks", &Diagram::blocks, "Blocks and subsystems (list of Block), in order.")
      .def_property_readonly(
          "connections",
          [](const Diagram& d) {
            py::list lines;
            for (const graph::Connection& c : d.connections)
              lines.append(py::make_tuple(c.from, c.to));
            return lines;
          },
          "Lines as (from, to) tuples of 'block.port' or '.port', in order.")
      .def(
          "find",
          [](const Diagram& d, const std::string& name) -> py::object {
            const BlockNode* b = d.Find(name);
            return b == nullptr ? py::none() : py::cast(*b);
          },
          "name"_a, "The block of that name in this diagram (not nested), or None.")
      .def(py::self == py::self)
      .def("__repr__", [](const Diagram& d) {
        return "<Diagram: " + std::to_string(d.ports.size()) + " ports, " +
               std::to_string(d.blocks.size()) + " blocks, " +
               std::to_string(d.connections.size()) + " lines>";
      });

  py::class_<Define>(m, "Define",
                     "A reusable subsystem type with parameters (a masked library block), as a "
                     "snapshot.")
      .def_readonly("name", &Define::name, "The type name blocks use.")
      .def_readonly("params", &Define::params, "Parameter names, in order.")
      .def_readonly("body", &Define::body, "The Diagram each instance gets.")
      .def(py::self == py::self)
      .def("__repr__", [](const Define& d) {
        return "<Define '" + d.name + "': " + std::to_string(d.params.size()) + " params, " +
               std::to_string(d.body.blocks.size()) + " blocks>";
      });
}

// The Model's own editing calls (model/model.h).
void BindEditing(py::class_<Model>& c) {
  c.def(
       "add_block",
       [](Model& m, const std::string& diagram, const std::string& type, const std::string& name,
          const py::kwargs& params) {
         const std::string path = JoinPath(diagram, name);
         m.AddBlock(diagram, type, name, ParamList(path, params), LibraryOf(path, params));
         return path;
       },
       "diagram"_a, "type"_a, "name"_a, py::pos_only(),
       R"(add_block(diagram, type, name, /, **params) -> str

Adds a block to a diagram and returns its path.

Args:
    diagram: path of the diagram: '' for the top level, 'a/b' for subsystem b in a.
    type: a catalog type ('Gain', 'RevoluteJoint'; `twinblocks blocks` lists them), the
        name of a define the model has or includes, a type registered from Python
        (register_block), or with library= a type of that block library.
    name: the block's name (letters, digits, '_'; not starting with a digit).
    **params: the parameters, in order. Values are text (kept as written, evaluated at
        compile: 'k*2', 'on'), numbers (written in their shortest exact form) or lists of
        numbers ('[0.045, 0.025, 0]'); nested lists for matrices. The keyword library=
        names the block library (a shared library of C++ block types, found from the model
        file's folder, then TWINBLOCKS_BLOCK_PATH; docs/user-blocks.md): no parameter.

Raises:
    ModelError: the diagram does not exist, the name is not an identifier or is taken, the
        type is empty or unknown, the library cannot be loaded or lacks the type, or a
        parameter name is reserved (type, name, commented, library).
    TypeError: a parameter value is not text, a number or a list.
)")
      .def(
          "add_subsystem",
          [](Model& m, const std::string& diagram, const std::string& name) {
            m.AddSubsystem(diagram, name);
            return JoinPath(diagram, name);
          },
          "diagram"_a, "name"_a,
          R"(Adds an empty subsystem and returns its path (the diagram path of its contents).

Declare its boundary ports with add_inport, add_outport and add_port.

Raises:
    ModelError: the diagram does not exist, or the name is not an identifier or is taken.
)")
      .def(
          "remove_block", [](Model& m, const std::string& path) { m.RemoveBlock(path); }, "path"_a,
          R"(Removes the block or subsystem at `path` ('a/b/block') and every line to or from it.

Raises:
    ModelError: there is no block at that path.
)")
      .def(
          "rename_block",
          [](Model& m, const std::string& path, const std::string& new_name) {
            m.RenameBlock(path, new_name);
          },
          "path"_a, "new_name"_a,
          R"(Renames the block at `path` and rewrites the lines and logs that name it.

Raises:
    ModelError: there is no block at that path, or the new name is not an identifier or is
        taken in that diagram.
)")
      .def(
          "set_param",
          [](Model& m, const std::string& path, const std::string& param, py::handle value) {
            const std::string what = "block '" + path + "' parameter '" + param + "'";
            if (std::optional<double> number = AsNumber(value)) {
              m.SetParam(path, param, *number);
            } else if (std::optional<std::vector<double>> numbers = AsNumbers(value)) {
              m.SetParam(path, param, *numbers);
            } else {
              m.SetParam(path, param, ParamText(value, what));
            }
          },
          "path"_a, "param"_a, "value"_a,
          R"(Sets a block parameter (added after the others when not written yet), checked against
the block's type as add_block checks it.

Args:
    path: the block's path.
    param: the parameter's name.
    value: text (kept as written: 'k*2'), a number (written in the shortest text that reads
        back to the same double: get_param_value returns it bitwise), a list or 1-D array of
        numbers ('[a, b, c]', each exact), or a nested list or 2-D array (a matrix).

Raises:
    ModelError: there is no block at that path, it is a subsystem (which has no parameters),
        the type has no such parameter (the message lists those it has), or a word parameter
        gets a word it does not take. When the block was read from a file, the message starts
        with its file:line.
    TypeError: the value is not text, a number or a list.
)")
      .def(
          "get_param",
          [](const Model& m, const std::string& path, const std::string& param) {
            return m.GetParam(path, param);
          },
          "path"_a, "param"_a,
          R"(The text of a block parameter, or None when it is not written (the block's default).

Raises:
    ModelError: there is no block at that path.
)")
      .def(
          "set_commented",
          [](Model& m, const std::string& path, bool commented) {
            m.SetCommented(path, commented);
          },
          "path"_a, "commented"_a = true,
          R"(Comments a block out (True: it is left out of the compiled system) or back in.

Raises:
    ModelError: there is no block at that path.
)")
      .def(
          "connect",
          [](Model& m, const std::string& diagram, const std::string& from_port,
             const std::string& to_port) { m.Connect(diagram, from_port, to_port); },
          "diagram"_a, "from_port"_a, "to_port"_a,
          R"(Adds a line in a diagram, from an output (or a physical port) to an input.

Args:
    diagram: the diagram's path ('' for the top level).
    from_port, to_port: 'block.port', or '.port' for a boundary port of the subsystem.

Raises:
    ModelError: the diagram does not exist, an endpoint is not 'block.port' or '.port', a
        '.port' is used at the top level, or the same line exists already.
)")
      .def(
          "disconnect",
          [](Model& m, const std::string& diagram, const std::string& from_port,
             const std::string& to_port) { return m.Disconnect(diagram, from_port, to_port); },
          "diagram"_a, "from_port"_a, "to_port"_a,
          R"(Removes a line; returns False when there was none.

Raises:
    ModelError: the diagram does not exist.
)")
      .def(
          "replace_block",
          [](Model& m, const std::string& path, const std::string& new_type,
             const py::kwargs& params) {
            m.ReplaceBlock(path, new_type, ParamList(path, params), LibraryOf(path, params));
          },
          "path"_a, "new_type"_a, py::pos_only(),
          R"(replace_block(path, new_type, /, **params)

Replaces the block (or subsystem) at `path` by a block of `new_type` with `params`, keeping
its name, place, comment state and lines (Simulink's replace_block). The keyword library=
names the block library of `new_type`, as for add_block.

Raises:
    ModelError: as add_block does for the type and parameters, and when a line of the block
        uses a port the new type does not have, or has the other way round (an input for an
        output); the model is then unchanged.
)")
      .def(
          "find_blocks",
          [](const Model& m, const std::string& type, const std::string& path,
             const std::string& param, const std::string& value) {
            graph::BlockQuery query;
            query.type = type;
            query.path = path;
            query.param = param;
            query.value = value;
            return m.FindBlocks(query);
          },
          py::kw_only(), "type"_a = "", "path"_a = "", "param"_a = "", "value"_a = "",
          R"(find_blocks(*, type='', path='', param='', value='') -> list of str

The paths of the blocks and subsystems that match every criterion given, in file order (a
subsystem before its contents). Define bodies are not searched.

Args:
    type: the block's type ('Gain', a define's name); subsystems have type ''.
    path: a glob over the path, per segment: '*' any run and '?' one character within a
        segment, '**' any number of segments ('hand/finger*/phalanx3', '**/j?').
    param: a parameter the block writes.
    value: with param, its exact text.

Raises:
    ModelError: the path pattern has an empty segment ('a//b').
)")
      .def(
          "get_param_value",
          [](const Model& m, const std::string& path, const std::string& param) {
            return m.GetParamValue(path, param);
          },
          "path"_a, "param"_a,
          R"(A numeric parameter's value now: its text (or the catalog's default) evaluated with the
model's variables, as compile evaluates it at the top level (a float).

Raises:
    ModelError: no such block, a subsystem, a parameter the type does not have, a text or word
        parameter, one not set, one that does not evaluate (saying why), or not a scalar.
)")
      .def(
          "get_param_vector",
          [](const Model& m, const std::string& path, const std::string& param) {
            const std::vector<double> v = m.GetParamVector(path, param);
            return py::array_t<double>(static_cast<py::ssize_t>(v.size()), v.data());
          },
          "path"_a, "param"_a,
          R"(As get_param_value, for a vector (or scalar) parameter: a 1-D numpy array.

Raises:
    ModelError: as get_param_value, and for a matrix that is not a row or column.
)")
      .def(
          "create_subsystem",
          [](Model& m, const std::string& diagram, const std::vector<std::string>& blocks,
             const std::string& new_name) {
            m.CreateSubsystem(diagram, blocks, new_name);
            return JoinPath(diagram, new_name);
          },
          "diagram"_a, "blocks"_a, "new_name"_a,
          R"(Moves blocks of a diagram into a new subsystem and returns its path.

The subsystem takes the place of the first block. Lines between the moved blocks move with
them; each line crossing the new boundary goes through a new boundary port named after its
inner end ('gain.y' -> 'gain_y'): an inport or outport for a signal, a physical port for a
physical line. Logs, plots, summaries and robot parameters follow. The compiled model
behaves the same.

Args:
    diagram: the diagram's path ('' the top level).
    blocks: the names (within that diagram) of the blocks to move.
    new_name: the subsystem's name.

Raises:
    ModelError: an empty list, a block named twice or missing, or a new name that is invalid
        or taken; the model is then unchanged.
)")
      .def(
          "expand_define", [](Model& m, const std::string& path) { m.ExpandDefine(path); },
          "path"_a,
          R"(Turns the define instance at `path` into a plain subsystem with the define's body, its
parameters substituted into the body's texts (Simulink's "break library link"). Instances
of other defines inside stay instances. The compiled model behaves the same.

Raises:
    ModelError: no such block, a subsystem, or a block whose type is not a define.
)")
      .def(
          "set_variable",
          [](Model& m, const std::string& name, py::handle value) {
            m.SetVariable(name, ParamText(value, "variable '" + name + "'"));
          },
          "name"_a, "value"_a,
          R"(Sets or adds a model variable (`<var>`), which parameters may name.

Args:
    name: the variable's name.
    value: text (an expression), a number or a list of numbers.

Raises:
    ModelError: the name is not an identifier or is a built-in constant or function (pi, sin).
    TypeError: the value is not text, a number or a list.
)");
}

}  // namespace

void BindModel(py::module_& m) {
  m.def("format_number", &graph::FormatNumber, "value"_a,
        "A number as model files write it: the shortest text that reads back to the same "
        "double (0.045, 1000, 1e+06).");

  BindSnapshots(m);

  py::class_<Model> c(m, "Model",
                      R"(A model as the user edits it: what a model file says, kept as text.

Nothing is evaluated until compile(). Editing methods name blocks by path ('finger1/p1/joint';
'' is the top level), validate what they can at once and raise ModelError. Two models are
equal when they say the same thing, wherever it was written.
)");
  c.def(py::init([](const std::string& name, const std::string& file) {
          Model model;
          model.name = name;
          model.file = file;
          return model;
        }),
        "name"_a = "model", py::kw_only(), "file"_a = "",
        R"(An empty model.

Args:
    name: the model's name (`<model name>`).
    file: where it will live: relative includes are found from its directory.
)")
      .def_readwrite("name", &Model::name, "The model's name.")
      .def_readwrite("file", &Model::file,
                     "The file the model was read from ('' when made in code): relative "
                     "includes are resolved from its directory.")
      .def_readonly("format", &Model::format, "The file format version (1).")
      .def_property_readonly(
          "variables",
          [](const Model& m) {
            py::dict d;
            for (const graph::Variable& v : m.variables) d[py::str(v.name)] = v.value;
            return d;
          },
          "Model variables: dict name -> text, in order.")
      .def_property_readonly(
          "includes",
          [](const Model& m) {
            std::vector<std::string> files;
            for (const graph::Include& i : m.includes) files.push_back(i.file);
            return files;
          },
          "Included files, as written.")
      .def_readonly("defines", &Model::defines, "The model's own defines (list of Define).")
      .def_readonly("library", &Model::library,
                    "Defines read from includes (list of Define); not written back, not compared.")
      .def_property_readonly(
          "simulation", [](const Model& m) { return ParamDict(m.simulation.attributes); },
          "Default run settings (`<simulation>`): dict name -> text, in order.")
      .def_property_readonly(
          "logs",
          [](const Model& m) {
            py::list logs;
            for (const graph::LogSpec& l : m.logs) logs.append(py::make_tuple(l.signal, l.as));
            return logs;
          },
          "Logged signals as (signal, as_name) tuples, in order.")
      .def_property_readonly(
          "plots",
          [](const Model& m) {
            py::list plots;
            for (const graph::PlotSpec& p : m.plots) {
              plots.append(py::dict("file"_a = p.file, "signals"_a = p.signals, "title"_a = p.title,
                                    "xlabel"_a = p.xlabel, "ylabel"_a = p.ylabel,
                                    "yscale"_a = p.log_y ? "log" : "linear"));
            }
            return plots;
          },
          "Plots, each a dict of file, signals, title, xlabel, ylabel, yscale.")
      .def_property_readonly(
          "summaries",
          [](const Model& m) {
            py::list summaries;
            for (const graph::SummarySpec& s : m.summaries) {
              summaries.append(py::dict("signals"_a = s.signals,
                                        "op"_a = std::string(graph::SummaryOpName(s.op)),
                                        "label"_a = s.label));
            }
            return summaries;
          },
          "Summaries, each a dict of signals, op, label.")
      .def(
          "diagram", [](const Model& m, const std::string& path) { return m.GetDiagram(path); },
          "path"_a = "",
          R"(A snapshot (copy) of the diagram at `path` ('' the top level, 'a/b' a subsystem).

Raises:
    ModelError: there is no subsystem at that path.
)")
      .def(
          "find_block",
          [](const Model& m, const std::string& path) -> py::object {
            const BlockNode* b = m.FindBlock(path);
            return b == nullptr ? py::none() : py::cast(*b);
          },
          "path"_a, "A snapshot of the block or subsystem at `path`, or None.")
      .def(
          "find_define",
          [](const Model& m, const std::string& name) -> py::object {
            const Define* d = m.FindDefine(name);
            return d == nullptr ? py::none() : py::cast(*d);
          },
          "name"_a, "The define of that name (the model's own first, then the library's), or None.")
      .def(
          "copy", [](const Model& m) { return Model(m); }, "An independent copy of the model.")
      .def("__copy__", [](const Model& m) { return Model(m); })
      .def(
          "__deepcopy__", [](const Model& m, py::dict) { return Model(m); }, "memo"_a)
      .def(py::self == py::self)
      .def("__repr__", [](const Model& m) {
        return "<Model '" + m.name + "': " + std::to_string(m.root.blocks.size()) +
               " top-level blocks, " + std::to_string(m.defines.size()) + " defines>";
      });
  BindEditing(c);
  BindModelElementEditing(c);
}

}  // namespace twinblocks::python
