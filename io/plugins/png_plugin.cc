// libtwinblocks_png.so: SVG pictures drawn as PNG images by librsvg and cairo, opened by
// io/svg_raster.cc on first use (common/detail/plugin_loader.h says why).
#include "io/detail/png_plugin.h"

#include <cairo.h>
#include <librsvg/rsvg.h>

#include <cmath>
#include <memory>
#include <stdexcept>
#include <string>

namespace twinblocks::graph::internal {
namespace {

struct GObjectUnref {
  void operator()(gpointer p) const { g_object_unref(p); }
};
struct SurfaceDestroy {
  void operator()(cairo_surface_t* s) const { cairo_surface_destroy(s); }
};
struct CairoDestroy {
  void operator()(cairo_t* c) const { cairo_destroy(c); }
};

// Larger images are refused: a mistyped scale should not fill the memory.
constexpr double kMaxPixels = 100e6;

// GLib's messages may end in a line break; ours are one line.
std::runtime_error PngError(const std::string& what) {
  std::string line;
  for (char c : what) line += c == '\n' ? ' ' : c;
  while (!line.empty() && line.back() == ' ') line.pop_back();
  return std::runtime_error("cannot draw the PNG image: " + line);
}

// The error's message, trimmed, and the error freed.
std::string TakeMessage(GError* error) {
  if (error == nullptr) return "unknown error";
  std::string text = error->message;
  g_error_free(error);
  while (!text.empty() && (text.back() == '\n' || text.back() == ' ')) text.pop_back();
  return text;
}

cairo_status_t AppendBytes(void* closure, const unsigned char* data, unsigned int length) {
  static_cast<std::string*>(closure)->append(reinterpret_cast<const char*>(data), length);
  return CAIRO_STATUS_SUCCESS;
}

std::string SvgToPng(const std::string& svg, double scale) {
  GError* error = nullptr;
  std::unique_ptr<RsvgHandle, GObjectUnref> handle(
      rsvg_handle_new_from_data(reinterpret_cast<const guint8*>(svg.data()), svg.size(), &error));
  if (!handle) {
    throw PngError("the SVG does not parse (" + TakeMessage(error) + ")");
  }
  rsvg_handle_set_dpi(handle.get(), 96.0);
  double width = 0.0;
  double height = 0.0;
  if (!rsvg_handle_get_intrinsic_size_in_pixels(handle.get(), &width, &height) || width <= 0.0 ||
      height <= 0.0) {
    throw PngError("the SVG has no width and height");
  }
  const int w = static_cast<int>(std::ceil(width * scale));
  const int h = static_cast<int>(std::ceil(height * scale));
  if (static_cast<double>(w) * h > kMaxPixels) {
    throw PngError(std::to_string(w) + " x " + std::to_string(h) + " pixels is too large");
  }
  std::unique_ptr<cairo_surface_t, SurfaceDestroy> surface(
      cairo_image_surface_create(CAIRO_FORMAT_ARGB32, w, h));
  std::unique_ptr<cairo_t, CairoDestroy> cr(cairo_create(surface.get()));
  // Viewers show transparent pixels on whatever they like (often black): paint white.
  cairo_set_source_rgb(cr.get(), 1.0, 1.0, 1.0);
  cairo_paint(cr.get());
  const RsvgRectangle viewport{0.0, 0.0, static_cast<double>(w), static_cast<double>(h)};
  if (!rsvg_handle_render_document(handle.get(), cr.get(), &viewport, &error)) {
    throw PngError("the SVG does not render (" + TakeMessage(error) + ")");
  }
  if (cairo_status(cr.get()) != CAIRO_STATUS_SUCCESS) {
    throw PngError(cairo_status_to_string(cairo_status(cr.get())));
  }
  std::string png;
  const cairo_status_t written =
      cairo_surface_write_to_png_stream(surface.get(), &AppendBytes, &png);
  if (written != CAIRO_STATUS_SUCCESS) throw PngError(cairo_status_to_string(written));
  return png;
}

constexpr PngPlugin kTable{&SvgToPng};

}  // namespace
}  // namespace twinblocks::graph::internal

extern "C" const void* twinblocks_png_plugin(int abi_version) {
  using twinblocks::graph::internal::PngPlugin;
  return abi_version == PngPlugin::kAbiVersion ? &twinblocks::graph::internal::kTable : nullptr;
}
