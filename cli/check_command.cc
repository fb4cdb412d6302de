// `twinblocks check MODEL`: compile only, and say what the model became.
#include <cstdio>
#include <memory>
#include <string>
#include <variant>
#include <vector>

#include "cli/commands.h"
#include "common/suggest.h"
#include "compiler/compile.h"
#include "io/summary.h"
#include "runtime/simulation_settings.h"
#include "runtime/simulator.h"

namespace twinblocks::cli {

namespace {

std::string RateText(const blocks::SampleTime& st) {
  using K = blocks::SampleTime::Kind;
  switch (st.kind) {
    case K::kContinuous:
      return "continuous";
    case K::kConstant:
      return "constant";
    case K::kInherited:
      return "inherited";
    case K::kTriggered:
      return "triggered";
    case K::kDiscrete:
      return "Ts=" + graph::FormatNumber(st.period) +
             (st.offset != 0.0 ? " offset=" + graph::FormatNumber(st.offset) : "");
  }
  return "";
}

// The run's settings, in the schema's order: each one set, with its unit.
std::string SettingsLine(const graph::SimulationSettingsValues& s) {
  std::string line;
  for (const graph::SimulationSetting& setting : graph::SimulationSettingsSchema()) {
    const graph::SettingValue v = setting.get(s);
    std::string text;
    if (const double* x = std::get_if<double>(&v)) {
      text = graph::FormatNumber(*x);
    } else if (const bool* b = std::get_if<bool>(&v)) {
      text = *b ? "on" : "off";
    } else if (const std::string* w = std::get_if<std::string>(&v)) {
      text = *w;
    } else {
      continue;  // unset: the solver's own default
    }
    line += (line.empty() ? "" : ", ") + std::string(setting.name) + " " + text;
    if (!setting.unit.empty()) line += " " + std::string(setting.unit);
  }
  return line;
}

int Check(const std::string& path, const std::vector<std::string>& sets) {
  const graph::Model model = LoadModel(path, sets);
  const graph::System sys = graph::Compile(model);
  const graph::SimulationSettingsValues& s = sys.settings();
  MakeSimulator(model, path, sys, s);  // the settings as a run would take them
  std::printf("model %s: ok\n", model.name.c_str());
  std::printf("blocks: %d, continuous states: %d, discrete states: %d, zero crossings: %d\n",
              sys.num_blocks(), sys.num_continuous_states(), sys.num_discrete_states(),
              sys.num_zero_crossings());
  std::printf("sample times:");
  if (sys.rates().empty()) std::printf(" none discrete");
  for (const blocks::SampleTime& r : sys.rates()) std::printf(" [%s]", RateText(r).c_str());
  std::printf("\nsettings: %s", SettingsLine(s).c_str());
  std::printf("\n\nexecution order (path, type, sample time, states):\n");
  for (const graph::ExecutionEntry& e : sys.major_order()) {
    const int i = e.block->index();
    const blocks::Block& b = *e.block;
    std::printf("  %-32s %-18s %-14s", sys.block_path(i).c_str(), sys.block_type(i).c_str(),
                RateText(b.sample_time()).c_str());
    if (b.num_stages() > 1) std::printf(" stage %d", e.stage);
    if (b.num_continuous_states() > 0) std::printf(" x:%d", b.num_continuous_states());
    if (b.num_discrete_states() > 0) std::printf(" xd:%d", b.num_discrete_states());
    if (b.num_zero_crossings() > 0) std::printf(" zc:%d", b.num_zero_crossings());
    std::printf("\n");
  }
  for (const graph::ExecutionEntry& e : sys.constant_order()) {
    const int i = e.block->index();
    std::printf("  %-32s %-18s %-14s\n", sys.block_path(i).c_str(), sys.block_type(i).c_str(),
                "constant");
  }
  std::printf("\nlogged signals:");
  if (sys.logged_signals().empty()) std::printf(" none (add <log signal=\"block.port\"/>)");
  std::printf("\n");
  for (const graph::LoggedSignal& l : sys.logged_signals()) {
    std::printf("  %-32s from %s, width %d\n", l.name.c_str(), l.source.c_str(), l.width);
  }
  if (!model.plots.empty()) std::printf("\nplots (written by run):\n");
  for (const graph::PlotSpec& p : model.plots) {
    std::string signals;
    for (const std::string& s : p.signals) signals += " " + s;
    std::printf("  %-32s%s%s\n", p.file.c_str(), signals.c_str(), p.log_y ? " (log y)" : "");
  }
  if (!model.summaries.empty()) std::printf("\nsummaries (printed by run):\n");
  for (const graph::SummarySpec& m : model.summaries) {
    std::string signals;
    for (const std::string& s : m.signals) signals += " " + s;
    std::printf("  %-8s%s%s\n", std::string(graph::SummaryOpName(m.op)).c_str(), signals.c_str(),
                m.label.empty() ? "" : ("  (" + m.label + ")").c_str());
  }
  return kExitOk;
}

}  // namespace

Runner AddCheckCommand(CLI::App& app) {
  auto path = std::make_shared<std::string>();
  auto sets = std::make_shared<std::vector<std::string>>();
  CLI::App* cmd = app.add_subcommand(
      "check", "Compile a model without running it: blocks, states, sample times, settings");
  cmd->add_option("model", *path, "Model file (.xml)")->required()->check(CLI::ExistingFile);
  cmd->add_option("--set", *sets, "Override a variable or parameter, as for run");
  return [path, sets] { return Check(*path, *sets); };
}

}  // namespace twinblocks::cli
