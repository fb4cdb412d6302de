// twinblocks: run, sweep, check and inspect block-diagram models from the command line.
#include <cerrno>
#include <csignal>
#include <cstdio>
#include <cstring>
#include <exception>
#include <new>
#include <string>
#include <utility>
#include <vector>

#include "cli/commands.h"
#include "common/input_limits.h"
#include "common/output_file.h"
#include "io/graphviz_render.h"
#include "io/mat_writer.h"
#include "io/svg_raster.h"
#include "model/model_error.h"
#include "xml/urdf_reader.h"

namespace {

// `twinblocks --version`: the version, and the optional parts this build has, for bug reports
// and for scripts that need one of them.
std::string LimitNames() {
  std::string names;
  for (const twinblocks::blocks::InputLimitInfo& info : twinblocks::blocks::InputLimitTable()) {
    names += (names.empty() ? "" : ", ") + std::string(info.name);
  }
  return names;
}

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

// The name of the first option given an empty value (`-o ''`), or "": no option of any
// command means something by an empty text, and a default taken silently in its place (the
// results written where they were not asked to go) is worse than an error.
std::string EmptyOptionValue(const CLI::App& app) {
  std::vector<const CLI::App*> apps = {&app};
  for (const CLI::App* sub : app.get_subcommands()) apps.push_back(sub);
  for (const CLI::App* a : apps) {
    for (const CLI::Option* opt : a->get_options()) {
      if (opt->get_expected_min() == 0) continue;  // a flag
      for (const std::string& value : opt->results()) {
        if (value.empty()) return opt->get_name();
      }
    }
  }
  return "";
}

// Runs the command the line named, turning every error into its one line and exit status.
int RunCommand(const CLI::App& app,
               const std::vector<std::pair<const char*, twinblocks::cli::Runner>>& commands) {
  using namespace twinblocks::cli;
  try {
    for (const auto& [name, runner] : commands) {
      if (app.got_subcommand(name)) return runner();
    }
  } catch (const twinblocks::graph::ModelError& e) {
    std::fprintf(stderr, "%s\n", twinblocks::graph::ReadableLine(e.what()).c_str());
    return kExitBadInput;
  } catch (const twinblocks::graph::OutputFileError& e) {
    std::fprintf(stderr, "twinblocks: %s\n", twinblocks::graph::ReadableLine(e.what()).c_str());
    return e.opened() ? kExitWriteFailed : kExitBadInput;
  } catch (const std::bad_alloc&) {
    // The limits (docs/model-format.md) keep models from asking for this; the machine may
    // still have less memory than a model within them needs.
    std::fprintf(stderr, "twinblocks: out of memory\n");
    return kExitBadInput;
  } catch (const std::exception& e) {
    // Usage errors, bad settings (an unknown solver, a negative step), unreadable files.
    std::fprintf(stderr, "twinblocks: %s\n", twinblocks::graph::ReadableLine(e.what()).c_str());
    return kExitBadInput;
  }
  return kExitBadInput;
}

}  // namespace

int main(int argc, char** argv) {
  using namespace twinblocks::cli;
  // Output piped into `head` that closes early: a failed write (EPIPE), reported as one line
  // and exit status 4 below, not a death by SIGPIPE.
  std::signal(SIGPIPE, SIG_IGN);
  CLI::App app{"twinblocks: block-diagram digital twins, from XML models to results"};
  app.require_subcommand(1);
  app.set_help_all_flag("--help-all", "Help for every command");
  app.set_version_flag("--version", VersionText(), "The version, and the optional parts built");
  std::vector<std::string> limits;
  app.add_option("--limit", limits,
                 "Raise (or lower) a limit on the size of inputs, NAME=VALUE, repeatable: " +
                     LimitNames() + " (docs/model-format.md, \"Limits\")")
      ->type_name("NAME=N");
  // Options of the program, like --limit, may come after the command's own too.
  app.fallthrough();
  std::vector<std::pair<const char*, Runner>> commands = {
      {"run", AddRunCommand(app)},          {"check", AddCheckCommand(app)},
      {"blocks", AddBlocksCommand(app)},    {"graph", AddGraphCommand(app)},
      {"plot", AddPlotCommand(app)},        {"sweep", AddSweepCommand(app)},
      {"import", AddImportCommand(app)},    {"report", AddReportCommand(app)},
      {"grasp", AddGraspCommand(app)},
      {"settings", AddSettingsCommand(app)}};
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    if (e.get_exit_code() == 0) return app.exit(e);  // --help, --version
    std::fprintf(stderr, "twinblocks: %s (see twinblocks --help)\n",
                 twinblocks::graph::ReadableLine(e.what()).c_str());
    return kExitBadInput;
  }
  if (const std::string empty = EmptyOptionValue(app); !empty.empty()) {
    std::fprintf(stderr, "twinblocks: %s: an empty value; expected %s\n", empty.c_str(),
                 "a value (a file name, a number, NAME=VALUE)");
    return kExitBadInput;
  }
  try {
    for (const std::string& limit : limits) twinblocks::blocks::SetInputLimit(limit);
  } catch (const std::invalid_argument& e) {
    std::fprintf(stderr, "twinblocks: %s\n", twinblocks::graph::ReadableLine(e.what()).c_str());
    return kExitBadInput;
  }
  const int status = RunCommand(app, commands);
  // What was printed must have reached its reader: `twinblocks blocks > /dev/full` fails.
  if (std::fflush(stdout) != 0 || std::ferror(stdout)) {
    std::fprintf(stderr, "twinblocks: cannot write to standard output: %s\n", std::strerror(errno));
    return status == kExitOk ? kExitWriteFailed : status;
  }
  return status;
}
