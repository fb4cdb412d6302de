// The editing calls for the model's other elements (boundary ports, defines, includes, logs,
// plots, summaries, variables, the simulation settings): thin wrappers of graph::Model's,
// bound on the Model class that model_bindings.cc makes.
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "bindings.h"
#include "model/model.h"
#include "model/model_error.h"
#include "param_text.h"

namespace py = pybind11;
using namespace pybind11::literals;

namespace twinblocks::python {

using graph::Define;
using graph::Diagram;
using graph::Model;
using graph::PortDecl;

void BindModelElementEditing(py::class_<Model>& c) {
  auto port = [](PortDecl::Kind kind, const std::string& name, const std::string& domain,
                 const std::string& width) {
    PortDecl p;
    p.kind = kind;
    p.name = name;
    p.domain = domain;
    p.width = width;
    return p;
  };
  c.def(
       "add_inport",
       [port](Model& m, const std::string& diagram, const std::string& name, py::handle width) {
         const std::string text =
             width.is_none() ? "" : ParamText(width, "inport '" + name + "' width");
         m.AddPort(diagram, port(PortDecl::Kind::kInport, name, "", text));
       },
       "diagram"_a, "name"_a, "width"_a = py::none(),
       R"(Declares a signal input of the subsystem at `diagram` (`<inport name>`).

Inside the subsystem, lines name it '.name'; outside, 'subsystem.name'. At the top level
(diagram '') it is an external input of the model (`<inport name width>`), set from outside
while it runs (Simulator.set_input) and held at 0 until then.

Args:
    width: top-level inports only: the number of elements, a number or an expression of the
        model's variables (None for 1).

Raises:
    ModelError: `diagram` is not a subsystem, the name is not an identifier or is taken by
        another port of that diagram, or a width is given below the top level.
)")
      .def(
          "add_outport",
          [port](Model& m, const std::string& diagram, const std::string& name,
                 const std::string& disabled, py::handle initial) {
            PortDecl p = port(PortDecl::Kind::kOutport, name, "", "");
            p.behavior = disabled;
            if (!initial.is_none()) {
              p.initial = ParamText(initial, "outport '" + name + "' initial output");
            }
            m.AddPort(diagram, std::move(p));
          },
          "diagram"_a, "name"_a, "disabled"_a = "", "initial"_a = py::none(),
          R"(Declares a signal output of the subsystem at `diagram` (`<outport name>`).

Args:
    disabled: in an enabled subsystem, what the output is while it is disabled: 'held' (the
        default when '') or 'reset' (to `initial`).
    initial: in a conditional subsystem, the output before it first runs (a number, a list or
        an expression; None for 0).

Raises:
    ModelError: as for add_inport, and at the top level (which takes only inports).
)")
      .def(
          "add_enable_port",
          [port](Model& m, const std::string& diagram, const std::string& name,
                 const std::string& states) {
            PortDecl p = port(PortDecl::Kind::kEnable, name, "", "");
            p.behavior = states;
            m.AddPort(diagram, std::move(p));
          },
          "diagram"_a, "name"_a, "states"_a = "",
          R"(Makes the subsystem at `diagram` an enabled subsystem (`<enable name states>`): it runs
while any element of the signal at port `name` is > 0.

Args:
    states: the states of its blocks when it is enabled again: 'held' (the default when '')
        or 'reset' (their initial states).

Raises:
    ModelError: as for add_outport, or the subsystem already has an enable port.
)")
      .def(
          "add_trigger_port",
          [port](Model& m, const std::string& diagram, const std::string& name,
                 const std::string& edge) {
            PortDecl p = port(PortDecl::Kind::kTrigger, name, "", "");
            p.behavior = edge;
            m.AddPort(diagram, std::move(p));
          },
          "diagram"_a, "name"_a, "edge"_a = "",
          R"(Makes the subsystem at `diagram` a triggered subsystem (`<trigger name edge>`): it runs
once at each edge of the signal at port `name`, located by the solver.

Args:
    edge: 'rising' (the default when ''), 'falling' or 'either'.

Raises:
    ModelError: as for add_outport, or the subsystem already has a trigger port.
)")
      .def(
          "add_port",
          [port](Model& m, const std::string& diagram, const std::string& name,
                 const std::string& domain) {
            m.AddPort(diagram, port(PortDecl::Kind::kPhysical, name, domain, ""));
          },
          "diagram"_a, "name"_a, "domain"_a,
          R"(Declares a physical port of the subsystem at `diagram` (`<port name domain>`).

Args:
    domain: 'frame' (a multibody frame), 'rotational' or 'electrical'.

Raises:
    ModelError: as for add_outport, or the domain is none of those.
)")
      .def(
          "add_define",
          [](Model& m, const std::string& name, const std::vector<std::string>& params,
             const Diagram& body) {
            m.AddDefine(name, params, body);
            return "define:" + name;
          },
          "name"_a, "params"_a, "body"_a = Diagram(),
          R"(Adds a define: a subsystem type with parameters that blocks can instantiate. Returns
the diagram path of its body, 'define:NAME'.

Build the body in place with the editing calls on that path ('define:NAME' for the body,
'define:NAME/sub' for a subsystem in it), or pass a body built as a subsystem elsewhere
(`model.diagram(path)`). Its blocks may name the define's parameters in their texts. Only
the model's own defines are edited this way, not those read from includes.

Args:
    name: the type name blocks will use.
    params: the parameter names, in order.
    body: the Diagram every instance gets (empty by default).

Raises:
    ModelError: the name or a parameter is not an identifier, a parameter takes a reserved
        name (pi, sin, type, name, commented) or is given twice, or the model already has a
        define of that name.
)")
      .def(
          "add_include",
          [](Model& m, const std::string& file) { m.AddInclude(file, xml::ReadModelFile); },
          "file"_a,
          R"(Includes a library file (`<include file>`) and reads its defines at once.

Args:
    file: as it will be written, relative to the directory of the model's `file` (or to the
        working directory when the model has no file). Save the model where that path still
        reaches the library.

Raises:
    ModelError: the name is empty or already included, the file cannot be read or is not a
        valid model, or it defines a name the model's library already has.
)")
      .def(
          "add_log",
          [](Model& m, const std::string& signal, const std::string& as) { m.AddLog(signal, as); },
          "signal"_a, "as_name"_a = "",
          R"(Records a signal in every run (`<log signal as>`).

Args:
    signal: a block output, 'path/to/block.port'.
    as_name: the results' name for it ('' for the signal's own path).

Raises:
    ModelError: the signal is not 'path.port', or as_name is not an identifier or already used.
)")
      .def(
          "add_plot",
          [](Model& m, const std::string& file, const std::vector<std::string>& signals,
             const std::string& title, const std::string& xlabel, const std::string& ylabel,
             const std::string& yscale) {
            if (yscale != "linear" && yscale != "log") {
              throw graph::ModelError({}, "yscale=\"" + graph::OneLine(yscale) +
                                              "\" on <plot>; expected \"linear\" or \"log\"");
            }
            graph::PlotSpec plot;
            plot.file = file;
            plot.signals = signals;
            plot.title = title;
            plot.xlabel = xlabel;
            plot.ylabel = ylabel;
            plot.log_y = yscale == "log";
            m.AddPlot(std::move(plot));
          },
          "file"_a, "signals"_a, "title"_a = "", "xlabel"_a = "time (s)", "ylabel"_a = "",
          "yscale"_a = "linear",
          R"(Adds a line chart of signals over time (`<plot>`), written as SVG by `twinblocks run`.

Args:
    file: the SVG's name, relative to the results directory.
    signals: list of 'path.port' or 'path.port[i]' (one element).
    yscale: 'linear' or 'log'.

Raises:
    ModelError: the file is empty or written by another plot, there is no signal, a signal is
        malformed, or yscale is neither 'linear' nor 'log'.
)")
      .def(
          "add_summary",
          [](Model& m, const std::vector<std::string>& signals, const std::string& op,
             const std::string& label) {
            const std::optional<graph::SummaryOp> parsed = graph::ParseSummaryOp(op);
            if (!parsed) {
              throw graph::ModelError(
                  {}, "op=\"" + graph::OneLine(op) +
                          "\" on <summary>; expected one of: " + graph::SummaryOpNames());
            }
            graph::SummarySpec summary;
            summary.signals = signals;
            summary.op = *parsed;
            summary.label = label;
            m.AddSummary(std::move(summary));
          },
          "signals"_a, "op"_a, "label"_a = "",
          R"(Adds a scalar result of a run (`<summary>`).

Args:
    signals: list of 'path.port' or 'path.port[i]'.
    op: 'max', 'min', 'max_abs', 'final', 'mean' or 'rms'.

Raises:
    ModelError: there is no signal, a signal is malformed, or op is unknown.
)")
      .def(
          "set_simulation",
          [](Model& m, const py::kwargs& settings) {
            for (auto [key, value] : settings) {
              const std::string name = key.cast<std::string>();
              m.SetSimulation(name, ParamText(value, "simulation setting '" + name + "'"));
            }
          },
          R"(set_simulation(**settings)

Sets the model's default run settings (`<simulation>`), kept as text in the order given:
solver='ode3', step=1e-5, t_end=0.5, output_interval=1e-4, rtol, atol, ...

Raises:
    ModelError: a setting name is not an identifier.
    TypeError: a value is not text or a number.
)");
}

}  // namespace twinblocks::python
