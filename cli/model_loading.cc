#include <algorithm>
#include <cstdio>
#include <stdexcept>
#include <string>
#include <vector>

#include "blocks/block_registry.h"
#include "cli/commands.h"
#include "common/suggest.h"
#include "model/detail/model_support.h"
#include "model/model_error.h"
#include "runtime/simulator.h"
#include "sweep/sweep_plan.h"
#include "xml/model_reader.h"
#include "xml/urdf_reader.h"

namespace twinblocks::cli {

namespace {

bool IsUrdf(const std::string& path) {
  return path.size() >= 5 && path.compare(path.size() - 5, 5, ".urdf") == 0;
}

// A .urdf file is imported as `twinblocks import` would (docs/urdf.md); its warnings (visual
// meshes left out) are printed, and the run goes on.
graph::Model ReadAnyModel(const std::string& path, const UrdfArgs& urdf) {
  if (!IsUrdf(path)) return xml::ReadModelFile(path);
  xml::UrdfImport import = xml::ReadUrdfFile(path, UrdfOptionsFrom(urdf));
  for (const std::string& w : import.warnings) std::fprintf(stderr, "%s\n", w.c_str());
  return std::move(import.model);
}

// True when `--set NAME=...` gives a number, vector or matrix: a model variable, or a numeric
// parameter of a block (not a word, a file name or a formula, where a comma may belong).
bool TakesNumbers(const graph::Model& model, const std::string& name) {
  const size_t dot = name.rfind('.');
  if (dot == std::string::npos) return true;
  const graph::BlockNode* node = model.FindBlock(name.substr(0, dot));
  if (node == nullptr) return false;  // reported as an unknown block
  const blocks::BlockType* type = graph::internal::LookUpType(model, *node).catalog;
  if (type == nullptr) return true;  // a define's parameters are expressions
  for (const blocks::ParamSpec& p : type->params) {
    if (p.name != name.substr(dot + 1)) continue;
    return p.kind != blocks::ParamKind::kWord && p.kind != blocks::ParamKind::kString;
  }
  return false;
}

}  // namespace

xml::UrdfImportOptions UrdfOptionsFrom(const UrdfArgs& args) {
  xml::UrdfImportOptions options;
  try {
    options.actuation = xml::ParseUrdfActuation(args.actuation);
  } catch (const std::invalid_argument& e) {
    throw UsageError(std::string("--actuation: ") + e.what());
  }
  options.mesh_paths = args.mesh_paths;
  return options;
}

graph::Model LoadModel(const std::string& path, const std::vector<std::string>& sets,
                       const UrdfArgs& urdf) {
  graph::Model model = ReadAnyModel(path, urdf);
  std::vector<std::string> names_set;
  for (const std::string& set : sets) {
    // Set twice, the last would win silently (sweep refuses it too).
    const std::string set_name = set.substr(0, set.find('='));
    if (std::find(names_set.begin(), names_set.end(), set_name) != names_set.end()) {
      throw UsageError("--set '" + set_name + "' is given twice; give each name once");
    }
    names_set.push_back(set_name);
    const size_t eq = set.find('=');
    if (eq == std::string::npos || eq == 0) {
      throw UsageError("--set '" + set + "': expected NAME=VALUE or block/path.param=VALUE");
    }
    const std::string name = set.substr(0, eq);
    const std::string value = set.substr(eq + 1);
    const size_t dot = name.rfind('.');
    if (TakesNumbers(model, name) && sweep::SplitTopLevel(value).size() > 1) {
      throw UsageError("--set '" + set +
                       "': a list of values; a run takes one value (twinblocks sweep runs a "
                       "list, one run per value; a vector is written [a, b])");
    }
    if (dot == std::string::npos) {
      bool found = false;
      std::vector<std::string> names;
      for (const graph::Variable& v : model.variables) {
        names.push_back(v.name);
        found = found || v.name == name;
      }
      if (!found) {
        throw UsageError("--set '" + set + "': the model has no variable '" + name + "'" +
                         graph::SuggestionFor(name, names));
      }
      model.SetVariable(name, value);
    } else {
      const std::string block = name.substr(0, dot);
      if (model.FindBlock(block) == nullptr) {
        throw UsageError("--set '" + set + "': the model has no block '" + block + "'");
      }
      model.SetParam(block, name.substr(dot + 1), value);
    }
  }
  return model;
}

std::unique_ptr<graph::Simulator> MakeSimulator(const graph::Model& model, const std::string& path,
                                                const graph::System& system,
                                                const graph::SimulationSettingsValues& settings) {
  try {
    return std::make_unique<graph::Simulator>(system, settings);
  } catch (const std::invalid_argument& e) {
    graph::SourceLocation where = model.simulation.where;
    if (!where.known()) where.file = path;
    throw graph::ModelError(where, e.what());
  }
}

}  // namespace twinblocks::cli
