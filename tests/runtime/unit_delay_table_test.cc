// A major step runs scalar unit delays from a table (blocks::Block::unit_delay_slots) rather
// than through their blocks: the table must give what the blocks give, at every hit and
// rate, wherever the delays sit in the diagram.
#include <gtest/gtest.h>

#include <cmath>
#include <iomanip>
#include <string>
#include <vector>

#include "compiler/compile.h"
#include "runtime/simulator.h"
#include "xml/model_reader.h"

namespace twinblocks::graph {
namespace {

// u = sin(t) sampled every 0.1 s, through three unit delays in a row (the table's case) and
// through one Delay of three samples (a ring buffer, run by its block); a UnitDelay at 0.3 s
// of the chain's end; and a unit delay in a feedback loop at 0.1 s (a counter: c[k] = c[k-1]
// + 1) that also drives a continuous integrator, so that the solver restarts at every hit.
constexpr const char* kDelays = R"xml(<model name="delays">
  <simulation solver="ode45" t_end="2" rtol="1e-10" atol="1e-12"/>
  <block type="Sine" name="source" amplitude="1" frequency="1"/>
  <block type="ZeroOrderHold" name="u" Ts="0.1"/>
  <block type="Delay" name="d1" n="1" Ts="0.1" x0="0.5"/>
  <block type="Delay" name="d2" n="1" Ts="0.1" x0="0.5"/>
  <block type="UnitDelay" name="d3" Ts="0.1" x0="0.5"/>
  <block type="Delay" name="ring" n="3" Ts="0.1" x0="0.5"/>
  <block type="UnitDelay" name="slow" Ts="0.3" x0="-7"/>
  <block type="Constant" name="one" value="1"/>
  <block type="UnitDelay" name="last" Ts="0.1" x0="0"/>
  <block type="Sum" name="count" signs="++"/>
  <block type="Integrator" name="area"/>
  <connect from="source.y" to="u.u"/>
  <connect from="u.y" to="d1.u"/>
  <connect from="d1.y" to="d2.u"/>
  <connect from="d2.y" to="d3.u"/>
  <connect from="u.y" to="ring.u"/>
  <connect from="d3.y" to="slow.u"/>
  <connect from="last.y" to="count.u1"/>
  <connect from="one.y" to="count.u2"/>
  <connect from="count.y" to="last.u"/>
  <connect from="last.y" to="area.u"/>
  <log signal="u.y" as="u"/>
  <log signal="d3.y" as="chain"/>
  <log signal="ring.y" as="ring"/>
  <log signal="slow.y" as="slow"/>
  <log signal="last.y" as="counter"/>
  <log signal="area.y" as="area"/>
</model>)xml";

TEST(UnitDelayTable, ScalarUnitDelaysAndOnlyThoseAreTabled) {
  const System system = Compile(xml::ReadModelString(kDelays));
  int tabled = 0;
  for (int i = 0; i < system.num_blocks(); ++i) {
    const std::string path = system.block_path(i);
    const bool is_unit =
        path == "d1" || path == "d2" || path == "d3" || path == "slow" || path == "last";
    EXPECT_EQ(system.block(i).unit_delay_slots().has_value(), is_unit) << path;
    tabled += system.block(i).unit_delay_slots().has_value() ? 1 : 0;
  }
  EXPECT_EQ(tabled, 5);
}

TEST(UnitDelayTable, GivesWhatTheDelayBlocksGiveAtEveryHitAndRate) {
  const System system = Compile(xml::ReadModelString(kDelays));
  Simulator sim(system, system.settings());
  ASSERT_TRUE(sim.Run().ok);
  const Recording& rec = sim.recording();
  const int u = rec.FindColumn("u"), chain = rec.FindColumn("chain"), ring = rec.FindColumn("ring"),
            slow = rec.FindColumn("slow"), counter = rec.FindColumn("counter"),
            area = rec.FindColumn("area");
  // The last hit of the 0.1 s rate at or before t: k 0.1. The 0.3 s rate is counted on the
  // 0.1 s grid, as Simulink counts rates in base-rate ticks: its hit j is the 0.1 s hit 3 j,
  // at the very same time (not j 0.3, which differs from (3 j) 0.1 in the last bit).
  const auto hits_by = [](double t, double Ts) {
    int k = 0;
    while (static_cast<double>(k + 1) * Ts <= t) ++k;
    return k;
  };
  // The chain's end after hit k of 0.1 s: three samples late, its initial value before.
  const auto chain_at = [](int k) { return k >= 3 ? std::sin(0.1 * (k - 3)) : 0.5; };
  int rows_checked = 0;
  for (int row = 0; row < rec.num_rows(); ++row) {
    const double t = rec.time(row);
    SCOPED_TRACE(::testing::Message() << "t = " << std::setprecision(17) << t);
    const int k = hits_by(t, 0.1);
    EXPECT_EQ(rec.value(row, u), std::sin(0.1 * k));
    // The chain and the ring buffer agree bitwise.
    EXPECT_EQ(rec.value(row, chain), chain_at(k));
    EXPECT_EQ(rec.value(row, ring), rec.value(row, chain));
    // The slow delay gives at its hit j what the chain's end was at its hit j - 1.
    const int j = k / 3;
    EXPECT_EQ(rec.value(row, slow), j == 0 ? -7.0 : chain_at(3 * (j - 1)));
    // The counter: k at hit k; the integrator sums 0.1 i over the intervals before.
    EXPECT_EQ(rec.value(row, counter), k);
    const double area_expected = 0.1 * k * (k - 1) / 2.0 + k * (t - 0.1 * k);
    EXPECT_NEAR(rec.value(row, area), area_expected, 1e-9);
    ++rows_checked;
  }
  EXPECT_GE(rows_checked, 21);
}

}  // namespace
}  // namespace twinblocks::graph
