// `twinblocks graph MODEL`: the block diagram as Graphviz DOT, or laid out as an SVG or PNG
// picture (--svg, --png) through libgvc.
#include <cstdio>
#include <filesystem>
#include <memory>
#include <string>
#include <vector>

#include "cli/commands.h"
#include "cli/output_file.h"
#include "compiler/compile.h"
#include "io/diagram_dot.h"
#include "io/graphviz_render.h"

namespace twinblocks::cli {

namespace {

struct GraphArgs {
  std::string model;
  std::vector<std::string> sets;
  bool compiled = false;
  bool expand = false;
  bool svg = false;
  bool png = false;
  std::string output;
};

// "dot", "svg" or "png": from --svg/--png, else from the extension of -o, else DOT.
// @throws UsageError for a flag that contradicts the extension of -o, or an unknown extension.
std::string FormatOf(const GraphArgs& args) {
  if (args.svg && args.png) throw UsageError("graph: --svg and --png exclude each other");
  const std::string ext =
      args.output.empty() || args.output == "-" ? std::string() : LowerExtension(args.output);
  std::string from_ext;
  if (ext == ".svg") from_ext = "svg";
  if (ext == ".png") from_ext = "png";
  if (ext == ".dot" || ext == ".gv") from_ext = "dot";
  const std::string flag = args.svg ? "svg" : args.png ? "png" : "";
  if (!flag.empty()) {
    if (!from_ext.empty() && from_ext != flag) {
      throw UsageError("-o '" + args.output + "' is not a ." + flag + " file (--" + flag + ")");
    }
    return flag;
  }
  if (!ext.empty() && from_ext.empty()) {
    throw UsageError("-o '" + args.output + "': unknown diagram format '" + ext +
                     "', expected a file name ending in .dot, .gv, .svg or .png");
  }
  return from_ext.empty() ? "dot" : from_ext;
}

int Graph(const GraphArgs& args) {
  const std::string format = FormatOf(args);
  if (format != "dot" && !graph::GraphvizSupported()) {
    throw UsageError("cannot draw the diagram as " + format +
                     ": twinblocks was built without Graphviz (libgvc)");
  }
  const graph::Model model = LoadModel(args.model, args.sets);
  // Compiled even when drawn as written: a model that does not compile is reported as `check`
  // reports it, not drawn.
  const graph::System system = graph::Compile(model);
  graph::DiagramDotOptions options;
  options.expand_defines = args.expand;
  const std::string dot = args.compiled ? graph::CompiledDiagramDot(system, model.name)
                                        : graph::DiagramDot(model, options);
  if (format == "dot") {
    WriteOutputFile(args.output.empty() ? "-" : args.output, dot);
    return kExitOk;
  }
  // Pictures go to a file (PNG bytes do not belong on a terminal): the model's name by
  // default, in the current directory, as `run` names its results.
  const std::string output = args.output.empty()
                                 ? std::filesystem::path(args.model).stem().string() + "." + format
                                 : args.output;
  WriteOutputFile(output, graph::RenderDot(dot, format));
  if (output != "-") std::printf("wrote %s\n", output.c_str());
  return kExitOk;
}

}  // namespace

Runner AddGraphCommand(CLI::App& app) {
  auto args = std::make_shared<GraphArgs>();
  CLI::App* cmd =
      app.add_subcommand("graph", "The block diagram as Graphviz DOT, or as an SVG or PNG picture");
  cmd->add_option("model", args->model, "Model file (.xml)")->required()->check(CLI::ExistingFile);
  cmd->add_option("--set", args->sets, "Override a variable or parameter, as for run");
  cmd->add_flag("--compiled", args->compiled,
                "The compiled blocks (mechanisms as one block) instead of the diagram as drawn");
  cmd->add_flag("--expand", args->expand,
                "Draw each instance of a define (a library block) with its contents, as a "
                "cluster");
  cmd->add_flag("--svg", args->svg, "Lay out with Graphviz and write SVG");
  cmd->add_flag("--png", args->png, "Lay out with Graphviz and write PNG");
  cmd->add_option("-o,--output", args->output,
                  "Output file; its extension (.dot, .gv, .svg, .png) picks the format when no "
                  "flag does. Default: DOT on stdout; pictures to MODEL's name with .svg/.png "
                  "in the current directory; '-' for stdout");
  return [args] { return Graph(*args); };
}

}  // namespace twinblocks::cli
