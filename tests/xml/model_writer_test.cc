#include "xml/model_writer.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <stdexcept>
#include <string>
#include <vector>

#include "model/model_error.h"
#include "tests/xml/xml_test_helpers.h"
#include "xml/model_reader.h"

namespace twinblocks::xml {
namespace {

// A block added without Model::AddBlock's checks of type and parameters, for texts that only
// the writer's escaping is about.
void AddUnchecked(graph::Diagram* d, const std::string& type, const std::string& name,
                  std::vector<graph::Parameter> params) {
  graph::BlockNode b;
  b.type = type;
  b.name = name;
  b.params = std::move(params);
  d->blocks.push_back(std::move(b));
}

namespace fs = std::filesystem;
using graph::Model;
using graph::PortDecl;

// A model that uses every part of the format, built through the editing API.
Model RichModel() {
  Model m;
  m.name = "rich";
  m.SetVariable("L", "0.5");
  m.SetVariable("g", "[0, 0, -9.81]");
  m.simulation.Set("solver", "ode45");
  m.simulation.Set("t_end", "5");
  m.simulation.Set("custom_option", "a b c");
  m.includes.push_back({"lib/parts.xml", {}});
  m.includes.push_back({"../other lib/x & y.xml", {}});

  graph::Define leg{"Leg", {"length", "q0"}, {}, {}};
  leg.body.ports.push_back({PortDecl::Kind::kPhysical, "hip", "frame", {}});
  leg.body.ports.push_back({PortDecl::Kind::kInport, "tau", "", {}});
  leg.body.ports.push_back({PortDecl::Kind::kOutport, "q", "", {}});
  leg.body.blocks.emplace_back();
  leg.body.blocks[0].name = "joint";
  leg.body.blocks[0].type = "RevoluteJoint";
  leg.body.blocks[0].params = {{"q0", "q0"}, {"axis", "[0, 1, 0]"}};
  leg.body.connections.push_back({".hip", "joint.B", {}});
  leg.body.connections.push_back({"joint.q", ".q", {}});
  m.defines.push_back(leg);
  m.defines.push_back({"Empty", {}, {}, {}});

  m.AddBlock("", "World", "world", {{"gravity", "g"}});
  // Written as is, past the editing API's checks: the writer must escape any text.
  AddUnchecked(&m.root, "Expression", "expr",
               {{"expression", "u[0] < 1 && t > \"2\" || 'x'"},
                {"spaces", "  leading and trailing  "},
                {"lines", "one\ntwo\r\nthree\tfour"},
                {"empty", ""},
                {"unicode", "µ = 1e-6, θ̈ in rad/s²"},
                {"control", std::string("a\x01z")},
                {"entities", "&amp; &lt; &#10;"}});
  m.AddBlock("", "Leg", "leg1", {{"length", "L"}, {"q0", "deg(5)"}});
  m.SetCommented("leg1", true);
  m.AddSubsystem("", "body");
  m.GetDiagram("body").ports.push_back({PortDecl::Kind::kPhysical, "mount", "frame", {}});
  m.GetDiagram("body").ports.push_back({PortDecl::Kind::kInport, "cmd", "", {}});
  m.AddBlock("body", "Gain", "k", {{"k", "2"}});
  m.AddSubsystem("body", "inner");
  m.AddSubsystem("body/inner", "innermost");
  m.AddBlock("body/inner/innermost", "Constant", "c", {{"value", "[[1, 2], [3, 4]]"}});
  m.AddSubsystem("body", "nothing");
  m.SetCommented("body/inner", true);
  m.Connect("body", ".cmd", "k.u");
  m.Connect("", "world.W", "body.mount");
  m.Connect("", "world.W", "leg1.hip");
  m.logs.push_back({"body/k.y", "gain_out", {}});
  m.logs.push_back({"leg1.q", "", {}});
  return m;
}

// Writes, reads back and compares; then checks that writing again gives the same text.
void ExpectRoundTrip(const Model& m, const std::string& file_name = "<string>") {
  std::string text = WriteModelString(m);
  Model back = ReadModelString(text, file_name);
  EXPECT_TRUE(back == m) << "the model read back differs; written text:\n" << text;
  EXPECT_EQ(WriteModelString(back), text);
}

TEST(ModelWriterTest, ExactText) {
  Model m;
  m.name = "pendulum";
  m.SetVariable("L", "0.5");
  m.simulation.Set("solver", "ode45");
  m.simulation.Set("t_end", "5");
  m.AddBlock("", "World", "world");
  m.AddBlock("", "RevoluteJoint", "hinge", {{"axis", "[0, 1, 0]"}, {"q0", "0.5"}});
  m.SetCommented("hinge", true);
  m.AddSubsystem("", "arm");
  m.GetDiagram("arm").ports.push_back({PortDecl::Kind::kPhysical, "base", "frame", {}});
  m.GetDiagram("arm").ports.push_back({PortDecl::Kind::kOutport, "y", "", {}});
  AddUnchecked(&m.GetDiagram("arm"), "Gain", "k", {{"gain", "a < b"}});
  m.Connect("arm", "k.y", ".y");
  m.Connect("", "world.W", "hinge.B");
  m.logs.push_back({"hinge.q", "theta", {}});
  m.defines.push_back({"D", {"a", "b"}, {}, {}});
  m.includes.push_back({"lib.xml", {}});

  EXPECT_EQ(WriteModelString(m),
            "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
            "<model name=\"pendulum\" format=\"1\">\n"
            "  <var name=\"L\" value=\"0.5\"/>\n"
            "\n"
            "  <simulation solver=\"ode45\" t_end=\"5\"/>\n"
            "\n"
            "  <include file=\"lib.xml\"/>\n"
            "\n"
            "  <define name=\"D\" params=\"a b\"/>\n"
            "\n"
            "  <block type=\"World\" name=\"world\"/>\n"
            "  <block type=\"RevoluteJoint\" name=\"hinge\" commented=\"true\" axis=\"[0, 1, 0]\" "
            "q0=\"0.5\"/>\n"
            "  <subsystem name=\"arm\">\n"
            "    <port name=\"base\" domain=\"frame\"/>\n"
            "    <outport name=\"y\"/>\n"
            "    <block type=\"Gain\" name=\"k\" gain=\"a &lt; b\"/>\n"
            "    <connect from=\"k.y\" to=\".y\"/>\n"
            "  </subsystem>\n"
            "\n"
            "  <connect from=\"world.W\" to=\"hinge.B\"/>\n"
            "\n"
            "  <log signal=\"hinge.q\" as=\"theta\"/>\n"
            "</model>\n");
}

TEST(ModelWriterTest, TopLevelInportsRoundTrip) {
  Model m;
  m.name = "plant";
  PortDecl u{PortDecl::Kind::kInport, "tau_ref", "", {}};
  u.width = "6";
  m.root.ports.push_back(u);
  m.root.ports.push_back({PortDecl::Kind::kInport, "enable", "", {}});
  m.AddBlock("", "Gain", "k");
  m.Connect("", ".tau_ref", "k.u");
  const std::string text = WriteModelString(m);
  EXPECT_NE(text.find("<inport name=\"tau_ref\" width=\"6\"/>"), std::string::npos) << text;
  EXPECT_NE(text.find("<inport name=\"enable\"/>"), std::string::npos) << text;
  ExpectRoundTrip(m);
}

TEST(ModelWriterTest, ConditionalSubsystemPortsRoundTrip) {
  Model m;
  m.AddSubsystem("", "acc");
  PortDecl enable{PortDecl::Kind::kEnable, "en", "", {}};
  enable.behavior = "reset";
  m.AddPort("acc", enable);
  PortDecl trigger{PortDecl::Kind::kTrigger, "tick", "", {}};
  trigger.behavior = "either";
  m.AddPort("acc", trigger);
  PortDecl y{PortDecl::Kind::kOutport, "y", "", {}};
  y.behavior = "reset";
  y.initial = "[1, 2]";
  m.AddPort("acc", y);
  const std::string text = WriteModelString(m);
  EXPECT_NE(text.find("<enable name=\"en\" states=\"reset\"/>"), std::string::npos) << text;
  EXPECT_NE(text.find("<trigger name=\"tick\" edge=\"either\"/>"), std::string::npos) << text;
  EXPECT_NE(text.find("<outport name=\"y\" disabled=\"reset\" initial=\"[1, 2]\"/>"),
            std::string::npos)
      << text;
  ExpectRoundTrip(m);
  // The editing API refuses what the reader refuses.
  PortDecl second{PortDecl::Kind::kEnable, "en2", "", {}};
  EXPECT_THROW(m.AddPort("acc", second), graph::ModelError);
  PortDecl bad{PortDecl::Kind::kTrigger, "t2", "", {}};
  bad.behavior = "up";
  EXPECT_THROW(m.AddPort("acc", bad), graph::ModelError);
  EXPECT_THROW(m.AddPort("", PortDecl{PortDecl::Kind::kEnable, "top", "", {}}), graph::ModelError);
}

TEST(ModelWriterTest, EmptyModel) {
  Model m;
  EXPECT_EQ(WriteModelString(m),
            "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
            "<model name=\"model\" format=\"1\">\n"
            "</model>\n");
  ExpectRoundTrip(m);
}

TEST(ModelWriterTest, EscapesWhatWouldNotReadBack) {
  Model m;
  AddUnchecked(&m.root, "A", "a", {{"p", "<&>\"'\n\t\r"}});
  std::string text = WriteModelString(m);
  EXPECT_CONTAINS(text, "p=\"&lt;&amp;&gt;&quot;'&#10;&#9;&#13;\"");
}

TEST(ModelWriterTest, RichModelRoundTrips) {
  // The included files must exist for the model to read back.
  test::TempFiles files("rich_includes");
  files.Write("models/lib/parts.xml", "<model/>");
  files.Write("other lib/x & y.xml", "<model/>");
  Model m = RichModel();
  ExpectRoundTrip(m, files.Path("models/rich.xml"));
  // The comparison is not vacuous: a change anywhere shows.
  Model changed = m;
  changed.SetParam("body/inner/innermost/c", "value", "[[1, 2], [3, 5]]");
  EXPECT_FALSE(ReadModelString(WriteModelString(changed), files.Path("models/rich.xml")) == m);
}

TEST(ModelWriterTest, DeepNestingRoundTrips) {
  Model m;
  std::string path;
  for (int i = 0; i < 30; ++i) {
    std::string name = std::string("s").append(std::to_string(i));
    m.AddSubsystem(path, name);
    if (!path.empty()) path.push_back('/');
    path.append(name);
    m.AddBlock(path, "Gain", "g");
  }
  ExpectRoundTrip(m);
}

// Model::operator== leaves plots out (model.cc), so the round trip compares them itself.
TEST(ModelWriterTest, PlotsRoundTrip) {
  Model m;
  m.AddBlock("", "Constant", "c");
  graph::PlotSpec full;
  full.file = "plots/e1 positions & more.svg";
  full.title = "Joint <positions>";
  full.xlabel = "";
  full.ylabel = "rad";
  full.signals = {"arm/j1.q", "arm/j2.wrench[3]"};
  full.log_y = true;
  graph::PlotSpec plain;
  plain.file = "p.svg";
  plain.signals = {"c.y"};
  m.plots = {full, plain};
  const std::string text = WriteModelString(m);
  EXPECT_NE(text.find("  <plot file=\"p.svg\" signals=\"c.y\"/>\n"), std::string::npos) << text;
  EXPECT_NE(text.find("<plot file=\"plots/e1 positions &amp; more.svg\" title=\"Joint "
                      "&lt;positions&gt;\" xlabel=\"\" ylabel=\"rad\" signals=\"arm/j1.q "
                      "arm/j2.wrench[3]\" yscale=\"log\"/>"),
            std::string::npos)
      << text;
  Model back = ReadModelString(text);
  EXPECT_TRUE(back == m);
  EXPECT_EQ(back.plots, m.plots);
  EXPECT_EQ(WriteModelString(back), text);
}

TEST(ModelWriterTest, SummariesRoundTrip) {
  Model m;
  m.AddBlock("", "Constant", "c");
  graph::SummarySpec full;
  full.signals = {"arm/j1.q", "err.y[3]"};
  full.op = graph::SummaryOp::kMaxAbs;
  full.label = "max \"tracking\" error, <rad> & more";
  graph::SummarySpec plain;
  plain.signals = {"c.y"};
  plain.op = graph::SummaryOp::kFinal;
  m.summaries = {full, plain};
  const std::string text = WriteModelString(m);
  EXPECT_NE(text.find("  <summary signal=\"c.y\" op=\"final\"/>\n"), std::string::npos) << text;
  EXPECT_NE(text.find("<summary signal=\"arm/j1.q err.y[3]\" op=\"max_abs\" label=\"max "
                      "&quot;tracking&quot; error, &lt;rad&gt; &amp; more\"/>"),
            std::string::npos)
      << text;
  Model back = ReadModelString(text);
  EXPECT_TRUE(back == m);
  EXPECT_EQ(back.summaries, m.summaries);
  EXPECT_EQ(WriteModelString(back), text);

  // Every op is written by its name and reads back.
  for (graph::SummaryOp op :
       {graph::SummaryOp::kMax, graph::SummaryOp::kMin, graph::SummaryOp::kMaxAbs,
        graph::SummaryOp::kFinal, graph::SummaryOp::kMean, graph::SummaryOp::kRms}) {
    m.summaries = {plain};
    m.summaries[0].op = op;
    EXPECT_EQ(ReadModelString(WriteModelString(m)).summaries, m.summaries);
  }
  // A summary differs from its model's copy in any of its parts.
  Model other = m;
  other.summaries[0].label = "x";
  EXPECT_FALSE(other == m);
}

TEST(ModelWriterTest, FileRoundTrip) {
  test::TempFiles files("writer");
  Model m = RichModel();
  m.includes.clear();  // the files they name do not exist here
  std::string path = files.Path("rich.xml");
  WriteModelFile(m, path);
  Model back = ReadModelFile(path);
  EXPECT_TRUE(back == m);
  EXPECT_EQ(back.file, path);
  EXPECT_EQ(back.FindBlock("body/k")->where.file, path);
  EXPECT_GT(back.FindBlock("body/k")->where.line, 1);

  EXPECT_THROW(WriteModelFile(m, files.Path("no/such/dir/x.xml")), std::runtime_error);
}

// A8 Round trip: every model file in the repository reads, writes and reads back to the
// same model (the deliberately broken files of tests/data/bad_input aside).
TEST(ModelFileRoundTrip, EveryModelFileRoundTrips) {
  std::vector<std::string> roots = {std::string(TWINBLOCKS_TEST_DATA),
                                    std::string(TWINBLOCKS_SOURCE_DIR) + "/models",
                                    std::string(TWINBLOCKS_SOURCE_DIR) + "/examples"};
  std::vector<std::string> files;
  for (const std::string& root : roots) {
    if (!fs::is_directory(root)) continue;
    for (const auto& entry : fs::recursive_directory_iterator(root)) {
      if (entry.path().string().find("/bad_input/") != std::string::npos) continue;
      if (entry.is_regular_file() && entry.path().extension() == ".xml") {
        files.push_back(entry.path().string());
      }
    }
  }
  std::sort(files.begin(), files.end());
  ASSERT_GE(files.size(), 12u);  // test models, examples, the block library
  int checked = 0;
  for (const std::string& file : files) {
    SCOPED_TRACE(file);
    ++checked;
    Model m;
    try {
      m = ReadModelFile(file);
    } catch (const graph::ModelError& ex) {
      ADD_FAILURE() << ex.what();
      continue;
    }
    // Read back under the same name, so that includes resolve alike.
    ExpectRoundTrip(m, file);
  }
  RecordProperty("files", checked);
}

}  // namespace
}  // namespace twinblocks::xml
