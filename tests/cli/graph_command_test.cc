// `twinblocks graph MODEL`: DOT on stdout (the diagram as drawn, or --compiled), and with --svg
// or --png (or an -o of that extension) a picture laid out by Graphviz, by default named after
// the model in the current directory; bad flags, extensions and models are one line, status 2.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <iterator>
#include <pugixml.hpp>
#include <string>
#include <vector>

#include "io/graphviz_render.h"
#include "tests/support/acceptance_helpers.h"

namespace {

namespace fs = std::filesystem;
using twinblocks::testing::CliResult;
using twinblocks::testing::CountLines;
using twinblocks::testing::FreshDirectory;
using twinblocks::testing::ReadBytes;
using twinblocks::testing::RunCliWithStdout;
using twinblocks::testing::RunShell;
using twinblocks::testing::SourcePath;
using twinblocks::testing::WriteText;

constexpr const char* kGraphDirPrefix = "twinblocks_cli_graph_";

std::string Pendulum() { return SourcePath("tests/data/diagram/pendulum.xml"); }

TEST(CliGraphCommandTest, DotOnStdout) {
  CliResult r = RunCliWithStdout("graph " + Pendulum());
  ASSERT_EQ(r.status, 0) << r.text;
  EXPECT_EQ(r.text.rfind("digraph \"pendulum\" {", 0), 0u) << r.text;
  EXPECT_NE(r.text.find("subgraph \"cluster_arm\""), std::string::npos);
  EXPECT_NE(r.text.find("\"world\" -> \"arm.base\" [class=physical"), std::string::npos);
  r = RunCliWithStdout("graph " + Pendulum() + " --compiled");
  ASSERT_EQ(r.status, 0) << r.text;
  EXPECT_NE(r.text.find("\"world:mechanism\""), std::string::npos) << r.text;
  r = RunCliWithStdout("graph " + Pendulum() + " --expand");
  ASSERT_EQ(r.status, 0) << r.text;
  EXPECT_NE(r.text.find("cluster_control/pd"), std::string::npos) << r.text;
  // -o with .dot writes the same text to a file.
  const fs::path dir = FreshDirectory(kGraphDirPrefix, "dot");
  r = RunCliWithStdout("graph " + Pendulum() + " -o " + (dir / "p.gv").string());
  ASSERT_EQ(r.status, 0) << r.text;
  EXPECT_EQ(ReadBytes(dir / "p.gv"), RunCliWithStdout("graph " + Pendulum()).text);
}

TEST(CliGraphCommandTest, SvgHasClustersBlocksAndEdges) {
  if (!twinblocks::graph::GraphvizSupported()) GTEST_SKIP() << "built without Graphviz";
  const fs::path dir = FreshDirectory(kGraphDirPrefix, "svg");
  const fs::path out = dir / "pics" / "pendulum.svg";
  const CliResult r = RunCliWithStdout("graph " + Pendulum() + " --svg -o " + out.string());
  ASSERT_EQ(r.status, 0) << r.text;
  EXPECT_EQ(r.text, "wrote " + out.string() + "\n");
  pugi::xml_document doc;
  ASSERT_TRUE(doc.load_file(out.c_str())) << ReadBytes(out).substr(0, 300);
  int clusters = 0, edges = 0;
  std::string text = "|";
  for (const pugi::xpath_node& g : doc.select_nodes("//g[@class]")) {
    const std::string cls = g.node().attribute("class").value();
    clusters += cls == "cluster";
    edges += cls.rfind("edge", 0) == 0;
  }
  for (const pugi::xpath_node& t : doc.select_nodes("//text")) {
    text += std::string(t.node().child_value()) + "|";
  }
  EXPECT_EQ(clusters, 2);
  EXPECT_EQ(edges, 13);
  for (const char* shown : {"arm|", "control|", "hinge|", "RevoluteJoint|", "world|", "pd|", "Pd|",
                            "base|", "q -> angle|"}) {
    EXPECT_NE(text.find(std::string("|") + shown), std::string::npos) << shown << " in " << text;
  }
}

TEST(CliGraphCommandTest, PngAndDefaultNames) {
  if (!twinblocks::graph::GraphvizSupported()) GTEST_SKIP() << "built without Graphviz";
  const fs::path dir = FreshDirectory(kGraphDirPrefix, "png");
  // By extension alone.
  CliResult r = RunCliWithStdout("graph " + Pendulum() + " -o " + (dir / "p.PNG").string());
  ASSERT_EQ(r.status, 0) << r.text;
  const std::string png = ReadBytes(dir / "p.PNG");
  ASSERT_GT(png.size(), 1000u);
  EXPECT_EQ(png.substr(0, 8), "\x89PNG\r\n\x1a\n");
  // No -o: the model's name in the current directory.
  for (const char* flag : {"--svg", "--png"}) {
    const CliResult named = RunShell("cd " + dir.string() + " && " + TWINBLOCKS_CLI + " graph " +
                                     Pendulum() + " " + flag + " 2>&1");
    EXPECT_EQ(named.status, 0) << named.text;
    const std::string file = std::string("pendulum.") + (flag + 2);
    EXPECT_EQ(named.text, "wrote " + file + "\n");
    EXPECT_GT(fs::file_size(dir / file), 1000u);
  }
  // '-' for stdout.
  r = RunCliWithStdout("graph " + Pendulum() + " --svg -o -");
  ASSERT_EQ(r.status, 0) << r.text;
  EXPECT_NE(r.text.find("<svg"), std::string::npos);
}

TEST(CliGraphCommandTest, BadInputIsOneLineAndStatus2) {
  const fs::path dir = FreshDirectory(kGraphDirPrefix, "bad");
  WriteText(dir / "bad.xml",
            "<model name=\"m\" format=\"1\">\n  <block type=\"Gian\" name=\"g\"/>\n</model>\n");
  struct Case {
    std::string args;
    std::string says;
  };
  const std::vector<Case> cases = {
      {Pendulum() + " --svg --png", "--svg and --png exclude each other"},
      {Pendulum() + " --svg -o " + (dir / "a.png").string(), "is not a .svg file (--svg)"},
      {Pendulum() + " -o " + (dir / "a.txt").string(),
       "unknown diagram format '.txt', expected a file name ending in .dot, .gv, .svg or .png"},
      {(dir / "bad.xml").string() + " --svg -o " + (dir / "a.svg").string(), "bad.xml:2:"},
      {(dir / "missing.xml").string(), "missing.xml"},
  };
  for (const Case& c : cases) {
    const CliResult r = RunCliWithStdout("graph " + c.args);
    EXPECT_EQ(r.status, 2) << c.args << "\n" << r.text;
    EXPECT_EQ(CountLines(r.text), 1) << c.args << "\n" << r.text;
    EXPECT_NE(r.text.find(c.says), std::string::npos) << c.args << "\n" << r.text;
  }
  EXPECT_FALSE(fs::exists(dir / "a.svg"));
  EXPECT_FALSE(fs::exists(dir / "a.png"));
}

}  // namespace
