#pragma once

// SVG pictures (plots, diagrams) as PNG images, for documents and viewers that do not show
// SVG. Through librsvg and cairo when the build has them (the CMake option TWINBLOCKS_RSVG).

#include <string>

namespace twinblocks::graph {

/// True when this build writes PNG images (librsvg and cairo were found at configure time).
bool PngSupported();

/// Draws the SVG document `svg` on a white background as a PNG image of its intrinsic size
/// (its width and height, in px at 96 per inch) times `scale`.
/// @returns the bytes of the PNG file.
/// @throws std::logic_error when scale <= 0.
/// @throws std::runtime_error (one line) when the SVG cannot be parsed or has no size, the
///   image would exceed 100 million pixels, or this build has no PNG support.
std::string SvgToPng(const std::string& svg, double scale = 1.0);

}  // namespace twinblocks::graph
