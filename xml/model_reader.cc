#include "xml/model_reader.h"

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <initializer_list>
#include <pugixml.hpp>
#include <set>
#include <sstream>
#include <string_view>
#include <utility>
#include <vector>

#include "blocks/math_expression.h"
#include "common/input_file.h"
#include "common/input_limits.h"
#include "model/model.h"
#include "model/model_error.h"
#include "xml/detail/element_depth.h"
#include "xml/detail/line_index.h"

namespace twinblocks::xml {

namespace {

namespace fs = std::filesystem;
using graph::BlockNode;
using graph::Diagram;
using graph::IsIdentifier;
using graph::ModelError;
using graph::OneLine;
using graph::SourceLocation;

const char kNameRule[] = "expected letters, digits and '_', not starting with a digit";

std::string JoinNames(const std::vector<std::string>& names) {
  std::string s;
  for (const std::string& n : names) s += (s.empty() ? "" : ", ") + n;
  return s;
}

std::string Tag(std::string_view name) { return "<" + std::string(name) + ">"; }

// What identifies a file across spellings of its path, for include cycles and repeats.
std::string FileKey(const std::string& path) {
  std::error_code ec;
  fs::path canonical = fs::weakly_canonical(fs::absolute(path), ec);
  return ec ? path : canonical.string();
}

// Files of one read: the chain of includes being read (for cycles) and the library files
// already read completely (a library included from two places is read once).
struct IncludeState {
  std::vector<std::string> chain_keys;
  std::vector<std::string> chain_names;
  std::set<std::string> done;
};

// The allowed children of a model, a subsystem and a define, for messages.
const std::vector<std::string> kModelChildren = {"var",   "simulation", "include", "define",
                                                 "block", "subsystem",  "connect", "log",
                                                 "plot",  "summary",    "inport"};
const std::vector<std::string> kBodyChildren = {"inport",  "outport", "port",      "enable",
                                                "trigger", "block",   "subsystem", "connect"};

// Reads one model file into a Model. Messages name `file_` and the line of the element.
class FileReader {
 public:
  FileReader(const std::string& text, std::string file, IncludeState* includes)
      : text_(text), file_(std::move(file)), lines_(text), includes_(includes) {}

  graph::Model Read() {
    pugi::xml_parse_result result =
        doc_.load_buffer(text_.data(), text_.size(), pugi::parse_default, pugi::encoding_utf8);
    if (!result) {
      throw ModelError({file_, lines_.LineOf(result.offset)},
                       std::string("malformed XML: ") + result.description());
    }
    internal::CheckElementDepth(doc_, text_, file_);
    pugi::xml_node root;
    for (pugi::xml_node n : doc_.children()) {
      if (!IsElement(n, "the document")) continue;
      if (root) Fail(n, "a second root element " + Tag(n.name()) + "; a file holds one <model>");
      root = n;
    }
    if (!root) throw ModelError({file_, 1}, "no root element; expected <model>");
    if (std::string_view(root.name()) != "model") {
      Fail(root, "the root element is " + Tag(root.name()) + "; expected <model>");
    }
    // Attribute values point into pugixml's copy of the text: this finds their offsets.
    if (root.offset_debug() >= 0) buffer_ = root.name() - root.offset_debug();

    graph::Model model;
    model.file = file_;
    ReadModelElement(root, &model);
    return model;
  }

 private:
  // ------------------------------------------------------------------------------------------
  // Locations and checks shared by every element

  SourceLocation Where(pugi::xml_node n) const { return {file_, lines_.LineOf(n.offset_debug())}; }

  // The attribute's own line when it can be found (elements often span lines), else the
  // element's.
  SourceLocation Where(pugi::xml_node n, pugi::xml_attribute a) const {
    if (buffer_ != nullptr) {
      std::ptrdiff_t offset = a.value() - buffer_;
      if (offset >= 0 && static_cast<size_t>(offset) <= text_.size()) {
        return {file_, lines_.LineOf(offset)};
      }
    }
    return Where(n);
  }

  [[noreturn]] void Fail(pugi::xml_node n, const std::string& message) const {
    throw ModelError(Where(n), message);
  }

  // True for an element; throws for text, which no element of the format holds.
  bool IsElement(pugi::xml_node n, const std::string& parent) const {
    if (n.type() == pugi::node_element) return true;
    if (n.type() == pugi::node_pcdata || n.type() == pugi::node_cdata) {
      // Point at the text itself, not at the line break before it.
      std::string_view text = n.value();
      size_t skipped = 0;
      while (skipped < text.size() && std::isspace(static_cast<unsigned char>(text[skipped]))) {
        ++skipped;
      }
      std::string shown(text.substr(skipped));
      while (!shown.empty() && std::isspace(static_cast<unsigned char>(shown.back()))) {
        shown.pop_back();
      }
      if (shown.size() > 40) shown = shown.substr(0, 37) + "...";
      int line = lines_.LineOf(n.offset_debug() + static_cast<std::ptrdiff_t>(skipped));
      if (n.type() == pugi::node_cdata) line = lines_.LineOf(n.offset_debug());
      throw ModelError({file_, line}, "unexpected text '" + shown + "' in " + parent);
    }
    return false;  // comments, processing instructions, doctype
  }

  // Elements that hold nothing: var, block, connect, ...
  void CheckNoChildren(pugi::xml_node n) const {
    for (pugi::xml_node c : n.children()) {
      if (IsElement(c, Tag(n.name()))) {
        Fail(c, "unexpected element " + Tag(c.name()) + " in " + Tag(n.name()) + "; " +
                    Tag(n.name()) + " holds no elements");
      }
    }
  }

  // Throws for an attribute not in `allowed` and for one given twice (pugixml accepts both).
  void CheckAttributes(pugi::xml_node n, const std::vector<std::string>& allowed) const {
    std::set<std::string_view> seen;
    for (pugi::xml_attribute a : n.attributes()) {
      std::string_view name = a.name();
      if (!seen.insert(name).second) {
        throw ModelError(Where(n, a),
                         "duplicate attribute '" + std::string(name) + "' on " + Tag(n.name()));
      }
      bool ok = false;
      for (const std::string& s : allowed) ok = ok || s == name;
      if (!ok) {
        throw ModelError(Where(n, a), "unknown attribute '" + std::string(name) + "' on " +
                                          Tag(n.name()) +
                                          "; expected one of: " + JoinNames(allowed));
      }
    }
  }

  std::string Required(pugi::xml_node n, const char* attribute) const {
    pugi::xml_attribute a = n.attribute(attribute);
    if (!a) Fail(n, Tag(n.name()) + " needs the attribute '" + attribute + "'");
    return a.value();
  }

  // A name attribute that must be an identifier.
  /// The attribute's word, one of PortBehaviorWords(kind); "" when not written.
  std::string BehaviorWord(pugi::xml_node n, const char* attribute,
                           graph::PortDecl::Kind kind) const {
    const pugi::xml_attribute a = n.attribute(attribute);
    if (!a) return {};
    const std::vector<std::string> words = graph::PortBehaviorWords(kind);
    if (std::find(words.begin(), words.end(), a.value()) == words.end()) {
      Fail(n, std::string("attribute '") + attribute + "' is '" + a.value() +
                  "'; expected one of: " + JoinNames(words));
    }
    return a.value();
  }

  std::string RequiredName(pugi::xml_node n, const char* attribute, const std::string& what) const {
    std::string name = Required(n, attribute);
    if (!IsIdentifier(name)) {
      throw ModelError(Where(n, n.attribute(attribute)),
                       "invalid " + what + " name '" + name + "'; " + kNameRule);
    }
    return name;
  }

  bool Commented(pugi::xml_node n, const std::string& path, const std::string& type) const {
    pugi::xml_attribute a = n.attribute("commented");
    if (!a) return false;
    std::string_view v = a.value();
    if (v == "true") return true;
    if (v == "false") return false;
    throw ModelError(Where(n, a), path, type,
                     "commented=\"" + std::string(v) + "\"; expected \"true\" or \"false\"");
  }

  // ------------------------------------------------------------------------------------------
  // <model>

  void ReadModelElement(pugi::xml_node root, graph::Model* model) {
    CheckAttributes(root, {"name", "format"});
    if (root.attribute("name")) model->name = RequiredName(root, "name", "model");
    if (pugi::xml_attribute f = root.attribute("format")) {
      if (std::string_view(f.value()) != "1") {
        throw ModelError(Where(root, f), "unsupported format \"" + std::string(f.value()) +
                                             "\"; this version reads format \"1\"");
      }
    }

    bool has_simulation = false;
    for (pugi::xml_node n : root.children()) {
      if (!IsElement(n, "<model>")) continue;
      std::string_view tag = n.name();
      if (tag == "var") {
        ReadVar(n, model);
      } else if (tag == "simulation") {
        if (has_simulation) {
          Fail(n, "a second <simulation>; the first is at line " +
                      std::to_string(model->simulation.where.line));
        }
        has_simulation = true;
        ReadSimulation(n, &model->simulation);
      } else if (tag == "include") {
        CheckAttributes(n, {"file"});
        CheckNoChildren(n);
        std::string file = Required(n, "file");
        if (file.empty()) Fail(n, "<include> has an empty file name");
        model->includes.push_back({file, Where(n)});
      } else if (tag == "define") {
        ReadDefine(n, model);
      } else if (tag == "log") {
        ReadLog(n, model);
      } else if (tag == "plot") {
        ReadPlot(n, model);
      } else if (tag == "summary") {
        ReadSummary(n, model);
      } else if (tag == "inport") {
        ReadExternalInput(n, &model->root);
      } else if (!ReadDiagramElement(n, "", 0, /*has_boundary=*/false, &model->root)) {
        Fail(n, "unknown element " + Tag(tag) +
                    " in <model>; expected one of: " + JoinNames(kModelChildren));
      }
    }
    // Without a <simulation>, the run's defaults are the model's: problems with them are
    // placed at its <model> element.
    if (!has_simulation) model->simulation.where = Where(root);
    for (const graph::Include& include : model->includes) LoadInclude(include, model);
  }

  // A top-level <inport>: an input set from outside the model while it runs (co-simulation).
  // Unlike a subsystem's, nothing drives it inside the model, so it states its width.
  void ReadExternalInput(pugi::xml_node n, Diagram* root) const {
    CheckAttributes(n, {"name", "width"});
    CheckNoChildren(n);
    graph::PortDecl p;
    p.kind = graph::PortDecl::Kind::kInport;
    p.name = RequiredName(n, "name", "port");
    if (pugi::xml_attribute w = n.attribute("width")) {
      p.width = w.value();
      if (p.width.empty()) Fail(n, "<inport> has an empty width");
    }
    p.where = Where(n);
    for (const graph::PortDecl& q : root->ports) {
      if (q.name == p.name) {
        Fail(n, "duplicate port name '" + p.name + "'; first declared at line " +
                    std::to_string(q.where.line));
      }
    }
    root->ports.push_back(std::move(p));
  }

  void ReadVar(pugi::xml_node n, graph::Model* model) const {
    CheckAttributes(n, {"name", "value"});
    CheckNoChildren(n);
    std::string name = RequiredName(n, "name", "variable");
    std::string value = Required(n, "value");
    if (blocks::MathExpression::IsReservedName(name)) {
      throw ModelError(Where(n, n.attribute("name")),
                       "variable '" + name + "' takes the name of a built-in constant or function");
    }
    for (const graph::Variable& v : model->variables) {
      if (v.name == name) {
        Fail(n, "duplicate variable '" + name + "'; first defined at line " +
                    std::to_string(v.where.line));
      }
    }
    model->variables.push_back({name, value, Where(n)});
  }

  void ReadSimulation(pugi::xml_node n, graph::SimulationSettings* s) const {
    CheckNoChildren(n);
    s->where = Where(n);
    for (pugi::xml_attribute a : n.attributes()) {
      std::string name = a.name();
      if (!IsIdentifier(name)) {
        throw ModelError(Where(n, a),
                         "invalid simulation setting name '" + name + "'; " + kNameRule);
      }
      if (s->Get(name)) {
        throw ModelError(Where(n, a), "duplicate attribute '" + name + "' on <simulation>");
      }
      s->attributes.push_back({name, a.value()});
    }
  }

  void ReadLog(pugi::xml_node n, graph::Model* model) const {
    CheckAttributes(n, {"signal", "as"});
    CheckNoChildren(n);
    std::string signal = Required(n, "signal");
    if (!IsSignalPath(signal)) {
      throw ModelError(
          Where(n, n.attribute("signal")),
          "invalid signal '" + signal + "'; expected 'block.port' or 'path/to/block.port'");
    }
    std::string as;
    if (n.attribute("as")) {
      as = RequiredName(n, "as", "column");
      for (const graph::LogSpec& l : model->logs) {
        if (l.as == as) {
          Fail(n, "duplicate log name '" + as + "'; first used at line " +
                      std::to_string(l.where.line));
        }
      }
    }
    model->logs.push_back({signal, as, Where(n)});
  }

  // The signals are checked for their form here; whether they name a port is known only at
  // compile, which reports it at this element's line.
  void ReadPlot(pugi::xml_node n, graph::Model* model) const {
    CheckAttributes(n, {"file", "title", "xlabel", "ylabel", "signals", "yscale"});
    CheckNoChildren(n);
    graph::PlotSpec plot;
    plot.where = Where(n);
    plot.file = Required(n, "file");
    if (plot.file.empty()) {
      throw ModelError(Where(n, n.attribute("file")), "<plot> has an empty file name");
    }
    if (const std::string problem = graph::ResultsFileProblem(plot.file); !problem.empty()) {
      throw ModelError(Where(n, n.attribute("file")), "<plot file>: " + problem);
    }
    for (const graph::PlotSpec& p : model->plots) {
      if (p.file == plot.file) {
        Fail(n, "a second plot writes '" + plot.file + "'; the first is at line " +
                    std::to_string(p.where.line));
      }
    }
    plot.title = n.attribute("title").value();
    if (pugi::xml_attribute a = n.attribute("xlabel")) plot.xlabel = a.value();
    plot.ylabel = n.attribute("ylabel").value();
    if (pugi::xml_attribute a = n.attribute("yscale")) {
      std::string_view scale = a.value();
      if (scale != "linear" && scale != "log") {
        throw ModelError(Where(n, a), "yscale=\"" + std::string(scale) +
                                          "\" on <plot>; expected \"linear\" or \"log\"");
      }
      plot.log_y = scale == "log";
    }
    std::istringstream words(Required(n, "signals"));
    std::string signal;
    while (words >> signal) {
      if (!graph::ParsePlotSignal(signal)) {
        throw ModelError(Where(n, n.attribute("signals")),
                         "invalid plot signal '" + signal +
                             "'; expected 'path/to/block.port' or 'block.port[i]' for one "
                             "element");
      }
      plot.signals.push_back(signal);
    }
    if (plot.signals.empty()) {
      throw ModelError(Where(n, n.attribute("signals")),
                       "<plot> has no signals; expected space-separated 'block.port' names");
    }
    model->plots.push_back(std::move(plot));
  }

  // As for a plot, whether the signals name a port (and an element within its width) is known
  // only at compile, which reports it at this element's line.
  void ReadSummary(pugi::xml_node n, graph::Model* model) const {
    CheckAttributes(n, {"signal", "op", "label"});
    CheckNoChildren(n);
    graph::SummarySpec summary;
    summary.where = Where(n);
    std::istringstream words(Required(n, "signal"));
    std::string signal;
    while (words >> signal) {
      if (!graph::ParsePlotSignal(signal)) {
        throw ModelError(Where(n, n.attribute("signal")),
                         "invalid summary signal '" + signal +
                             "'; expected 'path/to/block.port' or 'block.port[i]' for one "
                             "element");
      }
      summary.signals.push_back(signal);
    }
    if (summary.signals.empty()) {
      throw ModelError(Where(n, n.attribute("signal")),
                       "<summary> has no signal; expected 'block.port' (or several, "
                       "space-separated)");
    }
    const std::string op = Required(n, "op");
    const std::optional<graph::SummaryOp> parsed = graph::ParseSummaryOp(op);
    if (!parsed) {
      throw ModelError(
          Where(n, n.attribute("op")),
          "op=\"" + op + "\" on <summary>; expected one of: " + graph::SummaryOpNames());
    }
    summary.op = *parsed;
    summary.label = n.attribute("label").value();
    model->summaries.push_back(std::move(summary));
  }

  // "a/b/c.port" (or "c.port.element" for a bus's element), without an element index.
  static bool IsSignalPath(std::string_view s) {
    const std::optional<graph::PlotSignal> p = graph::ParsePlotSignal(s);
    return p && p->element < 0;
  }

  void ReadDefine(pugi::xml_node n, graph::Model* model) {
    CheckAttributes(n, {"name", "params"});
    graph::Define define;
    define.name = RequiredName(n, "name", "define");
    define.where = Where(n);
    for (const graph::Define& d : model->defines) {
      if (d.name == define.name) {
        Fail(n, "duplicate define '" + define.name + "'; first defined at line " +
                    std::to_string(d.where.line));
      }
    }
    if (pugi::xml_attribute params = n.attribute("params")) {
      std::istringstream words(params.value());
      std::string p;
      while (words >> p) {
        std::string where = " in the params of define '" + define.name + "'";
        if (!IsIdentifier(p)) {
          throw ModelError(Where(n, params),
                           "invalid parameter name '" + p + "'" + where + "; " + kNameRule);
        }
        if (blocks::MathExpression::IsReservedName(p) || p == "type" || p == "name" ||
            p == "commented" || p == "library") {
          throw ModelError(Where(n, params), "parameter '" + p + "'" + where +
                                                 " takes a reserved name (a built-in constant or "
                                                 "function, or type, name, commented, library)");
        }
        for (const std::string& q : define.params) {
          if (q == p)
            throw ModelError(Where(n, params), "parameter '" + p + "' given twice" + where);
        }
        define.params.push_back(p);
      }
    }
    ReadBody(n, define.name, 1, &define.body);
    model->defines.push_back(std::move(define));
  }

  // ------------------------------------------------------------------------------------------
  // Diagrams

  // The children of a subsystem or define: boundary ports and diagram elements.
  void ReadBody(pugi::xml_node n, const std::string& path, int depth, Diagram* d) {
    if (depth > blocks::CurrentInputLimits().nesting) {
      Fail(n, "subsystems nested deeper than " + std::to_string(depth - 1) + " levels, " +
                  blocks::OverLimit("nesting"));
    }
    for (pugi::xml_node c : n.children()) {
      if (!IsElement(c, Tag(n.name()))) continue;
      if (!ReadDiagramElement(c, path, depth, /*has_boundary=*/true, d)) {
        Fail(c, "unknown element " + Tag(c.name()) + " in " + Tag(n.name()) +
                    "; expected one of: " + JoinNames(kBodyChildren));
      }
    }
  }

  // Reads a block, subsystem, connect or (inside a subsystem or define) a boundary port into
  // `d`, whose blocks are named `path/...`. False when `n` is none of these.
  bool ReadDiagramElement(pugi::xml_node n, const std::string& path, int depth, bool has_boundary,
                          Diagram* d) {
    std::string_view tag = n.name();
    if (tag == "block") {
      ReadBlock(n, path, d);
    } else if (tag == "subsystem") {
      CheckAttributes(n, {"name", "commented"});
      BlockNode b;
      b.name = RequiredName(n, "name", "subsystem");
      b.where = Where(n);
      std::string sub_path = path.empty() ? b.name : path + "/" + b.name;
      CheckUnique(n, *d, b.name, sub_path, "");
      b.commented = Commented(n, sub_path, "");
      b.body = std::make_unique<Diagram>();
      ReadBody(n, sub_path, depth + 1, b.body.get());
      d->blocks.push_back(std::move(b));
    } else if (tag == "connect") {
      CheckAttributes(n, {"from", "to"});
      CheckNoChildren(n);
      graph::Connection c{Required(n, "from"), Required(n, "to"), Where(n)};
      CheckEndpoint(n, "from", c.from);
      CheckEndpoint(n, "to", c.to);
      d->connections.push_back(std::move(c));
    } else if (has_boundary && (tag == "inport" || tag == "outport" || tag == "port" ||
                                tag == "enable" || tag == "trigger")) {
      graph::PortDecl p;
      if (tag == "port") {
        CheckAttributes(n, {"name", "domain"});
        p.kind = graph::PortDecl::Kind::kPhysical;
        p.domain = Required(n, "domain");
        if (p.domain.empty()) Fail(n, "<port> has an empty domain");
      } else if (tag == "inport") {
        CheckAttributes(n, {"name"});
        p.kind = graph::PortDecl::Kind::kInport;
      } else if (tag == "outport") {
        CheckAttributes(n, {"name", "disabled", "initial"});
        p.kind = graph::PortDecl::Kind::kOutport;
        p.behavior = BehaviorWord(n, "disabled", p.kind);
        if (pugi::xml_attribute a = n.attribute("initial")) {
          p.initial = a.value();
          if (p.initial.empty()) Fail(n, "<outport> has an empty initial output");
        }
      } else {
        p.kind = tag == "enable" ? graph::PortDecl::Kind::kEnable : graph::PortDecl::Kind::kTrigger;
        const char* attribute = tag == "enable" ? "states" : "edge";
        CheckAttributes(n, {"name", attribute});
        p.behavior = BehaviorWord(n, attribute, p.kind);
        for (const graph::PortDecl& q : d->ports) {
          if (q.kind == p.kind) {
            Fail(n, "a second " + Tag(tag) + " (the first is '" + q.name + "', line " +
                        std::to_string(q.where.line) + "); a subsystem has one at most");
          }
        }
      }
      CheckNoChildren(n);
      p.name = RequiredName(n, "name", "port");
      p.where = Where(n);
      for (const graph::PortDecl& q : d->ports) {
        if (q.name == p.name) {
          Fail(n, "duplicate port name '" + p.name + "'; first declared at line " +
                      std::to_string(q.where.line));
        }
      }
      d->ports.push_back(std::move(p));
    } else {
      return false;
    }
    return true;
  }

  void ReadBlock(pugi::xml_node n, const std::string& path, Diagram* d) const {
    CheckNoChildren(n);
    BlockNode b;
    b.name = RequiredName(n, "name", "block");
    b.where = Where(n);
    std::string block_path = path.empty() ? b.name : path + "/" + b.name;
    b.type = Required(n, "type");
    if (b.type.empty()) {
      throw ModelError(Where(n, n.attribute("type")), block_path, "", "the type is empty");
    }
    CheckUnique(n, *d, b.name, block_path, b.type);
    b.commented = Commented(n, block_path, b.type);
    if (pugi::xml_attribute library = n.attribute("library")) {
      b.library = library.value();
      if (b.library.empty()) {
        throw ModelError(Where(n, library), block_path, b.type,
                         "the library is empty; write the block library's file, or leave the "
                         "attribute out for a catalog type");
      }
    }
    std::set<std::string_view> seen;
    for (pugi::xml_attribute a : n.attributes()) {
      std::string_view name = a.name();
      if (!seen.insert(name).second) {
        throw ModelError(Where(n, a), block_path, b.type,
                         "duplicate attribute '" + std::string(name) + "'");
      }
      if (name == "type" || name == "name" || name == "commented" || name == "library") continue;
      if (!IsIdentifier(name)) {
        throw ModelError(Where(n, a), block_path, b.type,
                         "invalid parameter name '" + std::string(name) + "'; " + kNameRule);
      }
      b.params.push_back({std::string(name), a.value()});
    }
    d->blocks.push_back(std::move(b));
  }

  void CheckUnique(pugi::xml_node n, const Diagram& d, const std::string& name,
                   const std::string& block_path, const std::string& type) const {
    if (const BlockNode* earlier = d.Find(name)) {
      throw ModelError(Where(n), block_path, type,
                       "duplicate block name '" + name +
                           "' in this diagram; first defined at line " +
                           std::to_string(earlier->where.line));
    }
  }

  // Whether a '.port' names an existing boundary port is checked at compile: the ports may
  // be declared after the lines.
  void CheckEndpoint(pugi::xml_node n, const char* attribute, const std::string& endpoint) const {
    SourceLocation where = Where(n, n.attribute(attribute));
    if (!graph::IsEndpoint(endpoint)) {
      throw ModelError(where, "invalid port reference " + std::string(attribute) + "=\"" +
                                  endpoint + "\"; expected 'block.port' or '.port'");
    }
  }

  // ------------------------------------------------------------------------------------------
  // <include>

  void LoadInclude(const graph::Include& include, graph::Model* model) {
    fs::path resolved = fs::path(file_).parent_path() / include.file;
    std::string name = resolved.lexically_normal().string();
    std::string key = FileKey(name);

    for (size_t i = 0; i < includes_->chain_keys.size(); ++i) {
      if (includes_->chain_keys[i] != key) continue;
      std::string cycle;
      for (size_t j = i; j < includes_->chain_names.size(); ++j) {
        cycle += includes_->chain_names[j] + " -> ";
      }
      throw ModelError(include.where, "include cycle: " + cycle + name);
    }
    if (includes_->done.count(key) != 0) return;

    // Each include reads another file, whose includes read more: a chain as deep as the
    // nesting limit is far beyond any library's.
    if (static_cast<std::int64_t>(includes_->chain_keys.size()) >=
        blocks::CurrentInputLimits().nesting) {
      throw ModelError(include.where, "includes nested deeper than " +
                                          std::to_string(includes_->chain_keys.size()) +
                                          " files, " + blocks::OverLimit("nesting"));
    }
    std::string text;
    try {
      text = blocks::ReadTextFile(name);
    } catch (const blocks::InputFileError& e) {
      std::string absolute = fs::absolute(resolved).lexically_normal().string();
      throw ModelError(include.where, "cannot open included file '" + include.file +
                                          "' (resolved to '" + absolute + "'): " + e.reason());
    }
    includes_->chain_keys.push_back(key);
    includes_->chain_names.push_back(name);
    graph::Model library = FileReader(text, name, includes_).Read();
    includes_->chain_keys.pop_back();
    includes_->chain_names.pop_back();
    includes_->done.insert(key);

    auto add = [&](graph::Define&& d) {
      for (const graph::Define& known : model->library) {
        if (known.name == d.name) {
          throw ModelError(include.where, "define '" + d.name + "' of " + d.where.ToString() +
                                              " is already defined at " + known.where.ToString());
        }
      }
      model->library.push_back(std::move(d));
    };
    for (graph::Define& d : library.defines) add(std::move(d));
    for (graph::Define& d : library.library) add(std::move(d));
  }

  const std::string& text_;
  std::string file_;
  internal::LineIndex lines_;
  IncludeState* includes_;
  pugi::xml_document doc_;
  const char* buffer_ = nullptr;  // start of pugixml's copy of the text
};

graph::Model ReadTopLevel(const std::string& text, const std::string& file_name) {
  IncludeState includes;
  includes.chain_keys.push_back(FileKey(file_name));
  includes.chain_names.push_back(file_name);
  try {
    return FileReader(text, file_name, &includes).Read();
  } catch (const ModelError& ex) {
    throw ModelError(ex.where(), OneLine(ex.block_path()), OneLine(ex.block_type()),
                     OneLine(ex.message()));
  }
}

}  // namespace

graph::Model ReadModelFile(const std::string& path) {
  std::string text;
  try {
    text = blocks::ReadTextFile(path);
  } catch (const blocks::InputFileError& e) {
    throw ModelError({path, 0}, "cannot open model file: " + e.reason());
  }
  return ReadTopLevel(text, path);
}

graph::Model ReadModelString(const std::string& text, const std::string& file_name) {
  return ReadTopLevel(text, file_name);
}

}  // namespace twinblocks::xml
