// `twinblocks run` writes a model's <plot>s as SVG next to the results file, says so unless
// --quiet, skips them with --no-plots, and writes them after a failed run too (exit 3).
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <pugixml.hpp>
#include <string>

#include "tests/support/acceptance_helpers.h"

namespace {

namespace fs = std::filesystem;
using twinblocks::testing::CliResult;
using twinblocks::testing::FreshDirectory;
using twinblocks::testing::RunCliWithStdout;
using twinblocks::testing::WriteText;

constexpr const char* kRunPlotDirPrefix = "twinblocks_cli_";  // of each test's directory

int CountSeries(const fs::path& svg) {
  pugi::xml_document doc;
  const pugi::xml_parse_result r = doc.load_file(svg.c_str());
  EXPECT_TRUE(r) << svg << ": " << r.description();
  int n = 0;
  for (pugi::xml_node g : doc.document_element().children("g")) {
    n += std::string(g.attribute("class").value()) == "series";
  }
  return n;
}

const char kOscillator[] = R"(<?xml version="1.0" encoding="UTF-8"?>
<model name="osc" format="1">
  <simulation solver="ode4" t_end="2" step="0.001"/>
  <block type="Gain" name="spring" k="-4"/>
  <block type="Integrator" name="v" x0="0"/>
  <block type="Integrator" name="x" x0="1"/>
  <connect from="spring.y" to="v.u"/>
  <connect from="v.y" to="x.u"/>
  <connect from="x.y" to="spring.u"/>
  <log signal="x.y" as="x"/>
  <plot file="positions.svg" title="Oscillator" ylabel="m" signals="x.y v.y"/>
  <plot file="speed.svg" signals="v.y" yscale="log"/>
</model>
)";

TEST(CliPlotTest, RunWritesEachPlotNextToTheResults) {
  const fs::path dir = FreshDirectory(kRunPlotDirPrefix, "plots");
  WriteText(dir / "osc.xml", kOscillator);
  fs::create_directories(dir / "out");
  const CliResult r = RunCliWithStdout("run " + (dir / "osc.xml").string() + " -o " +
                                       (dir / "out" / "osc.csv").string());
  ASSERT_EQ(r.status, 0) << r.text;
  EXPECT_NE(r.text.find("wrote " + (dir / "out" / "positions.svg").string()), std::string::npos)
      << r.text;
  EXPECT_NE(r.text.find("wrote " + (dir / "out" / "speed.svg").string()), std::string::npos)
      << r.text;
  EXPECT_EQ(CountSeries(dir / "out" / "positions.svg"), 2);
  EXPECT_EQ(CountSeries(dir / "out" / "speed.svg"), 1);
  // 2001 rows: decimated below 2000 points per series, so the file stays small.
  EXPECT_LT(fs::file_size(dir / "out" / "positions.svg"), 80000u);
  // The plotted signals were logged, besides the model's own log.
  std::ifstream csv(dir / "out" / "osc.csv");
  std::string header;
  std::getline(csv, header);
  EXPECT_EQ(header, "time,x,v.y");
}

TEST(CliPlotTest, QuietAndNoPlots) {
  const fs::path dir = FreshDirectory(kRunPlotDirPrefix, "no_plots");
  WriteText(dir / "osc.xml", kOscillator);
  CliResult r = RunCliWithStdout("run " + (dir / "osc.xml").string() + " --no-plots -o " +
                                 (dir / "osc.csv").string());
  ASSERT_EQ(r.status, 0) << r.text;
  EXPECT_FALSE(fs::exists(dir / "positions.svg"));
  EXPECT_EQ(r.text.find("wrote"), std::string::npos) << r.text;

  r = RunCliWithStdout("run " + (dir / "osc.xml").string() + " --quiet -o " +
                       (dir / "osc.csv").string());
  ASSERT_EQ(r.status, 0) << r.text;
  EXPECT_TRUE(fs::exists(dir / "positions.svg"));
  EXPECT_EQ(r.text.find("wrote"), std::string::npos) << r.text;
}

TEST(CliPlotTest, AFailedRunStillPlotsItsResultsSoFar) {
  const fs::path dir = FreshDirectory(kRunPlotDirPrefix, "failed_run");
  std::ifstream in(std::string(TWINBLOCKS_TEST_DATA) + "/blowup.xml");
  std::string model((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  model.insert(model.find("</model>"), "  <plot file=\"x.svg\" signals=\"x.y\" yscale=\"log\"/>\n");
  WriteText(dir / "blowup.xml", model);
  const CliResult r = RunCliWithStdout("run " + (dir / "blowup.xml").string() + " -o " +
                                       (dir / "blowup.csv").string());
  EXPECT_EQ(r.status, 3) << r.text;
  EXPECT_EQ(CountSeries(dir / "x.svg"), 1);
}

TEST(CliPlotTest, APlotOfNoSignalIsBadInputAtThePlotsLine) {
  const fs::path dir = FreshDirectory(kRunPlotDirPrefix, "bad_plot");
  std::string model = kOscillator;
  model.replace(model.find("signals=\"v.y\""), 13, "signals=\"v.q\"");
  WriteText(dir / "osc.xml", model);
  const CliResult r =
      RunCliWithStdout("run " + (dir / "osc.xml").string() + " -o " + (dir / "osc.csv").string());
  EXPECT_EQ(r.status, 2) << r.text;
  EXPECT_NE(r.text.find("osc.xml:12: plot 'speed.svg': cannot plot 'v.q'"), std::string::npos)
      << r.text;
}

}  // namespace
