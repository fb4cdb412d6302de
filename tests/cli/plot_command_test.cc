// `twinblocks plot RESULTS SIGNAL... -o FILE`: SVG and PNG charts of a results file (CSV or
// .mat from `twinblocks run`), vector signals and patterns expanded to their elements, and one
// line with exit status 2 for an unknown signal, a bad file, a malformed row, a bad -o.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <iterator>
#include <pugixml.hpp>
#include <string>
#include <tuple>
#include <vector>

#include "io/mat_writer.h"
#include "io/svg_raster.h"
#include "tests/support/acceptance_helpers.h"

namespace {

namespace fs = std::filesystem;
using twinblocks::testing::CliResult;
using twinblocks::testing::CountLines;
using twinblocks::testing::FreshDirectory;
using twinblocks::testing::ReadBytes;
using twinblocks::testing::RunCliWithStdout;
using twinblocks::testing::SourcePath;
using twinblocks::testing::WriteText;

constexpr const char* kPlotDirPrefix = "twinblocks_cli_plot_";

// The legend of a chart written by RenderSvgPlot, in order; one name per series drawn.
std::vector<std::string> SeriesNames(const fs::path& svg) {
  pugi::xml_document doc;
  const pugi::xml_parse_result r = doc.load_file(svg.c_str());
  EXPECT_TRUE(r) << svg << ": " << r.description();
  std::vector<std::string> names;
  int series = 0;
  for (pugi::xml_node g : doc.document_element().children("g")) {
    const std::string cls = g.attribute("class").value();
    series += cls == "series";
    if (cls == "legend") {
      for (pugi::xml_node t : g.children("text")) names.push_back(t.child_value());
    }
  }
  EXPECT_EQ(series, static_cast<int>(names.size())) << svg;
  return names;
}

// A results file as `run` writes it: a scalar, a 3-vector, and a scalar whose name starts
// like the vector's.
const char kResults[] =
    "time,x,q[0],q[1],q[2],qd\n"
    "0,1,0,0.5,1,0\n"
    "0.5,0.8,0.1,0.4,1.5,0.2\n"
    "1,0.3,0.2,0.2,2,0.4\n";

TEST(CliPlotCommandTest, SvgOfScalarsVectorsAndPatterns) {
  const fs::path dir = FreshDirectory(kPlotDirPrefix, "svg");
  WriteText(dir / "r.csv", kResults);
  const fs::path out = dir / "figs" / "x.svg";
  CliResult r = RunCliWithStdout("plot " + (dir / "r.csv").string() +
                                 " x q --title Demo --ylabel rad -o " + out.string());
  ASSERT_EQ(r.status, 0) << r.text;
  EXPECT_EQ(r.text, "wrote " + out.string() + "\n");
  // The vector without an index is every element, as in a model's <plot>.
  EXPECT_EQ(SeriesNames(out), (std::vector<std::string>{"x", "q[0]", "q[1]", "q[2]"}));
  const std::string svg = ReadBytes(out);
  EXPECT_NE(svg.find(">Demo<"), std::string::npos);
  EXPECT_NE(svg.find(">rad<"), std::string::npos);
  EXPECT_NE(svg.find("width=\"800\""), std::string::npos);

  // One element, and a pattern (quoted for the shell) that matches columns in file order.
  r = RunCliWithStdout("plot " + (dir / "r.csv").string() +
                       " 'q[1]' 'q*' --width 640 --height 300 -q -o " + (dir / "y.svg").string());
  ASSERT_EQ(r.status, 0) << r.text;
  EXPECT_EQ(r.text, "");
  EXPECT_EQ(SeriesNames(dir / "y.svg"),
            (std::vector<std::string>{"q[1]", "q[0]", "q[1]", "q[2]", "qd"}));
  EXPECT_NE(ReadBytes(dir / "y.svg").find("width=\"640\""), std::string::npos);

  // Without -o: the results file's name with .svg; --log-y draws a log axis.
  r = RunCliWithStdout("plot " + (dir / "r.csv").string() + " qd --log-y");
  ASSERT_EQ(r.status, 0) << r.text;
  EXPECT_EQ(SeriesNames(dir / "r.svg"), (std::vector<std::string>{"qd"}));
}

TEST(CliPlotCommandTest, PngIsARealImage) {
  if (!twinblocks::graph::PngSupported()) GTEST_SKIP() << "built without librsvg";
  const fs::path dir = FreshDirectory(kPlotDirPrefix, "png");
  WriteText(dir / "r.csv", kResults);
  for (const auto& [file, scale, width] :
       {std::tuple{"a.png", "", 800u}, std::tuple{"B.PNG", "--scale 2", 1600u}}) {
    const fs::path out = dir / file;
    const CliResult r = RunCliWithStdout("plot " + (dir / "r.csv").string() + " x q " + scale +
                                         " -o " + out.string());
    ASSERT_EQ(r.status, 0) << r.text;
    const std::string png = ReadBytes(out);
    ASSERT_GT(png.size(), 1000u) << file;
    EXPECT_EQ(png.substr(0, 8), "\x89PNG\r\n\x1a\n") << file;
    const auto be32 = [&](size_t at) {
      unsigned v = 0;
      for (size_t i = 0; i < 4; ++i) v = (v << 8) | static_cast<unsigned char>(png[at + i]);
      return v;
    };
    EXPECT_EQ(be32(16), width) << file;
    EXPECT_EQ(be32(20), width * 480 / 800) << file;
  }
}

TEST(CliPlotCommandTest, FromMatResults) {
  if (!twinblocks::graph::MatSupported()) GTEST_SKIP() << "built without libmatio";
  const fs::path dir = FreshDirectory(kPlotDirPrefix, "mat");
  CliResult r = RunCliWithStdout("run " + SourcePath("tests/data/mat/oscillator.xml") + " -q -o " +
                                 (dir / "r.mat").string());
  ASSERT_EQ(r.status, 0) << r.text;
  r = RunCliWithStdout("plot " + (dir / "r.mat").string() + " x both.y -o " +
                       (dir / "m.svg").string());
  ASSERT_EQ(r.status, 0) << r.text;
  EXPECT_EQ(SeriesNames(dir / "m.svg"), (std::vector<std::string>{"x", "both.y[0]", "both.y[1]"}));
}

TEST(CliPlotCommandTest, BadInputIsOneLineAndStatus2) {
  const fs::path dir = FreshDirectory(kPlotDirPrefix, "bad");
  WriteText(dir / "r.csv", kResults);
  WriteText(dir / "broken.csv", "time,x\n0,1\n0.5,1\n1,oops\n");
  WriteText(dir / "model.csv", "<model name=\"m\"/>\n");
  const std::string results = (dir / "r.csv").string();
  struct Case {
    std::string args;
    std::string says;
  };
  const std::vector<Case> cases = {
      {results + " qq -o " + (dir / "a.svg").string(),
       "no signal 'qq' in " + results + "; did you mean 'q'?; its signals: x, q, qd"},
      {results + " 'z*' -o " + (dir / "a.svg").string(), "no signal 'z*' in " + results},
      {results + " 'q[3]' -o " + (dir / "a.svg").string(), "did you mean 'q[0]'?"},
      {(dir / "broken.csv").string() + " x -o " + (dir / "a.svg").string(),
       (dir / "broken.csv").string() + ":4: column 'x': 'oops' is not a number"},
      {(dir / "model.csv").string() + " x -o " + (dir / "a.svg").string(),
       (dir / "model.csv").string() + ":1: the first column is '<model name=\"m\"/>'"},
      {(dir / "missing.csv").string() + " x", "missing.csv"},
      {results + " x -o " + (dir / "a.pdf").string(),
       "unknown plot format '.pdf', expected a file name ending in .svg or .png"},
      {results + " -o " + (dir / "a.svg").string(), "signals is required"},
      {results + " x --width 10 -o " + (dir / "a.svg").string(), "--width"},
      {results + " x -o " + (dir / "no" / "dir").string() + "/../../r.csv/a.svg", "cannot write"},
  };
  for (const Case& c : cases) {
    const CliResult r = RunCliWithStdout("plot " + c.args);
    EXPECT_EQ(r.status, 2) << c.args << "\n" << r.text;
    EXPECT_EQ(CountLines(r.text), 1) << c.args << "\n" << r.text;
    EXPECT_NE(r.text.find(c.says), std::string::npos) << c.args << "\n" << r.text;
  }
  EXPECT_FALSE(fs::exists(dir / "a.svg"));
  EXPECT_FALSE(fs::exists(dir / "a.pdf"));
}

}  // namespace
