// `twinblocks import ROBOT.urdf -o ROBOT.xml`: a URDF robot description as a model file
// (docs/urdf.md).
#include <cstdio>
#include <fstream>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

#include "cli/commands.h"
#include "common/output_file.h"
#include "compiler/compile.h"
#include "xml/urdf_reader.h"

namespace twinblocks::cli {

namespace {

struct ImportArgs {
  std::string urdf;
  std::string output;
  UrdfArgs how;  ///< --actuation, --mesh-path
  double t_end = 1.0;
};

int Import(const ImportArgs& args) {
  xml::UrdfImportOptions options = UrdfOptionsFrom(args.how);
  if (!(args.t_end > 0.0)) throw UsageError("--t-end must be positive");
  options.t_end = args.t_end;
  const xml::UrdfImport import = xml::ReadUrdfFile(args.urdf, options);
  for (const std::string& w : import.warnings) std::fprintf(stderr, "%s\n", w.c_str());
  // What is written must run as it is: compiling it here reports any problem against the URDF.
  const graph::System system = graph::Compile(import.model);
  const std::string text = xml::WriteImportedModelString(import, args.urdf);
  if (args.output.empty()) {
    std::fputs(text.c_str(), stdout);
    return kExitOk;
  }
  graph::WriteWholeFile(args.output, text);
  std::printf("%s: %d blocks, %d continuous states, %zu warnings -> %s\n",
              import.model.name.c_str(), static_cast<int>(import.model.root.blocks.size()),
              system.num_continuous_states(), import.warnings.size(), args.output.c_str());
  return kExitOk;
}

}  // namespace

Runner AddImportCommand(CLI::App& app) {
  auto args = std::make_shared<ImportArgs>();
  CLI::App* cmd = app.add_subcommand("import", "Convert a URDF robot description into a model");
  cmd->add_option("urdf", args->urdf, "Robot description (.urdf)")->required();
  cmd->add_option("-o,--output", args->output, "Model file to write (default: standard output)");
  cmd->add_option("--actuation", args->how.actuation,
                  "How the joints are driven: none (passive), torque (inport tau), motion "
                  "(inport q)");
  cmd->add_option("--mesh-path", args->how.mesh_paths,
                  "Directory in which package:// meshes are looked up; repeatable");
  cmd->add_option("--t-end", args->t_end, "End time of the model's <simulation>, s (default 1)");
  return [args] { return Import(*args); };
}

}  // namespace twinblocks::cli
