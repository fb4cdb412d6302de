#include "sweep/sweep_runner.h"

#include <Eigen/Core>
#include <algorithm>
#include <atomic>
#include <chrono>
#include <filesystem>
#include <fstream>
#include <mutex>
#include <thread>

#include "blocks/block_registry.h"
#include "common/output_file.h"
#include "common/suggest.h"
#include "compiler/compile.h"
#include "model/detail/model_support.h"
#include "model/model_error.h"
#include "runtime/simulator.h"

namespace twinblocks::sweep {

namespace {

// The model every run starts from: the user's, with the sweep's outputs as summaries and its
// plot signals as a plot, so that compile logs them (once, whatever else logs them) and
// graph::Summarize and graph::PlotSeriesFromRecording read them like the model's own.
graph::Model WithSweepOutputs(const graph::Model& model, const SweepOptions& options) {
  graph::Model out = model;
  for (const graph::SummarySpec& s : options.outputs) out.summaries.push_back(s);
  if (!options.plot_signals.empty()) {
    graph::PlotSpec plot;
    plot.file = "(sweep plot)";
    plot.signals = options.plot_signals;
    plot.where = graph::SourceLocation{"--plot", 0};
    out.plots.push_back(std::move(plot));
  }
  return out;
}

std::vector<std::vector<graph::PlotSeries>> PlotSeriesOf(const SweepOptions& options,
                                                         const graph::System& system,
                                                         const graph::Recording& recording) {
  std::vector<std::vector<graph::PlotSeries>> out;
  for (const std::string& signal : options.plot_signals) {
    graph::PlotSpec one;
    one.signals = {signal};
    out.push_back(graph::PlotSeriesFromRecording(one, system, recording));
  }
  return out;
}

// A swept block parameter the block's type does not have: every run would fail to compile
// alike, so it is a bad command line. The message is the one compile would give.
void CheckParameterKnown(const graph::Model& model, const std::string& name) {
  const size_t dot = name.rfind('.');
  if (dot == std::string::npos) return;
  const std::string path = name.substr(0, dot), param = name.substr(dot + 1);
  const graph::BlockNode* node = model.FindBlock(path);
  if (node == nullptr || node->is_subsystem()) return;  // SetParam has said why
  std::vector<std::string> valid;
  const graph::internal::TypeRef ref = graph::internal::LookUpType(model, *node);
  if (const graph::Define* def = ref.define) {
    valid = def->params;
  } else if (const blocks::BlockType* type = ref.catalog) {
    for (const blocks::ParamSpec& s : type->params) valid.push_back(s.name);
  } else {
    return;  // an unknown type: compile says so
  }
  if (std::find(valid.begin(), valid.end(), param) != valid.end()) return;
  std::string list;
  for (const std::string& v : valid) list += (list.empty() ? "" : ", ") + v;
  throw graph::ModelError(node->where, path, node->type,
                          "--set '" + name + "': unknown parameter '" + param + "'" +
                              graph::SuggestionFor(param, valid) +
                              "; valid parameters: " + (list.empty() ? "none" : list));
}

double SecondsSince(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

}  // namespace

void RunSettingsOverrides::Set(std::string_view name, graph::SettingValue value) {
  const graph::SimulationSetting* setting = graph::FindSimulationSetting(name);
  if (setting == nullptr) {
    std::string names;
    for (const std::string& n : graph::SimulationSettingNames()) {
      names += (names.empty() ? "" : ", ") + n;
    }
    throw std::invalid_argument("unknown setting '" + std::string(name) +
                                "'; expected one of: " + names);
  }
  values.emplace_back(setting, std::move(value));
}

graph::SimulationSettingsValues RunSettingsOverrides::ApplyTo(
    graph::SimulationSettingsValues settings) const {
  for (const auto& [setting, value] : values) setting->set(settings, value);
  return settings;
}

std::string_view RunStatusName(RunStatus status) {
  switch (status) {
    case RunStatus::kOk:
      return "ok";
    case RunStatus::kFailed:
      return "failed";
    case RunStatus::kInvalid:
      return "invalid";
    case RunStatus::kNotRun:
      return "not run";
    case RunStatus::kTimedOut:
      return "timed out";
  }
  throw std::logic_error("RunStatusName: not a RunStatus");
}

void ApplyRunValues(const std::vector<std::string>& names, const std::vector<std::string>& values,
                    graph::Model* model) {
  if (names.size() != values.size()) {
    throw std::logic_error("ApplyRunValues: " + std::to_string(names.size()) + " names but " +
                           std::to_string(values.size()) + " values");
  }
  for (size_t k = 0; k < names.size(); ++k) {
    const std::string& name = names[k];
    const size_t dot = name.rfind('.');
    if (dot == std::string::npos) {
      std::vector<std::string> known;
      for (const graph::Variable& v : model->variables) known.push_back(v.name);
      if (std::find(known.begin(), known.end(), name) == known.end()) {
        throw SweepError("--set '" + name + "': the model has no variable '" + name + "'" +
                         graph::SuggestionFor(name, known) +
                         " (a block parameter is written block/path.param)");
      }
      model->SetVariable(name, values[k]);
    } else {
      model->SetParam(name.substr(0, dot), name.substr(dot + 1), values[k]);
    }
  }
}

void CheckSweep(const graph::Model& model, const SweepPlan& plan, const SweepOptions& options) {
  if (options.threads < 1) {
    throw SweepError("-j " + std::to_string(options.threads) + ": expected 1 or more threads");
  }
  if (options.num_ranks < 1 || options.rank < 0 || options.rank >= options.num_ranks) {
    throw std::logic_error("CheckSweep: rank " + std::to_string(options.rank) + " of " +
                           std::to_string(options.num_ranks));
  }
  // The names: applied with the first run's values, so that a misspelled block or parameter
  // is one message now rather than an invalid row per run.
  graph::Model probe = model;
  ApplyRunValues(plan.parameter_names(), plan.Run(0).values, &probe);
  for (const std::string& name : plan.parameter_names()) CheckParameterKnown(model, name);
  // The outputs and settings: the model as written must compile with them.
  const graph::System system = graph::Compile(WithSweepOutputs(model, options));
  const graph::Simulator settings_check(system, options.settings.ApplyTo(system.settings()));
  if (!options.run_dir.empty()) {
    std::error_code ec;
    std::filesystem::create_directories(options.run_dir, ec);
    const std::string probe_path =
        (std::filesystem::path(options.run_dir) / RunFileName(0, plan.num_runs())).string();
    const bool existed = std::filesystem::exists(probe_path, ec);
    try {
      graph::ProbeWritable(probe_path);
    } catch (const graph::OutputFileError& e) {
      throw SweepError("cannot write run files in '" + options.run_dir + "': " + e.reason());
    }
    // An invalid run writes no file: leave none behind for it.
    if (!existed) std::filesystem::remove(probe_path, ec);
  }
}

RunResult RunOne(const graph::Model& model, const SweepPlan& plan, int index,
                 const SweepOptions& options) {
  const auto start = std::chrono::steady_clock::now();
  const SweepRun run = plan.Run(index);
  RunResult result;
  result.index = index;
  result.values = run.values;

  graph::Model edited = WithSweepOutputs(model, options);
  std::optional<graph::System> system;
  try {
    ApplyRunValues(plan.parameter_names(), run.values, &edited);
    system.emplace(graph::Compile(edited));
  } catch (const std::exception& e) {
    result.status = RunStatus::kInvalid;
    result.error = graph::OneLine(e.what());
    result.wall_seconds = SecondsSince(start);
    return result;
  }

  // The settings passed CheckSweep with the model as written; a run's values may still make
  // them invalid (a swept variable that sets t_end), which the constructor reports.
  std::optional<graph::Simulator> sim;
  try {
    sim.emplace(*system, options.settings.ApplyTo(system->settings()));
  } catch (const std::exception& e) {
    result.status = RunStatus::kInvalid;
    result.error = graph::OneLine(e.what());
    result.wall_seconds = SecondsSince(start);
    return result;
  }
  sim->SetStopRequest(options.stop);
  const graph::SimulationOutcome outcome = sim->Run();
  result.status = outcome.ok          ? RunStatus::kOk
                  : outcome.timed_out ? RunStatus::kTimedOut
                                      : RunStatus::kFailed;
  result.t_reached = outcome.t;
  result.error = graph::OneLine(outcome.error);

  const graph::Recording& recording = sim->recording();
  // Both read signals compile was told to log, so neither throws for a model CheckSweep passed.
  result.summaries = graph::Summarize(edited.summaries, *system, recording);
  result.series = PlotSeriesOf(options, *system, recording);
  if (!options.run_dir.empty()) {
    const std::string path =
        (std::filesystem::path(options.run_dir) / RunFileName(index, plan.num_runs())).string();
    try {
      recording.WriteCsv(path);
    } catch (const graph::OutputFileError& e) {
      if (e.opened()) {
        // A write that failed part way (a full disk, a file-size limit): the runs after
        // this one would fail alike, so the sweep stops.
        result.write_error = graph::OneLine(e.what());
      } else {
        // This run's file alone cannot be made (a folder in its place): its row fails.
        result.status = RunStatus::kFailed;
        result.error += std::string(result.error.empty() ? "" : "; ") + graph::OneLine(e.what());
      }
    }
  }
  result.wall_seconds = SecondsSince(start);
  return result;
}

std::vector<int> RankIndices(int num_runs, int rank, int num_ranks) {
  std::vector<int> indices;
  for (int i = rank; i < num_runs; i += num_ranks) indices.push_back(i);
  return indices;
}

std::vector<RunResult> RunSweep(const graph::Model& model, const SweepPlan& plan,
                                const SweepOptions& options,
                                const std::function<void(const RunResult&)>& on_done) {
  const std::vector<int> indices = RankIndices(plan.num_runs(), options.rank, options.num_ranks);
  std::vector<RunResult> rows(indices.size());
  std::atomic<size_t> next{0};
  std::atomic<bool> write_failed{false};
  std::mutex done_mutex;
  auto work = [&] {
    for (size_t k = next++; k < indices.size(); k = next++) {
      const bool interrupted =
          options.stop != nullptr && options.stop->load(std::memory_order_relaxed);
      if (interrupted || write_failed.load(std::memory_order_relaxed)) {
        rows[k] = RunResult{};
        rows[k].index = indices[k];
        rows[k].values = plan.Run(indices[k]).values;
        rows[k].status = RunStatus::kNotRun;
        rows[k].error = interrupted ? "the sweep was interrupted before this run started"
                                    : "the sweep stopped: a run's results could not be written";
        continue;
      }
      try {
        rows[k] = RunOne(model, plan, indices[k], options);
      } catch (const std::exception& e) {
        // Not a model or numerical failure (those are rows already) but, say, memory running
        // out: still one row, so that the other runs finish.
        rows[k] = RunResult{};
        rows[k].index = indices[k];
        rows[k].values = plan.Run(indices[k]).values;
        rows[k].status = RunStatus::kFailed;
        rows[k].error = graph::OneLine(e.what());
      }
      if (!rows[k].write_error.empty()) write_failed.store(true, std::memory_order_relaxed);
      if (on_done) {
        std::lock_guard<std::mutex> lock(done_mutex);
        on_done(rows[k]);
      }
    }
  };
  const int threads = std::max(1, std::min<int>(options.threads, static_cast<int>(indices.size())));
  // Eigen keeps the CPU cache sizes its matrix products block by in statics set on first use;
  // set them before the threads start so that no two first uses race (helgrind saw one).
  if (threads > 1) Eigen::initParallel();
  std::vector<std::thread> workers;
  for (int t = 1; t < threads; ++t) workers.emplace_back(work);
  work();
  for (std::thread& w : workers) w.join();
  return rows;
}

std::string RunFileName(int index, int num_runs) {
  const int width = std::max<int>(4, std::to_string(std::max(0, num_runs - 1)).size());
  std::string digits = std::to_string(index);
  if (static_cast<int>(digits.size()) < width) digits.insert(0, width - digits.size(), '0');
  return "run_" + digits + ".csv";
}

}  // namespace twinblocks::sweep
