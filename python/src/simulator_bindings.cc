// Simulator: runs one System with settings given as keyword arguments; simulate() compiles
// and runs a Model in one call. The GIL is released while the simulation runs, so that
// Python threads can run several simulators at once.
#include <pybind11/eigen.h>
#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <atomic>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "bindings.h"
#include "common/suggest.h"
#include "compiler/compile.h"
#include "param_text.h"
#include "results.h"
#include "runtime/simulator.h"
#include "settings.h"

namespace py = pybind11;
using namespace pybind11::literals;

namespace twinblocks::python {

namespace {

// Ctrl-C while a run holds no GIL: Python runs its signal handlers only between bytecodes of
// the main thread, so a long run would not stop. The run asks every 0.1 s of wall time
// (through its progress callback) whether a signal is pending; if one is, the run stops
// after the step in progress, as on the command line, and the KeyboardInterrupt is raised
// once it has returned. The rows so far stay in the Simulator (results()).
graph::SimulationOutcome RunInterruptibly(graph::Simulator& sim, double t) {
  std::atomic<bool> stop{false};
  std::optional<py::error_already_set> pending;
  sim.SetStopRequest(&stop);
  sim.SetProgressCallback(
      [&](const graph::Progress&) {
        py::gil_scoped_acquire acquire;
        if (PyErr_CheckSignals() != 0) {
          pending.emplace();  // takes the error (KeyboardInterrupt) from the interpreter
          stop.store(true);
        }
      },
      0.1);
  graph::SimulationOutcome outcome;
  {
    py::gil_scoped_release release;
    outcome = sim.AdvanceTo(t);
  }
  sim.SetStopRequest(nullptr);
  sim.SetProgressCallback(nullptr);
  if (pending) throw std::move(*pending);
  return outcome;
}

Results Run(graph::Simulator& sim) {
  const graph::SimulationOutcome outcome = RunInterruptibly(sim, sim.settings().t_end);
  return Results(sim.system(), sim.recording(), outcome,
                 sim.stats().Summary(outcome.t - sim.settings().t_start));
}

const char kSettingsDoc[] = R"(
Settings (keyword arguments; the model's <simulation> values when not given):
    solver: 'ode1' ... 'ode5', 'ode1be', 'ros2', 'ode23', 'ode45', 'ode23s', 'cvode-bdf',
        'cvode-adams', 'arkode-erk', 'arkode-dirk', 'ida'.
    t_start, t_end: s.
    step: s, fixed-step solvers.
    rtol, atol, max_step, initial_step: variable-step solvers. atol may be 'auto' (Simulink's:
        from rtol, growing with each state's largest size).
    auto_scale_atol: bool, each state's absolute tolerance grows to rtol times its largest
        size so far (Simulink's "Auto scale absolute tolerance"; default False).
    output_interval: s between recorded rows (None: a row per major step).
    zero_crossings: bool, locate zero crossings (variable-step solvers).
    fixed_step_zero_crossings: bool, locate them inside fixed steps too (default False).
    jacobian_steps: the solvers that use a Jacobian (ode23s, ros2, ode1be, cvode-bdf,
        cvode-adams, arkode-dirk): accepted steps one Jacobian serves at most (None: every step
        for ode23s, ros2, ode1be; SUNDIALS' own rule for CVODE and ARKODE).
    jacobian_method: where those solvers get their Jacobian: 'auto' (each its own way),
        'perturbation' (differences of the whole diagram) or 'blocks' (the blocks' stiff
        terms, e.g. a mechanism's contacts, for CVODE and ARKODE too).
    sample_hits: 'land' (every discrete sample hit ends a solver step, as Simulink) or
        'step_over' (variable-step solvers pass hits that change nothing they read).
    A None unsets an optional setting (the solver's default).
)";

// A Python value as the elements an input takes: a number, a list or a 1-D array.
std::vector<double> InputValue(py::handle value) {
  if (std::optional<double> x = AsNumber(value)) return {*x};
  if (std::optional<std::vector<double>> v = AsNumbers(value)) return *v;
  throw py::type_error("set_input: expected a number or a list or 1-D array of numbers, got " +
                       std::string(py::repr(value)));
}

py::array_t<double> Copy(std::span<const double> values) {
  return py::array_t<double>(static_cast<py::ssize_t>(values.size()), values.data());
}

// The step API (docs/stepping.md): handles, AdvanceTo, inputs, reads and snapshots.
void BindStepping(py::module_& m, py::class_<graph::Simulator>& c) {
  py::class_<graph::InputHandle>(m, "InputHandle",
                                 "An external input (a top-level <inport>), from "
                                 "Simulator.find_input: pass it to set_input.")
      .def_readonly("width", &graph::InputHandle::width, "Number of elements.")
      .def("__repr__", [](const graph::InputHandle& h) {
        return "<InputHandle width " + std::to_string(h.width) + ">";
      });
  py::class_<graph::SignalHandle>(m, "SignalHandle",
                                  "A block output, from Simulator.find_signal: pass it to read.")
      .def_readonly("width", &graph::SignalHandle::width, "Number of elements.")
      .def("__repr__", [](const graph::SignalHandle& h) {
        return "<SignalHandle width " + std::to_string(h.width) + ">";
      });
  py::class_<graph::StatesHandle>(m, "StatesHandle",
                                  "A block's continuous states, from "
                                  "Simulator.find_continuous_states.")
      .def_readonly("size", &graph::StatesHandle::size, "Number of states.")
      .def("__repr__", [](const graph::StatesHandle& h) {
        return "<StatesHandle size " + std::to_string(h.size) + ">";
      });
  py::class_<graph::SimulationSnapshot>(
      m, "Snapshot",
      R"(A saved point of a run (Simulator.save_state), to go back to with restore_state:
states, signals (inputs held), block workspaces, the solver's memory, the recording's length.
It restores into any simulator of the same System and settings.)")
      .def(py::init<>(), "An empty snapshot, to save into (save_state(into=snapshot)).")
      .def_property_readonly("valid", &graph::SimulationSnapshot::valid,
                             "False for an empty snapshot, which nothing can be restored from.")
      .def_property_readonly("time", &graph::SimulationSnapshot::time,
                             "The simulated time it was taken at (s).")
      .def_property_readonly("num_recorded_rows", &graph::SimulationSnapshot::num_recorded_rows,
                             "Rows of the recording when it was taken.")
      .def_property_readonly(
          "continuous_states",
          [](const graph::SimulationSnapshot& s) { return Eigen::VectorXd(s.continuous_states()); },
          "The continuous states then (copy).")
      .def("__repr__", [](const graph::SimulationSnapshot& s) {
        return s.valid() ? "<Snapshot at t = " + graph::FormatNumber(s.time()) + " s>"
                         : std::string("<Snapshot (empty)>");
      });

  c.def(
       "advance_to", [](graph::Simulator& sim, double t) { return RunInterruptibly(sim, t); },
       "t"_a,
       R"(Runs major steps until time is exactly `t` (s) and returns the Outcome.

`t` is a stop of the solver, like a sample hit: fixed-step solvers land on it, variable-step
ones cut a step. Initializes first if needed. Compute step times as k * Ts (not by adding Ts
up) to land on the sample hits of discrete blocks exactly. The GIL is released while it runs;
Ctrl-C (KeyboardInterrupt) stops it after the step in progress and raises.

A numerical or block failure does not raise: outcome.ok is False, outcome.error says when
and where, the rows so far are kept, and later calls return the same failure until
restore_state.

Raises:
    ValueError: `t` is before the current time or after t_end, or not finite.
)")
      .def("find_input", &graph::Simulator::FindInput, "name"_a,
           R"(The external input `name` (a top-level <inport>) as an InputHandle, looked up once.

Raises:
    ValueError: there is none (the message lists the model's inputs).
)")
      .def(
          "set_input",
          [](graph::Simulator& sim, const graph::InputHandle& input, py::handle value) {
            const std::vector<double> v = InputValue(value);
            sim.SetInput(input, v);
          },
          "input"_a, "value"_a,
          R"(Sets the value the external input holds from now on (zero-order hold) until the next
set_input; an input never set holds 0. A changed value acts from the current time: at the
next advance_to the continuous blocks are evaluated anew and the solver restarts.

Args:
    input: an InputHandle from find_input.
    value: a number, a list or a 1-D array of the input's width.

Raises:
    ValueError: the value has the wrong width or is not finite.
    RuntimeError: before initialize() or advance_to, or a handle of another system.
    TypeError: the value is not a number or a list of numbers.
)")
      .def("find_signal", &graph::Simulator::FindSignal, "path_port"_a,
           R"(The block output 'path.port' (a top-level inport is '.name') as a SignalHandle.

Raises:
    ValueError: there is none (the message gives the closest names).
)")
      .def(
          "read",
          [](const graph::Simulator& sim, const graph::SignalHandle& signal) {
            return Copy(sim.Read(signal));
          },
          "signal"_a,
          R"(The signal's value at the current time (the last major step): a numpy array (a copy).

Raises:
    RuntimeError: before initialize() or advance_to, or a handle of another system.
)")
      .def("find_continuous_states", &graph::Simulator::FindContinuousStates, "block_path"_a,
           R"(The continuous states of a block (a mechanism is 'WORLD:mechanism') as a StatesHandle.

Raises:
    ValueError: the block has none (the message lists those that have).
)")
      .def(
          "read_continuous_states",
          [](const graph::Simulator& sim, const graph::StatesHandle& states) {
            return Copy(sim.ReadContinuousStates(states));
          },
          "states"_a, "The block's continuous states at the current time (numpy array, a copy).")
      .def(
          "save_state",
          [](const graph::Simulator& sim, graph::SimulationSnapshot* into) -> py::object {
            if (into == nullptr) return py::cast(sim.SaveState());
            sim.SaveState(into);
            return py::none();
          },
          "into"_a = nullptr,
          R"(Saves everything the run has changed so far and returns it as a Snapshot; with
`into`, saves into that snapshot (reusing its storage) and returns None.

Raises:
    RuntimeError: before initialize() or advance_to.
)")
      .def("restore_state", &graph::Simulator::RestoreState, "snapshot"_a,
           R"(Puts the run back where the snapshot was taken, the recording cut back to the rows
it had then. Continuing repeats the original run bitwise with the Runge-Kutta solvers
(ode1 ... ode5, ode1be, ros2, ode23, ode45) and ode23s; CVODE, ARKODE and IDA restart at the
restored point. Clears
a failure.

Raises:
    ValueError: a snapshot of another System, or an empty one.
)")
      .def(
          "results",
          [](graph::Simulator& sim) {
            graph::SimulationOutcome outcome;
            {
              py::gil_scoped_release release;
              outcome = sim.AdvanceTo(sim.time());  // no step: the outcome so far
            }
            return Results(sim.system(), sim.recording(), outcome,
                           sim.stats().Summary(outcome.t - sim.settings().t_start));
          },
          R"(The Results recorded so far (a copy), with the outcome so far: for a simulator stepped
with advance_to. Initializes the simulator when it has not started.)");
}

}  // namespace

void BindSimulator(py::module_& m) {
  py::class_<graph::Simulator> c(
      m, "Simulator",
      (std::string(R"(Runs one System: owns the run's state and a solver chosen by name.

Simulator(system, **settings). The System is only read, and is kept alive as long as the
simulator.)") +
       kSettingsDoc)
          .c_str());
  c.def(py::init([](const graph::System& system, const py::kwargs& settings) {
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
so far are kept. The GIL is released while it runs. Ctrl-C (KeyboardInterrupt) stops the run
after the step in progress and raises; the rows so far stay in the simulator (results()).
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
  BindStepping(m, c);

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
