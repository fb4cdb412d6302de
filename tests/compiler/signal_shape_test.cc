// Matrix dimensions and bus layouts travel with the widths: through lines, subsystem ports,
// Goto/From and blocks that keep their inputs' width element by element, checked on small
// inline models (blocks/signal_shape.h).
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <string>

#include "compiler/compile.h"
#include "model/model_error.h"
#include "runtime/simulator.h"
#include "xml/model_reader.h"

namespace twinblocks::graph {
namespace {

using ::testing::HasSubstr;

System CompileShapeModel(const std::string& body) {
  return Compile(
      xml::ReadModelString("<model name=\"m\" format=\"1\">" + body + "</model>", "m.xml"));
}

std::string ShapeModelError(const std::string& body) {
  try {
    CompileShapeModel(body);
  } catch (const ModelError& e) {
    return e.what();
  }
  return "";
}

// The last row of a logged column after a run of `sys` to its t_end.
double FinalOf(const System& sys, const std::string& column) {
  Simulator sim(sys, sys.settings());
  const SimulationOutcome outcome = sim.Run();
  EXPECT_TRUE(outcome.ok) << outcome.error;
  const Recording& r = sim.recording();
  return r.value(r.num_rows() - 1, r.FindColumn(column));
}

const blocks::SignalShape& ShapeOf(const System& sys, const std::string& path, int port = 0) {
  return sys.block(sys.FindBlock(path)).output_port(port).shape;
}

// A bus made at the top crosses into a subsystem by its inport, out of another by its
// outport, and through a Goto/From pair: the selector deep inside finds its names.
TEST(SignalShapeTest, BusCrossesSubsystemPortsAndGotoFrom) {
  const System sys = CompileShapeModel(R"(
    <simulation t_end="1"/>
    <block type="Constant" name="q" value="[1, 2]"/>
    <block type="Constant" name="t" value="7"/>
    <subsystem name="make">
      <inport name="q"/><inport name="t"/><outport name="bus"/>
      <block type="BusCreator" name="bc" names="q, t"/>
      <connect from=".q" to="bc.u1"/><connect from=".t" to="bc.u2"/>
      <connect from="bc.y" to=".bus"/>
    </subsystem>
    <block type="Goto" name="send" tag="state"/>
    <connect from="q.y" to="make.q"/><connect from="t.y" to="make.t"/>
    <connect from="make.bus" to="send.u"/>
    <subsystem name="use">
      <outport name="t"/>
      <block type="From" name="get" tag="state"/>
      <subsystem name="deeper">
        <inport name="b"/><outport name="t"/>
        <block type="BusSelector" name="sel" signals="t, q"/>
        <connect from=".b" to="sel.u"/><connect from="sel.y1" to=".t"/>
      </subsystem>
      <connect from="get.y" to="deeper.b"/><connect from="deeper.t" to=".t"/>
    </subsystem>
    <log signal="use.t" as="t"/><log signal="use/deeper/sel.y2" as="q"/>)");
  EXPECT_TRUE(ShapeOf(sys, "make/bc").is_bus());
  EXPECT_DOUBLE_EQ(FinalOf(sys, "t"), 7.0);
  EXPECT_DOUBLE_EQ(FinalOf(sys, "q[1]"), 2.0);
}

// Blocks that keep their inputs' width element by element pass a bus on (a delay of a bus is a
// bus); a block that makes a new vector does not.
TEST(SignalShapeTest, ElementwiseBlocksPassABusOn) {
  const System sys = CompileShapeModel(R"(
    <simulation t_end="0.3"/>
    <block type="Constant" name="a" value="[1, 2]"/>
    <block type="Constant" name="b" value="3"/>
    <block type="BusCreator" name="bc" names="a, b"/>
    <block type="UnitDelay" name="d" Ts="0.1"/>
    <block type="Gain" name="g" k="2"/>
    <block type="BusSelector" name="sel" signals="b"/>
    <connect from="a.y" to="bc.u1"/><connect from="b.y" to="bc.u2"/>
    <connect from="bc.y" to="d.u"/><connect from="d.y" to="g.u"/><connect from="g.y" to="sel.u"/>
    <log signal="sel.y1" as="b"/>)");
  EXPECT_TRUE(ShapeOf(sys, "g").is_bus());
  EXPECT_DOUBLE_EQ(FinalOf(sys, "b"), 6.0);
  // A Selector's picks are a new vector, even all of the bus in order.
  const std::string msg = ShapeModelError(R"(
    <block type="Constant" name="a" value="[1, 2]"/>
    <block type="BusCreator" name="bc" names="a, b"/>
    <block type="Selector" name="pick" indices="[0, 1, 2]"/>
    <block type="BusSelector" name="sel" signals="b"/>
    <connect from="a.y" to="bc.u1"/><connect from="a.y" to="bc.u2"/>
    <connect from="bc.y" to="pick.u"/><connect from="pick.y" to="sel.u"/>)");
  EXPECT_THAT(msg, HasSubstr("input 'u' is no bus (a vector of width 3)"));
}

TEST(SignalShapeTest, AnUnknownNameIsOneLineWithPlaceAndSuggestion) {
  const std::string msg = ShapeModelError(R"(
    <block type="Constant" name="a" value="1"/>
    <block type="BusCreator" name="bc" names="speed, torque"/>
    <subsystem name="ctrl">
      <inport name="b"/>
      <block type="BusSelector" name="sel" signals="torqe"/>
      <connect from=".b" to="sel.u"/>
    </subsystem>
    <connect from="a.y" to="bc.u1"/><connect from="a.y" to="bc.u2"/>
    <connect from="bc.y" to="ctrl.b"/>)");
  EXPECT_EQ(msg,
            "m.xml:6: block 'ctrl/sel' (BusSelector): parameter 'signals' asks for 'torqe', "
            "which the bus does not have; did you mean 'torque'?; the bus has: speed, torque");
  const std::string plain = ShapeModelError(R"(
    <block type="Constant" name="a" value="[1, 2]"/>
    <block type="BusSelector" name="sel" signals="x"/>
    <connect from="a.y" to="sel.u"/>)");
  EXPECT_THAT(plain, HasSubstr("m.xml:3: block 'sel' (BusSelector): input 'u' is no bus"));
}

// A matrix Constant reaches a MatrixMultiply inside a subsystem, through a Goto/From, with its
// dimensions; x' A x for x = [1, 2] and A = [[1, 2], [3, 4]] is 1 + 4 + 6 + 16 = 27.
TEST(SignalShapeTest, MatrixDimensionsCrossSubsystemsAndGotoFrom) {
  const System sys = CompileShapeModel(R"(
    <simulation t_end="1"/>
    <block type="Constant" name="A" value="[[1, 2], [3, 4]]"/>
    <block type="Constant" name="x" value="[1, 2]"/>
    <block type="Goto" name="send" tag="A"/>
    <connect from="A.y" to="send.u"/>
    <subsystem name="quad">
      <inport name="x"/><outport name="q"/>
      <block type="From" name="A" tag="A"/>
      <block type="Transpose" name="xt"/>
      <block type="MatrixMultiply" name="xAx" ops="***"/>
      <connect from=".x" to="xt.u"/>
      <connect from="xt.y" to="xAx.u1"/><connect from="A.y" to="xAx.u2"/>
      <connect from=".x" to="xAx.u3"/><connect from="xAx.y" to=".q"/>
    </subsystem>
    <connect from="x.y" to="quad.x"/>
    <log signal="quad.q" as="q"/>)");
  EXPECT_EQ(ShapeOf(sys, "A"), blocks::SignalShape::Matrix(2, 2));
  EXPECT_DOUBLE_EQ(FinalOf(sys, "q"), 27.0);
  const std::string msg = ShapeModelError(R"(
    <block type="Constant" name="A" value="[[1, 2, 3], [4, 5, 6]]"/>
    <block type="MatrixMultiply" name="AA"/>
    <connect from="A.y" to="AA.u1"/><connect from="A.y" to="AA.u2"/>)");
  EXPECT_THAT(msg, HasSubstr("m.xml:3: block 'AA' (MatrixMultiply): cannot multiply 'u1' (2x3) "
                             "by 'u2' (2x3)"));
}

// Readers written before the blocks that make their shapes: the compiler configures a block
// once its drivers are, whatever the order of the file.
TEST(SignalShapeTest, TheOrderOfTheFileDoesNotMatter) {
  const System sys = CompileShapeModel(R"(
    <simulation t_end="0.1"/>
    <block type="BusSelector" name="sel" signals="A"/>
    <block type="MatrixMultiply" name="AA"/>
    <block type="UnitDelay" name="d" Ts="0.1"/>
    <block type="BusCreator" name="bc" names="A, c"/>
    <block type="Constant" name="A" value="[[1, 2], [3, 4]]"/>
    <block type="Constant" name="c" value="5"/>
    <connect from="sel.y1" to="AA.u1"/><connect from="A.y" to="AA.u2"/>
    <connect from="d.y" to="sel.u"/><connect from="bc.y" to="d.u"/>
    <connect from="A.y" to="bc.u1"/><connect from="c.y" to="bc.u2"/>
    <log signal="AA.y" as="AA"/>)");
  EXPECT_EQ(ShapeOf(sys, "AA"), blocks::SignalShape::Matrix(2, 2));
  EXPECT_DOUBLE_EQ(FinalOf(sys, "AA[3]"), 3 * 2 + 4 * 4);
}

// A log names a bus's element after the output that carries it, dots for nested buses.
TEST(SignalShapeTest, LogsABusElementByName) {
  const System sys = CompileShapeModel(R"(
    <simulation t_end="0.1"/>
    <block type="Constant" name="q" value="[1, 2]"/>
    <block type="Constant" name="t" value="7"/>
    <block type="BusCreator" name="arm" names="q, qd"/>
    <block type="BusCreator" name="all" names="arm, t"/>
    <connect from="q.y" to="arm.u1"/><connect from="q.y" to="arm.u2"/>
    <connect from="arm.y" to="all.u1"/><connect from="t.y" to="all.u2"/>
    <log signal="all.y.t"/><log signal="all.y.arm.qd" as="qd"/>)");
  ASSERT_EQ(sys.logged_signals().size(), 2u);
  EXPECT_EQ(sys.logged_signals()[1].source, "all.y.arm.qd");
  EXPECT_EQ(sys.logged_signals()[1].width, 2);
  EXPECT_DOUBLE_EQ(FinalOf(sys, "all.y.t"), 7.0);
  EXPECT_DOUBLE_EQ(FinalOf(sys, "qd[1]"), 2.0);
  EXPECT_THAT(ShapeModelError(R"(
    <block type="Constant" name="t" value="7"/>
    <block type="BusCreator" name="all" names="t"/>
    <connect from="t.y" to="all.u1"/>
    <log signal="all.y.tt"/>)"),
              HasSubstr("cannot log 'all.y.tt': no such signal"));
}

}  // namespace
}  // namespace twinblocks::graph
