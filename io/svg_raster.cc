#include "io/svg_raster.h"

#include <stdexcept>

#include "common/detail/plugin_loader.h"
#include "io/detail/png_plugin.h"

namespace twinblocks::graph {

#ifdef TWINBLOCKS_RSVG

bool PngSupported() { return true; }

std::string SvgToPng(const std::string& svg, double scale) {
  if (!(scale > 0.0)) throw std::logic_error("SvgToPng: scale must be > 0");
  const internal::PngPlugin* plugin = nullptr;
  try {
    plugin = &blocks::internal::Plugin<internal::PngPlugin>("png");
  } catch (const std::runtime_error& ex) {
    throw std::runtime_error(std::string("cannot draw the PNG image: ") + ex.what());
  }
  return plugin->svg_to_png(svg, scale);
}

#else

bool PngSupported() { return false; }

std::string SvgToPng(const std::string&, double) {
  throw std::runtime_error(
      "cannot draw a PNG image: twinblocks was built without PNG support "
      "(librsvg, cairo)");
}

#endif

}  // namespace twinblocks::graph
