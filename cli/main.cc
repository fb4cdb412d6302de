// twinblocks: run, sweep, check and inspect block-diagram models from the command line.
#include <cstdio>
#include <exception>
#include <string>
#include <vector>

#include "cli/commands.h"
#include "graph/graphviz_render.h"
#include "graph/mat_writer.h"
#include "graph/model_error.h"
#include "graph/svg_raster.h"
#include "xml/urdf_reader.h"

namespace {

// `twinblocks --version`: the version, and the optional parts this build has, for bug reports
// and for scripts that need one of them.
std::string VersionText() {
  std::string parts;
  auto add = [&parts](bool has, const char* name) {
    if (has) parts += std::string(parts.empty() ? "" : ", ") + name;
  };
  add(twinblocks::graph::PngSupported(), "PNG");
  add(twinblocks::graph::MatSupported(), ".mat");
  add(twinblocks::graph::GraphvizSupported(), "Graphviz");
  add(twinblocks::xml::UrdfSupported(), "URDF");
#ifdef TWINBLOCKS_MPI
  add(true, "MPI");
#endif
#ifdef TWINBLOCKS_REPORT
  add(true, "HTML report");
#endif
  return std::string("twinblocks ") + TWINBLOCKS_VERSION +
         "\nwith: " + (parts.empty() ? "none of the optional parts" : parts);
}

}  // namespace

int main(int argc, char** argv) {
  using namespace twinblocks::cli;
  CLI::App app{"twinblocks: block-diagram digital twins, from XML models to results"};
  app.require_subcommand(1);
  app.set_help_all_flag("--help-all", "Help for every command");
  app.set_version_flag("--version", VersionText(), "The version, and the optional parts built");
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
    if (e.get_exit_code() == 0) return app.exit(e);  // --help, --version
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
