// The editing calls for the model's other elements: boundary ports, defines, includes, logs,
// plots, summaries and simulation settings. Each checks what the XML reader checks for the
// element it adds, so that a model made in code is refused where its file would be.
#include <algorithm>
#include <filesystem>
#include <utility>

#include "blocks/math_expression.h"
#include "common/suggest.h"
#include "model/detail/model_support.h"
#include "model/model.h"
#include "model/model_error.h"

namespace twinblocks::graph {

using internal::EditError;
using internal::kIdentifierRule;

namespace {

constexpr const char* kDomains[] = {"frame", "rotational", "electrical"};

void CheckSignals(const std::vector<std::string>& signals, const std::string& element) {
  if (signals.empty()) {
    throw EditError("<" + element + "> has no signal; expected 'block.port' names");
  }
  for (const std::string& s : signals) {
    if (!ParsePlotSignal(s)) {
      throw EditError("invalid " + element + " signal '" + s +
                      "'; expected 'path/to/block.port' or 'block.port[i]' for one element");
    }
  }
}

}  // namespace

void Model::AddPort(std::string_view diagram_path, PortDecl port) {
  Diagram& d = GetDiagram(diagram_path);
  const std::string owner = internal::DiagramName(diagram_path);
  const std::string& name = port.name;
  if (!IsIdentifier(name)) {
    throw EditError("invalid port name '" + name + "': " + kIdentifierRule);
  }
  if (diagram_path.empty() && port.kind != PortDecl::Kind::kInport) {
    throw EditError("cannot declare port '" + name +
                    "' at the top level: it takes only inports (external inputs); outports and "
                    "physical ports belong to subsystems and defines");
  }
  if (!diagram_path.empty() && !port.width.empty()) {
    throw EditError("port '" + name + "' of " + owner +
                    ": only a top-level inport states a width (a boundary port takes the width "
                    "of its line)");
  }
  if (port.kind == PortDecl::Kind::kPhysical) {
    const bool known = std::any_of(std::begin(kDomains), std::end(kDomains),
                                   [&](const char* k) { return port.domain == k; });
    if (!known) {
      throw EditError("physical port '" + name + "': domain '" + port.domain +
                      "'; expected one of: frame, rotational, electrical");
    }
  } else if (!port.domain.empty()) {
    throw EditError("port '" + name + "': only physical ports have a domain (got '" + port.domain +
                    "' for a signal port)");
  }
  const std::vector<std::string> words = PortBehaviorWords(port.kind);
  if (!port.behavior.empty() &&
      std::find(words.begin(), words.end(), port.behavior) == words.end()) {
    throw EditError(
        "port '" + name + "': '" + port.behavior + "' is not a behavior of this kind of " + "port" +
        (words.empty() ? std::string() : "; expected one of: " + internal::JoinNames(words)));
  }
  if (!port.initial.empty() && port.kind != PortDecl::Kind::kOutport) {
    throw EditError("port '" + name + "': only an outport has an initial output");
  }
  for (const PortDecl& p : d.ports) {
    if (p.name == name) throw EditError(owner + " already has a port '" + name + "'");
    if ((port.kind == PortDecl::Kind::kEnable || port.kind == PortDecl::Kind::kTrigger) &&
        p.kind == port.kind) {
      throw EditError(owner + " already has its " +
                      (port.kind == PortDecl::Kind::kEnable ? "enable" : "trigger") + " port '" +
                      p.name + "'; a subsystem has one at most");
    }
  }
  port.where = {};
  d.ports.push_back(std::move(port));
}

Diagram& Model::AddDefine(const std::string& define_name, const std::vector<std::string>& params,
                          Diagram body) {
  if (!IsIdentifier(define_name)) {
    throw EditError("invalid define name '" + define_name + "': " + kIdentifierRule);
  }
  for (const Define& d : defines) {
    if (d.name == define_name) {
      throw EditError("the model already has a define '" + define_name + "'");
    }
  }
  for (size_t i = 0; i < params.size(); ++i) {
    const std::string& p = params[i];
    const std::string where = " in the params of define '" + define_name + "'";
    if (!IsIdentifier(p)) {
      throw EditError("invalid parameter name '" + p + "'" + where + ": " + kIdentifierRule);
    }
    if (blocks::MathExpression::IsReservedName(p) || p == "type" || p == "name" ||
        p == "commented" || p == "library") {
      throw EditError("parameter '" + p + "'" + where +
                      " takes a reserved name (a built-in constant or function, or type, name, "
                      "commented, library)");
    }
    if (std::find(params.begin(), params.begin() + i, p) != params.begin() + i) {
      throw EditError("parameter '" + p + "' given twice" + where);
    }
  }
  Define define;
  define.name = define_name;
  define.params = params;
  define.body = std::move(body);
  defines.push_back(std::move(define));
  return defines.back().body;
}

std::string Model::IncludePath(const std::string& include_file) const {
  namespace fs = std::filesystem;
  const fs::path base = file.empty() ? fs::path() : fs::path(file).parent_path();
  return (base / include_file).lexically_normal().string();
}

void Model::AddInclude(const std::string& include_file,
                       const std::function<Model(const std::string& path)>& read_file) {
  namespace fs = std::filesystem;
  if (include_file.empty()) throw EditError("<include> has an empty file name");
  for (const Include& i : includes) {
    if (i.file == include_file) throw EditError("'" + include_file + "' is already included");
  }
  const std::string resolved = IncludePath(include_file);
  std::error_code ec;
  if (!fs::is_regular_file(resolved, ec)) {
    throw EditError("cannot open included file '" + include_file + "' (resolved to '" +
                    fs::absolute(resolved, ec).lexically_normal().string() + "')");
  }
  // As the reader includes a file: its own defines, then those it includes.
  Model included = read_file(resolved);
  std::vector<Define> found = std::move(included.defines);
  for (Define& d : included.library) found.push_back(std::move(d));
  for (size_t i = 0; i < found.size(); ++i) {
    const Define& d = found[i];
    for (const Define& known : library) {
      if (known.name == d.name) {
        throw EditError("define '" + d.name + "' of " + d.where.ToString() +
                        " is already defined at " + known.where.ToString());
      }
    }
  }
  includes.push_back({include_file, {}});
  for (Define& d : found) library.push_back(std::move(d));
}

void Model::AddLog(const std::string& signal, const std::string& as) {
  const std::optional<PlotSignal> parsed = ParsePlotSignal(signal);
  if (!parsed || parsed->element >= 0) {
    throw EditError("invalid signal '" + signal +
                    "'; expected 'block.port' or 'path/to/block.port'");
  }
  if (!as.empty()) {
    if (!IsIdentifier(as)) throw EditError("invalid column name '" + as + "': " + kIdentifierRule);
    for (const LogSpec& l : logs) {
      if (l.as == as) {
        throw EditError("duplicate log name '" + as + "' (logging '" + l.signal + "')");
      }
    }
  }
  logs.push_back({signal, as, {}});
}

void Model::AddPlot(PlotSpec plot) {
  if (plot.file.empty()) throw EditError("<plot> has an empty file name");
  if (const std::string problem = ResultsFileProblem(plot.file); !problem.empty()) {
    throw EditError("<plot file>: " + problem);
  }
  for (const PlotSpec& p : plots) {
    if (p.file == plot.file) throw EditError("a second plot writes '" + plot.file + "'");
  }
  CheckSignals(plot.signals, "plot");
  plot.where = {};
  plots.push_back(std::move(plot));
}

void Model::AddSummary(SummarySpec summary) {
  CheckSignals(summary.signals, "summary");
  summary.where = {};
  summaries.push_back(std::move(summary));
}

void Model::SetSimulation(const std::string& attribute, const std::string& value) {
  simulation.Set(attribute, value);
}

namespace {

constexpr SummaryOp kAllSummaryOps[] = {SummaryOp::kMax,   SummaryOp::kMin,  SummaryOp::kMaxAbs,
                                        SummaryOp::kFinal, SummaryOp::kMean, SummaryOp::kRms};

}  // namespace

std::string_view SummaryOpName(SummaryOp op) {
  switch (op) {
    case SummaryOp::kMax:
      return "max";
    case SummaryOp::kMin:
      return "min";
    case SummaryOp::kMaxAbs:
      return "max_abs";
    case SummaryOp::kFinal:
      return "final";
    case SummaryOp::kMean:
      return "mean";
    case SummaryOp::kRms:
      return "rms";
  }
  throw std::logic_error("SummaryOpName: not a SummaryOp (" + std::to_string(static_cast<int>(op)) +
                         ")");
}

std::optional<SummaryOp> ParseSummaryOp(std::string_view name) {
  for (SummaryOp op : kAllSummaryOps) {
    if (SummaryOpName(op) == name) return op;
  }
  return std::nullopt;
}

std::string SummaryOpNames() {
  std::string names;
  for (SummaryOp op : kAllSummaryOps)
    names += (names.empty() ? "" : ", ") + std::string(SummaryOpName(op));
  return names;
}

}  // namespace twinblocks::graph
