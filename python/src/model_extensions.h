#pragma once

// Editing calls the Python module offers beyond graph::Model's own: declaring boundary ports,
// defines, includes, logs, plots and summaries, which a model file writes as elements but
// graph::Model has no method for yet (C++ code fills its public vectors directly, as
// graph/hand_builder.cc does). They check what the XML reader checks and throw the same kind
// of graph::ModelError, without file:line (nothing was read from a file). They belong in
// graph::Model; until they move there, they live next to their only caller.

#include <string>
#include <vector>

#include "graph/model.h"

namespace twinblocks::python {

/// Declares a boundary port (`<inport>`, `<outport>`, or `<port domain>` for kPhysical) of
/// the subsystem at `diagram_path`.
/// @throws graph::ModelError when the path is the top level (which has no boundary ports) or
///   no subsystem, the name is not an identifier or taken by another port of that diagram, or
///   a physical port has no domain.
void AddPort(graph::Model& model, std::string_view diagram_path, graph::PortDecl::Kind kind,
             const std::string& name, const std::string& domain);

/// Adds a define (a reusable subsystem type with parameters) to the model's own defines.
/// @throws graph::ModelError when the name or a parameter is not an identifier, a parameter is
///   given twice, or the model already has a define of that name.
void AddDefine(graph::Model& model, const std::string& name, const std::vector<std::string>& params,
               graph::Diagram body);

/// Adds `<include file>` and reads the file (relative to the directory of `model.file`, or to
/// the working directory for a model made in code), so that its defines are known at once.
/// @throws graph::ModelError when the name is empty, the file is already included, cannot be
///   read or is not a valid model, or defines a name the model's library already has.
void AddInclude(graph::Model& model, const std::string& file);

/// Adds `<log signal as>`. @throws graph::ModelError when the signal is not "path.port", or
///   `as` is not an identifier or is used by another log.
void AddLog(graph::Model& model, const std::string& signal, const std::string& as);

/// Adds `<plot>`. @throws graph::ModelError when the file is empty or written by another plot,
///   there is no signal, or one is not "path.port" or "path.port[i]".
void AddPlot(graph::Model& model, graph::PlotSpec plot);

/// Adds `<summary>`. @throws graph::ModelError when there is no signal, one is not "path.port"
///   or "path.port[i]", or the op is not one of graph::SummaryOpNames().
void AddSummary(graph::Model& model, const std::vector<std::string>& signals, const std::string& op,
                const std::string& label);

}  // namespace twinblocks::python
