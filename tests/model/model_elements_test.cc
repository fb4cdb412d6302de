// graph::Model's calls for the elements other than blocks and lines (boundary ports, defines
// and their bodies, includes, logs, plots, summaries, simulation settings), each error path,
// and the file:line an edit's error carries for a block read from a file.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "compiler/compile.h"
#include "model/model.h"
#include "model/model_error.h"
#include "runtime/simulator.h"
#include "tests/support/model_error_matchers.h"
#include "xml/model_reader.h"
#include "xml/model_writer.h"

namespace twinblocks::graph {
namespace {

namespace fs = std::filesystem;

using test_support::ErrorOf;

PortDecl Port(PortDecl::Kind kind, const std::string& name, const std::string& domain = "",
              const std::string& width = "") {
  PortDecl p;
  p.kind = kind;
  p.name = name;
  p.domain = domain;
  p.width = width;
  return p;
}

// A model with a subsystem `sub` (u -> g -> y) fed by a constant.
Model Small() {
  Model m;
  m.AddSubsystem("", "sub");
  m.AddPort("sub", Port(PortDecl::Kind::kInport, "u"));
  m.AddPort("sub", Port(PortDecl::Kind::kOutport, "y"));
  m.AddBlock("sub", "Gain", "g", {{"k", "2"}});
  m.Connect("sub", ".u", "g.u");
  m.Connect("sub", "g.y", ".y");
  m.AddBlock("", "Constant", "c", {{"value", "1"}});
  m.Connect("", "c.y", "sub.u");
  return m;
}

TEST(ModelElementsTest, AddPortDeclaresBoundaryPorts) {
  Model m = Small();
  m.AddPort("sub", Port(PortDecl::Kind::kPhysical, "base", "frame"));
  const std::vector<PortDecl>& ports = m.GetDiagram("sub").ports;
  ASSERT_EQ(ports.size(), 3u);
  EXPECT_EQ(ports[0].kind, PortDecl::Kind::kInport);
  EXPECT_EQ(ports[1].kind, PortDecl::Kind::kOutport);
  EXPECT_EQ(ports[2].kind, PortDecl::Kind::kPhysical);
  EXPECT_EQ(ports[2].domain, "frame");
  // The new port is one a line can use at once, from outside.
  m.AddBlock("", "World", "world");
  m.Connect("", "world.W", "sub.base");
}

// A top-level inport is an external input: lines take it as ".name", and a run holds it at 0
// until set (docs/stepping.md).
TEST(ModelElementsTest, AddPortAtTheTopLevelDeclaresAnExternalInput) {
  Model m;
  m.AddBlock("", "Gain", "g");
  EXPECT_CONTAINS(ErrorOf([&] { m.Connect("", ".cmd", "g.u"); }), "declares no <inport> 'cmd'");
  m.AddPort("", Port(PortDecl::Kind::kInport, "cmd", "", "2"));
  m.Connect("", ".cmd", "g.u");
  EXPECT_EQ(m.root.ports[0].width, "2");
  m.AddLog("g.y", "y");
  const System system = Compile(m);
  EXPECT_EQ(system.FindSignal("g.y")->width, 2);
  EXPECT_EQ(xml::ReadModelString(xml::WriteModelString(m)), m);
}

TEST(ModelElementsTest, AddPortErrors) {
  Model m = Small();
  const Model before = m;
  EXPECT_CONTAINS(ErrorOf([&] { m.AddPort("", Port(PortDecl::Kind::kOutport, "u")); }),
                  "cannot declare port 'u' at the top level: it takes only inports");
  EXPECT_CONTAINS(ErrorOf([&] { m.AddPort("", Port(PortDecl::Kind::kPhysical, "b", "frame")); }),
                  "cannot declare port 'b' at the top level");
  EXPECT_CONTAINS(ErrorOf([&] { m.AddPort("sub", Port(PortDecl::Kind::kInport, "w", "", "3")); }),
                  "port 'w' of subsystem 'sub': only a top-level inport states a width");
  EXPECT_CONTAINS(ErrorOf([&] { m.AddPort("nope", Port(PortDecl::Kind::kInport, "u")); }),
                  "no block 'nope' in the model");
  EXPECT_CONTAINS(ErrorOf([&] { m.AddPort("c", Port(PortDecl::Kind::kInport, "u")); }),
                  "'c' is a block of type 'Constant', not a subsystem");
  EXPECT_CONTAINS(ErrorOf([&] { m.AddPort("sub", Port(PortDecl::Kind::kInport, "2u")); }),
                  "invalid port name '2u'");
  EXPECT_CONTAINS(ErrorOf([&] { m.AddPort("sub", Port(PortDecl::Kind::kOutport, "u")); }),
                  "subsystem 'sub' already has a port 'u'");
  EXPECT_CONTAINS(ErrorOf([&] { m.AddPort("sub", Port(PortDecl::Kind::kPhysical, "b")); }),
                  "physical port 'b': domain ''; expected one of: frame, rotational, electrical");
  EXPECT_CONTAINS(ErrorOf([&] { m.AddPort("sub", Port(PortDecl::Kind::kPhysical, "b", "fram")); }),
                  "domain 'fram'");
  EXPECT_CONTAINS(ErrorOf([&] { m.AddPort("sub", Port(PortDecl::Kind::kInport, "v", "frame")); }),
                  "only physical ports have a domain");
  EXPECT_EQ(m, before);
}

// The body of a define is built in place through "define:NAME" paths, and instances of it
// compile and run as the same subsystem written inline.
TEST(ModelElementsTest, DefineBodyIsEditedInPlace) {
  Model m;
  Diagram& body = m.AddDefine("Scale", {"gain"});
  EXPECT_TRUE(body.blocks.empty());
  m.AddPort("define:Scale", Port(PortDecl::Kind::kInport, "u"));
  m.AddPort("define:Scale", Port(PortDecl::Kind::kOutport, "y"));
  m.AddSubsystem("define:Scale", "inner");
  m.AddPort("define:Scale/inner", Port(PortDecl::Kind::kInport, "u"));
  m.AddPort("define:Scale/inner", Port(PortDecl::Kind::kOutport, "y"));
  m.AddBlock("define:Scale/inner", "Gain", "g", {{"k", "gain"}});
  m.Connect("define:Scale/inner", ".u", "g.u");
  m.Connect("define:Scale/inner", "g.y", ".y");
  m.Connect("define:Scale", ".u", "inner.u");
  m.Connect("define:Scale", "inner.y", ".y");
  m.SetParam("define:Scale/inner/g", "k", "gain*2");
  EXPECT_EQ(m.GetParam("define:Scale/inner/g", "k"), "gain*2");
  EXPECT_EQ(m.FindBlock("define:Scale/inner/g")->type, "Gain");
  m.RenameBlock("define:Scale/inner/g", "twice");
  EXPECT_EQ(m.FindDefine("Scale")->body.Find("inner")->body->connections[0].to, "twice.u");
  // Errors name the define's body.
  EXPECT_CONTAINS(ErrorOf([&] { m.Connect("define:Scale", ".v", "inner.u"); }),
                  "no boundary port 'v' of define 'Scale'");
  EXPECT_CONTAINS(ErrorOf([&] { m.AddBlock("define:Scal", "Gain", "g"); }),
                  "no define 'Scal' in the model; did you mean 'Scale'? (its defines: Scale)");
  EXPECT_CONTAINS(ErrorOf([&] { m.AddBlock("define:Scale/nope", "Gain", "g"); }),
                  "no block 'define:Scale/nope' in the model");
  EXPECT_EQ(m.FindBlock("define:Scale"), nullptr);  // a define is no block

  m.AddBlock("", "Constant", "c", {{"value", "3"}});
  m.AddBlock("", "Scale", "s", {{"gain", "5"}});
  m.Connect("", "c.y", "s.u");
  m.AddLog("s.y", "y");
  m.SetSimulation("solver", "ode1");
  m.SetSimulation("step", "0.1");
  m.SetSimulation("t_end", "0.1");
  const System system = Compile(m);
  Simulator sim(system, system.settings());
  ASSERT_TRUE(sim.Run().ok);
  EXPECT_EQ(sim.recording().value(0, sim.recording().FindColumn("y")), 30.0);
  // Written and read back, the define says the same.
  EXPECT_EQ(xml::ReadModelString(xml::WriteModelString(m)), m);
}

TEST(ModelElementsTest, DefinesOfTheLibraryAreNotEdited) {
  Model m;
  m.file = std::string(TWINBLOCKS_SOURCE_DIR) + "/models/gripper4/here.xml";
  m.AddInclude("../lib/contact_detector.xml", xml::ReadModelFile);
  EXPECT_CONTAINS(ErrorOf([&] { m.AddBlock("define:ContactDetector", "Gain", "g"); }),
                  "define 'ContactDetector' is read from an include, and only the model's own "
                  "defines are edited");
}

TEST(ModelElementsTest, AddDefineErrors) {
  Model m;
  m.AddDefine("D", {"a"});
  const Model before = m;
  EXPECT_CONTAINS(ErrorOf([&] { m.AddDefine("D x", {}); }), "invalid define name 'D x'");
  EXPECT_CONTAINS(ErrorOf([&] { m.AddDefine("D", {}); }), "the model already has a define 'D'");
  EXPECT_CONTAINS(ErrorOf([&] { m.AddDefine("E", {"1a"}); }),
                  "invalid parameter name '1a' in the params of define 'E'");
  EXPECT_CONTAINS(ErrorOf([&] { m.AddDefine("E", {"pi"}); }),
                  "parameter 'pi' in the params of define 'E' takes a reserved name");
  EXPECT_CONTAINS(ErrorOf([&] { m.AddDefine("E", {"name"}); }), "takes a reserved name");
  EXPECT_CONTAINS(ErrorOf([&] {
                    m.AddDefine("E", {"a", "b", "a"});
                  }),
                  "parameter 'a' given twice in the params of define 'E'");
  EXPECT_EQ(m, before);
  // A block of the define must give its parameters, as for a define read from a file.
  EXPECT_CONTAINS(ErrorOf([&] { m.AddBlock("", "D", "d"); }), "parameter 'a' of define 'D'");
}

TEST(ModelElementsTest, AddIncludeReadsTheLibraryAtOnce) {
  Model m;
  m.file = std::string(TWINBLOCKS_SOURCE_DIR) + "/models/gripper4/here.xml";
  EXPECT_EQ(m.IncludePath("../lib/grasp.xml"),
            std::string(TWINBLOCKS_SOURCE_DIR) + "/models/lib/grasp.xml");
  std::vector<std::string> read;
  m.AddInclude("../lib/grasp.xml", [&](const std::string& path) {
    read.push_back(path);
    return xml::ReadModelFile(path);
  });
  EXPECT_EQ(read, std::vector<std::string>{m.IncludePath("../lib/grasp.xml")});
  ASSERT_EQ(m.includes.size(), 1u);
  EXPECT_EQ(m.includes[0].file, "../lib/grasp.xml");
  EXPECT_NE(m.FindDefine("Phalanx"), nullptr);
  EXPECT_NE(m.FindDefine("ContactDetector"), nullptr);  // included by grasp.xml in turn
  EXPECT_TRUE(m.defines.empty());
  // Without a file, relative to the working directory.
  EXPECT_EQ(Model().IncludePath("a/../lib.xml"), "lib.xml");
}

TEST(ModelElementsTest, AddIncludeErrors) {
  Model m;
  m.file = std::string(TWINBLOCKS_SOURCE_DIR) + "/models/gripper4/here.xml";
  int reads = 0;
  auto reader = [&](const std::string& path) {
    ++reads;
    return xml::ReadModelFile(path);
  };
  EXPECT_CONTAINS(ErrorOf([&] { m.AddInclude("", reader); }), "<include> has an empty file name");
  EXPECT_CONTAINS(ErrorOf([&] { m.AddInclude("missing.xml", reader); }),
                  "cannot open included file 'missing.xml' (resolved to '");
  EXPECT_EQ(reads, 0);  // nothing read for a name refused
  m.AddInclude("../lib/contact_detector.xml", reader);
  EXPECT_CONTAINS(ErrorOf([&] { m.AddInclude("../lib/contact_detector.xml", reader); }),
                  "'../lib/contact_detector.xml' is already included");
  // grasp.xml includes contact_detector.xml: its ContactDetector is known already.
  EXPECT_CONTAINS(ErrorOf([&] { m.AddInclude("../lib/grasp.xml", reader); }),
                  "define 'ContactDetector' of ");
  EXPECT_CONTAINS(ErrorOf([&] { m.AddInclude("../lib/grasp.xml", reader); }),
                  "is already defined at ");
  EXPECT_EQ(m.includes.size(), 1u);
  // A file that is not a valid model: the reader's error, with its file:line.
  const fs::path dir = fs::temp_directory_path() / "twinblocks_model_elements_test";
  fs::create_directories(dir);
  std::ofstream(dir / "bad.xml") << "<model name='x' format='1'><block/></model>\n";
  Model other;
  other.file = (dir / "m.xml").string();
  EXPECT_CONTAINS(ErrorOf([&] { other.AddInclude("bad.xml", xml::ReadModelFile); }), "bad.xml:1");
  EXPECT_TRUE(other.includes.empty());
  fs::remove_all(dir);
}

TEST(ModelElementsTest, LogsPlotsSummariesAndSettings) {
  Model m = Small();
  m.AddLog("c.y");
  m.AddLog("sub/g.y", "g");
  ASSERT_EQ(m.logs.size(), 2u);
  EXPECT_EQ(m.logs[1].signal, "sub/g.y");
  EXPECT_EQ(m.logs[1].as, "g");
  PlotSpec plot;
  plot.file = "p.svg";
  plot.signals = {"c.y", "sub/g.y[0]"};
  plot.where = {"somewhere.xml", 3};
  m.AddPlot(plot);
  EXPECT_FALSE(m.plots[0].where.known());  // made in code: no place in a file
  SummarySpec summary;
  summary.signals = {"sub.y"};
  summary.op = SummaryOp::kFinal;
  m.AddSummary(summary);
  m.SetSimulation("solver", "ode1");
  m.SetSimulation("step", "0.5");
  m.SetSimulation("t_end", "1");
  EXPECT_EQ(m.simulation.Get("step"), "0.5");
  m.SetSimulation("step", "0.25");
  EXPECT_EQ(m.simulation.attributes.size(), 3u);
  const System system = Compile(m);
  ASSERT_GE(system.logged_signals().size(), 2u);
  EXPECT_EQ(system.logged_signals()[1].name, "g");
  EXPECT_EQ(xml::ReadModelString(xml::WriteModelString(m)), m);
}

TEST(ModelElementsTest, LogsPlotsSummariesAndSettingsErrors) {
  Model m = Small();
  m.AddLog("c.y", "c");
  PlotSpec plot;
  plot.file = "p.svg";
  plot.signals = {"c.y"};
  m.AddPlot(plot);
  const Model before = m;
  EXPECT_CONTAINS(ErrorOf([&] { m.AddLog("c"); }), "invalid signal 'c'; expected 'block.port'");
  EXPECT_CONTAINS(ErrorOf([&] { m.AddLog("c.y[0]"); }), "invalid signal 'c.y[0]'");
  EXPECT_CONTAINS(ErrorOf([&] { m.AddLog("c.y", "1c"); }), "invalid column name '1c'");
  EXPECT_CONTAINS(ErrorOf([&] { m.AddLog("sub/g.y", "c"); }),
                  "duplicate log name 'c' (logging 'c.y')");
  PlotSpec bad = plot;
  bad.file = "";
  EXPECT_CONTAINS(ErrorOf([&] { m.AddPlot(bad); }), "<plot> has an empty file name");
  EXPECT_CONTAINS(ErrorOf([&] { m.AddPlot(plot); }), "a second plot writes 'p.svg'");
  bad.file = "q.svg";
  bad.signals = {};
  EXPECT_CONTAINS(ErrorOf([&] { m.AddPlot(bad); }), "<plot> has no signal");
  bad.signals = {"c.y[x]"};
  EXPECT_CONTAINS(ErrorOf([&] { m.AddPlot(bad); }), "invalid plot signal 'c.y[x]'");
  SummarySpec summary;
  EXPECT_CONTAINS(ErrorOf([&] { m.AddSummary(summary); }), "<summary> has no signal");
  summary.signals = {"sub/.y"};
  EXPECT_CONTAINS(ErrorOf([&] { m.AddSummary(summary); }), "invalid summary signal 'sub/.y'");
  EXPECT_CONTAINS(ErrorOf([&] { m.SetSimulation("t end", "1"); }),
                  "invalid simulation setting name 't end'");
  EXPECT_EQ(m, before);
}

// An edit refused on a block read from a file says where that block was written, so that the
// user finds it (the sweep's and `twinblocks run --set`'s messages, too).
TEST(ModelElementsTest, EditErrorsOnABlockReadFromAFileCarryItsLine) {
  const Model read = xml::ReadModelString(R"(<model name="m" format="1">
  <var name="a" value="1"/>
  <block type="Gain" name="g" k="2"/>
  <block type="Constant" name="c" value="[[1, 2], [3, 4]]"/>
  <subsystem name="sub">
  </subsystem>
  <define name="D" params="p">
    <block type="Gain" name="g" k="p"/>
  </define>
  <block type="D" name="d" p="1"/>
  <connect from="c.y" to="g.u"/>
</model>
)",
                                          "m.xml");
  auto where = [&](auto edit) {
    Model m = read;
    try {
      edit(m);
    } catch (const ModelError& e) {
      return e.where().ToString() + " " + e.block_path() + " | " + e.what();
    }
    return std::string("(no error)");
  };
  EXPECT_CONTAINS(where([](Model& m) { m.SetParam("g", "gain", "1"); }),
                  "m.xml:3 g | m.xml:3: block 'g' (Gain): unknown parameter 'gain'");
  EXPECT_CONTAINS(where([](Model& m) { m.SetParam("sub", "k", "1"); }), "m.xml:5 sub |");
  EXPECT_CONTAINS(where([](Model& m) { m.ReplaceBlock("g", "Gian"); }),
                  "m.xml:3: block 'g' (Gian): unknown block type 'Gian'");
  EXPECT_CONTAINS(where([](Model& m) {
                    m.ReplaceBlock("g", "Constant", {{"value", "1"}});
                  }),
                  "m.xml:3: block 'g' (Constant): cannot replace");
  EXPECT_CONTAINS(where([](Model& m) {
                    m.ReplaceBlock("g", "Gain", {{"kk", "1"}});
                  }),
                  "m.xml:3: block 'g' (Gain): unknown parameter 'kk'");
  EXPECT_CONTAINS(where([](Model& m) { m.ExpandDefine("g"); }),
                  "m.xml:3: block 'g' (Gain): 'Gain' is not a define");
  EXPECT_CONTAINS(where([](Model& m) { m.GetParamValue("c", "value"); }),
                  "m.xml:4: block 'c' (Constant): parameter 'value' is 2x2, not a scalar");
  EXPECT_CONTAINS(where([](Model& m) { m.GetParamValue("g", "nope"); }),
                  "m.xml:3: block 'g' (Gain): unknown parameter 'nope'");
  EXPECT_CONTAINS(where([](Model& m) { m.Connect("", "g.z", "c.u"); }),
                  "m.xml:3: block 'g' (Gain): no port 'z'");
  EXPECT_CONTAINS(where([](Model& m) { m.SetParam("d", "q", "1"); }),
                  "m.xml:10: block 'd' (D): unknown parameter 'q'");
  // A block made in code has no place in a file; the message starts with the block.
  Model m = read;
  m.AddBlock("", "Gain", "made", {{"k", "1"}});
  EXPECT_EQ(ErrorOf([&] { m.SetParam("made", "kk", "1"); }).rfind("block 'made' (Gain)", 0), 0u);
}

}  // namespace
}  // namespace twinblocks::graph
