// twinblocks.sweep(): the sweep library (sweep/) from Python, as `twinblocks sweep` runs it:
// the same plan from the same values, the same runs on threads, the same files when an
// output directory is given (summary.csv byte for byte). The GIL is released while it runs.
#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdio>
#include <exception>
#include <filesystem>
#include <mutex>
#include <optional>
#include <string>
#include <thread>
#include <utility>
#include <vector>

#include "bindings.h"
#include "common/output_file.h"
#include "io/summary.h"
#include "model/model.h"
#include "model/model_error.h"
#include "param_text.h"
#include "settings.h"
#include "sweep/sweep_plan.h"
#include "sweep/sweep_runner.h"
#include "sweep/sweep_table.h"

namespace py = pybind11;
using namespace pybind11::literals;

namespace twinblocks::python {

namespace {

// One `set` entry: a list of values (each as a model text), or a string as `--set` writes it
// after the '=' ("160,700", "uniform(1, 2)").
sweep::SweepParameter Parameter(const std::string& name, py::handle values) {
  if (py::isinstance<py::str>(values)) {
    return sweep::ParseSweepSetting(name + "=" + values.cast<std::string>());
  }
  const std::string what = "sweep parameter '" + name + "'";
  py::object items = py::reinterpret_borrow<py::object>(values);
  if (py::hasattr(values, "tolist") && !py::isinstance<py::list>(values)) {
    items = values.attr("tolist")();
  }
  if (!py::isinstance<py::list>(items) && !py::isinstance<py::tuple>(items)) {
    throw py::type_error(what +
                         ": expected a list of values or a text such as 'uniform(1, 2)', "
                         "got " +
                         std::string(py::repr(values)));
  }
  sweep::SweepParameter p;
  p.name = name;
  for (py::handle item : items) p.values.push_back(ParamText(item, what));
  if (p.values.empty()) throw sweep::SweepError(what + ": no values");
  return p;
}

// "mean(object.position[2])" -> the summary the CLI's --mean object.position[2] adds.
graph::SummarySpec Output(const std::string& text) {
  const size_t open = text.find('(');
  const std::optional<graph::SummaryOp> op =
      open == std::string::npos ? std::nullopt : graph::ParseSummaryOp(text.substr(0, open));
  if (!op || text.back() != ')' || open + 2 >= text.size()) {
    throw sweep::SweepError("output '" + graph::OneLine(text) +
                            "': expected OP(SIGNAL), OP one of " + graph::SummaryOpNames() +
                            ", as the summary table names its columns: 'final(x.y[0])'");
  }
  graph::SummarySpec s;
  s.signals = {text.substr(open + 1, text.size() - open - 2)};
  s.op = *op;
  s.where = graph::SourceLocation{"--" + std::string(graph::SummaryOpName(*op)), 0};
  for (char& c : s.where.file) c = c == '_' ? '-' : c;
  return s;
}

sweep::RunSettingsOverrides Overrides(const py::kwargs& settings) {
  sweep::RunSettingsOverrides o;
  for (auto [key, value] : settings) {
    const std::string name = key.cast<std::string>();
    const graph::SimulationSetting* setting = graph::FindSimulationSetting(name);
    if (setting == nullptr) {
      std::string names;
      for (const std::string& n : graph::SimulationSettingNames()) {
        names += (names.empty() ? "" : ", ") + n;
      }
      throw py::type_error("unknown sweep setting '" + name + "'; expected one of: " + names);
    }
    o.values.emplace_back(setting, SettingFromPython(*setting, value, /*allow_none=*/false));
  }
  RefuseSettingConflicts(o.values);
  return o;
}

py::dict RunDict(const sweep::SweepPlan& plan, const sweep::RunResult& r) {
  py::dict values;
  const std::vector<std::string> names = plan.parameter_names();
  for (size_t k = 0; k < names.size(); ++k) values[py::str(names[k])] = r.values[k];
  py::dict summaries;
  for (const graph::SummaryValue& v : r.summaries) {
    const std::string column = std::string(graph::SummaryOpName(v.op)) + "(" + v.signal + ")";
    if (!summaries.contains(column)) summaries[py::str(column)] = v.value;
  }
  return py::dict("index"_a = r.index, "values"_a = values,
                  "status"_a = std::string(sweep::RunStatusName(r.status)),
                  "t_reached"_a = r.t_reached, "error"_a = r.error, "summaries"_a = summaries,
                  "wall_seconds"_a = r.wall_seconds);
}

py::list Sweep(const graph::Model& model, const py::dict& set, bool zip, std::optional<int> samples,
               std::uint64_t seed, int threads, std::optional<std::string> out_dir,
               const std::vector<std::string>& outputs, const std::vector<std::string>& plots,
               bool run_files, const py::kwargs& settings) {
  sweep::SweepSpec spec;
  for (auto [name, values] : set) {
    spec.parameters.push_back(Parameter(py::str(name).cast<std::string>(), values));
  }
  spec.combination = zip ? sweep::Combination::kZip : sweep::Combination::kGrid;
  spec.samples = samples.value_or(0);
  spec.seed = seed;
  const sweep::SweepPlan plan(std::move(spec));
  sweep::SweepOptions options;
  options.threads = threads;
  options.settings = Overrides(settings);
  options.plot_signals = plots;
  for (const std::string& o : outputs) options.outputs.push_back(Output(o));
  namespace fs = std::filesystem;
  if (out_dir && run_files) options.run_dir = *out_dir;
  if (!out_dir && !plots.empty()) {
    throw sweep::SweepError("plots are written to out_dir: give one");
  }
  if (out_dir) {
    // As the command line does: an unwritable directory is bad input, found before any run.
    std::error_code ignored;
    fs::create_directories(*out_dir, ignored);
    const std::string summary = (fs::path(*out_dir) / "summary.csv").string();
    std::FILE* f = std::fopen(summary.c_str(), "a");
    if (f == nullptr) throw sweep::SweepError("cannot write the summary to '" + summary + "'");
    std::fclose(f);
  }
  // The Model is a Python object another thread could edit: the sweep runs on a copy.
  const graph::Model copy = model;
  std::vector<sweep::RunResult> rows;
  // Ctrl-C: Python runs signal handlers only on the main thread, between bytecodes. The sweep
  // runs on a thread of its own while this one asks every 0.1 s whether a KeyboardInterrupt
  // is pending; if one is, the runs stop as on the command line (SweepOptions::stop), the
  // table, timings and plots of what ran are still written, and the KeyboardInterrupt is
  // raised then.
  std::atomic<bool> stop{false};
  options.stop = &stop;
  std::optional<py::error_already_set> interrupt;
  std::exception_ptr failure;
  {
    py::gil_scoped_release release;
    std::mutex mutex;
    std::condition_variable finished;
    bool done = false;
    std::thread sweeper([&] {
      try {
        sweep::CheckSweep(copy, plan, options);
        rows = sweep::RunSweep(copy, plan, options);
        if (out_dir) {
          // What `twinblocks sweep -o DIR` writes once its rows are in (cli/sweep_command.cc).
          const fs::path dir(*out_dir);
          fs::create_directories(dir);
          sweep::WriteSummaryTable(plan, rows, (dir / "summary.csv").string());
          sweep::WriteTimings(rows, (dir / "timings.csv").string());
          for (size_t k = 0; k < plots.size(); ++k) {
            const std::string title =
                copy.name + ": " + plots[k] + ", " + std::to_string(plan.num_runs()) + " runs";
            sweep::WriteSweepPlot(plan, rows, static_cast<int>(k), plots[k], title,
                                  (dir / sweep::PlotFileName(plots[k])).string());
          }
        }
      } catch (...) {
        failure = std::current_exception();
      }
      std::lock_guard<std::mutex> lock(mutex);
      done = true;
      finished.notify_one();
    });
    std::unique_lock<std::mutex> lock(mutex);
    while (!finished.wait_for(lock, std::chrono::milliseconds(100), [&] { return done; })) {
      if (interrupt) continue;
      lock.unlock();
      {
        py::gil_scoped_acquire acquire;
        if (PyErr_CheckSignals() != 0) interrupt.emplace();  // takes the KeyboardInterrupt
      }
      if (interrupt) stop.store(true);
      lock.lock();
    }
    lock.unlock();
    sweeper.join();
  }
  if (failure) std::rethrow_exception(failure);
  if (interrupt) throw std::move(*interrupt);
  // A results file that could not be written stops the sweep, as on the command line.
  for (const sweep::RunResult& r : rows) {
    if (!r.write_error.empty()) {
      RaiseWriteError("run " + std::to_string(r.index) + ": " + r.write_error);
    }
  }
  py::list out;
  for (const sweep::RunResult& r : rows) out.append(RunDict(plan, r));
  return out;
}

}  // namespace

void BindSweep(py::module_& m) {
  m.def("sweep", &Sweep, "model"_a, py::kw_only(), "set"_a, "zip"_a = false,
        "samples"_a = py::none(), "seed"_a = 0, "threads"_a = 1, "out_dir"_a = py::none(),
        "outputs"_a = std::vector<std::string>{}, "plots"_a = std::vector<std::string>{},
        "run_files"_a = true,
        R"(sweep(model, *, set, zip=False, samples=None, seed=0, threads=1, out_dir=None,
      outputs=[], plots=[], run_files=True, **settings) -> list of dict

Runs the model over parameter values, as `twinblocks sweep` does: each run applies its values
to its own copy of the model, compiles and simulates it. A run that does not compile or fails
numerically is a row saying so; it never ends the sweep. Results depend only on the model,
the values and the run's index, not on the number of threads. Ctrl-C (KeyboardInterrupt)
stops the runs in progress, leaves the others 'not run', writes out_dir's table of what ran,
and raises.

Args:
    set: dict NAME -> values, in order (the first varies slowest in a grid). NAME is a model
        variable ('k', which must exist) or a block parameter 'block/path.param'. Values are a
        list (numbers or model texts: [160, 700], ['2*pi', '[0, 0, 1]']), or a text as
        `--set NAME=...` takes it: '160,700', or a distribution 'uniform(a, b)',
        'normal(mu, sigma)', 'lognormal(mu, sigma)' (with samples).
    zip: combine the lists element by element (equal lengths; a one-value list repeats)
        instead of every combination.
    samples: Monte Carlo: runs per fixed combination, each drawing the distributions anew.
    seed: of the draws (run i draws from a generator seeded with seed and i).
    threads: worker threads.
    out_dir: when given, writes what `twinblocks sweep -o DIR` writes: summary.csv (the same
        bytes as the command line's for the same sweep), timings.csv, run_NNNN.csv per run
        (unless run_files=False) and plot_SIGNAL.svg per plot.
    outputs: more summary columns, 'OP(SIGNAL)' with OP one of max, min, max_abs, final,
        mean, rms ('mean(object.position[2])', the command line's --mean SIGNAL).
    plots: signals ('path.port' or 'path.port[i]') to overlay, one line per run (needs
        out_dir).
    **settings: run settings for every run over the model's <simulation>: solver, t_start,
        t_end, step, rtol, atol, max_step, output_interval.

Returns:
    One dict per run, in index order: index, values (dict NAME -> the run's value as text),
    status ('ok', 'failed': the simulation stopped, 'invalid': the model with these values
    does not compile), t_reached (s; nan when invalid), error ('' when ok), summaries (dict
    'op(signal)' -> float: the model's <summary> values then `outputs`, as the table's
    columns), wall_seconds.

Raises:
    ModelError: an unknown block or block parameter (checked with the first run's values), a
        model that does not compile as written, an output or plot signal that is no block
        output.
    ValueError: a value list that does not parse, zip lists of different lengths, samples
        without a distribution (or the reverse), an unknown variable or solver, threads < 1,
        an unwritable out_dir.
    TypeError: an unknown setting, a value of the wrong type.
)");
}

}  // namespace twinblocks::python
