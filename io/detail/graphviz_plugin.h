#pragma once

// The Graphviz plugin's table (io/plugins/graphviz_plugin.cc, libtwinblocks_graphviz.so):
// DOT text laid out and rendered by libgvc, for io/graphviz_render.cc. Built with the
// program, by the same compiler: C++ types and exceptions cross the boundary; kAbiVersion
// guards against a stale plugin.

#include <string>

namespace twinblocks::graph::internal {

struct GraphvizPlugin {
  /// Raised whenever a function's signature or meaning changes.
  static constexpr int kAbiVersion = 1;
  /// RenderDot's work (io/graphviz_render.h).
  /// @throws std::runtime_error (one line) as RenderDot documents.
  std::string (*render_dot)(const std::string& dot, const std::string& format);
};

}  // namespace twinblocks::graph::internal

/// The table for `abi_version`, or null for any other version.
extern "C" const void* twinblocks_graphviz_plugin(int abi_version);
