// graph::DiagramDot and CompiledDiagramDot: the DOT text of a diagram (clusters for
// subsystems, boundary ports, signal arrows and undirected physical lines, port labels where a
// block has several ports), and graph::RenderDot laying it out as SVG and PNG through Graphviz.
#include "io/diagram_dot.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <pugixml.hpp>
#include <stdexcept>
#include <string>

#include "compiler/compile.h"
#include "io/graphviz_render.h"
#include "tests/support/acceptance_helpers.h"
#include "xml/model_reader.h"

namespace twinblocks::graph {
namespace {

using ::testing::HasSubstr;
using ::testing::Not;

Model Pendulum() {
  return xml::ReadModelFile(twinblocks::testing::SourcePath("tests/data/diagram/pendulum.xml"));
}

int Count(const std::string& text, const std::string& what) {
  int n = 0;
  for (size_t at = text.find(what); at != std::string::npos; at = text.find(what, at + 1)) ++n;
  return n;
}

TEST(DiagramDotTest, DrawsTheModelAsWritten) {
  const std::string dot = DiagramDot(Pendulum());
  EXPECT_EQ(dot.rfind("digraph \"pendulum\" {\n", 0), 0u) << dot;
  EXPECT_EQ(dot.substr(dot.size() - 2), "}\n");
  // Subsystems are clusters; the define instance is one box of its type.
  EXPECT_THAT(dot, HasSubstr("subgraph \"cluster_arm\" {\n    label=\"arm\";"));
  EXPECT_THAT(dot, HasSubstr("subgraph \"cluster_control\" {"));
  EXPECT_THAT(dot, HasSubstr("\"control/pd\" [label=\"pd\\nPd\"];"));
  EXPECT_THAT(dot, Not(HasSubstr("cluster_control/pd")));
  EXPECT_THAT(dot, HasSubstr("\"arm/hinge\" [label=\"hinge\\nRevoluteJoint\"];"));
  // Boundary ports: a frame port as a hexagon, signals as ellipses, the external input too.
  EXPECT_THAT(dot, HasSubstr("\"arm.base\" [label=\"base\", shape=hexagon"));
  EXPECT_THAT(dot, HasSubstr("\"arm.tau\" [label=\"tau\", shape=ellipse"));
  EXPECT_THAT(dot, HasSubstr("\".ref\" [label=\"ref\", shape=ellipse"));
  // The commented block is drawn, dashed.
  EXPECT_THAT(dot, HasSubstr("\"spare\" [label=\"spare\\nGain\", style=\"rounded,dashed\""));
  // Every line once: 4 frame lines (1 at the top, 3 in arm) and 9 signal lines (3 at the top,
  // 2 in arm, 4 in control).
  EXPECT_EQ(Count(dot, "class=physical"), 4) << dot;
  EXPECT_EQ(Count(dot, "class=signal"), 9) << dot;
  EXPECT_THAT(dot, HasSubstr("\"world\" -> \"arm.base\" [class=physical, dir=none"));
  EXPECT_THAT(dot, HasSubstr("\"arm.base\" -> \"arm/hinge\" [class=physical"));
  EXPECT_THAT(dot, HasSubstr("\"control.torque\" -> \"arm.tau\" [class=signal];"));
  EXPECT_THAT(dot, HasSubstr("\".ref\" -> \"control.ref\" [class=signal];"));
  // hinge has several ports in arm's lines: its lines name both ends; rod -> bob frames too.
  EXPECT_THAT(dot,
              HasSubstr("\"arm/hinge\" -> \"arm.angle\" [class=signal, label=\"q -> angle\"]"));
  EXPECT_THAT(dot, HasSubstr("\"arm/rod\" -> \"arm/bob\" [class=physical, dir=none, penwidth=2.5, "
                             "color=\"#1f5fa8\", label=\"F - R\"]"));
  // A block with one port in lines gets no label: world.W.
  EXPECT_THAT(dot, HasSubstr("\"world\" -> \"arm.base\" [class=physical, dir=none, penwidth=2.5, "
                             "color=\"#1f5fa8\"];"));
}

TEST(DiagramDotTest, ExpandsDefinesOnRequest) {
  DiagramDotOptions options;
  options.expand_defines = true;
  const std::string dot = DiagramDot(Pendulum(), options);
  EXPECT_THAT(dot, HasSubstr("subgraph \"cluster_control/pd\" {\n      label=\"pd (Pd)\";"));
  EXPECT_THAT(dot, HasSubstr("\"control/pd/add\" [label=\"add\\nSum\"];"));
  EXPECT_THAT(dot, HasSubstr("\"control/error\" -> \"control/pd.error\""));
  EXPECT_THAT(dot, HasSubstr("\"control/pd.error\" -> \"control/pd/p\""));
  EXPECT_THAT(dot, Not(HasSubstr("\"control/pd\" [label")));
  EXPECT_EQ(Count(dot, "class=signal"), 9 + 6) << dot;  // and the 6 lines of the define
}

TEST(DiagramDotTest, ModelMadeInCodeWithQuotesInItsName) {
  Model model;
  model.name = "a \"quoted\" \\ name";
  model.AddBlock("", "Constant", "c", {{"value", "1"}});
  model.AddBlock("", "Gain", "g", {{"k", "2"}});
  model.Connect("", "c.y", "g.u");
  const std::string dot = DiagramDot(model);
  EXPECT_EQ(dot.rfind("digraph \"a \\\"quoted\\\" \\\\ name\" {", 0), 0u) << dot;
  EXPECT_THAT(dot, HasSubstr("\"c\" -> \"g\" [class=signal];"));
}

TEST(DiagramDotTest, CompiledDiagramShowsTheMechanismAsOneBlock) {
  const Model model = Pendulum();
  const std::string dot = CompiledDiagramDot(Compile(model), model.name);
  EXPECT_THAT(dot, HasSubstr("\"world:mechanism\" [label=\"world:mechanism\\nMechanism\"];"));
  EXPECT_THAT(dot, HasSubstr("subgraph \"cluster_control/pd\" {"));
  EXPECT_THAT(dot, HasSubstr("\"control/pd/add\" -> \"world:mechanism\" [label=\"y -> "
                             "arm/hinge.tau\"];"));
  // The external input drives the sum: an Inport block.
  EXPECT_THAT(dot, HasSubstr("\"ref\" -> \"control/error\" [label=\"y -> u1\"];"));
  EXPECT_THAT(dot, Not(HasSubstr("arm/rod")));
}

TEST(GraphvizRenderTest, SvgHasClustersBlocksAndEdges) {
  if (!GraphvizSupported()) GTEST_SKIP() << "built without Graphviz";
  const std::string svg = RenderDot(DiagramDot(Pendulum()), "svg");
  pugi::xml_document doc;
  ASSERT_TRUE(doc.load_string(svg.c_str())) << svg.substr(0, 200);
  const pugi::xml_node root = doc.child("svg");
  ASSERT_TRUE(root);
  int clusters = 0, nodes = 0, edges = 0, physical = 0;
  std::string titles;
  for (const pugi::xpath_node& g : root.select_nodes("//g[@class]")) {
    const std::string cls = g.node().attribute("class").value();
    const std::string title = g.node().child_value("title");
    clusters += cls == "cluster";
    nodes += cls == "node";
    edges += cls.rfind("edge", 0) == 0;
    physical += cls == "edge physical";
    titles += title + "|";
  }
  EXPECT_EQ(clusters, 2);
  EXPECT_EQ(edges, 13);
  EXPECT_EQ(physical, 4);
  // world, spare, .ref; arm: 3 ports and 3 blocks; control: 3 ports, error and pd.
  EXPECT_EQ(nodes, 14);
  EXPECT_THAT(titles, HasSubstr("cluster_arm|"));
  EXPECT_THAT(titles, HasSubstr("arm/hinge|"));
  EXPECT_THAT(titles, HasSubstr("|world->arm.base|"));
}

TEST(GraphvizRenderTest, PngAndErrors) {
  if (!GraphvizSupported()) GTEST_SKIP() << "built without Graphviz";
  const std::string png = RenderDot("digraph { a -> b }", "png");
  ASSERT_GT(png.size(), 100u);
  EXPECT_EQ(png.substr(0, 8), "\x89PNG\r\n\x1a\n");
  // Several calls in a row: each has its own context, nothing is left behind.
  for (int i = 0; i < 3; ++i) EXPECT_THAT(RenderDot("graph { x -- y }", "svg"), HasSubstr("<svg"));
  try {
    RenderDot("digraph { a -> }", "svg");
    ADD_FAILURE() << "no error";
  } catch (const std::runtime_error& e) {
    EXPECT_THAT(e.what(), HasSubstr("graphviz: "));
    EXPECT_THAT(e.what(), HasSubstr("syntax error"));
    EXPECT_EQ(std::string(e.what()).find('\n'), std::string::npos) << e.what();
  }
  try {
    RenderDot("digraph { a -> b }", "no-such-format");
    ADD_FAILURE() << "no error";
  } catch (const std::runtime_error& e) {
    EXPECT_THAT(e.what(), HasSubstr("graphviz: cannot render as 'no-such-format'"));
    EXPECT_EQ(std::string(e.what()).find('\n'), std::string::npos) << e.what();
  }
}

TEST(GraphvizRenderTest, BuildWithoutGraphvizSaysSo) {
  if (GraphvizSupported()) GTEST_SKIP() << "built with Graphviz";
  EXPECT_THROW(RenderDot("digraph { a }", "svg"), std::runtime_error);
}

}  // namespace
}  // namespace twinblocks::graph
