// `twinblocks settings`: the run settings and the solvers, as docs/model-format.md lists them.
#include <cstdio>
#include <memory>
#include <string>

#include "cli/commands.h"
#include "runtime/simulation_settings.h"
#include "solvers/solver_table.h"

namespace twinblocks::cli {

namespace {

int Settings(bool solvers_only) {
  if (!solvers_only) {
    std::fputs(graph::SimulationSettingsTable().c_str(), stdout);
    std::printf("\n");
  }
  std::printf("| solver | step | stiff problems | equations | description |\n");
  std::printf("|---|---|---|---|---|\n");
  for (const solvers::SolverInfo& s : solvers::SolverTable()) {
    std::printf("| `%s` | %s | %s | %s | %s |\n", std::string(s.name).c_str(),
                s.is_fixed_step() ? "fixed" : "variable",
                s.stiffness == solvers::Stiffness::kImplicit ? "yes (implicit)" : "no (explicit)",
                s.solves_daes() ? "ODE and DAE" : "ODE", std::string(s.description).c_str());
  }
  return kExitOk;
}

}  // namespace

Runner AddSettingsCommand(CLI::App& app) {
  auto solvers_only = std::make_shared<bool>(false);
  CLI::App* cmd = app.add_subcommand(
      "settings", "List the run settings (<simulation>, run and sweep flags) and the solvers");
  cmd->add_flag("--solvers", *solvers_only, "Only the solvers");
  return [solvers_only] { return Settings(*solvers_only); };
}

}  // namespace twinblocks::cli
