// The editing API of graph::Model beyond the basics (model_test.cc): checks at every edit,
// ReplaceBlock, FindBlocks, numeric parameters, CreateSubsystem, ExpandDefine.
#include <gtest/gtest.h>

#include <cstring>
#include <string>
#include <vector>

#include "compiler/compile.h"
#include "model/model.h"
#include "model/model_error.h"
#include "runtime/simulator.h"
#include "tests/support/model_error_matchers.h"
#include "tests/support/recorded_values.h"
#include "xml/model_reader.h"

namespace twinblocks::graph {
namespace {

using test_support::ErrorOf;
using test_support::RecordedValues;

// A loop of signal blocks, a define instance and a small rotational network, run by a fixed-step
// solver so that results compare bitwise.
const char kModel[] = R"(<model name="edit" format="1">
  <simulation solver="ode4" t_end="0.5" step="0.01"/>
  <var name="kv" value="2"/>
  <var name="inertia" value="0.5"/>
  <define name="Leaky" params="gain x_init">
    <inport name="u"/>
    <outport name="y"/>
    <block type="Gain" name="g" k="gain*2"/>
    <block type="Sum" name="s" signs="+-"/>
    <block type="Integrator" name="int" x0="x_init"/>
    <block type="Gain" name="leak" k="-gain"/>
    <connect from=".u" to="g.u"/>
    <connect from="g.y" to="s.u1"/>
    <connect from="leak.y" to="s.u2"/>
    <connect from="s.y" to="int.u"/>
    <connect from="int.y" to="leak.u"/>
    <connect from="int.y" to=".y"/>
  </define>
  <block type="Sine" name="src" amplitude="1" frequency="3"/>
  <block type="Sum" name="sum" signs="+-"/>
  <block type="Gain" name="g1" k="kv"/>
  <block type="Integrator" name="int" x0="0.5"/>
  <block type="Gain" name="g2" k="-1.5"/>
  <block type="Leaky" name="leaky" gain="kv + 1" x_init="0.25"/>
  <connect from="src.y" to="sum.u1"/>
  <connect from="g2.y" to="sum.u2"/>
  <connect from="sum.y" to="g1.u"/>
  <connect from="g1.y" to="int.u"/>
  <connect from="int.y" to="g2.u"/>
  <connect from="int.y" to="leaky.u"/>
  <log signal="int.y" as="x"/>
  <log signal="leaky.y" as="z"/>
</model>)";

Model Load() { return xml::ReadModelString(kModel, "edit.xml"); }

// Every logged value of a run, row by row.
std::vector<double> Simulate(const Model& m) { return RecordedValues(Compile(m)); }

// ---------------------------------------------------------------------------------------------
// Checks at every edit

TEST(ModelEditTest, AddBlockChecksTypeAndParameters) {
  Model m = Load();
  EXPECT_CONTAINS(ErrorOf([&] { m.AddBlock("", "Gian", "x"); }),
                  "block 'x' (Gian): unknown block type 'Gian'; did you mean 'Gain'?");
  EXPECT_CONTAINS(ErrorOf([&] {
                    m.AddBlock("", "Gain", "x", {{"kk", "1"}});
                  }),
                  "block 'x' (Gain): unknown parameter 'kk'; did you mean 'k'?");
  EXPECT_CONTAINS(ErrorOf([&] {
                    m.AddBlock("", "MinMax", "x", {{"op", "mid"}});
                  }),
                  "parameter 'op': unknown word 'mid'; expected one of: min max");
  EXPECT_CONTAINS(ErrorOf([&] { m.AddBlock("", "Expression", "x"); }),
                  "parameter 'expr' is required");
  // A define's parameters: each known, all given.
  EXPECT_CONTAINS(ErrorOf([&] {
                    m.AddBlock("", "Leaky", "x", {{"gian", "1"}});
                  }),
                  "unknown parameter 'gian'; did you mean 'gain'?; parameters of define 'Leaky'");
  EXPECT_CONTAINS(ErrorOf([&] {
                    m.AddBlock("", "Leaky", "x", {{"gain", "1"}});
                  }),
                  "parameter 'x_init' of define 'Leaky' is not set");
  m.AddBlock("", "Leaky", "x", {{"gain", "1"}, {"x_init", "0"}});
  EXPECT_EQ(m.FindBlock("x")->type, "Leaky");
}

TEST(ModelEditTest, SetParamChecksTheParameter) {
  Model m = Load();
  EXPECT_CONTAINS(ErrorOf([&] { m.SetParam("g1", "gain", "2"); }),
                  "block 'g1' (Gain): unknown parameter 'gain'");
  EXPECT_CONTAINS(ErrorOf([&] { m.SetParam("leaky", "x0", "2"); }),
                  "unknown parameter 'x0'; parameters of define 'Leaky': gain, x_init");
  EXPECT_CONTAINS(ErrorOf([&] { m.SetParam("g1", "type", "2"); }), "'type' is not a parameter");
  EXPECT_CONTAINS(ErrorOf([&] { m.SetParam("nope", "k", "2"); }), "no block 'nope'");
  m.SetParam("g1", "k", "3*kv");
  EXPECT_EQ(m.GetParam("g1", "k"), "3*kv");
}

TEST(ModelEditTest, RemoveRenameAndCommentNeedTheBlock) {
  Model m = Load();
  EXPECT_CONTAINS(ErrorOf([&] { m.RemoveBlock("g3"); }), "no block 'g3' in the model");
  EXPECT_CONTAINS(ErrorOf([&] { m.RenameBlock("g3", "x"); }), "no block 'g3'");
  EXPECT_CONTAINS(ErrorOf([&] { m.SetCommented("g3", true); }), "no block 'g3'");
  EXPECT_CONTAINS(ErrorOf([&] { m.GetParam("g3", "k"); }), "no block 'g3'");
}

TEST(ModelEditTest, ConnectChecksBlocksAndPorts) {
  Model m = Load();
  m.AddBlock("", "Gain", "g3");
  m.AddBlock("", "Mux", "mux", {{"inputs", "2"}});
  EXPECT_CONTAINS(ErrorOf([&] { m.Connect("", "g4.y", "g3.u"); }),
                  "no block 'g4' in the top level; did you mean");
  EXPECT_CONTAINS(ErrorOf([&] { m.Connect("", "g1.z", "g3.u"); }),
                  "block 'g1' (Gain): no port 'z'; its ports are: u (input), y (output)");
  EXPECT_CONTAINS(ErrorOf([&] { m.Connect("", "g3.u", "mux.u1"); }),
                  "'g3.u' is a signal input, not an output");
  EXPECT_CONTAINS(ErrorOf([&] { m.Connect("", "g1.y", "g3.y"); }),
                  "'g3.y' is a signal output, not an input");
  EXPECT_CONTAINS(ErrorOf([&] { m.Connect("", "src.y", "g1.u"); }),
                  "input 'g1.u' already has a line (from 'sum.y')");
  // Numbered ports up to the count the parameters give.
  m.Connect("", "g1.y", "mux.u2");
  EXPECT_CONTAINS(ErrorOf([&] { m.Connect("", "g1.y", "mux.u3"); }), "no port 'u3'");
  EXPECT_CONTAINS(ErrorOf([&] { m.Connect("", "g1.y", "mux.u0"); }), "no port 'u0'");
  // A define instance's ports are its boundary ports.
  EXPECT_CONTAINS(ErrorOf([&] { m.Connect("", "leaky.q", "g3.u"); }),
                  "block 'leaky' (Leaky): no port 'q'; did you mean 'u'?; its ports are: u, y");
  m.Connect("", "leaky.y", "g3.u");
  // A line from a block commented out does not hold the input.
  m.SetCommented("g3", true);
  m.AddBlock("", "Gain", "g5");
  m.Connect("", "g5.y", "mux.u1");
  m.SetCommented("g5", true);
  m.Connect("", "g1.y", "mux.u1");
  EXPECT_EQ(m.root.connections.back().from, "g1.y");
}

TEST(ModelEditTest, ConnectChecksPhysicalPorts) {
  Model m;
  m.AddBlock("", "World", "world");
  m.AddBlock("", "Inertia", "wheel", {{"J", "1"}});
  m.AddBlock("", "SimpleGear", "gear");
  m.AddBlock("", "Gain", "g");
  m.AddSubsystem("", "sub");
  m.GetDiagram("sub").ports.push_back({PortDecl::Kind::kPhysical, "base", "frame", {}});
  m.GetDiagram("sub").ports.push_back({PortDecl::Kind::kInport, "cmd", "", {}});
  m.AddBlock("sub", "Gain", "k");
  EXPECT_CONTAINS(ErrorOf([&] { m.Connect("", "g.y", "wheel.I"); }),
                  "cannot connect 'g.y' (a signal output) to 'wheel.I' (a physical port)");
  EXPECT_CONTAINS(ErrorOf([&] { m.Connect("", "world.W", "wheel.I"); }),
                  "cannot connect 'world.W' (a frame port) to 'wheel.I' (a rotational port)");
  m.Connect("", "wheel.I", "gear.F");
  m.Connect("", "world.W", "sub.base");
  // Inside, a boundary inport is a source.
  m.Connect("sub", ".cmd", "k.u");
  EXPECT_CONTAINS(ErrorOf([&] { m.Connect("sub", ".cmdd", "k.u"); }),
                  "no boundary port 'cmdd' of subsystem 'sub'; did you mean 'cmd'?");
  EXPECT_CONTAINS(ErrorOf([&] { m.Connect("sub", "k.y", ".cmd"); }),
                  "'.cmd' is a signal output, not an input");
  EXPECT_CONTAINS(ErrorOf([&] { m.Connect("", "g.y", "sub.base"); }), "a physical port");
}

// ---------------------------------------------------------------------------------------------
// ReplaceBlock

TEST(ModelEditTest, ReplaceBlockKeepsNameAndLines) {
  Model m = Load();
  const std::vector<double> before = Simulate(m);
  m.ReplaceBlock("g2", "Gain", {{"k", "-1.5"}});
  EXPECT_EQ(Simulate(m), before);
  // A Saturation has u and y too: the lines stay, the behaviour changes.
  m.ReplaceBlock("g1", "Saturation", {{"upper", "0.1"}, {"lower", "-0.1"}});
  EXPECT_EQ(m.FindBlock("g1")->type, "Saturation");
  EXPECT_EQ(m.root.connections[2].to, "g1.u");
  EXPECT_NE(Simulate(m), before);
  // Subsystems too: replaced by a block with the same ports.
  m.AddSubsystem("", "sub");
  m.GetDiagram("sub").ports = {{PortDecl::Kind::kInport, "u", "", {}},
                               {PortDecl::Kind::kOutport, "y", "", {}}};
  m.ReplaceBlock("sub", "Gain");
  EXPECT_FALSE(m.FindBlock("sub")->is_subsystem());
}

TEST(ModelEditTest, ReplaceBlockRefusesMissingPorts) {
  Model m = Load();
  const Model original = m;
  EXPECT_CONTAINS(
      ErrorOf([&] { m.ReplaceBlock("g1", "Constant"); }),
      "block 'g1' (Constant): cannot replace: the line 'sum.y' -> 'g1.u' uses port 'u', which "
      "Constant does not have; its ports are: y (output)");
  EXPECT_CONTAINS(ErrorOf([&] {
                    m.ReplaceBlock("int", "Leaky", {{"gain", "1"}});
                  }),
                  "parameter 'x_init' of define 'Leaky' is not set");
  EXPECT_CONTAINS(ErrorOf([&] { m.ReplaceBlock("int", "Nope"); }), "unknown block type 'Nope'");
  EXPECT_CONTAINS(ErrorOf([&] { m.ReplaceBlock("nope", "Gain"); }), "no block 'nope'");
  EXPECT_EQ(m, original);
  // Same name, other direction: the define's y is an input.
  Model n;
  Define sink{"Sink", {}, {}, {}};
  sink.body.ports.push_back({PortDecl::Kind::kInport, "y", "", {}});
  n.defines.push_back(sink);
  n.AddBlock("", "Constant", "c");
  n.AddBlock("", "Mux", "m");
  n.Connect("", "c.y", "m.u1");
  EXPECT_CONTAINS(ErrorOf([&] { n.ReplaceBlock("c", "Sink"); }),
                  "needs 'y' to be a signal output, but on Sink it is a signal input");
  EXPECT_CONTAINS(ErrorOf([&] { n.ReplaceBlock("m", "Demux"); }), "uses port 'u1'");
}

// ---------------------------------------------------------------------------------------------
// FindBlocks

TEST(ModelEditTest, FindBlocksByTypePathAndParameter) {
  Model m;
  m.AddSubsystem("", "hand");
  for (const char* f : {"finger1", "finger2", "thumb"}) {
    const std::string finger = std::string("hand/") + f;
    m.AddSubsystem("hand", f);
    m.AddBlock(finger, "Gain", "phalanx1", {{"k", "1"}});
    m.AddBlock(finger, "Gain", "phalanx3", {{"k", "2"}});
    m.AddBlock(finger, "Integrator", "joint");
  }
  m.AddBlock("", "Gain", "phalanx3");
  EXPECT_EQ(m.FindBlocks({.path = "hand/finger*/phalanx3"}),
            (std::vector<std::string>{"hand/finger1/phalanx3", "hand/finger2/phalanx3"}));
  EXPECT_EQ(m.FindBlocks({.path = "**/phalanx3"}),
            (std::vector<std::string>{"hand/finger1/phalanx3", "hand/finger2/phalanx3",
                                      "hand/thumb/phalanx3", "phalanx3"}));
  // ** spans zero segments too: hand itself, 3 subsystems, 9 blocks.
  EXPECT_EQ(m.FindBlocks({.path = "hand/**"}).size(), 13u);
  EXPECT_EQ(m.FindBlocks({.path = "hand/finger?"}),
            (std::vector<std::string>{"hand/finger1", "hand/finger2"}));
  EXPECT_EQ(m.FindBlocks({.type = "Integrator"}).size(), 3u);
  EXPECT_EQ(m.FindBlocks({.type = "Gain", .param = "k", .value = "2"}),
            (std::vector<std::string>{"hand/finger1/phalanx3", "hand/finger2/phalanx3",
                                      "hand/thumb/phalanx3"}));
  EXPECT_EQ(m.FindBlocks({.type = "Gain", .path = "hand/thumb/*", .param = "k"}),
            (std::vector<std::string>{"hand/thumb/phalanx1", "hand/thumb/phalanx3"}));
  EXPECT_TRUE(m.FindBlocks({.type = "Sum"}).empty());
  EXPECT_EQ(m.FindBlocks({}).size(), 14u);
  EXPECT_CONTAINS(ErrorOf([&] { m.FindBlocks({.path = "hand//x"}); }), "has an empty segment");
}

// ---------------------------------------------------------------------------------------------
// Numeric parameters

TEST(ModelEditTest, NumbersReadBackBitwise) {
  Model m = Load();
  for (double v : {0.1, 1.0 / 3.0, -2.5e-300, 6.02214076e23, 1e21, -0.0}) {
    m.SetParam("g2", "k", v);
    const double back = m.GetParamValue("g2", "k");
    EXPECT_EQ(std::memcmp(&back, &v, sizeof v), 0) << *m.GetParam("g2", "k");
  }
  m.SetParam("int", "x0", std::vector<double>{0.1, 2.0 / 3.0});
  EXPECT_EQ(m.GetParam("int", "x0"), "[0.1, 0.6666666666666666]");
  EXPECT_EQ(m.GetParamVector("int", "x0"), (std::vector<double>{0.1, 2.0 / 3.0}));
}

TEST(ModelEditTest, GetParamValueEvaluatesWithVariables) {
  Model m = Load();
  EXPECT_EQ(m.GetParamValue("g1", "k"), 2.0);  // k="kv"
  m.SetVariable("kv", "4");
  EXPECT_EQ(m.GetParamValue("g1", "k"), 4.0);
  EXPECT_EQ(m.GetParamValue("leaky", "gain"), 5.0);  // a define instance's "kv + 1"
  EXPECT_EQ(m.GetParamValue("src", "phase"), 0.0);   // not written: the catalog default
  EXPECT_EQ(m.GetParamVector("src", "frequency"), std::vector<double>{3.0});
}

TEST(ModelEditTest, GetParamValueSaysWhatFailed) {
  Model m = Load();
  m.AddBlock("", "Constant", "c", {{"value", "[[1, 2], [3, 4]]"}});
  m.AddBlock("", "Sum", "s2");
  m.SetParam("g2", "k", "kw * 2");
  EXPECT_CONTAINS(ErrorOf([&] { m.GetParamValue("g2", "k"); }),
                  "block 'g2' (Gain): parameter 'k' = 'kw * 2': ");
  EXPECT_CONTAINS(ErrorOf([&] { m.GetParamValue("g2", "k"); }), "kw");
  EXPECT_CONTAINS(ErrorOf([&] { m.GetParamValue("c", "value"); }),
                  "parameter 'value' is 2x2, not a scalar");
  EXPECT_CONTAINS(ErrorOf([&] { m.GetParamVector("c", "value"); }),
                  "is a 2x2 matrix, not a vector");
  EXPECT_CONTAINS(ErrorOf([&] { m.GetParamValue("s2", "signs"); }),
                  "parameter 'signs' is text, not a number");
  EXPECT_CONTAINS(ErrorOf([&] { m.GetParamValue("g1", "kk"); }),
                  "unknown parameter 'kk'; did you mean 'k'?");
  EXPECT_CONTAINS(ErrorOf([&] { m.GetParamValue("nope", "k"); }), "no block 'nope'");
  m.AddSubsystem("", "sub");
  EXPECT_CONTAINS(ErrorOf([&] { m.GetParamValue("sub", "k"); }), "a subsystem has no parameters");
  m.AddBlock("", "Expression", "e", {{"expr", "u1"}});
  EXPECT_CONTAINS(ErrorOf([&] { m.GetParamValue("leaky", "nothing"); }), "is not set");
  m.SetVariable("kv", "[1, 2");
  EXPECT_CONTAINS(ErrorOf([&] { m.GetParamValue("g1", "k"); }), "variable 'kv'");
}

// ---------------------------------------------------------------------------------------------
// CreateSubsystem

TEST(ModelEditTest, CreateSubsystemKeepsBehaviour) {
  Model m = Load();
  const std::vector<double> before = Simulate(m);
  m.CreateSubsystem("", {"g1", "int"}, "plant");
  const Diagram& plant = m.GetDiagram("plant");
  ASSERT_EQ(plant.ports.size(), 2u);
  EXPECT_EQ(plant.ports[0].name, "g1_u");
  EXPECT_EQ(plant.ports[0].kind, PortDecl::Kind::kInport);
  EXPECT_EQ(plant.ports[1].name, "int_y");
  EXPECT_EQ(plant.ports[1].kind, PortDecl::Kind::kOutport);
  EXPECT_EQ(plant.blocks.size(), 2u);
  // The subsystem stands where g1 stood; int.y fed two blocks through one outport.
  EXPECT_EQ(m.root.blocks[2].name, "plant");
  EXPECT_EQ(m.logs[0].signal, "plant/int.y");
  EXPECT_EQ(Simulate(m), before);
}

TEST(ModelEditTest, CreateSubsystemMakesPhysicalPortsAndFollowsRobots) {
  Model m;
  m.AddBlock("", "World", "world");
  m.AddBlock("", "Inertia", "a", {{"J", "1"}});
  m.AddBlock("", "Inertia", "b", {{"J", "2"}});
  m.AddBlock("", "SimpleGear", "gear", {{"ratio", "3"}});
  m.Connect("", "a.I", "gear.B");
  m.Connect("", "gear.F", "b.I");
  m.AddBlock("", "ForwardKinematics", "fk", {{"robot", "gear"}, {"frame", "x.F"}});
  m.plots.push_back({"p.svg", "", "t", "", {"gear.y", "a.w"}, false, {}});
  m.summaries.push_back({{"gear.y"}, SummaryOp::kMax, "", {}});
  m.CreateSubsystem("", {"gear", "a"}, "drive");
  const Diagram& drive = m.GetDiagram("drive");
  ASSERT_EQ(drive.ports.size(), 1u);
  EXPECT_EQ(drive.ports[0].name, "gear_F");
  EXPECT_EQ(drive.ports[0].kind, PortDecl::Kind::kPhysical);
  EXPECT_EQ(drive.ports[0].domain, "rotational");
  EXPECT_EQ(m.root.connections.back().from, "drive.gear_F");
  EXPECT_EQ(drive.connections.size(), 2u);  // a.I -- gear.B inside, gear.F -- .gear_F
  EXPECT_EQ(m.GetParam("fk", "robot"), "drive/gear");
  EXPECT_EQ(m.plots[0].signals[0], "drive/gear.y");
  EXPECT_EQ(m.plots[0].signals[1], "drive/a.w");
  EXPECT_EQ(m.summaries[0].signals[0], "drive/gear.y");
}

TEST(ModelEditTest, CreateSubsystemTakesTheDomainOfAJointShaft) {
  Model m;
  m.AddBlock("", "World", "world");
  m.AddBlock("", "RevoluteJoint", "j", {{"actuation", "port"}});
  m.AddBlock("", "Inertia", "rotor", {{"J", "1"}});
  m.Connect("", "world.W", "j.B");
  m.Connect("", "j.shaft", "rotor.I");
  m.CreateSubsystem("", {"j"}, "joint");
  const Diagram& d = m.GetDiagram("joint");
  ASSERT_EQ(d.ports.size(), 2u);
  EXPECT_EQ(d.ports[0].domain, "frame");
  EXPECT_EQ(d.ports[1].name, "j_shaft");
  EXPECT_EQ(d.ports[1].domain, "rotational");
}

TEST(ModelEditTest, CreateSubsystemNamesPortsApart) {
  // "a_b.y" and "a.b_y" would both give a_b_y: the second is a_b_y_2.
  Model m;
  m.AddBlock("", "Constant", "a_b");
  m.AddSubsystem("", "a").ports = {{PortDecl::Kind::kOutport, "b_y", "", {}}};
  m.AddBlock("a", "Constant", "c");
  m.Connect("a", "c.y", ".b_y");
  m.AddBlock("", "Mux", "m");
  m.Connect("", "a_b.y", "m.u1");
  m.Connect("", "a.b_y", "m.u2");
  m.CreateSubsystem("", {"a_b", "a"}, "sources");
  const Diagram& d = m.GetDiagram("sources");
  ASSERT_EQ(d.ports.size(), 2u);
  EXPECT_EQ(d.ports[0].name, "a_b_y");
  EXPECT_EQ(d.ports[1].name, "a_b_y_2");
  EXPECT_EQ(m.root.connections[1].from, "sources.a_b_y_2");
  EXPECT_NO_THROW(Compile(m));
}

TEST(ModelEditTest, CreateSubsystemErrors) {
  Model m = Load();
  const Model original = m;
  EXPECT_CONTAINS(ErrorOf([&] { m.CreateSubsystem("", {}, "p"); }), "no blocks to move");
  EXPECT_CONTAINS(ErrorOf([&] { m.CreateSubsystem("", {"g1", "gg"}, "p"); }), "no block 'gg'");
  EXPECT_CONTAINS(ErrorOf([&] {
                    m.CreateSubsystem("", {"g1", "g1"}, "p");
                  }),
                  "block 'g1' is named twice");
  EXPECT_CONTAINS(ErrorOf([&] { m.CreateSubsystem("", {"g1"}, "g2"); }),
                  "a block named 'g2' already exists");
  EXPECT_CONTAINS(ErrorOf([&] { m.CreateSubsystem("", {"g1"}, "1p"); }), "invalid block name");
  EXPECT_CONTAINS(ErrorOf([&] { m.CreateSubsystem("nope", {"g1"}, "p"); }), "no block 'nope'");
  EXPECT_EQ(m, original);
}

// ---------------------------------------------------------------------------------------------
// ExpandDefine

TEST(ModelEditTest, ExpandDefineSubstitutesParameters) {
  Model m = Load();
  const std::vector<double> before = Simulate(m);
  m.ExpandDefine("leaky");
  const BlockNode* b = m.FindBlock("leaky");
  ASSERT_TRUE(b->is_subsystem());
  EXPECT_TRUE(b->params.empty());
  EXPECT_EQ(m.GetParam("leaky/g", "k"), "(kv + 1)*2");
  EXPECT_EQ(m.GetParam("leaky/int", "x0"), "0.25");
  EXPECT_EQ(m.GetParam("leaky/leak", "k"), "-(kv + 1)");
  EXPECT_EQ(m.GetDiagram("leaky").ports.size(), 2u);
  EXPECT_EQ(Simulate(m), before);
}

TEST(ModelEditTest, ExpandDefineReachesNestedDefinesAndWords) {
  const char text[] = R"(<model name="nested" format="1">
  <simulation solver="ode4" t_end="0.2" step="0.01"/>
  <define name="Inner" params="k">
    <inport name="u"/>
    <outport name="y"/>
    <block type="Gain" name="g" k="k"/>
    <connect from=".u" to="g.u"/>
    <connect from="g.y" to=".y"/>
  </define>
  <define name="Outer" params="a op">
    <inport name="u"/>
    <outport name="y"/>
    <block type="Inner" name="inner" k="a * 1e2"/>
    <subsystem name="s">
      <inport name="u"/>
      <outport name="y"/>
      <block type="MinMax" name="mm" op="op" inputs="1"/>
      <block type="Expression" name="e" expr="u1 * a"/>
      <connect from=".u" to="mm.u1"/>
      <connect from="mm.y" to="e.u1"/>
      <connect from="e.y" to=".y"/>
    </subsystem>
    <connect from=".u" to="inner.u"/>
    <connect from="inner.y" to="s.u"/>
    <connect from="s.y" to=".y"/>
  </define>
  <block type="Sine" name="src"/>
  <block type="Outer" name="o" a="0.5" op="max"/>
  <connect from="src.y" to="o.u"/>
  <log signal="o.y" as="y"/>
</model>)";
  Model m = xml::ReadModelString(text, "nested.xml");
  const std::vector<double> before = Simulate(m);
  m.ExpandDefine("o");
  EXPECT_EQ(m.GetParam("o/inner", "k"), "0.5 * 1e2");
  EXPECT_EQ(m.GetParam("o/s/mm", "op"), "max");
  EXPECT_EQ(m.GetParam("o/s/e", "expr"), "u1 * 0.5");
  EXPECT_EQ(m.FindBlock("o/inner")->type, "Inner");
  EXPECT_EQ(Simulate(m), before);
  m.ExpandDefine("o/inner");
  EXPECT_EQ(m.GetParam("o/inner/g", "k"), "0.5 * 1e2");
  EXPECT_EQ(Simulate(m), before);
}

TEST(ModelEditTest, ExpandDefineErrors) {
  Model m = Load();
  m.AddSubsystem("", "sub");
  EXPECT_CONTAINS(ErrorOf([&] { m.ExpandDefine("g1"); }),
                  "block 'g1' (Gain): 'Gain' is not a define");
  EXPECT_CONTAINS(ErrorOf([&] { m.ExpandDefine("sub"); }), "is a subsystem already");
  EXPECT_CONTAINS(ErrorOf([&] { m.ExpandDefine("nope"); }), "no block 'nope'");
  m.FindBlock("leaky")->params.pop_back();  // as a file could say it
  EXPECT_CONTAINS(ErrorOf([&] { m.ExpandDefine("leaky"); }), "parameter 'x_init'");
}

}  // namespace
}  // namespace twinblocks::graph
