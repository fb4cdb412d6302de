// SVG plots: well-formed XML with one line per series, 1-2-5 ticks labelled right over tiny,
// ordinary and large ranges, log axes, NaN gaps, decimation of long runs, and a <plot> of a
// compiled model read back from its recording.
#include "io/svg_plot.h"

#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <pugixml.hpp>
#include <string>
#include <vector>

#include "compiler/compile.h"
#include "model/model_error.h"
#include "runtime/simulator.h"
#include "xml/model_reader.h"

namespace twinblocks::graph {
namespace {

using Labels = std::vector<std::string>;
constexpr double kGap = std::numeric_limits<double>::quiet_NaN();  // a missing value

PlotSeries Sine(const std::string& name, int n, double amplitude, double t_end = 10.0) {
  PlotSeries s;
  s.name = name;
  for (int i = 0; i < n; ++i) {
    const double t = t_end * i / (n - 1);
    s.t.push_back(t);
    s.y.push_back(amplitude * std::sin(t));
  }
  return s;
}

// Parses the SVG (failing the test when it is not well-formed XML) and returns the document.
void Parse(const std::string& svg, pugi::xml_document* doc) {
  const pugi::xml_parse_result r = doc->load_string(svg.c_str());
  ASSERT_TRUE(r) << r.description() << " at offset " << r.offset << "\n" << svg.substr(0, 2000);
  ASSERT_STREQ(doc->document_element().name(), "svg");
}

std::vector<pugi::xml_node> SeriesGroups(const pugi::xml_document& doc) {
  std::vector<pugi::xml_node> groups;
  for (pugi::xml_node g : doc.document_element().children("g")) {
    if (std::string(g.attribute("class").value()) == "series") groups.push_back(g);
  }
  return groups;
}

Labels TickLabels(const pugi::xml_document& doc, const std::string& axis) {
  Labels labels;
  for (pugi::xml_node g : doc.document_element().children("g")) {
    if (axis != g.attribute("class").value()) continue;
    for (pugi::xml_node t : g.children("text")) labels.push_back(t.child_value());
  }
  return labels;
}

int NumPoints(pugi::xml_node polyline) {
  std::string points = polyline.attribute("points").value();
  int n = points.empty() ? 0 : 1;
  for (char c : points) n += c == ' ';
  return n;
}

TEST(SvgPlotTest, WellFormedWithOnePolylinePerSeriesAndDistinctColours) {
  const std::string svg = RenderSvgPlot(
      {Sine("arm/j1.q", 101, 1.0), Sine("arm/j2.q", 101, 2.0), Sine("a & <b>", 101, 0.5)},
      {.title = "Joint positions \"e1\"", .ylabel = "rad"});
  pugi::xml_document doc;
  Parse(svg, &doc);
  const std::vector<pugi::xml_node> groups = SeriesGroups(doc);
  ASSERT_EQ(groups.size(), 3u);
  std::vector<std::string> colours;
  for (pugi::xml_node g : groups) {
    EXPECT_EQ(std::distance(g.children("polyline").begin(), g.children("polyline").end()), 1);
    EXPECT_EQ(NumPoints(g.child("polyline")), 101);
    colours.push_back(g.attribute("stroke").value());
  }
  EXPECT_NE(colours[0], colours[1]);
  EXPECT_NE(colours[1], colours[2]);
  EXPECT_NE(colours[0], colours[2]);

  pugi::xml_node root = doc.document_element();
  EXPECT_STREQ(root.find_child_by_attribute("text", "class", "title").child_value(),
               "Joint positions \"e1\"");
  EXPECT_STREQ(root.find_child_by_attribute("text", "class", "xlabel").child_value(), "time (s)");
  EXPECT_STREQ(root.find_child_by_attribute("text", "class", "ylabel").child_value(), "rad");
  Labels legend;
  for (pugi::xml_node t : root.find_child_by_attribute("g", "class", "legend").children("text")) {
    legend.push_back(t.child_value());
  }
  EXPECT_EQ(legend, (Labels{"arm/j1.q", "arm/j2.q", "a & <b>"}));
  EXPECT_EQ(TickLabels(doc, "yticks"),
            (Labels{"-2", "-1.5", "-1", "-0.5", "0", "0.5", "1", "1.5", "2"}));
  EXPECT_EQ(TickLabels(doc, "xticks"),
            (Labels{"0", "1", "2", "3", "4", "5", "6", "7", "8", "9", "10"}));
}

TEST(SvgPlotTest, TicksStepByOneTwoOrFiveAndCoverTheRange) {
  AxisTicks t = LinearTicks(0.0, 1.0);
  EXPECT_EQ(t.labels, (Labels{"0", "0.2", "0.4", "0.6", "0.8", "1"}));
  t = LinearTicks(0.0, 2.37, 6);
  EXPECT_EQ(t.labels, (Labels{"0", "0.5", "1", "1.5", "2", "2.5"}));
  EXPECT_DOUBLE_EQ(t.hi, 2.5);
  t = LinearTicks(-3.1, 7.9, 6);
  EXPECT_EQ(t.labels, (Labels{"-4", "-2", "0", "2", "4", "6", "8"}));
  t = LinearTicks(0.0, 40000.0, 4);
  EXPECT_EQ(t.labels, (Labels{"0", "10000", "20000", "30000", "40000"}));
  t = LinearTicks(1.00001, 1.00005, 4);
  EXPECT_EQ(t.labels, (Labels{"1.00001", "1.00002", "1.00003", "1.00004", "1.00005"}));
}

TEST(SvgPlotTest, TinyAndHugeValuesGetScientificLabels) {
  // Tracking errors of a well-solved run: round-off, 1e-14.
  AxisTicks t = LinearTicks(-3e-14, 4.2e-14, 4);
  EXPECT_EQ(t.labels, (Labels{"-4e-14", "-2e-14", "0", "2e-14", "4e-14", "6e-14"}));
  t = LinearTicks(0.0, 1.5e-14, 3);
  EXPECT_EQ(t.labels, (Labels{"0", "5e-15", "1e-14", "1.5e-14"}));
  t = LinearTicks(0.0, 3e7, 3);
  EXPECT_EQ(t.labels, (Labels{"0", "1e7", "2e7", "3e7"}));
}

TEST(SvgPlotTest, ConstantSeriesGetARangeAroundTheirValue) {
  AxisTicks t = LinearTicks(5.0, 5.0);
  EXPECT_LT(t.lo, 5.0);
  EXPECT_GT(t.hi, 5.0);
  EXPECT_EQ(t.labels.front(), "4.4");
  EXPECT_EQ(t.labels.back(), "5.6");
  t = LinearTicks(0.0, 0.0);
  EXPECT_EQ(t.labels.front(), "-1");
  EXPECT_EQ(t.labels.back(), "1");

  PlotSeries flat{"flat", {0, 1, 2}, {3, 3, 3}};
  pugi::xml_document doc;
  Parse(RenderSvgPlot({flat}, {}), &doc);
  ASSERT_EQ(SeriesGroups(doc).size(), 1u);
  for (const std::string& label : TickLabels(doc, "yticks")) {
    EXPECT_LE(label.size(), 4u) << label;
  }
}

TEST(SvgPlotTest, LogAxisHasDecadesAndSkipsZeros) {
  AxisTicks t = LogTicks(2e-15, 3e-3);
  // Thirteen decades: every third is labelled.
  EXPECT_EQ(t.labels, (Labels{"1e-15", "1e-12", "1e-9", "1e-6", "0.001", "1"}));
  t = LogTicks(0.5, 200);
  EXPECT_EQ(t.labels, (Labels{"0.1", "1", "10", "100", "1000"}));
  t = LogTicks(3.0, 4.0);
  EXPECT_EQ(t.labels, (Labels{"1", "10"}));

  PlotSeries error{"e", {0, 1, 2, 3, 4}, {0.0, -1e-14, 0.0, 3e-12, 1e-13}};
  PlotOptions options;
  options.log_y = true;
  options.ylabel = "rad";
  pugi::xml_document doc;
  Parse(RenderSvgPlot({error}, options), &doc);
  ASSERT_EQ(SeriesGroups(doc).size(), 1u);
  EXPECT_EQ(NumPoints(SeriesGroups(doc)[0].child("polyline")), 3);  // the zeros are left out
  EXPECT_EQ(TickLabels(doc, "yticks"), (Labels{"1e-14", "1e-13", "1e-12", "1e-11"}));
  EXPECT_STREQ(
      doc.document_element().find_child_by_attribute("text", "class", "ylabel").child_value(),
      "|rad|");
}

TEST(SvgPlotTest, NaNSplitsTheLine) {
  PlotSeries s{"gap", {0, 1, 2, 3, 4, 5}, {1, 2, kGap, kGap, 3, 4}};
  PlotSeries all_nan{"none", {0, 1}, {kGap, kGap}};
  pugi::xml_document doc;
  Parse(RenderSvgPlot({s, all_nan}, {}), &doc);
  const std::vector<pugi::xml_node> groups = SeriesGroups(doc);
  ASSERT_EQ(groups.size(), 2u);
  std::vector<int> points;
  for (pugi::xml_node p : groups[0].children("polyline")) points.push_back(NumPoints(p));
  EXPECT_EQ(points, (std::vector<int>{2, 2}));
  EXPECT_TRUE(groups[1].children("polyline").empty());
}

TEST(SvgPlotTest, NoDataStillGivesAValidChart) {
  pugi::xml_document doc;
  Parse(RenderSvgPlot({PlotSeries{"empty", {}, {}}}, {}), &doc);
  EXPECT_TRUE(doc.document_element().find_child_by_attribute("text", "class", "nodata"));
}

TEST(SvgPlotTest, LongRunsAreDecimatedKeepingPeaks) {
  PlotSeries s = Sine("q", 40001, 1.0, 20.0);
  s.y[12345] = 50.0;  // a one-sample spike must survive
  const std::vector<std::vector<int>> runs = DecimateMinMax(s.y, 2000);
  ASSERT_EQ(runs.size(), 1u);
  EXPECT_LE(runs[0].size(), 2010u);
  EXPECT_GE(runs[0].size(), 1500u);
  EXPECT_EQ(runs[0].front(), 0);
  EXPECT_EQ(runs[0].back(), 40000);
  EXPECT_TRUE(std::is_sorted(runs[0].begin(), runs[0].end()));
  EXPECT_NE(std::find(runs[0].begin(), runs[0].end(), 12345), runs[0].end());

  const std::string svg = RenderSvgPlot({s, Sine("qd", 40001, 2.0, 20.0)}, {});
  EXPECT_LT(svg.size(), 100000u) << "two 40001-sample series";
  pugi::xml_document doc;
  Parse(svg, &doc);
  for (pugi::xml_node g : SeriesGroups(doc)) EXPECT_LE(NumPoints(g.child("polyline")), 2010);
}

TEST(SvgPlotTest, MismatchedSeriesIsAnError) {
  EXPECT_THROW(RenderSvgPlot({PlotSeries{"bad", {0, 1}, {1}}}, {}), std::logic_error);
}

// ------------------------------------------------------------------------------------------
// <plot> in a model: its signals are logged, and the series come from the recording.

System CompilePlotModel(const std::string& body) {
  return Compile(
      xml::ReadModelString("<model name=\"m\" format=\"1\">\n" + body + "</model>", "m.xml"));
}

std::string PlotCompileError(const std::string& body) {
  try {
    CompilePlotModel(body);
  } catch (const ModelError& e) {
    return e.what();
  }
  return "";
}

const char kRamps[] = R"(<simulation solver="ode4" t_end="1" step="0.1"/>
<block type="Clock" name="clock"/>
<block type="Gain" name="twice" k="2"/>
<block type="Mux" name="both" inputs="2"/>
<connect from="clock.t" to="twice.u"/>
<connect from="clock.t" to="both.u1"/>
<connect from="twice.y" to="both.u2"/>
<log signal="twice.y" as="double_t"/>
)";

TEST(SvgPlotTest, PlotSignalsAreLoggedAndReadFromTheRecording) {
  const std::string text =
      std::string(kRamps) + R"(<plot file="p.svg" signals="clock.t twice.y both.y[1] both.y"/>)";
  const Model model =
      xml::ReadModelString("<model name=\"m\" format=\"1\">\n" + text + "</model>", "m.xml");
  const System sys = Compile(model);
  // twice.y is logged already (as double_t); clock.y and both.y are added.
  std::vector<std::string> names;
  for (const LoggedSignal& l : sys.logged_signals()) names.push_back(l.name);
  EXPECT_EQ(names, (std::vector<std::string>{"double_t", "clock.t", "both.y"}));

  Simulator sim(sys, sys.settings());
  ASSERT_TRUE(sim.Run().ok);
  const std::vector<PlotSeries> series =
      PlotSeriesFromRecording(model.plots[0], sys, sim.recording());
  ASSERT_EQ(series.size(), 5u);
  EXPECT_EQ(series[0].name, "clock.t");
  EXPECT_EQ(series[2].name, "both.y[1]");
  EXPECT_EQ(series[3].name, "both.y[0]");
  EXPECT_EQ(series[4].name, "both.y[1]");
  const int last = sim.recording().num_rows() - 1;
  EXPECT_DOUBLE_EQ(series[0].t[last], 1.0);
  EXPECT_DOUBLE_EQ(series[0].y[last], 1.0);
  EXPECT_DOUBLE_EQ(series[1].y[last], 2.0);
  EXPECT_DOUBLE_EQ(series[2].y[last], 2.0);
  EXPECT_DOUBLE_EQ(series[3].y[last], 1.0);
}

TEST(SvgPlotTest, APlotSignalThatNamesNoPortIsACompileErrorAtThePlotsLine) {
  std::string err =
      PlotCompileError(std::string(kRamps) + R"(<plot file="p.svg" signals="clock.z"/>)");
  EXPECT_NE(err.find("m.xml:10:"), std::string::npos) << err;
  EXPECT_NE(err.find("cannot plot 'clock.z'"), std::string::npos) << err;
  err = PlotCompileError(std::string(kRamps) + R"(<plot file="p.svg" signals="both.y[2]"/>)");
  EXPECT_NE(err.find("m.xml:10:"), std::string::npos) << err;
  EXPECT_NE(err.find("has width 2"), std::string::npos) << err;
}

}  // namespace
}  // namespace twinblocks::graph
