#include "xml/model_writer.h"

#include <fstream>
#include <stdexcept>
#include <string_view>

#include "common/output_file.h"
#include "model/model.h"

namespace twinblocks::xml {

namespace {

using graph::BlockNode;
using graph::Diagram;
using graph::PortDecl;

// Escapes an attribute value so that it reads back unchanged: besides the markup characters,
// tabs and line breaks are written as character references, since a reader turns literal
// ones into spaces (attribute-value normalization).
void AppendEscaped(std::string_view value, std::string* out) {
  for (char c : value) {
    switch (c) {
      case '&':
        *out += "&amp;";
        break;
      case '<':
        *out += "&lt;";
        break;
      case '>':
        *out += "&gt;";
        break;
      case '"':
        *out += "&quot;";
        break;
      default:
        if (static_cast<unsigned char>(c) < 0x20) {
          *out += "&#" + std::to_string(static_cast<int>(c)) + ";";
        } else {
          *out += c;
        }
    }
  }
}

// Builds the text one element at a time, one line each.
class Writer {
 public:
  // Starts `<tag`; attributes follow, then Close() or Open().
  void Start(std::string_view tag) {
    out_.append(2 * static_cast<size_t>(depth_), ' ');
    out_ += '<';
    out_ += tag;
    tags_.emplace_back(tag);
  }
  void Attribute(std::string_view name, std::string_view value) {
    out_ += ' ';
    out_ += name;
    out_ += "=\"";
    AppendEscaped(value, &out_);
    out_ += '"';
  }
  // Ends an element without children: `/>`.
  void Close() {
    out_ += "/>\n";
    tags_.pop_back();
  }
  // Ends the start tag of an element whose children follow.
  void Open() {
    out_ += ">\n";
    ++depth_;
  }
  void End() {
    --depth_;
    out_.append(2 * static_cast<size_t>(depth_), ' ');
    out_ += "</" + tags_.back() + ">\n";
    tags_.pop_back();
  }
  void Blank() { out_ += '\n'; }

  std::string& text() { return out_; }

 private:
  std::string out_;
  std::vector<std::string> tags_;
  int depth_ = 0;
};

bool IsEmpty(const Diagram& d) {
  return d.ports.empty() && d.blocks.empty() && d.connections.empty();
}

void WriteDiagram(const Diagram& d, bool top_level, Writer* w);

void WriteBlock(const BlockNode& b, Writer* w) {
  if (b.is_subsystem()) {
    w->Start("subsystem");
    w->Attribute("name", b.name);
    if (b.commented) w->Attribute("commented", "true");
    if (IsEmpty(*b.body)) {
      w->Close();
      return;
    }
    w->Open();
    WriteDiagram(*b.body, false, w);
    w->End();
    return;
  }
  w->Start("block");
  w->Attribute("type", b.type);
  if (!b.library.empty()) w->Attribute("library", b.library);
  w->Attribute("name", b.name);
  if (b.commented) w->Attribute("commented", "true");
  for (const graph::Parameter& p : b.params) w->Attribute(p.name, p.value);
  w->Close();
}

// Ports, then blocks and subsystems in their order, then lines (after a blank line at the top
// level, where diagrams are long).
void WriteDiagram(const Diagram& d, bool top_level, Writer* w) {
  for (const PortDecl& p : d.ports) {
    switch (p.kind) {
      case PortDecl::Kind::kInport:
        w->Start("inport");
        w->Attribute("name", p.name);
        if (!p.width.empty()) w->Attribute("width", p.width);
        break;
      case PortDecl::Kind::kOutport:
        w->Start("outport");
        w->Attribute("name", p.name);
        if (!p.behavior.empty()) w->Attribute("disabled", p.behavior);
        if (!p.initial.empty()) w->Attribute("initial", p.initial);
        break;
      case PortDecl::Kind::kEnable:
        w->Start("enable");
        w->Attribute("name", p.name);
        if (!p.behavior.empty()) w->Attribute("states", p.behavior);
        break;
      case PortDecl::Kind::kTrigger:
        w->Start("trigger");
        w->Attribute("name", p.name);
        if (!p.behavior.empty()) w->Attribute("edge", p.behavior);
        break;
      case PortDecl::Kind::kPhysical:
        w->Start("port");
        w->Attribute("name", p.name);
        w->Attribute("domain", p.domain);
        break;
    }
    w->Close();
  }
  for (const BlockNode& b : d.blocks) WriteBlock(b, w);
  if (top_level && !d.blocks.empty() && !d.connections.empty()) w->Blank();
  for (const graph::Connection& c : d.connections) {
    w->Start("connect");
    w->Attribute("from", c.from);
    w->Attribute("to", c.to);
    w->Close();
  }
}

}  // namespace

std::string WriteModelString(const graph::Model& model) {
  Writer w;
  w.text() = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n";
  w.Start("model");
  w.Attribute("name", model.name);
  w.Attribute("format", std::to_string(model.format));
  w.Open();

  // A blank line between sections keeps diffs of one section from touching the next.
  bool section = false;
  auto next_section = [&](bool has_content) {
    if (has_content && section) w.Blank();
    section = section || has_content;
  };

  next_section(!model.variables.empty());
  for (const graph::Variable& v : model.variables) {
    w.Start("var");
    w.Attribute("name", v.name);
    w.Attribute("value", v.value);
    w.Close();
  }
  if (!model.simulation.attributes.empty()) {
    next_section(true);
    w.Start("simulation");
    for (const graph::Parameter& a : model.simulation.attributes) w.Attribute(a.name, a.value);
    w.Close();
  }
  next_section(!model.includes.empty());
  for (const graph::Include& i : model.includes) {
    w.Start("include");
    w.Attribute("file", i.file);
    w.Close();
  }
  for (const graph::Define& d : model.defines) {
    next_section(true);
    w.Start("define");
    w.Attribute("name", d.name);
    if (!d.params.empty()) {
      std::string params;
      for (const std::string& p : d.params) params += (params.empty() ? "" : " ") + p;
      w.Attribute("params", params);
    }
    if (IsEmpty(d.body)) {
      w.Close();
    } else {
      w.Open();
      WriteDiagram(d.body, false, &w);
      w.End();
    }
  }
  next_section(!IsEmpty(model.root));
  WriteDiagram(model.root, true, &w);
  next_section(!model.logs.empty());
  for (const graph::LogSpec& l : model.logs) {
    w.Start("log");
    w.Attribute("signal", l.signal);
    if (!l.as.empty()) w.Attribute("as", l.as);
    w.Close();
  }
  next_section(!model.plots.empty());
  for (const graph::PlotSpec& p : model.plots) {
    w.Start("plot");
    w.Attribute("file", p.file);
    if (!p.title.empty()) w.Attribute("title", p.title);
    if (p.xlabel != graph::PlotSpec().xlabel) w.Attribute("xlabel", p.xlabel);
    if (!p.ylabel.empty()) w.Attribute("ylabel", p.ylabel);
    std::string signals;
    for (const std::string& s : p.signals) signals += (signals.empty() ? "" : " ") + s;
    w.Attribute("signals", signals);
    if (p.log_y) w.Attribute("yscale", "log");
    w.Close();
  }
  next_section(!model.summaries.empty());
  for (const graph::SummarySpec& s : model.summaries) {
    w.Start("summary");
    std::string signals;
    for (const std::string& signal : s.signals) signals += (signals.empty() ? "" : " ") + signal;
    w.Attribute("signal", signals);
    w.Attribute("op", graph::SummaryOpName(s.op));
    if (!s.label.empty()) w.Attribute("label", s.label);
    w.Close();
  }
  w.End();
  return std::move(w.text());
}

void WriteModelFile(const graph::Model& model, const std::string& path) {
  std::string text = WriteModelString(model);
  graph::WriteWholeFile(path, text);
}

}  // namespace twinblocks::xml
