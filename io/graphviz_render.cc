#include "io/graphviz_render.h"

#include <stdexcept>

#include "common/detail/plugin_loader.h"
#include "io/detail/graphviz_plugin.h"

namespace twinblocks::graph {

#ifdef TWINBLOCKS_GRAPHVIZ

bool GraphvizSupported() { return true; }

std::string RenderDot(const std::string& dot, const std::string& format) {
  const internal::GraphvizPlugin* plugin = nullptr;
  try {
    plugin = &blocks::internal::Plugin<internal::GraphvizPlugin>("graphviz");
  } catch (const std::runtime_error& ex) {
    throw std::runtime_error("cannot render the diagram as " + format + ": " + ex.what());
  }
  return plugin->render_dot(dot, format);
}

#else

bool GraphvizSupported() { return false; }

std::string RenderDot(const std::string&, const std::string& format) {
  throw std::runtime_error("cannot render the diagram as " + format +
                           ": twinblocks was built without Graphviz (libgvc)");
}

#endif

}  // namespace twinblocks::graph
