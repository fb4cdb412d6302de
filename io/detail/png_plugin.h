#pragma once

// The PNG plugin's table (io/plugins/png_plugin.cc, libtwinblocks_png.so): SVG drawn by
// librsvg and cairo, for io/svg_raster.cc. Built with the program, by the same compiler:
// C++ types and exceptions cross the boundary; kAbiVersion guards against a stale plugin.

#include <string>

namespace twinblocks::graph::internal {

struct PngPlugin {
  /// Raised whenever a function's signature or meaning changes.
  static constexpr int kAbiVersion = 1;
  /// SvgToPng's work (io/svg_raster.h) for a scale > 0: the PNG file's bytes.
  /// @throws std::runtime_error (one line) as SvgToPng documents.
  std::string (*svg_to_png)(const std::string& svg, double scale);
};

}  // namespace twinblocks::graph::internal

/// The table for `abi_version`, or null for any other version.
extern "C" const void* twinblocks_png_plugin(int abi_version);
