#pragma once

// The page's bundled parts, compiled in from a source the build generates (web/build.mjs,
// report/CMakeLists.txt): the HTML template, the style sheet (uPlot's and the page's own) and
// the script (uPlot, three.js and web/src/report.js, bundled and minified by esbuild).

#include <string_view>

namespace twinblocks::report::internal {

/// The HTML page with the markers @TB_TITLE@, @TB_STYLE@, @TB_DATA@ and @TB_SCRIPT@, each
/// once, in that order.
extern const std::string_view kPageTemplate;
extern const std::string_view kPageStyle;
/// Holds no "</script" (escaped at build time), so that it can stand inside a <script>.
extern const std::string_view kPageScript;

}  // namespace twinblocks::report::internal
