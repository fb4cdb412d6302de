// Simulator: runs one System with settings given as keyword arguments; simulate() compiles
// and runs a Model in one call. The GIL is released while the simulation runs, so that
// Python threads can run several simulators at once.
#include <pybind11/eigen.h>
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <memory>
#include <string>

#include "bindings.h"
#include "graph/compile.h"
#include "graph/simulator.h"
#include "results.h"
#include "settings.h"

namespace py = pybind11;
using namespace pybind11::literals;

namespace twinblocks::python {

namespace {

Results Run(graph::Simulator& sim) {
  graph::SimulationOutcome outcome;
  {
    py::gil_scoped_release release;
    outcome = sim.Run();
  }
  return Results(sim.system(), sim.recording(), outcome,
                 sim.stats().Summary(outcome.t - sim.settings().t_start));
}

const char kSettingsDoc[] = R"(
Settings (keyword arguments; the model's <simulation> values when not given):
    solver: 'ode1' ... 'ode5', 'ode23', 'ode45', 'cvode-bdf', 'cvode-adams', 'arkode-erk',
        'arkode-dirk', 'ida'.
    t_start, t_end: s.
    step: s, fixed-step solvers.
    rtol, atol, max_step, initial_step: variable-step solvers.
    output_interval: s between recorded rows (None: a row per major step).
    zero_crossings: bool, locate zero crossings (variable-step solvers).
    A None unsets an optional setting (the solver's default).
)";

}  // namespace

void BindSimulator(py::module_& m) {
  py::class_<graph::Simulator>(
      m, "Simulator",
      (std::string(R"(Runs one System: owns the run's state and a solver chosen by name.

Simulator(system, **settings). The System is only read, and is kept alive as long as the
simulator.)") +
       kSettingsDoc)
          .c_str())
      .def(py::init([](const graph::System& system, const py::kwargs& settings) {
             return std::make_unique<graph::Simulator>(system,
                                                       ApplySettings(system.settings(), settings));
           }),
           "system"_a, py::keep_alive<1, 2>(),
           R"(Makes a simulator for `system` with the model's settings overridden by **settings.

Raises:
    TypeError: an unknown setting or a value of the wrong type.
    ValueError: an unknown solver, t_end not after t_start, a step, tolerance or interval that
        is not a positive number.
)")
      .def("run", &Run,
           R"(Runs to t_end and returns the Results.

Never raises for numerical or block failures during the run (or at its start): they end it,
results.ok is False, results.error says what failed, when and where, and the rows recorded
so far are kept. The GIL is released while it runs.
)")
      .def(
          "initialize",
          [](graph::Simulator& sim) {
            py::gil_scoped_release release;
            sim.Initialize();
          },
          R"(Sets the initial states and runs the first major step at t_start (run() does it when
not done). Raises RuntimeError when a block fails at the start.)")
      .def(
          "evaluate_derivatives",
          [](graph::Simulator& sim, double t, const Eigen::VectorXd& x) {
            if (x.size() != sim.system().num_continuous_states()) {
              throw py::value_error(
                  "x has " + std::to_string(x.size()) + " elements; the system has " +
                  std::to_string(sim.system().num_continuous_states()) + " continuous states");
            }
            if (!sim.state().x.size() && sim.system().num_continuous_states() > 0) {
              throw py::value_error("call initialize() first");
            }
            Eigen::VectorXd xdot(x.size());
            sim.EvaluateDerivatives(t, x, &xdot);
            return xdot;
          },
          "t"_a, "x"_a,
          R"(dx/dt at (t, x) as the solver sees it (numpy array of the continuous states' size);
modes and discrete states stay as the last major step left them.

Raises:
    ValueError: x has the wrong size, or initialize() has not run.
    RuntimeError: a block fails, or a derivative is not finite (naming the state).
)")
      .def_property_readonly("time", &graph::Simulator::time, "The simulated time reached (s).")
      .def_property_readonly(
          "state", [](const graph::Simulator& sim) { return Eigen::VectorXd(sim.state().x); },
          "The continuous states now (copy).")
      .def_property_readonly(
          "settings", [](const graph::Simulator& sim) { return SettingsDict(sim.settings()); },
          "The settings of this simulator (dict).")
      .def_property_readonly(
          "stats",
          [](const graph::Simulator& sim) {
            return sim.stats().Summary(sim.time() - sim.settings().t_start);
          },
          "One line: steps, rejected steps, evaluations, wall time, real-time factor.");

  m.def(
      "simulate",
      [](const graph::Model& model, const std::vector<std::string>& extra_logs,
         const py::kwargs& settings) {
        graph::CompileOptions options;
        options.extra_logs = extra_logs;
        const graph::System system = graph::Compile(model, options);
        graph::Simulator sim(system, ApplySettings(system.settings(), settings));
        return Run(sim);
      },
      "model"_a, py::kw_only(), "extra_logs"_a = std::vector<std::string>{},
      (std::string(R"(simulate(model, *, extra_logs=[], **settings) -> Results

Compiles the model and runs it once: compile(model, extra_logs) then
Simulator(system, **settings).run().
)") + kSettingsDoc +
       R"(
Raises:
    ModelError: the model does not compile.
    TypeError, ValueError: bad settings (see Simulator).
)")
          .c_str());
}

}  // namespace twinblocks::python
