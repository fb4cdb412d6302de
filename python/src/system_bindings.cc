// compile() and the compiled System: what a model became, and the signals a run can record.
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <optional>
#include <string>
#include <vector>

#include "bindings.h"
#include "compiler/compile.h"
#include "param_text.h"
#include "runtime/system.h"
#include "settings.h"

namespace py = pybind11;
using namespace pybind11::literals;

namespace twinblocks::python {

void BindSystem(py::module_& m) {
  py::class_<graph::LoggedSignal>(m, "Signal",
                                  "A block output a run can record: name (the results' name), "
                                  "source ('path.port' of the output) and width.")
      .def_readonly("name", &graph::LoggedSignal::name,
                    "The name results use: a log's as-name, or the source.")
      .def_readonly("source", &graph::LoggedSignal::source,
                    "'path.port' of the block output that drives it.")
      .def_readonly("width", &graph::LoggedSignal::width, "Number of elements.")
      .def("__repr__", [](const graph::LoggedSignal& s) {
        return "<Signal '" + s.name + "' from '" + s.source + "' width " + std::to_string(s.width) +
               ">";
      });

  py::class_<graph::System>(m, "System",
                            R"(A compiled model: flat blocks in execution order, signal layout,
states and rates. Immutable; simulate it with Simulator (many at once if you like).)")
      .def_property_readonly("num_blocks", &graph::System::num_blocks,
                             "Number of blocks after flattening subsystems and defines.")
      .def_property_readonly(
          "block_paths",
          [](const graph::System& s) {
            std::vector<std::string> paths;
            for (int i = 0; i < s.num_blocks(); ++i) paths.push_back(s.block_path(i));
            return paths;
          },
          "Every block's path, in execution order ('hand/finger1/phalanx1/joint').")
      .def_property_readonly(
          "block_types",
          [](const graph::System& s) {
            std::vector<std::string> types;
            for (int i = 0; i < s.num_blocks(); ++i) types.push_back(s.block_type(i));
            return types;
          },
          "Every block's catalog type, in the order of block_paths.")
      .def(
          "has_block",
          [](const graph::System& s, const std::string& path) { return s.FindBlock(path) >= 0; },
          "path"_a, "True when a (flat) block has that path.")
      .def_property_readonly("num_signals", &graph::System::num_signals,
                             "Size of the signal buffer (all output elements).")
      .def_property_readonly("num_continuous_states", &graph::System::num_continuous_states,
                             "Number of continuous states (nx).")
      .def_property_readonly("num_discrete_states", &graph::System::num_discrete_states,
                             "Number of discrete states.")
      .def_property_readonly("num_zero_crossings", &graph::System::num_zero_crossings,
                             "Number of zero-crossing functions.")
      .def_property_readonly(
          "rates",
          [](const graph::System& s) {
            std::vector<double> periods;
            for (const auto& r : s.rates()) periods.push_back(r.period);
            return periods;
          },
          "The periods of the discrete rates (s), fastest first.")
      .def_property_readonly("signal_directory", &graph::System::signal_directory,
                             "Every signal a log could name (list of Signal), sorted by name.")
      .def_property_readonly("logged_signals", &graph::System::logged_signals,
                             "The signals every run records (list of Signal), in order.")
      .def(
          "find_signal",
          [](const graph::System& s, const std::string& path_port) {
            return s.FindSignal(path_port);
          },
          "path_port"_a, "The Signal of block output 'path.port', or None.")
      .def(
          "set_parameter",
          [](graph::System& s, const std::string& block_path, const std::string& param,
             py::handle value) {
            if (std::optional<double> x = AsNumber(value)) {
              s.SetParameter(block_path, param, *x);
            } else if (std::optional<std::vector<double>> v = AsNumbers(value)) {
              s.SetParameter(block_path, param, *v);
            } else {
              throw py::type_error("set_parameter('" + block_path + "', '" + param +
                                   "'): expected a number or a list of numbers, got " +
                                   std::string(py::repr(value)));
            }
          },
          "block_path"_a, "param"_a, "value"_a,
          R"(Retunes a numeric parameter of one block without compiling again (a tunable parameter).

The block is built again from the new value, as if the model said so and were compiled.
Make the Simulators after retuning: a simulator made before must not be used after.

Args:
    block_path: the flat path, as block_paths lists it ('arm_ctrl/pid'; a define instance's
        inner block 'scaled/g').
    param: the parameter's name.
    value: a number, or a list or 1-D array of numbers for a vector parameter.

Raises:
    ModelError: no such block (with a suggestion), an unknown or word/text parameter, a
        value the block rejects, or a change of the block's ports, sizes, states or sample
        time, or of the mechanism's coordinates (that needs a recompile). A multibody
        element's parameter rebuilds the mechanism from its elements. Nothing changes then.
    TypeError: the value is not a number or a list of numbers.
)")
      .def(
          "set_variable",
          [](graph::System& s, const std::string& name, py::handle value) {
            if (std::optional<double> x = AsNumber(value)) return s.SetVariable(name, *x);
            if (std::optional<std::vector<double>> v = AsNumbers(value)) {
              return s.SetVariable(name, *v);
            }
            throw py::type_error("set_variable('" + name +
                                 "'): expected a number or a list of numbers, got " +
                                 std::string(py::repr(value)));
          },
          "name"_a, "value"_a,
          R"(Sets a model variable in the compiled system and rebuilds every block whose parameters
change with it (through define parameters and later variables too): Simulink's tunable
workspace variables. Returns the flat paths of the blocks rebuilt. Simulation settings keep
their compiled values. Make the Simulators after retuning.

Raises:
    ModelError: no such variable, or a block it reaches cannot be retuned (as set_parameter
        says); nothing changes then.
    TypeError: the value is not a number or a list of numbers.
)")
      .def_property_readonly(
          "settings", [](const graph::System& s) { return SettingsDict(s.settings()); },
          "The model's run settings after evaluation (dict; None where the solver decides).")
      .def("__repr__", [](const graph::System& s) {
        return "<System: " + std::to_string(s.num_blocks()) + " blocks, " +
               std::to_string(s.num_continuous_states()) + " continuous states, " +
               std::to_string(s.logged_signals().size()) + " logged signals>";
      });

  m.def(
      "compile",
      [](const graph::Model& model, const std::vector<std::string>& extra_logs) {
        graph::CompileOptions options;
        options.extra_logs = extra_logs;
        // The GIL stays held: the Model is a Python object another thread could edit.
        return graph::Compile(model, options);
      },
      "model"_a, "extra_logs"_a = std::vector<std::string>{},
      R"(Compiles a model into a System: flattens subsystems and defines, checks ports, kinds and
widths, evaluates parameters, orders blocks, lays out the per-run arrays.

Args:
    model: the Model.
    extra_logs: more signals to record, 'path.port' (as the command line's --log).

Raises:
    ModelError: for every problem in the model, with file:line and block path; an algebraic
        loop names the blocks on the cycle.
)");
}

}  // namespace twinblocks::python
