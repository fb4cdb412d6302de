#pragma once

// Block diagrams as Graphviz DOT text: `twinblocks graph` prints it, and RenderDot
// (io/graphviz_render.h) lays it out as an SVG or PNG picture.

#include <string>

#include "model/model.h"
#include "runtime/system.h"

namespace twinblocks::graph {

/// What DiagramDot draws.
struct DiagramDotOptions {
  /// Draw each instance of a define as a cluster of its define's body (labelled
  /// "name (Type)"), recursively, instead of one box.
  bool expand_defines = false;
};

/// The diagram as the model draws it: every block a box labelled with its name and type
/// (greyed and dashed when commented out); every subsystem a cluster (`subgraph
/// "cluster_PATH"`) holding its blocks and its boundary ports; boundary ports (and the
/// model's external inputs) small ellipses for signals, hexagons for physical ports; every
/// line an edge: signal lines as arrows, physical lines (frames, shafts, wires) as thick
/// undirected edges. A line is labelled with the ports of both its ends ("y -> u2", "F - B")
/// when one end is a block with more than one port in lines of that diagram. An instance of a
/// define is one box of its define's type, like a library block, unless
/// `options.expand_defines`.
///
/// Node names are block paths ("arm/joint1"), and "PATH.port" for the boundary port of the
/// subsystem at PATH (".port" at the top level), so the text can be read by tools too.
/// The model is drawn as written; compile it first to check it (a line whose ports cannot be
/// looked up is drawn as a signal line).
std::string DiagramDot(const Model& model, const DiagramDotOptions& options = {});

/// The compiled diagram: the flat blocks of `system` (a mechanism of multibody blocks is one
/// block), grouped into clusters by their subsystem paths, with an arrow for every block input
/// from the output it reads, labelled "output -> input" (with the width when above 1).
/// `name` is the graph's name (the model's).
std::string CompiledDiagramDot(const System& system, const std::string& name);

}  // namespace twinblocks::graph
