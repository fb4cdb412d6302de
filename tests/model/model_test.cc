#include "model/model.h"

#include <gtest/gtest.h>

#include <string>

#include "model/model_error.h"
#include "tests/support/model_error_matchers.h"

namespace twinblocks::graph {
namespace {

using test_support::ErrorOf;

// top: world, arm (subsystem: j1, j2, inner (subsystem: s)), lines between them.
Model Sample() {
  Model m;
  m.name = "sample";
  m.AddBlock("", "World", "world");
  m.AddSubsystem("", "arm");
  m.AddBlock("arm", "RevoluteJoint", "j1", {{"axis", "[0, 0, 1]"}});
  m.AddBlock("arm", "RevoluteJoint", "j2");
  m.AddSubsystem("arm", "inner");
  m.AddBlock("arm/inner", "Gain", "s", {{"k", "2"}});
  m.GetDiagram("arm").ports.push_back({PortDecl::Kind::kPhysical, "base", "frame", {}});
  m.Connect("arm", ".base", "j1.B");
  m.Connect("arm", "j1.F", "j2.B");
  m.Connect("arm", "j2.F", "j1.F");
  m.Connect("", "world.W", "arm.base");
  return m;
}

TEST(IdentifierTest, Names) {
  EXPECT_TRUE(IsIdentifier("a"));
  EXPECT_TRUE(IsIdentifier("_x1"));
  EXPECT_TRUE(IsIdentifier("Finger_2"));
  EXPECT_FALSE(IsIdentifier(""));
  EXPECT_FALSE(IsIdentifier("1a"));
  EXPECT_FALSE(IsIdentifier("a-b"));
  EXPECT_FALSE(IsIdentifier("a.b"));
  EXPECT_FALSE(IsIdentifier("a b"));
  EXPECT_FALSE(IsIdentifier("é"));
}

TEST(IdentifierTest, Endpoints) {
  EXPECT_TRUE(IsEndpoint("hinge.q"));
  EXPECT_TRUE(IsEndpoint(".base"));
  EXPECT_FALSE(IsEndpoint("hinge"));
  EXPECT_FALSE(IsEndpoint("hinge."));
  EXPECT_FALSE(IsEndpoint("."));
  EXPECT_FALSE(IsEndpoint("a.b.c"));
  EXPECT_FALSE(IsEndpoint("a/b.c"));
  EXPECT_FALSE(IsEndpoint("1a.q"));
}

TEST(BlockNodeTest, CopyIsDeep) {
  Model m = Sample();
  BlockNode copy = *m.FindBlock("arm");
  ASSERT_TRUE(copy.is_subsystem());
  EXPECT_EQ(copy, *m.FindBlock("arm"));
  copy.body->blocks[0].name = "changed";
  EXPECT_EQ(m.FindBlock("arm")->body->blocks[0].name, "j1");
  EXPECT_NE(copy, *m.FindBlock("arm"));

  BlockNode assigned;
  assigned = *m.FindBlock("arm");
  EXPECT_EQ(assigned, *m.FindBlock("arm"));
  EXPECT_NE(assigned.body.get(), m.FindBlock("arm")->body.get());
  assigned = assigned;  // self-assignment keeps the body
  ASSERT_TRUE(assigned.is_subsystem());

  Model copy_model = m;
  EXPECT_EQ(copy_model, m);
  copy_model.SetParam("arm/inner/s", "k", "3");
  EXPECT_EQ(m.GetParam("arm/inner/s", "k"), "2");
  EXPECT_NE(copy_model, m);
}

TEST(BlockNodeTest, GetParam) {
  BlockNode b;
  b.params = {{"a", "1"}, {"b", "x y"}};
  EXPECT_EQ(b.GetParam("b"), "x y");
  EXPECT_EQ(b.GetParam("c"), std::nullopt);
}

TEST(ModelTest, EqualityIgnoresLocationsFileAndLibrary) {
  Model a = Sample();
  Model b = Sample();
  b.FindBlock("arm/j1")->where = {"x.xml", 7};
  b.GetDiagram("arm").connections[0].where = {"x.xml", 9};
  b.file = "elsewhere.xml";
  b.library.push_back(Define{"Lib", {}, {}, {}});
  b.simulation.where = {"x.xml", 3};
  EXPECT_EQ(a, b);

  b.SetCommented("world", true);
  EXPECT_NE(a, b);
  b = Sample();
  b.FindBlock("arm")->body.reset();
  EXPECT_NE(a, b);  // a subsystem is not equal to a block without a body
  b = Sample();
  b.simulation.Set("solver", "ode45");
  EXPECT_NE(a, b);
  b = Sample();
  b.logs.push_back({"arm/j1.q", "", {}});
  EXPECT_NE(a, b);
}

TEST(ModelTest, GetDiagramAndFindBlock) {
  Model m = Sample();
  EXPECT_EQ(&m.GetDiagram(""), &m.root);
  EXPECT_EQ(m.GetDiagram("arm").blocks.size(), 3u);
  EXPECT_EQ(m.GetDiagram("arm/inner").blocks[0].name, "s");
  EXPECT_CONTAINS(ErrorOf([&] { m.GetDiagram("arm/nope"); }), "no block 'arm/nope' in the model");
  EXPECT_CONTAINS(ErrorOf([&] { m.GetDiagram("arm/j1"); }),
                  "'arm/j1' is a block of type 'RevoluteJoint', not a subsystem");

  ASSERT_NE(m.FindBlock("arm/inner/s"), nullptr);
  EXPECT_EQ(m.FindBlock("arm/inner/s")->type, "Gain");
  EXPECT_EQ(m.FindBlock("world")->type, "World");
  EXPECT_EQ(m.FindBlock("arm/inner")->name, "inner");
  EXPECT_EQ(m.FindBlock(""), nullptr);
  EXPECT_EQ(m.FindBlock("nope"), nullptr);
  EXPECT_EQ(m.FindBlock("world/x"), nullptr);
  EXPECT_EQ(m.FindBlock("arm/j1/x"), nullptr);
  const Model& cm = m;
  EXPECT_EQ(cm.FindBlock("arm/j2")->name, "j2");
}

TEST(ModelTest, FindDefineLooksAtOwnDefinesFirst) {
  Model m;
  m.library.push_back(Define{"Phalanx", {"length"}, {}, {"lib.xml", 3}});
  m.library.push_back(Define{"Palm", {}, {}, {"lib.xml", 9}});
  m.defines.push_back(Define{"Phalanx", {"length", "radius"}, {}, {"model.xml", 2}});
  ASSERT_NE(m.FindDefine("Phalanx"), nullptr);
  EXPECT_EQ(m.FindDefine("Phalanx")->params.size(), 2u);
  ASSERT_NE(m.FindDefine("Palm"), nullptr);
  EXPECT_EQ(m.FindDefine("Palm")->where.file, "lib.xml");
  EXPECT_EQ(m.FindDefine("Nope"), nullptr);
}

TEST(ModelTest, AddBlockChecksNames) {
  Model m = Sample();
  BlockNode& b = m.AddBlock("arm/inner", "Gain", "g2", {{"k", "3"}});
  EXPECT_EQ(b.name, "g2");
  EXPECT_EQ(m.GetParam("arm/inner/g2", "k"), "3");
  EXPECT_CONTAINS(ErrorOf([&] { m.AddBlock("", "Gain", "2x"); }), "invalid block name '2x'");
  EXPECT_CONTAINS(ErrorOf([&] { m.AddBlock("", "Gain", "a b"); }), "invalid block name 'a b'");
  EXPECT_CONTAINS(ErrorOf([&] { m.AddBlock("arm", "Gain", "j1"); }),
                  "a block named 'j1' already exists in subsystem 'arm'");
  EXPECT_CONTAINS(ErrorOf([&] { m.AddBlock("", "Gain", "arm"); }),
                  "a block named 'arm' already exists in the top level");
  EXPECT_CONTAINS(ErrorOf([&] { m.AddBlock("nope", "Gain", "g"); }), "no block 'nope'");
  EXPECT_CONTAINS(ErrorOf([&] { m.AddBlock("", "", "g"); }), "block 'g': a block needs a type");
  EXPECT_CONTAINS(ErrorOf([&] {
                    m.AddBlock("", "Gain", "g", {{"k-1", "2"}});
                  }),
                  "block 'g' (Gain): invalid parameter name 'k-1'");
  EXPECT_CONTAINS(ErrorOf([&] {
                    m.AddBlock("", "Gain", "g", {{"name", "2"}});
                  }),
                  "'name' is not a parameter");
  EXPECT_CONTAINS(ErrorOf([&] {
                    m.AddBlock("", "Gain", "g", {{"k", "2"}, {"k", "3"}});
                  }),
                  "parameter 'k' given twice");
  EXPECT_EQ(m.FindBlock("g"), nullptr);  // nothing added by a failed call
}

TEST(ModelTest, AddSubsystem) {
  Model m = Sample();
  Diagram& body = m.AddSubsystem("arm/inner", "deeper");
  EXPECT_TRUE(body.blocks.empty());
  EXPECT_EQ(&m.GetDiagram("arm/inner/deeper"), &body);
  EXPECT_TRUE(m.FindBlock("arm/inner/deeper")->is_subsystem());
  EXPECT_EQ(m.FindBlock("arm/inner/deeper")->type, "");
  EXPECT_CONTAINS(ErrorOf([&] { m.AddSubsystem("arm", "j2"); }), "already exists");
  EXPECT_CONTAINS(ErrorOf([&] { m.AddSubsystem("arm", "x.y"); }), "invalid block name 'x.y'");
}

TEST(ModelTest, RemoveBlockRemovesItsLines) {
  Model m = Sample();
  m.RemoveBlock("arm/j1");
  EXPECT_EQ(m.FindBlock("arm/j1"), nullptr);
  const Diagram& arm = m.GetDiagram("arm");
  ASSERT_EQ(arm.connections.size(), 0u);  // all three lines touched j1
  m.RemoveBlock("arm");
  EXPECT_EQ(m.FindBlock("arm"), nullptr);
  EXPECT_TRUE(m.root.connections.empty());
  EXPECT_EQ(m.root.blocks.size(), 1u);
  EXPECT_CONTAINS(ErrorOf([&] { m.RemoveBlock("arm"); }), "no block 'arm' in the model");
  EXPECT_CONTAINS(ErrorOf([&] { m.RemoveBlock("arm/j2"); }), "no block 'arm'");
}

TEST(ModelTest, RemoveBlockKeepsOtherLines) {
  Model m = Sample();
  m.RemoveBlock("arm/j2");
  const Diagram& arm = m.GetDiagram("arm");
  ASSERT_EQ(arm.connections.size(), 1u);
  EXPECT_EQ(arm.connections[0].from, ".base");
  EXPECT_EQ(arm.connections[0].to, "j1.B");
}

TEST(ModelTest, RenameBlockRewritesLinesAndLogs) {
  Model m = Sample();
  m.AddBlock("arm", "Gain", "j10");
  m.Connect("arm", "j10.y", "j1.tau");
  m.logs.push_back({"arm/j1.q", "q1", {}});
  m.logs.push_back({"arm/j10.y", "", {}});
  m.RenameBlock("arm/j1", "shoulder");
  EXPECT_EQ(m.FindBlock("arm/j1"), nullptr);
  ASSERT_NE(m.FindBlock("arm/shoulder"), nullptr);
  EXPECT_EQ(m.GetParam("arm/shoulder", "axis"), "[0, 0, 1]");
  const Diagram& arm = m.GetDiagram("arm");
  EXPECT_EQ(arm.connections[0].to, "shoulder.B");
  EXPECT_EQ(arm.connections[1].from, "shoulder.F");
  EXPECT_EQ(arm.connections[2].to, "shoulder.F");
  EXPECT_EQ(arm.connections[3].from, "j10.y");  // a prefix of another name is not rewritten
  EXPECT_EQ(arm.connections[3].to, "shoulder.tau");
  EXPECT_EQ(m.logs[0].signal, "arm/shoulder.q");
  EXPECT_EQ(m.logs[1].signal, "arm/j10.y");

  m.logs.push_back({"arm/inner/s.y", "", {}});
  m.RenameBlock("arm", "hand");
  EXPECT_EQ(m.root.connections[0].to, "hand.base");
  EXPECT_EQ(m.logs[0].signal, "hand/shoulder.q");
  EXPECT_EQ(m.logs[2].signal, "hand/inner/s.y");
  EXPECT_NE(m.FindBlock("hand/inner/s"), nullptr);

  m.RenameBlock("world", "world");  // renaming to itself is allowed
  EXPECT_CONTAINS(ErrorOf([&] { m.RenameBlock("world", "hand"); }),
                  "a block named 'hand' already exists in the top level");
  EXPECT_CONTAINS(ErrorOf([&] { m.RenameBlock("world", "9"); }), "invalid block name '9'");
  EXPECT_CONTAINS(ErrorOf([&] { m.RenameBlock("arm/j2", "x"); }), "no block 'arm'");
}

TEST(ModelTest, SetAndGetParam) {
  Model m = Sample();
  m.SetParam("arm/j1", "axis", "[1, 0, 0]");
  m.SetParam("arm/j1", "q0", "0.5");
  const BlockNode* j1 = m.FindBlock("arm/j1");
  ASSERT_EQ(j1->params.size(), 2u);
  EXPECT_EQ(j1->params[0].name, "axis");  // kept in place
  EXPECT_EQ(j1->params[0].value, "[1, 0, 0]");
  EXPECT_EQ(j1->params[1].name, "q0");
  EXPECT_EQ(m.GetParam("arm/j1", "q0"), "0.5");
  EXPECT_EQ(m.GetParam("arm/j1", "nope"), std::nullopt);
  EXPECT_CONTAINS(ErrorOf([&] { m.GetParam("arm/nope", "q0"); }), "no block 'arm/nope'");
  EXPECT_CONTAINS(ErrorOf([&] { m.SetParam("arm/nope", "q0", "1"); }), "no block 'arm/nope'");
  EXPECT_CONTAINS(ErrorOf([&] { m.SetParam("arm/j1", "bad name", "1"); }),
                  "block 'arm/j1' (RevoluteJoint): invalid parameter name 'bad name'");
  EXPECT_CONTAINS(ErrorOf([&] { m.SetParam("arm/j1", "type", "Gain"); }),
                  "'type' is not a parameter");
  EXPECT_CONTAINS(ErrorOf([&] { m.SetParam("arm", "k", "1"); }), "a subsystem has no parameters");
}

TEST(ModelTest, SetCommented) {
  Model m = Sample();
  m.SetCommented("arm/inner", true);
  EXPECT_TRUE(m.FindBlock("arm/inner")->commented);
  m.SetCommented("arm/inner", false);
  EXPECT_FALSE(m.FindBlock("arm/inner")->commented);
  EXPECT_CONTAINS(ErrorOf([&] { m.SetCommented("x", true); }), "no block 'x'");
}

TEST(ModelTest, ConnectAndDisconnect) {
  Model m = Sample();
  m.Connect("arm/inner", "s.y", "s.u");
  ASSERT_EQ(m.GetDiagram("arm/inner").connections.size(), 1u);
  EXPECT_CONTAINS(ErrorOf([&] { m.Connect("arm/inner", "s.y", "s.u"); }),
                  "a line from 's.y' to 's.u' already exists in subsystem 'arm/inner'");
  EXPECT_CONTAINS(ErrorOf([&] { m.Connect("", "world", "arm.base"); }),
                  "invalid port reference 'world'; expected 'block.port' or '.port'");
  EXPECT_CONTAINS(ErrorOf([&] { m.Connect("", "world.W", "arm/j1.B"); }),
                  "invalid port reference 'arm/j1.B'");
  EXPECT_CONTAINS(ErrorOf([&] { m.Connect("", ".in", "world.W"); }),
                  "'.in' names a top-level <inport>, but the model declares no <inport> 'in'");
  m.root.ports.push_back({PortDecl::Kind::kInport, "in", "", {}});
  m.AddBlock("", "Gain", "g");
  m.Connect("", ".in", "g.u");  // an external input, a signal source at the top level
  // The block's end is checked as for any line (since the edit-time checks).
  EXPECT_CONTAINS(ErrorOf([&] { m.Connect("", ".in", "world.u"); }),
                  "block 'world' (World): no port 'u'");
  EXPECT_CONTAINS(ErrorOf([&] { m.Connect("zz", "a.b", "c.d"); }), "no block 'zz'");

  EXPECT_TRUE(m.Disconnect("arm", "j1.F", "j2.B"));
  EXPECT_FALSE(m.Disconnect("arm", "j1.F", "j2.B"));
  EXPECT_EQ(m.GetDiagram("arm").connections.size(), 2u);
}

TEST(ModelTest, SetVariable) {
  Model m;
  m.SetVariable("L", "0.5");
  m.SetVariable("m", "2*L");
  m.SetVariable("L", "0.7");
  ASSERT_EQ(m.variables.size(), 2u);
  EXPECT_EQ(m.variables[0].name, "L");
  EXPECT_EQ(m.variables[0].value, "0.7");
  EXPECT_EQ(m.variables[1].value, "2*L");
  EXPECT_CONTAINS(ErrorOf([&] { m.SetVariable("2L", "1"); }), "invalid variable name '2L'");
  EXPECT_CONTAINS(ErrorOf([&] { m.SetVariable("pi", "3"); }),
                  "variable 'pi' takes the name of a built-in constant or function");
  EXPECT_CONTAINS(ErrorOf([&] { m.SetVariable("sin", "3"); }), "built-in");
}

TEST(ModelTest, MessagesStayOnOneLine) {
  Model m;
  std::string msg = ErrorOf([&] { m.AddBlock("", "Gain", "a\nb"); });
  EXPECT_CONTAINS(msg, "invalid block name 'a\\nb'");
  EXPECT_EQ(msg.find('\n'), std::string::npos);
  msg = ErrorOf([&] { m.Connect("", "a.y\r\n", "b.u"); });
  EXPECT_EQ(msg.find_first_of("\r\n"), std::string::npos);
}

TEST(SimulationSettingsTest, GetAndSet) {
  SimulationSettings s;
  EXPECT_EQ(s.Get("solver"), std::nullopt);
  s.Set("solver", "ode45");
  s.Set("t_end", "5");
  s.Set("solver", "ode23");
  ASSERT_EQ(s.attributes.size(), 2u);
  EXPECT_EQ(s.attributes[0].name, "solver");
  EXPECT_EQ(s.Get("solver"), "ode23");
  EXPECT_EQ(s.Get("t_end"), "5");
  EXPECT_CONTAINS(ErrorOf([&] { s.Set("t-end", "5"); }), "invalid simulation setting name");
}

}  // namespace
}  // namespace twinblocks::graph
