#include "xml/model_reader.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <string>

#include "model/model_error.h"
#include "tests/xml/xml_test_helpers.h"

namespace twinblocks::xml {
namespace {

using graph::Model;
using graph::ModelError;
using graph::PortDecl;
using test::TempFiles;

const std::string kXmlData = std::string(TWINBLOCKS_TEST_DATA) + "/xml";

// The message of the ModelError that reading `text` as "model.xml" throws ("" if none).
std::string ReadError(const std::string& text, const std::string& file = "model.xml") {
  try {
    ReadModelString(text, file);
  } catch (const ModelError& ex) {
    return ex.what();
  }
  return "";
}

// Wraps diagram elements in a model: the first one lands on line 2.
std::string InModel(const std::string& body) {
  return "<model name=\"m\" format=\"1\">\n" + body + "\n</model>\n";
}

// ---------------------------------------------------------------------------------------------
// What a valid file gives

TEST(ModelReaderTest, ReadsTheSpecExample) {
  Model m = ReadModelFile(kXmlData + "/pendulum.xml");
  EXPECT_EQ(m.name, "pendulum");
  EXPECT_EQ(m.format, 1);
  EXPECT_EQ(m.file, kXmlData + "/pendulum.xml");
  ASSERT_EQ(m.variables.size(), 2u);
  EXPECT_EQ(m.variables[0].name, "L");
  EXPECT_EQ(m.variables[0].value, "0.5");
  EXPECT_EQ(m.variables[0].where.line, 3);
  EXPECT_EQ(m.variables[0].where.file, kXmlData + "/pendulum.xml");
  EXPECT_EQ(m.variables[1].value, "2.0");
  EXPECT_EQ(m.simulation.Get("solver"), "ode45");
  EXPECT_EQ(m.simulation.Get("t_end"), "5");
  EXPECT_EQ(m.simulation.Get("atol"), "1e-10");
  EXPECT_EQ(m.simulation.where.line, 5);

  ASSERT_EQ(m.root.blocks.size(), 4u);
  const graph::BlockNode& hinge = m.root.blocks[1];
  EXPECT_EQ(hinge.name, "hinge");
  EXPECT_EQ(hinge.type, "RevoluteJoint");
  EXPECT_FALSE(hinge.commented);
  EXPECT_FALSE(hinge.is_subsystem());
  EXPECT_EQ(hinge.where.line, 8);
  ASSERT_EQ(hinge.params.size(), 2u);
  EXPECT_EQ(hinge.params[0].name, "axis");  // in file order
  EXPECT_EQ(hinge.params[0].value, "[0, 1, 0]");
  EXPECT_EQ(hinge.params[1].name, "q0");
  EXPECT_EQ(m.root.blocks[3].GetParam("shape"), "sphere");

  ASSERT_EQ(m.root.connections.size(), 3u);
  EXPECT_EQ(m.root.connections[2].from, "to_com.F");
  EXPECT_EQ(m.root.connections[2].to, "bob.R");
  EXPECT_EQ(m.root.connections[2].where.line, 14);
  ASSERT_EQ(m.logs.size(), 1u);
  EXPECT_EQ(m.logs[0].signal, "hinge.q");
  EXPECT_EQ(m.logs[0].as, "theta");
  EXPECT_EQ(m.logs[0].where.line, 16);
  EXPECT_TRUE(m.includes.empty());
  EXPECT_TRUE(m.defines.empty());
}

TEST(ModelReaderTest, ReadsHierarchyDefinesAndIncludes) {
  Model m = ReadModelFile(kXmlData + "/hand.xml");
  EXPECT_EQ(m.simulation.Get("jacobian"), "numeric");  // options beyond the spec's are kept
  EXPECT_EQ(m.simulation.attributes.size(), 8u);
  ASSERT_EQ(m.includes.size(), 1u);
  EXPECT_EQ(m.includes[0].file, "lib/fingers.xml");

  ASSERT_EQ(m.defines.size(), 1u);
  const graph::Define& thumb = m.defines[0];
  EXPECT_EQ(thumb.name, "Thumb");
  EXPECT_EQ(thumb.params, (std::vector<std::string>{"length", "q0"}));
  ASSERT_EQ(thumb.body.ports.size(), 3u);
  EXPECT_EQ(thumb.body.ports[0].kind, PortDecl::Kind::kPhysical);
  EXPECT_EQ(thumb.body.ports[0].domain, "frame");
  EXPECT_EQ(thumb.body.ports[1].kind, PortDecl::Kind::kInport);
  EXPECT_EQ(thumb.body.ports[2].kind, PortDecl::Kind::kOutport);
  EXPECT_EQ(thumb.body.ports[2].name, "angle");
  EXPECT_EQ(thumb.body.blocks.size(), 2u);
  EXPECT_EQ(thumb.body.connections.size(), 4u);

  // Included defines, recursively (fingers.xml includes phalanx.xml), go to the library.
  ASSERT_EQ(m.library.size(), 2u);
  ASSERT_NE(m.FindDefine("IndexFinger"), nullptr);
  ASSERT_NE(m.FindDefine("Phalanx"), nullptr);
  EXPECT_EQ(m.FindDefine("Phalanx")->params.size(), 3u);
  EXPECT_EQ(m.FindDefine("Phalanx")->where.file, kXmlData + "/lib/phalanx.xml");
  EXPECT_EQ(m.FindDefine("Phalanx")->where.line, 3);
  EXPECT_EQ(m.FindDefine("Thumb"), &m.defines[0]);

  // Escaped text reads back as the characters it stands for.
  EXPECT_EQ(m.GetParam("expr", "expression"), "u[0] < 0.5 && t > 1");
  EXPECT_EQ(m.GetParam("expr", "note"), "say \"hi\"");
  EXPECT_EQ(m.GetParam("measured", "file"), "data/q measured.csv");
  EXPECT_TRUE(m.FindBlock("measured")->commented);

  const graph::BlockNode* palm = m.FindBlock("palm");
  ASSERT_NE(palm, nullptr);
  ASSERT_TRUE(palm->is_subsystem());
  EXPECT_EQ(palm->type, "");
  EXPECT_EQ(palm->body->ports.size(), 2u);
  EXPECT_EQ(palm->body->blocks.size(), 3u);
  EXPECT_EQ(palm->body->connections.size(), 3u);
  EXPECT_TRUE(m.FindBlock("palm/index")->commented);
  EXPECT_EQ(m.GetParam("palm/index/f", "spread"), "0 0.1 -0.2");
  EXPECT_TRUE(m.FindBlock("palm/empty")->is_subsystem());
  EXPECT_TRUE(m.GetDiagram("palm/empty").blocks.empty());
  ASSERT_EQ(m.logs.size(), 2u);
  EXPECT_EQ(m.logs[1].as, "");
}

TEST(ModelReaderTest, DefaultsAndIgnoredMarkup) {
  // No name or format: the defaults. Comments, a declaration, a doctype and CDATA-free
  // whitespace are all fine.
  Model m = ReadModelString(
      "<?xml version=\"1.0\"?>\n<!DOCTYPE model>\n<!-- c -->\n<model>\n  <!-- c -->\n"
      "  <block type=\"Gain\" name=\"g\" k=\"\"/>\n</model>\n<!-- after -->\n");
  EXPECT_EQ(m.name, "model");
  EXPECT_EQ(m.format, 1);
  EXPECT_EQ(m.file, "<string>");
  EXPECT_EQ(m.GetParam("g", "k"), "");  // an empty value is kept; compile judges it
  EXPECT_EQ(m.root.blocks[0].where.line, 6);
  EXPECT_EQ(m.root.blocks[0].where.file, "<string>");
  // Without a <simulation>, the run's default settings are placed at <model>.
  EXPECT_TRUE(m.simulation.attributes.empty());
  EXPECT_EQ(m.simulation.where.line, 4);
}

TEST(ModelReaderTest, CommentedFalseAndUnknownTypesAreAccepted) {
  Model m = ReadModelString(
      InModel("<block type=\"NoSuchType\" name=\"b\" commented=\"false\" anything=\"x\"/>\n"
              "<connect from=\"b.nope\" to=\"b.also_nope\"/>"));
  EXPECT_FALSE(m.root.blocks[0].commented);
  EXPECT_EQ(m.root.blocks[0].params.size(), 1u);  // commented is not a parameter
  EXPECT_EQ(m.root.connections.size(), 1u);
}

TEST(ModelReaderTest, VariablesAreNotEvaluated) {
  Model m = ReadModelString(InModel("<var name=\"a\" value=\"b + no_such_name * (\"/>"));
  EXPECT_EQ(m.variables[0].value, "b + no_such_name * (");
}

// ---------------------------------------------------------------------------------------------
// Errors: each names the file and line

TEST(ModelReaderErrorTest, MalformedXml) {
  std::string msg = ReadError("<model name=\"m\">\n  <block type=\"A\" name=\"a\">\n</model>\n");
  EXPECT_CONTAINS(msg, "model.xml:3: malformed XML: ");
  EXPECT_CONTAINS(msg, "mismatch");
  EXPECT_CONTAINS(ReadError("<model>\n<var name=\"a\" value=\"1/>\n</model>"), "model.xml:");
  EXPECT_CONTAINS(ReadError(""), "model.xml:1: malformed XML: No document element found");
  EXPECT_CONTAINS(ReadError("<model>\n\n<block type=\"A\" name/></model>"),
                  "model.xml:3: malformed XML");
  EXPECT_EQ(std::count(msg.begin(), msg.end(), '\n'), 0);  // one line
}

TEST(ModelReaderErrorTest, WrongRoot) {
  EXPECT_CONTAINS(ReadError("<?xml version=\"1.0\"?>\n<robot name=\"r\"/>"),
                  "model.xml:2: the root element is <robot>; expected <model>");
}

TEST(ModelReaderErrorTest, SecondRoot) {
  EXPECT_CONTAINS(ReadError("<model/>\n<model/>"), "model.xml:2:");
}

TEST(ModelReaderErrorTest, UnknownElement) {
  EXPECT_CONTAINS(
      ReadError(InModel("<var name=\"a\" value=\"1\"/>\n<blok type=\"A\" name=\"a\"/>")),
      "model.xml:3: unknown element <blok> in <model>; expected one of: var, "
      "simulation, include, define, block, subsystem, connect, log");
  // Outports and physical ports belong to subsystems and defines only; a top-level <inport>
  // is an external input.
  EXPECT_CONTAINS(ReadError(InModel("<outport name=\"u\"/>")),
                  "model.xml:2: unknown element <outport> in <model>");
  EXPECT_CONTAINS(ReadError(InModel("<port name=\"u\" domain=\"frame\"/>")),
                  "model.xml:2: unknown element <port> in <model>");
  EXPECT_CONTAINS(ReadError(InModel("<subsystem name=\"s\">\n  <var name=\"a\" value=\"1\"/>\n"
                                    "</subsystem>")),
                  "model.xml:3: unknown element <var> in <subsystem>; expected one of: inport, "
                  "outport, port, enable, trigger, block, subsystem, connect");
  EXPECT_CONTAINS(ReadError(InModel("<define name=\"D\">\n<log signal=\"a.b\"/>\n</define>")),
                  "model.xml:3: unknown element <log> in <define>");
  EXPECT_CONTAINS(ReadError(InModel("<block type=\"A\" name=\"a\">\n  <param/>\n</block>")),
                  "model.xml:3: unexpected element <param> in <block>; <block> holds no elements");
  EXPECT_CONTAINS(ReadError(InModel("<var name=\"a\" value=\"1\"><x/></var>")),
                  "model.xml:2: unexpected element <x> in <var>");
}

TEST(ModelReaderErrorTest, UnexpectedText) {
  EXPECT_EQ(ReadError(InModel("<var name=\"a\" value=\"1\"/>\n\n  hello\n  world  \n")),
            "model.xml:4: unexpected text 'hello\\n  world' in <model>");
  EXPECT_CONTAINS(ReadError(InModel("<![CDATA[x]]>")), "model.xml:2: unexpected text 'x'");
  EXPECT_CONTAINS(ReadError(InModel("<block type=\"A\" name=\"a\">x</block>")),
                  "model.xml:2: unexpected text 'x' in <block>");
}

TEST(ModelReaderErrorTest, UnknownAttribute) {
  EXPECT_CONTAINS(ReadError(InModel("<var name=\"a\" value=\"1\" unit=\"m\"/>")),
                  "model.xml:2: unknown attribute 'unit' on <var>; expected one of: name, value");
  EXPECT_CONTAINS(ReadError("<model name=\"m\" version=\"2\"/>"),
                  "model.xml:1: unknown attribute 'version' on <model>; expected one of: name, "
                  "format");
  EXPECT_CONTAINS(ReadError(InModel("<connect from=\"a.y\" to=\"b.u\" width=\"2\"/>")),
                  "unknown attribute 'width' on <connect>; expected one of: from, to");
  EXPECT_CONTAINS(ReadError(InModel("<subsystem name=\"s\" type=\"X\"/>")),
                  "unknown attribute 'type' on <subsystem>; expected one of: name, commented");
  EXPECT_CONTAINS(ReadError(InModel("<log signal=\"a.y\" name=\"x\"/>")),
                  "unknown attribute 'name' on <log>; expected one of: signal, as");
  EXPECT_CONTAINS(ReadError(InModel("<include file=\"a.xml\" as=\"x\"/>")),
                  "unknown attribute 'as' on <include>; expected one of: file");
  EXPECT_CONTAINS(ReadError(InModel("<define name=\"D\" type=\"x\"/>")),
                  "unknown attribute 'type' on <define>; expected one of: name, params");
  EXPECT_CONTAINS(ReadError(InModel("<subsystem name=\"s\"><inport name=\"u\" width=\"3\"/>"
                                    "</subsystem>")),
                  "unknown attribute 'width' on <inport>; expected one of: name");
  EXPECT_CONTAINS(ReadError(InModel("<subsystem name=\"s\"><port name=\"u\" kind=\"x\"/>"
                                    "</subsystem>")),
                  "unknown attribute 'kind' on <port>; expected one of: name, domain");
}

TEST(ModelReaderErrorTest, DuplicateAttribute) {
  EXPECT_CONTAINS(ReadError(InModel("<block type=\"A\" name=\"a\" k=\"1\" k=\"2\"/>")),
                  "model.xml:2: block 'a' (A): duplicate attribute 'k'");
  EXPECT_CONTAINS(ReadError(InModel("<var name=\"a\" name=\"b\" value=\"1\"/>")),
                  "model.xml:2: duplicate attribute 'name' on <var>");
  EXPECT_CONTAINS(ReadError(InModel("<simulation t_end=\"1\" t_end=\"2\"/>")),
                  "model.xml:2: duplicate attribute 't_end' on <simulation>");
}

TEST(ModelReaderErrorTest, MissingAttribute) {
  EXPECT_CONTAINS(ReadError(InModel("<block name=\"a\"/>")),
                  "model.xml:2: <block> needs the attribute 'type'");
  EXPECT_CONTAINS(ReadError(InModel("<block type=\"A\"/>")),
                  "model.xml:2: <block> needs the attribute 'name'");
  EXPECT_CONTAINS(ReadError(InModel("<var name=\"a\"/>")),
                  "model.xml:2: <var> needs the attribute 'value'");
  EXPECT_CONTAINS(ReadError(InModel("<var value=\"1\"/>")), "<var> needs the attribute 'name'");
  EXPECT_CONTAINS(ReadError(InModel("<connect from=\"a.y\"/>")),
                  "<connect> needs the attribute 'to'");
  EXPECT_CONTAINS(ReadError(InModel("<connect to=\"a.y\"/>")),
                  "<connect> needs the attribute 'from'");
  EXPECT_CONTAINS(ReadError(InModel("<subsystem/>")), "<subsystem> needs the attribute 'name'");
  EXPECT_CONTAINS(ReadError(InModel("<define params=\"a\"/>")),
                  "<define> needs the attribute 'name'");
  EXPECT_CONTAINS(ReadError(InModel("<include/>")), "<include> needs the attribute 'file'");
  EXPECT_CONTAINS(ReadError(InModel("<include file=\"\"/>")), "<include> has an empty file name");
  EXPECT_CONTAINS(ReadError(InModel("<log as=\"x\"/>")), "<log> needs the attribute 'signal'");
  EXPECT_CONTAINS(ReadError(InModel("<subsystem name=\"s\">\n<port name=\"p\"/>\n</subsystem>")),
                  "model.xml:3: <port> needs the attribute 'domain'");
  EXPECT_CONTAINS(ReadError(InModel("<subsystem name=\"s\"><outport/></subsystem>")),
                  "<outport> needs the attribute 'name'");
  EXPECT_CONTAINS(ReadError(InModel("<block type=\"\" name=\"a\"/>")),
                  "model.xml:2: block 'a': the type is empty");
}

TEST(ModelReaderErrorTest, InvalidNames) {
  EXPECT_CONTAINS(ReadError(InModel("<block type=\"A\" name=\"2a\"/>")),
                  "model.xml:2: invalid block name '2a'; expected letters, digits and '_', not "
                  "starting with a digit");
  EXPECT_CONTAINS(ReadError(InModel("<block type=\"A\" name=\"a.b\"/>")),
                  "invalid block name 'a.b'");
  EXPECT_CONTAINS(ReadError(InModel("<block type=\"A\" name=\"\"/>")), "invalid block name ''");
  EXPECT_CONTAINS(ReadError(InModel("<subsystem name=\"a/b\"/>")), "invalid subsystem name 'a/b'");
  EXPECT_CONTAINS(ReadError(InModel("<var name=\"my var\" value=\"1\"/>")),
                  "invalid variable name 'my var'");
  EXPECT_CONTAINS(ReadError("<model name=\"my-model\"/>"),
                  "model.xml:1: invalid model name 'my-model'");
  EXPECT_CONTAINS(ReadError(InModel("<log signal=\"a.y\" as=\"1st\"/>")),
                  "invalid column name '1st'");
  EXPECT_CONTAINS(ReadError(InModel("<define name=\"D-1\"/>")), "invalid define name 'D-1'");
  EXPECT_CONTAINS(ReadError(InModel("<define name=\"D\" params=\"a 2b\"/>")),
                  "invalid parameter name '2b' in the params of define 'D'");
  EXPECT_CONTAINS(ReadError(InModel("<define name=\"D\" params=\"a pi\"/>")),
                  "parameter 'pi' in the params of define 'D' takes a reserved name");
  EXPECT_CONTAINS(ReadError(InModel("<define name=\"D\" params=\"a b a\"/>")),
                  "parameter 'a' given twice in the params of define 'D'");
  EXPECT_CONTAINS(ReadError(InModel("<subsystem name=\"s\"><inport name=\"in put\"/></subsystem>")),
                  "invalid port name 'in put'");
  EXPECT_CONTAINS(ReadError(InModel("<block type=\"A\" name=\"a\" k-1=\"2\"/>")),
                  "model.xml:2: block 'a' (A): invalid parameter name 'k-1'");
  EXPECT_CONTAINS(ReadError(InModel("<simulation t-end=\"2\"/>")),
                  "model.xml:2: invalid simulation setting name 't-end'");
  EXPECT_CONTAINS(ReadError(InModel("<log signal=\"a\"/>")),
                  "model.xml:2: invalid signal 'a'; expected 'block.port' or "
                  "'path/to/block.port'");
  EXPECT_CONTAINS(ReadError(InModel("<log signal=\"a//b.y\"/>")), "invalid signal 'a//b.y'");
  EXPECT_CONTAINS(ReadError(InModel("<log signal=\".y\"/>")), "invalid signal '.y'");
}

TEST(ModelReaderErrorTest, DuplicateBlockName) {
  std::string msg = ReadError(
      InModel("<block type=\"A\" name=\"a\"/>\n<block type=\"B\" name=\"b\"/>\n<block type=\"C\" "
              "name=\"a\"/>"));
  EXPECT_CONTAINS(msg,
                  "model.xml:4: block 'a' (C): duplicate block name 'a' in this diagram; first "
                  "defined at line 2");
  EXPECT_CONTAINS(ReadError(InModel("<block type=\"A\" name=\"a\"/>\n<subsystem name=\"a\"/>")),
                  "model.xml:3: block 'a': duplicate block name 'a' in this diagram; first "
                  "defined at line 2");
  EXPECT_CONTAINS(ReadError(InModel("<subsystem name=\"s\">\n  <block type=\"A\" name=\"x\"/>\n"
                                    "  <block type=\"A\" name=\"x\"/>\n</subsystem>")),
                  "model.xml:4: block 's/x' (A): duplicate block name 'x'");
  EXPECT_CONTAINS(ReadError(InModel("<define name=\"D\">\n  <block type=\"A\" name=\"x\"/>\n"
                                    "  <block type=\"A\" name=\"x\"/>\n</define>")),
                  "model.xml:4: block 'D/x' (A): duplicate block name 'x'");
  // The same name in two diagrams is fine.
  EXPECT_EQ(ReadError(InModel("<block type=\"A\" name=\"x\"/>\n<subsystem name=\"s\">"
                              "<block type=\"A\" name=\"x\"/></subsystem>")),
            "");
}

TEST(ModelReaderErrorTest, OtherDuplicates) {
  EXPECT_CONTAINS(
      ReadError(InModel("<var name=\"L\" value=\"1\"/>\n<var name=\"L\" value=\"2\"/>")),
      "model.xml:3: duplicate variable 'L'; first defined at line 2");
  EXPECT_CONTAINS(ReadError(InModel("<log signal=\"a.y\" as=\"y\"/>\n\n<log signal=\"b.y\" "
                                    "as=\"y\"/>")),
                  "model.xml:4: duplicate log name 'y'; first used at line 2");
  EXPECT_CONTAINS(ReadError(InModel("<define name=\"D\"/>\n<define name=\"D\"/>")),
                  "model.xml:3: duplicate define 'D'; first defined at line 2");
  EXPECT_CONTAINS(ReadError(InModel("<simulation t_end=\"1\"/>\n<simulation solver=\"ode45\"/>")),
                  "model.xml:3: a second <simulation>; the first is at line 2");
  EXPECT_CONTAINS(ReadError(InModel("<subsystem name=\"s\">\n<inport name=\"u\"/>\n"
                                    "<outport name=\"u\"/>\n</subsystem>")),
                  "model.xml:4: duplicate port name 'u'; first declared at line 3");
  // Two logs of one signal under different names, or without names, are fine.
  EXPECT_EQ(ReadError(InModel("<log signal=\"a.y\"/><log signal=\"a.y\" as=\"y2\"/>")), "");
}

TEST(ModelReaderErrorTest, ReservedVariableName) {
  EXPECT_CONTAINS(ReadError(InModel("<var name=\"pi\" value=\"3\"/>")),
                  "model.xml:2: variable 'pi' takes the name of a built-in constant or function");
  EXPECT_CONTAINS(ReadError(InModel("<var name=\"e\" value=\"3\"/>")), "variable 'e' takes");
  EXPECT_CONTAINS(ReadError(InModel("<var name=\"sin\" value=\"3\"/>")), "variable 'sin' takes");
  EXPECT_CONTAINS(ReadError(InModel("<var name=\"atan2\" value=\"3\"/>")), "variable 'atan2'");
}

TEST(ModelReaderErrorTest, Format) {
  EXPECT_CONTAINS(ReadError("<model name=\"m\" format=\"2\"/>"),
                  "model.xml:1: unsupported format \"2\"; this version reads format \"1\"");
  EXPECT_CONTAINS(ReadError("<model format=\"1.0\"/>"), "unsupported format \"1.0\"");
  EXPECT_CONTAINS(ReadError("<model format=\"\"/>"), "unsupported format \"\"");
}

TEST(ModelReaderErrorTest, Endpoints) {
  EXPECT_CONTAINS(ReadError(InModel("<connect from=\"world\" to=\"hinge.B\"/>")),
                  "model.xml:2: invalid port reference from=\"world\"; expected 'block.port' or "
                  "'.port'");
  EXPECT_CONTAINS(ReadError(InModel("<connect from=\"world.W\" to=\"arm/j1.B\"/>")),
                  "invalid port reference to=\"arm/j1.B\"");
  EXPECT_CONTAINS(ReadError(InModel("<connect from=\"a.b.c\" to=\"x.y\"/>")),
                  "invalid port reference from=\"a.b.c\"");
  EXPECT_CONTAINS(ReadError(InModel("<connect from=\"a.\" to=\"x.y\"/>")),
                  "invalid port reference from=\"a.\"");
  EXPECT_EQ(ReadError(InModel("<subsystem name=\"s\"><inport name=\"u\"/><block type=\"A\" "
                              "name=\"x\"/><connect from=\".u\" to=\"x.u\"/></subsystem>")),
            "");
}

TEST(ModelReaderTest, TopLevelInportsAreExternalInputs) {
  const Model m = ReadModelString(
      InModel("<connect from=\".u\" to=\"g.u\"/>\n<inport name=\"u\" width=\"2 * n\"/>\n"
              "<inport name=\"v\"/>\n<block type=\"Gain\" name=\"g\"/>"),
      "model.xml");
  ASSERT_EQ(m.root.ports.size(), 2u);
  EXPECT_EQ(m.root.ports[0].kind, graph::PortDecl::Kind::kInport);
  EXPECT_EQ(m.root.ports[0].name, "u");
  EXPECT_EQ(m.root.ports[0].width, "2 * n");
  EXPECT_EQ(m.root.ports[0].where.line, 3);
  EXPECT_EQ(m.root.ports[1].width, "");
  EXPECT_EQ(m.root.connections.at(0).from, ".u");
}

TEST(ModelReaderErrorTest, TopLevelInports) {
  EXPECT_CONTAINS(ReadError(InModel("<inport name=\"u\" domain=\"frame\"/>")),
                  "model.xml:2: unknown attribute 'domain' on <inport>; expected one of: name, "
                  "width");
  EXPECT_CONTAINS(ReadError(InModel("<inport name=\"u\" width=\"\"/>")),
                  "model.xml:2: <inport> has an empty width");
  EXPECT_CONTAINS(ReadError(InModel("<inport width=\"2\"/>")), "model.xml:2:");
  EXPECT_CONTAINS(ReadError(InModel("<inport name=\"u\"/>\n<inport name=\"u\"/>")),
                  "model.xml:3: duplicate port name 'u'; first declared at line 2");
  EXPECT_CONTAINS(ReadError(InModel("<inport name=\"u\"><block/></inport>")), "model.xml:2:");
}

TEST(ModelReaderErrorTest, Commented) {
  EXPECT_CONTAINS(ReadError(InModel("<block type=\"A\" name=\"a\" commented=\"yes\"/>")),
                  "model.xml:2: block 'a' (A): commented=\"yes\"; expected \"true\" or \"false\"");
  EXPECT_CONTAINS(ReadError(InModel("<subsystem name=\"s\" commented=\"1\"/>")),
                  "block 's': commented=\"1\"");
}

TEST(ModelReaderErrorTest, AttributeOnALaterLineOfItsElement) {
  std::string msg = ReadError(InModel("<block type=\"A\"\n       name=\"a\"\n       k-1=\"2\"/>"));
  EXPECT_CONTAINS(msg, "model.xml:4: block 'a' (A): invalid parameter name 'k-1'");
  msg = ReadError(InModel("<var name=\"a\"\n\n     value=\"1\" unit=\"m\"/>"));
  EXPECT_CONTAINS(msg, "model.xml:4: unknown attribute 'unit'");
}

TEST(ModelReaderErrorTest, MessagesStayOnOneLine) {
  std::string msg = ReadError(InModel("<connect from=\"a&#10;.y\" to=\"b.u\"/>"));
  EXPECT_CONTAINS(msg, "model.xml:2: invalid port reference from=\"a\\n.y\"");
  EXPECT_EQ(msg.find('\n'), std::string::npos);
  msg = ReadError(InModel("<block type=\"A&#10;B\" name=\"a\" commented=\"x\"/>"));
  EXPECT_CONTAINS(msg, "block 'a' (A\\nB): commented=\"x\"");
  EXPECT_EQ(msg.find('\n'), std::string::npos);
}

TEST(ModelReaderErrorTest, WindowsLineEndings) {
  EXPECT_CONTAINS(ReadError("<model>\r\n<block name=\"a\"/>\r\n</model>\r\n"),
                  "model.xml:2: <block> needs the attribute 'type'");
}

TEST(ModelReaderErrorTest, NestingTooDeep) {
  std::string text = "<model>\n";
  for (int i = 0; i < 150; ++i) text += "<subsystem name=\"s\">";
  for (int i = 0; i < 150; ++i) text += "</subsystem>";
  text += "</model>";
  EXPECT_CONTAINS(ReadError(text), "model.xml:2: subsystems nested deeper than 100 levels");
}

TEST(ModelReaderErrorTest, MissingModelFile) {
  try {
    ReadModelFile("/no/such/dir/model.xml");
    FAIL() << "no error";
  } catch (const ModelError& ex) {
    EXPECT_CONTAINS(ex.what(), "/no/such/dir/model.xml: cannot open model file: No such file");
  }
  try {
    ReadModelFile(kXmlData);
    FAIL() << "no error";
  } catch (const ModelError& ex) {
    EXPECT_CONTAINS(ex.what(), "cannot open model file: it is a directory");
  }
}

TEST(ModelReaderErrorTest, ErrorsCarryTheirParts) {
  try {
    ReadModelString(InModel("<block type=\"A\" name=\"a\" commented=\"no\"/>"), "m.xml");
    FAIL() << "no error";
  } catch (const ModelError& ex) {
    EXPECT_EQ(ex.where().file, "m.xml");
    EXPECT_EQ(ex.where().line, 2);
    EXPECT_EQ(ex.block_path(), "a");
    EXPECT_EQ(ex.block_type(), "A");
    EXPECT_EQ(ex.message(), "commented=\"no\"; expected \"true\" or \"false\"");
  }
}

// ---------------------------------------------------------------------------------------------
// Includes

// ---------------------------------------------------------------------------------------------
// <plot>

TEST(ModelReaderPlotTest, ReadsEveryAttribute) {
  Model m = ReadModelString(
      InModel("<log signal=\"a.y\"/>\n"
              "<plot file=\"e1_positions.svg\" title=\"Joint positions\" ylabel=\"rad\"\n"
              "      signals=\"arm/j1.q  arm/j2.q\n arm/j3.wrench[5]\"/>\n"
              "<plot file=\"err.svg\" xlabel=\"t\" signals=\"e.y\" yscale=\"log\"/>"));
  ASSERT_EQ(m.plots.size(), 2u);
  const graph::PlotSpec& p = m.plots[0];
  EXPECT_EQ(p.file, "e1_positions.svg");
  EXPECT_EQ(p.title, "Joint positions");
  EXPECT_EQ(p.xlabel, "time (s)");
  EXPECT_EQ(p.ylabel, "rad");
  EXPECT_EQ(p.signals, (std::vector<std::string>{"arm/j1.q", "arm/j2.q", "arm/j3.wrench[5]"}));
  EXPECT_FALSE(p.log_y);
  EXPECT_EQ(p.where.line, 3);
  EXPECT_EQ(m.plots[1].xlabel, "t");
  EXPECT_TRUE(m.plots[1].log_y);
}

TEST(ModelReaderPlotTest, Errors) {
  EXPECT_CONTAINS(ReadError(InModel("<plot file=\"p.svg\" signals=\"a.y\" colour=\"red\"/>")),
                  "model.xml:2: unknown attribute 'colour' on <plot>; expected one of: file, "
                  "title, xlabel, ylabel, signals, yscale");
  EXPECT_CONTAINS(ReadError(InModel("<plot signals=\"a.y\"/>")),
                  "model.xml:2: <plot> needs the attribute 'file'");
  EXPECT_CONTAINS(ReadError(InModel("<plot file=\"p.svg\"/>")),
                  "model.xml:2: <plot> needs the attribute 'signals'");
  EXPECT_CONTAINS(ReadError(InModel("<plot file=\"p.svg\" signals=\"  \"/>")),
                  "model.xml:2: <plot> has no signals");
  EXPECT_CONTAINS(ReadError(InModel("<plot file=\"\" signals=\"a.y\"/>")),
                  "model.xml:2: <plot> has an empty file name");
  EXPECT_CONTAINS(ReadError(InModel("<plot file=\"p.svg\"\n signals=\"a.y a b.y[x]\"/>")),
                  "model.xml:3: invalid plot signal 'a'");
  EXPECT_CONTAINS(ReadError(InModel("<plot file=\"p.svg\" signals=\"a.y[-1]\"/>")),
                  "invalid plot signal 'a.y[-1]'");
  EXPECT_CONTAINS(ReadError(InModel("<plot file=\"p.svg\" signals=\"a.y\" yscale=\"ln\"/>")),
                  "model.xml:2: yscale=\"ln\" on <plot>; expected \"linear\" or \"log\"");
  EXPECT_CONTAINS(ReadError(InModel("<plot file=\"p.svg\" signals=\"a.y\"/>\n"
                                    "<plot file=\"p.svg\" signals=\"b.y\"/>")),
                  "model.xml:3: a second plot writes 'p.svg'; the first is at line 2");
  EXPECT_CONTAINS(ReadError(InModel("<plot file=\"p.svg\" signals=\"a.y\"><log/></plot>")),
                  "<plot> holds no elements");
}

// ---------------------------------------------------------------------------------------------
// <summary>

TEST(ModelReaderSummaryTest, ReadsEveryAttribute) {
  Model m = ReadModelString(
      InModel("<summary signal=\"err.y\" op=\"max_abs\" label=\"max tracking error (rad)\"/>\n"
              "<summary op=\"rms\"\n"
              "         signal=\"arm/j1.q  arm/j2.wrench[5]\"/>"));
  ASSERT_EQ(m.summaries.size(), 2u);
  const graph::SummarySpec& s = m.summaries[0];
  EXPECT_EQ(s.signals, (std::vector<std::string>{"err.y"}));
  EXPECT_EQ(s.op, graph::SummaryOp::kMaxAbs);
  EXPECT_EQ(s.label, "max tracking error (rad)");
  EXPECT_EQ(s.where.line, 2);
  EXPECT_EQ(m.summaries[1].signals, (std::vector<std::string>{"arm/j1.q", "arm/j2.wrench[5]"}));
  EXPECT_EQ(m.summaries[1].op, graph::SummaryOp::kRms);
  EXPECT_EQ(m.summaries[1].label, "");
  EXPECT_EQ(m.summaries[1].where.line, 3);
}

TEST(ModelReaderSummaryTest, ReadsEveryOp) {
  const std::vector<std::pair<std::string, graph::SummaryOp>> ops = {
      {"max", graph::SummaryOp::kMax},        {"min", graph::SummaryOp::kMin},
      {"max_abs", graph::SummaryOp::kMaxAbs}, {"final", graph::SummaryOp::kFinal},
      {"mean", graph::SummaryOp::kMean},      {"rms", graph::SummaryOp::kRms}};
  for (const auto& [name, op] : ops) {
    Model m = ReadModelString(InModel("<summary signal=\"a.y\" op=\"" + name + "\"/>"));
    ASSERT_EQ(m.summaries.size(), 1u) << name;
    EXPECT_EQ(m.summaries[0].op, op) << name;
  }
}

TEST(ModelReaderSummaryTest, Errors) {
  // The op's own line, with the valid ops listed.
  EXPECT_CONTAINS(ReadError(InModel("<summary signal=\"a.y\"\n op=\"avg\"/>")),
                  "model.xml:3: op=\"avg\" on <summary>; expected one of: max, min, max_abs, "
                  "final, mean, rms");
  EXPECT_CONTAINS(ReadError(InModel("<summary signal=\"a.y\" op=\"MAX\"/>")),
                  "model.xml:2: op=\"MAX\" on <summary>");
  EXPECT_CONTAINS(ReadError(InModel("<summary signal=\"a.y\"/>")),
                  "model.xml:2: <summary> needs the attribute 'op'");
  EXPECT_CONTAINS(ReadError(InModel("<summary op=\"max\"/>")),
                  "model.xml:2: <summary> needs the attribute 'signal'");
  EXPECT_CONTAINS(ReadError(InModel("<summary signal=\" \" op=\"max\"/>")),
                  "model.xml:2: <summary> has no signal");
  EXPECT_CONTAINS(ReadError(InModel("<summary op=\"max\"\n signal=\"a.y a b.y[x]\"/>")),
                  "model.xml:3: invalid summary signal 'a'");
  EXPECT_CONTAINS(ReadError(InModel("<summary signal=\"a.y[-1]\" op=\"max\"/>")),
                  "invalid summary signal 'a.y[-1]'");
  EXPECT_CONTAINS(ReadError(InModel("<summary signal=\"a.y\" op=\"max\" as=\"z\"/>")),
                  "model.xml:2: unknown attribute 'as' on <summary>; expected one of: signal, op, "
                  "label");
  EXPECT_CONTAINS(ReadError(InModel("<summary signal=\"a.y\" op=\"max\"><log/></summary>")),
                  "<summary> holds no elements");
}

TEST(ModelReaderPlotTest, PlotSignalForms) {
  using graph::ParsePlotSignal;
  ASSERT_TRUE(ParsePlotSignal("a/b/c.port"));
  EXPECT_EQ(ParsePlotSignal("a/b/c.port")->signal, "a/b/c.port");
  EXPECT_EQ(ParsePlotSignal("a/b/c.port")->element, -1);
  ASSERT_TRUE(ParsePlotSignal("j.wrench[12]"));
  EXPECT_EQ(ParsePlotSignal("j.wrench[12]")->signal, "j.wrench");
  EXPECT_EQ(ParsePlotSignal("j.wrench[12]")->element, 12);
  // An element of a bus the port carries, dots for nested buses.
  ASSERT_TRUE(ParsePlotSignal("sub/bc.y.arm.q[1]"));
  EXPECT_EQ(ParsePlotSignal("sub/bc.y.arm.q[1]")->signal, "sub/bc.y.arm.q");
  for (const char* bad : {"", "a", ".y", "a.", "a/.y", "a.y[]", "a.y[1", "a.y[1]x", "a.y[1.5]",
                          "1a.y", "a.y[99999999999]", "a.b/c.y", "a.y..q", "a.y.q."}) {
    EXPECT_FALSE(ParsePlotSignal(bad)) << bad;
  }
}

TEST(ModelReaderIncludeTest, MissingFile) {
  TempFiles files("missing_include");
  files.Write("model.xml", InModel("<var name=\"a\" value=\"1\"/>\n<include file=\"lib/x.xml\"/>"));
  std::string path = files.Path("model.xml");
  try {
    ReadModelFile(path);
    FAIL() << "no error";
  } catch (const ModelError& ex) {
    EXPECT_CONTAINS(ex.what(), path + ":3: cannot open included file 'lib/x.xml' (resolved to '" +
                                   files.Path("lib/x.xml") + "')");
  }
}

TEST(ModelReaderIncludeTest, ResolvedFromTheIncludingFile) {
  TempFiles files("relative_include");
  files.Write("a/model.xml", InModel("<include file=\"../lib/one.xml\"/>"));
  files.Write("lib/one.xml", InModel("<include file=\"sub/two.xml\"/>\n<define name=\"One\"/>"));
  files.Write("lib/sub/two.xml", InModel("<define name=\"Two\" params=\"x\"/>"));
  Model m = ReadModelFile(files.Path("a/model.xml"));
  ASSERT_EQ(m.library.size(), 2u);
  EXPECT_EQ(m.library[0].name, "One");  // the file's own defines, then what it includes
  EXPECT_EQ(m.library[1].name, "Two");
  EXPECT_EQ(m.library[1].where.file, files.Path("lib/sub/two.xml"));
  EXPECT_TRUE(m.defines.empty());
  // Only the model's own include is part of the model.
  ASSERT_EQ(m.includes.size(), 1u);
  EXPECT_EQ(m.includes[0].where.line, 2);

  // From a string, includes resolve from the directory of the name given.
  Model s = ReadModelString(InModel("<include file=\"lib/one.xml\"/>"), files.Path("x.xml"));
  EXPECT_EQ(s.library.size(), 2u);
}

TEST(ModelReaderIncludeTest, ErrorInIncludedFileNamesThatFile) {
  TempFiles files("bad_include");
  files.Write("model.xml", InModel("<include file=\"lib.xml\"/>"));
  files.Write("lib.xml", InModel("<define name=\"D\">\n\n  <block type=\"A\" name=\"1x\"/>\n"
                                 "</define>"));
  try {
    ReadModelFile(files.Path("model.xml"));
    FAIL() << "no error";
  } catch (const ModelError& ex) {
    EXPECT_CONTAINS(ex.what(), files.Path("lib.xml") + ":4: invalid block name '1x'");
  }
}

TEST(ModelReaderIncludeTest, Cycle) {
  TempFiles files("include_cycle");
  files.Write("a.xml", InModel("<include file=\"b.xml\"/>"));
  files.Write("b.xml", InModel("<define name=\"B\"/>\n<include file=\"./a.xml\"/>"));
  try {
    ReadModelFile(files.Path("a.xml"));
    FAIL() << "no error";
  } catch (const ModelError& ex) {
    EXPECT_CONTAINS(ex.what(), files.Path("b.xml") + ":3: include cycle: " + files.Path("a.xml") +
                                   " -> " + files.Path("b.xml") + " -> " + files.Path("a.xml"));
  }
  files.Write("self.xml", InModel("<include file=\"self.xml\"/>"));
  try {
    ReadModelFile(files.Path("self.xml"));
    FAIL() << "no error";
  } catch (const ModelError& ex) {
    EXPECT_CONTAINS(ex.what(), "self.xml:2: include cycle: ");
  }
}

TEST(ModelReaderIncludeTest, LibraryIncludedTwiceIsReadOnce) {
  TempFiles files("diamond_include");
  files.Write("model.xml", InModel("<include file=\"left.xml\"/>\n<include file=\"right.xml\"/>"));
  files.Write("left.xml", InModel("<include file=\"base.xml\"/><define name=\"L\"/>"));
  files.Write("right.xml", InModel("<include file=\"./base.xml\"/><define name=\"R\"/>"));
  files.Write("base.xml", InModel("<define name=\"Base\"/>"));
  Model m = ReadModelFile(files.Path("model.xml"));
  ASSERT_EQ(m.library.size(), 3u);
  EXPECT_NE(m.FindDefine("Base"), nullptr);
  EXPECT_NE(m.FindDefine("L"), nullptr);
  EXPECT_NE(m.FindDefine("R"), nullptr);
}

TEST(ModelReaderIncludeTest, SameDefineInTwoLibraries) {
  TempFiles files("clashing_include");
  files.Write("model.xml", InModel("<include file=\"one.xml\"/>\n<include file=\"two.xml\"/>"));
  files.Write("one.xml", InModel("<define name=\"Arm\"/>"));
  files.Write("two.xml", InModel("\n<define name=\"Arm\"/>"));
  try {
    ReadModelFile(files.Path("model.xml"));
    FAIL() << "no error";
  } catch (const ModelError& ex) {
    EXPECT_CONTAINS(ex.what(), files.Path("model.xml") + ":3: define 'Arm' of " +
                                   files.Path("two.xml") + ":3 is already defined at " +
                                   files.Path("one.xml") + ":2");
  }
  // A model's own define may take a library define's name: it comes first.
  files.Write("own.xml",
              InModel("<include file=\"one.xml\"/>\n<define name=\"Arm\" params=\"x\"/>"));
  Model m = ReadModelFile(files.Path("own.xml"));
  EXPECT_EQ(m.FindDefine("Arm")->params.size(), 1u);
}

}  // namespace
}  // namespace twinblocks::xml
