// twinblocks: run, sweep, check and inspect block-diagram models from the command line.
#include <cstdio>
#include <exception>
#include <string>
#include <vector>

#include "cli/commands.h"
#include "graph/model_error.h"

int main(int argc, char** argv) {
  using namespace twinblocks::cli;
  CLI::App app{"twinblocks: block-diagram digital twins, from XML models to results"};
  app.require_subcommand(1);
  app.set_help_all_flag("--help-all", "Help for every command");
  Runner run = AddRunCommand(app);
  Runner check = AddCheckCommand(app);
  Runner blocks = AddBlocksCommand(app);
  Runner graph = AddGraphCommand(app);
  Runner plot = AddPlotCommand(app);
  Runner sweep = AddSweepCommand(app);
  Runner import = AddImportCommand(app);
  Runner report = AddReportCommand(app);
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    if (e.get_exit_code() == 0) return app.exit(e);  // --help
    std::fprintf(stderr, "twinblocks: %s (see twinblocks --help)\n", e.what());
    return kExitBadInput;
  }
  try {
    if (app.got_subcommand("run")) return run();
    if (app.got_subcommand("check")) return check();
    if (app.got_subcommand("blocks")) return blocks();
    if (app.got_subcommand("graph")) return graph();
    if (app.got_subcommand("plot")) return plot();
    if (app.got_subcommand("sweep")) return sweep();
    if (app.got_subcommand("import")) return import();
    if (app.got_subcommand("report")) return report();
  } catch (const twinblocks::graph::ModelError& e) {
    std::fprintf(stderr, "%s\n", e.what());
    return kExitBadInput;
  } catch (const UsageError& e) {
    std::fprintf(stderr, "twinblocks: %s\n", e.what());
    return kExitBadInput;
  } catch (const std::exception& e) {
    // Bad settings (an unknown solver, a negative step) and unreadable files.
    std::fprintf(stderr, "twinblocks: %s\n", e.what());
    return kExitBadInput;
  }
  return kExitBadInput;
}
