// `twinblocks graph MODEL`: the compiled diagram as Graphviz DOT, subsystems as clusters.
#include <cstdio>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "cli/commands.h"
#include "graph/compile.h"

namespace twinblocks::cli {

namespace {

std::string Escape(const std::string& s) {
  std::string q;
  for (char c : s) {
    if (c == '"' || c == '\\') q += '\\';
    q += c;
  }
  return q;
}

std::string Quote(const std::string& s) { return "\"" + Escape(s) + "\""; }

/// Prints the blocks of one subsystem level as a cluster, recursing into deeper levels.
struct Cluster {
  std::vector<int> blocks;
  std::map<std::string, Cluster> children;
};

void PrintCluster(const graph::System& sys, const Cluster& c, const std::string& path, int depth) {
  const std::string indent(2 * depth, ' ');
  for (int i : c.blocks) {
    std::printf("%s%s [label=%s];\n", indent.c_str(), Quote(sys.block_path(i)).c_str(),
                ("\"" + Escape(sys.block_path(i).substr(sys.block_path(i).rfind('/') + 1)) + "\\n" +
                 Escape(sys.block_type(i)) + "\"")
                    .c_str());
  }
  for (const auto& [name, child] : c.children) {
    const std::string child_path = path.empty() ? name : path + "/" + name;
    std::printf("%ssubgraph %s {\n%s  label=%s;\n", indent.c_str(),
                Quote("cluster_" + child_path).c_str(), indent.c_str(), Quote(name).c_str());
    PrintCluster(sys, child, child_path, depth + 1);
    std::printf("%s}\n", indent.c_str());
  }
}

int Graph(const std::string& path, const std::vector<std::string>& sets) {
  const graph::Model model = LoadModel(path, sets);
  const graph::System sys = graph::Compile(model);
  Cluster root;
  for (int i = 0; i < sys.num_blocks(); ++i) {
    Cluster* c = &root;
    const std::string& p = sys.block_path(i);
    size_t start = 0;
    for (size_t slash = p.find('/'); slash != std::string::npos; slash = p.find('/', start)) {
      c = &c->children[p.substr(start, slash - start)];
      start = slash + 1;
    }
    c->blocks.push_back(i);
  }
  std::printf("digraph %s {\n  rankdir=LR;\n  node [shape=box];\n", Quote(model.name).c_str());
  PrintCluster(sys, root, "", 1);
  // Lines: every input, from the output whose buffer slice it reads.
  std::map<int, std::pair<int, int>> output_at;  // offset -> (block, port)
  for (int i = 0; i < sys.num_blocks(); ++i) {
    for (int p = 0; p < sys.block(i).num_outputs(); ++p) {
      output_at[sys.block(i).output_port(p).offset] = {i, p};
    }
  }
  for (int i = 0; i < sys.num_blocks(); ++i) {
    const blocks::Block& b = sys.block(i);
    for (int p = 0; p < b.num_inputs(); ++p) {
      const auto [src, port] = output_at.at(b.input_port(p).offset);
      const blocks::Block& s = sys.block(src);
      std::string label = s.output_port(port).name + " -> " + b.input_port(p).name;
      if (b.input_port(p).width > 1) label += " [" + std::to_string(b.input_port(p).width) + "]";
      std::printf("  %s -> %s [label=%s];\n", Quote(sys.block_path(src)).c_str(),
                  Quote(sys.block_path(i)).c_str(), Quote(label).c_str());
    }
  }
  std::printf("}\n");
  return kExitOk;
}

}  // namespace

Runner AddGraphCommand(CLI::App& app) {
  auto path = std::make_shared<std::string>();
  auto sets = std::make_shared<std::vector<std::string>>();
  CLI::App* cmd = app.add_subcommand("graph", "Print the compiled diagram as Graphviz DOT");
  cmd->add_option("model", *path, "Model file (.xml)")->required()->check(CLI::ExistingFile);
  cmd->add_option("--set", *sets, "Override a variable or parameter, as for run");
  return [path, sets] { return Graph(*path, *sets); };
}

}  // namespace twinblocks::cli
