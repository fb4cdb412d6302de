// graph::SvgToPng: a plot's SVG drawn as a real PNG image (signature, size, the colours of its
// lines in its pixels), scaled on request; one-line errors for SVG that does not draw.
#include "io/svg_raster.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <cstring>
#include <stdexcept>
#include <string>
#include <vector>

#include "io/svg_plot.h"

#ifdef TWINBLOCKS_RSVG
#include <cairo.h>
#endif

namespace twinblocks::graph {
namespace {

using ::testing::HasSubstr;

// Big-endian 32-bit integer at `at`.
uint32_t Be32(const std::string& bytes, size_t at) {
  uint32_t v = 0;
  for (size_t i = 0; i < 4; ++i) v = (v << 8) | static_cast<unsigned char>(bytes[at + i]);
  return v;
}

std::string SinePlot() {
  PlotSeries s{"sin", {}, {}};
  for (int i = 0; i <= 200; ++i) {
    s.t.push_back(0.01 * i);
    s.y.push_back(std::sin(6.0 * s.t.back()));
  }
  PlotOptions options;
  options.title = "sine";
  return RenderSvgPlot({s}, options);
}

#ifdef TWINBLOCKS_RSVG
struct Pixels {
  int width = 0, height = 0;
  int white = 0, dark = 0, blue = 0;  // the first series' colour is #1f77b4
};

Pixels Decode(const std::string& png) {
  struct Reader {
    const std::string* bytes;
    size_t at = 0;
  } reader{&png};
  cairo_surface_t* s = cairo_image_surface_create_from_png_stream(
      [](void* closure, unsigned char* data, unsigned int length) {
        auto* r = static_cast<Reader*>(closure);
        if (r->at + length > r->bytes->size()) return CAIRO_STATUS_READ_ERROR;
        std::memcpy(data, r->bytes->data() + r->at, length);
        r->at += length;
        return CAIRO_STATUS_SUCCESS;
      },
      &reader);
  Pixels p;
  EXPECT_EQ(cairo_surface_status(s), CAIRO_STATUS_SUCCESS);
  p.width = cairo_image_surface_get_width(s);
  p.height = cairo_image_surface_get_height(s);
  const int stride = cairo_image_surface_get_stride(s);
  const unsigned char* data = cairo_image_surface_get_data(s);
  for (int y = 0; y < p.height; ++y) {
    for (int x = 0; x < p.width; ++x) {
      uint32_t argb;
      std::memcpy(&argb, data + y * stride + 4 * x, 4);
      const int r = (argb >> 16) & 0xff, g = (argb >> 8) & 0xff, b = argb & 0xff;
      p.white += r == 255 && g == 255 && b == 255;
      p.dark += r < 80 && g < 80 && b < 80;
      p.blue += std::abs(r - 0x1f) < 24 && std::abs(g - 0x77) < 24 && std::abs(b - 0xb4) < 24;
    }
  }
  cairo_surface_destroy(s);
  return p;
}
#endif

TEST(SvgToPngTest, DrawsThePlotAsARealPng) {
  if (!PngSupported()) GTEST_SKIP() << "built without librsvg";
  const std::string png = SvgToPng(SinePlot());
  ASSERT_GT(png.size(), 1000u);
  EXPECT_EQ(png.substr(0, 8), "\x89PNG\r\n\x1a\n");
  EXPECT_EQ(png.substr(12, 4), "IHDR");
  EXPECT_EQ(Be32(png, 16), 800u);  // PlotOptions' default size
  EXPECT_EQ(Be32(png, 20), 480u);
#ifdef TWINBLOCKS_RSVG
  const Pixels p = Decode(png);
  ASSERT_EQ(p.width, 800);
  ASSERT_EQ(p.height, 480);
  const int all = p.width * p.height;
  // Mostly white paper, axes and text in dark grey, and the line in the series' blue.
  EXPECT_GT(p.white, all / 2);
  EXPECT_LT(p.white, all - 5000);
  EXPECT_GT(p.dark, 300);
  EXPECT_GT(p.blue, 1000);
#endif
}

TEST(SvgToPngTest, ScaleMultipliesThePixels) {
  if (!PngSupported()) GTEST_SKIP() << "built without librsvg";
  const std::string png = SvgToPng(SinePlot(), 2.0);
  EXPECT_EQ(Be32(png, 16), 1600u);
  EXPECT_EQ(Be32(png, 20), 960u);
  EXPECT_THROW(SvgToPng(SinePlot(), 0.0), std::logic_error);
}

TEST(SvgToPngTest, BadSvgIsOneLine) {
  if (!PngSupported()) GTEST_SKIP() << "built without librsvg";
  const std::string cases[] = {
      "not svg at all <",
      "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"100000\" height=\"100000\"/>",
  };
  const std::string says[] = {"the SVG does not parse", "100000 x 100000 pixels is too large"};
  for (int i = 0; i < 2; ++i) {
    try {
      SvgToPng(cases[i]);
      ADD_FAILURE() << cases[i] << ": no error";
    } catch (const std::runtime_error& e) {
      EXPECT_THAT(e.what(), HasSubstr("cannot draw the PNG image: " + says[i]));
      EXPECT_EQ(std::string(e.what()).find('\n'), std::string::npos) << e.what();
    }
  }
}

TEST(SvgToPngTest, BuildWithoutPngSaysSo) {
  if (PngSupported()) GTEST_SKIP() << "built with librsvg";
  try {
    SvgToPng(SinePlot());
    ADD_FAILURE() << "no error";
  } catch (const std::runtime_error& e) {
    EXPECT_THAT(e.what(), HasSubstr("built without PNG support"));
  }
}

}  // namespace
}  // namespace twinblocks::graph
