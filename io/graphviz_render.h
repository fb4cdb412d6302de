#pragma once

// Pictures of diagrams: DOT text (io/diagram_dot.h) laid out by Graphviz's `dot` and
// rendered, through libgvc when the build has it (the CMake option TWINBLOCKS_GRAPHVIZ).

#include <string>

namespace twinblocks::graph {

/// True when this build lays out and renders diagrams (libgvc was found at configure time).
bool GraphvizSupported();

/// Lays `dot` out with Graphviz's hierarchical `dot` layout and renders it in `format`: "svg"
/// (text) or "png" (binary bytes), or any other output format of the installed Graphviz
/// plugins. Each call uses its own Graphviz context; calls must not run on two threads at once
/// (Graphviz keeps global state).
/// @throws std::runtime_error (one line) when the DOT text does not parse, the layout or the
///   renderer fails (an unknown format), or this build has no Graphviz support.
std::string RenderDot(const std::string& dot, const std::string& format);

}  // namespace twinblocks::graph
