#include "model_extensions.h"

#include <filesystem>
#include <utility>

#include "graph/model_error.h"
#include "graph/summary.h"
#include "xml/model_reader.h"

namespace twinblocks::python {

namespace {

using graph::ModelError;

const char kIdentifierRule[] = "names are letters, digits and '_', not starting with a digit";

ModelError Error(const std::string& message) { return ModelError({}, graph::OneLine(message)); }

void CheckSignals(const std::vector<std::string>& signals, const std::string& element) {
  if (signals.empty()) {
    throw Error("<" + element + "> has no signal; expected 'block.port' names");
  }
  for (const std::string& s : signals) {
    if (!graph::ParsePlotSignal(s)) {
      throw Error("invalid " + element + " signal '" + s +
                  "'; expected 'path/to/block.port' or 'block.port[i]' for one element");
    }
  }
}

}  // namespace

void AddPort(graph::Model& model, std::string_view diagram_path, graph::PortDecl::Kind kind,
             const std::string& name, const std::string& domain) {
  if (diagram_path.empty()) {
    throw Error("cannot declare port '" + name +
                "' at the top level: only subsystems and defines have boundary ports");
  }
  graph::Diagram& d = model.GetDiagram(diagram_path);
  if (!graph::IsIdentifier(name)) {
    throw Error("invalid port name '" + name + "': " + kIdentifierRule);
  }
  if (kind == graph::PortDecl::Kind::kPhysical && domain.empty()) {
    throw Error("physical port '" + name + "' needs a domain (frame, rotational, electrical)");
  }
  for (const graph::PortDecl& p : d.ports) {
    if (p.name == name) {
      throw Error("subsystem '" + std::string(diagram_path) + "' already has a port '" + name +
                  "'");
    }
  }
  graph::PortDecl port;
  port.kind = kind;
  port.name = name;
  if (kind == graph::PortDecl::Kind::kPhysical) port.domain = domain;
  d.ports.push_back(std::move(port));
}

void AddDefine(graph::Model& model, const std::string& name, const std::vector<std::string>& params,
               graph::Diagram body) {
  if (!graph::IsIdentifier(name)) {
    throw Error("invalid define name '" + name + "': " + kIdentifierRule);
  }
  for (const graph::Define& d : model.defines) {
    if (d.name == name) throw Error("the model already has a define '" + name + "'");
  }
  for (size_t i = 0; i < params.size(); ++i) {
    if (!graph::IsIdentifier(params[i])) {
      throw Error("define '" + name + "': invalid parameter name '" + params[i] +
                  "': " + kIdentifierRule);
    }
    for (size_t j = 0; j < i; ++j) {
      if (params[j] == params[i]) {
        throw Error("define '" + name + "': parameter '" + params[i] + "' given twice");
      }
    }
  }
  graph::Define define;
  define.name = name;
  define.params = params;
  define.body = std::move(body);
  model.defines.push_back(std::move(define));
}

void AddInclude(graph::Model& model, const std::string& file) {
  namespace fs = std::filesystem;
  if (file.empty()) throw Error("<include> has an empty file name");
  for (const graph::Include& i : model.includes) {
    if (i.file == file) throw Error("'" + file + "' is already included");
  }
  const fs::path resolved =
      (model.file.empty() ? fs::path(file) : fs::path(model.file).parent_path() / file)
          .lexically_normal();
  std::error_code ec;
  if (!fs::is_regular_file(resolved, ec)) {
    throw Error("cannot open included file '" + file + "' (resolved to '" +
                fs::absolute(resolved, ec).lexically_normal().string() + "')");
  }
  // Read as the reader reads an include: the file's own defines, then those it includes.
  graph::Model included = xml::ReadModelFile(resolved.string());
  std::vector<graph::Define> found = std::move(included.defines);
  for (graph::Define& d : included.library) found.push_back(std::move(d));
  for (const graph::Define& d : found) {
    for (const graph::Define& known : model.library) {
      if (known.name == d.name) {
        throw Error("define '" + d.name + "' of " + d.where.ToString() + " is already defined at " +
                    known.where.ToString());
      }
    }
  }
  model.includes.push_back({file, {}});
  for (graph::Define& d : found) model.library.push_back(std::move(d));
}

void AddLog(graph::Model& model, const std::string& signal, const std::string& as) {
  const std::optional<graph::PlotSignal> parsed = graph::ParsePlotSignal(signal);
  if (!parsed || parsed->element >= 0) {
    throw Error("invalid signal '" + signal + "'; expected 'block.port' or 'path/to/block.port'");
  }
  if (!as.empty()) {
    if (!graph::IsIdentifier(as)) {
      throw Error("invalid column name '" + as + "': " + kIdentifierRule);
    }
    for (const graph::LogSpec& l : model.logs) {
      if (l.as == as) throw Error("duplicate log name '" + as + "' (logging '" + l.signal + "')");
    }
  }
  model.logs.push_back({signal, as, {}});
}

void AddPlot(graph::Model& model, graph::PlotSpec plot) {
  if (plot.file.empty()) throw Error("<plot> has an empty file name");
  for (const graph::PlotSpec& p : model.plots) {
    if (p.file == plot.file) throw Error("a second plot writes '" + plot.file + "'");
  }
  CheckSignals(plot.signals, "plot");
  plot.where = {};
  model.plots.push_back(std::move(plot));
}

void AddSummary(graph::Model& model, const std::vector<std::string>& signals, const std::string& op,
                const std::string& label) {
  CheckSignals(signals, "summary");
  const std::optional<graph::SummaryOp> parsed = graph::ParseSummaryOp(op);
  if (!parsed) {
    throw Error("op=\"" + op + "\" on <summary>; expected one of: " + graph::SummaryOpNames());
  }
  graph::SummarySpec summary;
  summary.signals = signals;
  summary.op = *parsed;
  summary.label = label;
  model.summaries.push_back(std::move(summary));
}

}  // namespace twinblocks::python
