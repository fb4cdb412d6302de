#include "io/diagram_dot.h"

#include <map>
#include <set>
#include <utility>
#include <vector>

#include "model/detail/model_support.h"
#include "model/model_error.h"

namespace twinblocks::graph {

namespace {

using internal::PortLookup;
using internal::PortRole;

// A DOT string: quoted, with quotes and backslashes escaped and line breaks as DOT's "\n".
std::string Quote(const std::string& text) {
  std::string q = "\"";
  for (char c : text) {
    if (c == '"' || c == '\\') q += '\\';
    if (c == '\n') {
      q += "\\n";
    } else {
      q += c;
    }
  }
  return q + "\"";
}

// Helvetica everywhere: Graphviz' default Times looks out of place next to the SVG plots.
constexpr char kGraphStyle[] =
    "  rankdir=LR;\n"
    "  fontname=\"Helvetica\";\n"
    "  node [shape=box, style=rounded, fontname=\"Helvetica\", fontsize=11];\n"
    "  edge [fontname=\"Helvetica\", fontsize=9];\n";

// The node of the boundary port `port` of the diagram at `diagram_path`.
std::string BoundaryNode(const std::string& diagram_path, std::string_view port) {
  return diagram_path + "." + std::string(port);
}

class ModelDotWriter {
 public:
  ModelDotWriter(const Model& model, const DiagramDotOptions& options)
      : model_(model), options_(options) {}

  std::string Write() {
    out_ = "digraph " + Quote(model_.name) + " {\n" + kGraphStyle;
    WriteNodes(model_.root, "", 1);
    WriteLines(model_.root, "");
    out_ += "}\n";
    return std::move(out_);
  }

 private:
  // The blocks and boundary ports of one diagram, then each subsystem as a cluster.
  void WriteNodes(const Diagram& diagram, const std::string& path, int depth) {
    const std::string indent(2 * depth, ' ');
    for (const PortDecl& p : diagram.ports) {
      const bool physical = p.kind == PortDecl::Kind::kPhysical;
      out_ += indent + Quote(BoundaryNode(path, p.name)) + " [label=" + Quote(p.name) +
              (physical ? ", shape=hexagon" : ", shape=ellipse") +
              ", style=filled, fillcolor=\"#eeeeee\", fontsize=10];\n";
    }
    for (const BlockNode& b : diagram.blocks) {
      const std::string block_path = internal::JoinPath(path, b.name);
      if (BodyOf(b) != nullptr) continue;
      out_ += indent + Quote(block_path) + " [label=" + Quote(b.name + "\n" + b.type) +
              (b.commented ? ", style=\"rounded,dashed\", color=gray50, fontcolor=gray50" : "") +
              "];\n";
    }
    for (const BlockNode& b : diagram.blocks) {
      const Diagram* body = BodyOf(b);
      if (body == nullptr) continue;
      const std::string block_path = internal::JoinPath(path, b.name);
      const std::string label = b.is_subsystem() ? b.name : b.name + " (" + b.type + ")";
      out_ += indent + "subgraph " + Quote("cluster_" + block_path) + " {\n" + indent +
              "  label=" + Quote(label) + ";\n" + indent +
              "  style=" + (b.commented ? "\"rounded,dashed\"" : "rounded") + ";\n" + indent +
              "  color=gray40;\n";
      WriteNodes(*body, block_path, depth + 1);
      out_ += indent + "}\n";
    }
  }

  // The lines of one diagram, then those inside its subsystems. Every node is declared by
  // now, so the edges can sit at the top level without moving nodes out of their clusters.
  void WriteLines(const Diagram& diagram, const std::string& path) {
    // Blocks with more than one port in this diagram's lines: their lines name the port.
    std::map<std::string_view, std::set<std::string_view>> ports_used;
    for (const Connection& c : diagram.connections) {
      for (const std::string* end : {&c.from, &c.to}) {
        const auto [block, port] = internal::SplitEndpoint(*end);
        ports_used[block].insert(port);
      }
    }
    for (const Connection& c : diagram.connections) {
      const bool physical = Role(diagram, path, c.from) == PortRole::kPhysical ||
                            Role(diagram, path, c.to) == PortRole::kPhysical;
      bool from_ambiguous = false;
      bool to_ambiguous = false;
      const std::string from = EndpointNode(diagram, path, c.from, ports_used, &from_ambiguous);
      const std::string to = EndpointNode(diagram, path, c.to, ports_used, &to_ambiguous);
      // Both ends' ports, so that the label cannot be read as the other end's.
      std::string label;
      if (from_ambiguous || to_ambiguous) {
        label = std::string(internal::SplitEndpoint(c.from).second) + (physical ? " - " : " -> ") +
                std::string(internal::SplitEndpoint(c.to).second);
      }
      out_ += "  " + Quote(from) + " -> " + Quote(to) + " [";
      out_ +=
          physical ? "class=physical, dir=none, penwidth=2.5, color=\"#1f5fa8\"" : "class=signal";
      if (!label.empty()) out_ += ", label=" + Quote(label);
      out_ += "];\n";
    }
    for (const BlockNode& b : diagram.blocks) {
      if (const Diagram* body = BodyOf(b)) WriteLines(*body, internal::JoinPath(path, b.name));
    }
  }

  // The node a line's end attaches to: the block, or the boundary-port node of a subsystem
  // (its own, for ".port"). `ambiguous` is set when the node is a block with other ports in
  // lines, so that the line must name its port.
  std::string EndpointNode(const Diagram& diagram, const std::string& path,
                           const std::string& endpoint,
                           const std::map<std::string_view, std::set<std::string_view>>& used,
                           bool* ambiguous) const {
    const auto [block, port] = internal::SplitEndpoint(endpoint);
    if (block.empty()) return BoundaryNode(path, port);
    const std::string block_path = internal::JoinPath(path, block);
    const BlockNode* node = diagram.Find(block);
    if (node != nullptr && BodyOf(*node) != nullptr) return BoundaryNode(block_path, port);
    *ambiguous = used.at(block).size() > 1;
    return block_path;
  }

  // Whether a line's end is a physical port; lines whose ports cannot be looked up (a model
  // not compiled first) count as signal lines.
  PortRole Role(const Diagram& diagram, const std::string& path,
                const std::string& endpoint) const {
    try {
      const PortLookup p = internal::ResolveEndpoint(model_, nullptr, path, diagram, endpoint);
      return p.status == PortLookup::Status::kFound ? p.info.role : PortRole::kInput;
    } catch (const ModelError&) {
      return PortRole::kInput;
    }
  }

  // What is drawn inside the node of `block` as a cluster: a subsystem's body, or with
  // expand_defines a define instance's; null for a plain box.
  const Diagram* BodyOf(const BlockNode& block) const {
    if (block.is_subsystem()) return block.body.get();
    if (!options_.expand_defines) return nullptr;
    const Define* define = model_.FindDefine(block.type);
    return define != nullptr ? &define->body : nullptr;
  }

  const Model& model_;
  const DiagramDotOptions options_;
  std::string out_;
};

// The blocks of one subsystem level of a compiled system, and the levels below it.
struct Cluster {
  std::vector<int> blocks;
  std::map<std::string, Cluster> children;
};

void WriteCluster(const System& system, const Cluster& cluster, const std::string& path, int depth,
                  std::string* out) {
  const std::string indent(2 * depth, ' ');
  for (int i : cluster.blocks) {
    const std::string& p = system.block_path(i);
    *out += indent + Quote(p) +
            " [label=" + Quote(p.substr(p.rfind('/') + 1) + "\n" + system.block_type(i)) + "];\n";
  }
  for (const auto& [name, child] : cluster.children) {
    const std::string child_path = path.empty() ? name : path + "/" + name;
    *out += indent + "subgraph " + Quote("cluster_" + child_path) + " {\n" + indent +
            "  label=" + Quote(name) + ";\n" + indent + "  style=rounded;\n" + indent +
            "  color=gray40;\n";
    WriteCluster(system, child, child_path, depth + 1, out);
    *out += indent + "}\n";
  }
}

}  // namespace

std::string DiagramDot(const Model& model, const DiagramDotOptions& options) {
  return ModelDotWriter(model, options).Write();
}

std::string CompiledDiagramDot(const System& system, const std::string& name) {
  Cluster root;
  for (int i = 0; i < system.num_blocks(); ++i) {
    Cluster* c = &root;
    const std::string& p = system.block_path(i);
    size_t start = 0;
    for (size_t slash = p.find('/'); slash != std::string::npos; slash = p.find('/', start)) {
      c = &c->children[p.substr(start, slash - start)];
      start = slash + 1;
    }
    c->blocks.push_back(i);
  }
  std::string out = "digraph " + Quote(name) + " {\n" + kGraphStyle;
  WriteCluster(system, root, "", 1, &out);
  // Lines: every input, from the output whose slice of the signal buffer it reads.
  std::map<int, std::pair<int, int>> output_at;  // offset -> (block, port)
  for (int i = 0; i < system.num_blocks(); ++i) {
    for (int p = 0; p < system.block(i).num_outputs(); ++p) {
      output_at[system.block(i).output_port(p).offset] = {i, p};
    }
  }
  for (int i = 0; i < system.num_blocks(); ++i) {
    const blocks::Block& b = system.block(i);
    for (int p = 0; p < b.num_inputs(); ++p) {
      const auto found = output_at.find(b.input_port(p).offset);
      if (found == output_at.end()) continue;  // an external input: no block drives it
      const auto [source, port] = found->second;
      std::string label =
          system.block(source).output_port(port).name + " -> " + b.input_port(p).name;
      if (b.input_port(p).width > 1) label += " [" + std::to_string(b.input_port(p).width) + "]";
      out += "  " + Quote(system.block_path(source)) + " -> " + Quote(system.block_path(i)) +
             " [label=" + Quote(label) + "];\n";
    }
  }
  out += "}\n";
  return out;
}

}  // namespace twinblocks::graph
