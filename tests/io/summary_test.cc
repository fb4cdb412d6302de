// Summaries of a run: each op on a hand-built recording with known values, mean and RMS exact on
// piecewise-linear signals over uneven steps, NaN and empty recordings, element selection and
// `as` names through a compiled model, compile errors at the <summary>'s line, and the CSV.
#include "io/summary.h"

#include <gtest/gtest.h>

#include <cmath>
#include <filesystem>
#include <fstream>
#include <limits>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

#include "compiler/compile.h"
#include "model/model_error.h"
#include "runtime/simulator.h"
#include "xml/model_reader.h"

namespace twinblocks::graph {
namespace {

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

// A recording of one scalar signal "s.y" with the given rows.
Recording ScalarRecording(const std::vector<double>& t, const std::vector<double>& y) {
  Recording rec({LoggedSignal{"s.y", "s.y", 0, 1}});
  for (size_t r = 0; r < t.size(); ++r) rec.Append(t[r], &y[r]);
  return rec;
}

double Of(const Recording& rec, SummaryOp op) { return SummarizeColumn(rec, 0, op); }

TEST(SummaryTest, OpNamesReadBack) {
  for (SummaryOp op : {SummaryOp::kMax, SummaryOp::kMin, SummaryOp::kMaxAbs, SummaryOp::kFinal,
                       SummaryOp::kMean, SummaryOp::kRms}) {
    EXPECT_EQ(ParseSummaryOp(SummaryOpName(op)), op) << SummaryOpName(op);
  }
  EXPECT_EQ(SummaryOpName(SummaryOp::kMaxAbs), "max_abs");
  EXPECT_FALSE(ParseSummaryOp("avg"));
  EXPECT_FALSE(ParseSummaryOp("Max"));
  EXPECT_FALSE(ParseSummaryOp(""));
  EXPECT_EQ(SummaryOpNames(), "max, min, max_abs, final, mean, rms");
}

TEST(SummaryTest, ExtremaAndFinal) {
  const Recording rec = ScalarRecording({0.0, 0.1, 0.2, 0.3, 0.4}, {1.0, -3.0, 2.5, -0.5, 0.25});
  EXPECT_EQ(Of(rec, SummaryOp::kMax), 2.5);
  EXPECT_EQ(Of(rec, SummaryOp::kMin), -3.0);
  EXPECT_EQ(Of(rec, SummaryOp::kMaxAbs), 3.0);
  EXPECT_EQ(Of(rec, SummaryOp::kFinal), 0.25);
  // The largest |value| of a signal that is never negative is its max.
  const Recording positive = ScalarRecording({0.0, 1.0}, {0.5, 0.75});
  EXPECT_EQ(Of(positive, SummaryOp::kMaxAbs), 0.75);
}

// y = 3 - 2 t on [1, 3] over uneven steps: mean = 3 - 2 * 2 = -1,
// rms² = (1/2) ∫_1^3 (3 - 2t)² dt = (1/2) [-(3 - 2t)³ / 6]_1^3 = (1/2)(27/6 + 1/6) = 7/3.
TEST(SummaryTest, MeanAndRmsAreExactOnALinearSignal) {
  const std::vector<double> t = {1.0, 1.001, 1.25, 1.5, 2.75, 3.0};
  std::vector<double> y;
  for (double ti : t) y.push_back(3.0 - 2.0 * ti);
  const Recording rec = ScalarRecording(t, y);
  EXPECT_NEAR(Of(rec, SummaryOp::kMean), -1.0, 1e-14);
  EXPECT_NEAR(Of(rec, SummaryOp::kRms), std::sqrt(7.0 / 3.0), 1e-14);
  EXPECT_EQ(Of(rec, SummaryOp::kFinal), -3.0);
  EXPECT_EQ(Of(rec, SummaryOp::kMaxAbs), 3.0);
}

// A triangle 0 -> 2 -> 0 over [0, 1] then 0 until t = 4: piecewise linear, so the mean and the
// RMS of the line through the rows are exact: ∫ y = 1, ∫ y² = 2 * ∫_0^0.5 (4t)² dt = 4/3.
// Time-weighting counts the long flat stretch for what it lasts, not for its one row.
TEST(SummaryTest, MeanAndRmsWeightEachStepByItsDuration) {
  const Recording rec = ScalarRecording({0.0, 0.5, 1.0, 4.0}, {0.0, 2.0, 0.0, 0.0});
  EXPECT_NEAR(Of(rec, SummaryOp::kMean), 1.0 / 4.0, 1e-15);
  EXPECT_NEAR(Of(rec, SummaryOp::kRms), std::sqrt((4.0 / 3.0) / 4.0), 1e-15);
  // A repeated time (an event row) adds no weight.
  const Recording with_event =
      ScalarRecording({0.0, 0.5, 0.5, 1.0, 4.0}, {0.0, 2.0, 2.0, 0.0, 0.0});
  EXPECT_NEAR(Of(with_event, SummaryOp::kMean), 1.0 / 4.0, 1e-15);
  EXPECT_NEAR(Of(with_event, SummaryOp::kRms), std::sqrt((4.0 / 3.0) / 4.0), 1e-15);
}

TEST(SummaryTest, RowsThatSpanNoTimeCountEqually) {
  const Recording one = ScalarRecording({2.0}, {-4.0});
  for (SummaryOp op : {SummaryOp::kMax, SummaryOp::kMin, SummaryOp::kFinal, SummaryOp::kMean}) {
    EXPECT_EQ(Of(one, op), -4.0) << SummaryOpName(op);
  }
  EXPECT_EQ(Of(one, SummaryOp::kMaxAbs), 4.0);
  EXPECT_EQ(Of(one, SummaryOp::kRms), 4.0);
  const Recording same_time = ScalarRecording({2.0, 2.0}, {1.0, 3.0});
  EXPECT_EQ(Of(same_time, SummaryOp::kMean), 2.0);
  EXPECT_EQ(Of(same_time, SummaryOp::kRms), std::sqrt(5.0));
}

TEST(SummaryTest, NoRowsOrANaNGiveNaN) {
  const Recording empty = ScalarRecording({}, {});
  const Recording with_nan = ScalarRecording({0.0, 1.0, 2.0}, {1.0, kNaN, 5.0});
  for (SummaryOp op : {SummaryOp::kMax, SummaryOp::kMin, SummaryOp::kMaxAbs, SummaryOp::kFinal,
                       SummaryOp::kMean, SummaryOp::kRms}) {
    EXPECT_TRUE(std::isnan(Of(empty, op))) << SummaryOpName(op);
    EXPECT_TRUE(std::isnan(Of(with_nan, op))) << SummaryOpName(op);
  }
  // Infinities are values like any other.
  const Recording with_inf =
      ScalarRecording({0.0, 1.0}, {1.0, -std::numeric_limits<double>::infinity()});
  EXPECT_EQ(Of(with_inf, SummaryOp::kMaxAbs), std::numeric_limits<double>::infinity());
}

TEST(SummaryTest, ColumnsOfAVectorSignalAreSummarizedApart) {
  // Two signals: a of width 1 at offset 0, b of width 2 at offset 1 (columns b[0], b[1]).
  Recording rec({LoggedSignal{"a", "a.y", 0, 1}, LoggedSignal{"b", "b.y", 1, 2}});
  const double row0[] = {1.0, 10.0, -20.0};
  const double row1[] = {2.0, 30.0, -40.0};
  rec.Append(0.0, row0);
  rec.Append(1.0, row1);
  EXPECT_EQ(SummarizeColumn(rec, 0, SummaryOp::kMean), 1.5);
  EXPECT_EQ(SummarizeColumn(rec, 1, SummaryOp::kMean), 20.0);
  EXPECT_EQ(SummarizeColumn(rec, 2, SummaryOp::kMin), -40.0);
  EXPECT_THROW(SummarizeColumn(rec, 3, SummaryOp::kMax), std::logic_error);
  EXPECT_THROW(SummarizeColumn(rec, -1, SummaryOp::kMax), std::logic_error);
}

// ------------------------------------------------------------------------------------------
// <summary> in a model: signals found through the compiled system, whatever their log name.

const char kSignals[] = R"(<simulation solver="ode4" t_end="1" step="0.1"/>
<block type="Clock" name="clock"/>
<block type="Gain" name="twice" k="2"/>
<block type="Mux" name="both" inputs="2"/>
<connect from="clock.t" to="twice.u"/>
<connect from="clock.t" to="both.u1"/>
<connect from="twice.y" to="both.u2"/>
<log signal="twice.y" as="double_t"/>
)";

Model ReadText(const std::string& body) {
  return xml::ReadModelString("<model name=\"m\" format=\"1\">\n" + body + "</model>", "m.xml");
}

std::string SummaryCompileError(const std::string& body) {
  try {
    Compile(ReadText(body));
  } catch (const ModelError& e) {
    return e.what();
  }
  return "";
}

// A recording of `sys`'s logged signals with rows set by hand: row r holds, for each logged
// signal element e (in buffer order), the value values(t, offset + e).
template <typename F>
Recording HandRecording(const System& sys, const std::vector<double>& times, F values) {
  Recording rec(sys.logged_signals());
  std::vector<double> buffer(sys.num_signals());
  for (double t : times) {
    for (int i = 0; i < sys.num_signals(); ++i) buffer[i] = values(t, i);
    rec.Append(t, buffer.data());
  }
  return rec;
}

TEST(SummaryTest, SummarizeFindsEachSignalAndElement) {
  const Model model = ReadText(std::string(kSignals) + R"(
<summary signal="both.y" op="max" label="both"/>
<summary signal="both.y[1] twice.y clock.t" op="mean"/>
<summary signal="twice.y" op="final" label="aliased"/>
)");
  const System sys = Compile(model);
  // twice.y is logged already (as double_t); both.y and clock.t are added once each.
  std::vector<std::string> names;
  for (const LoggedSignal& l : sys.logged_signals()) names.push_back(l.name);
  EXPECT_EQ(names, (std::vector<std::string>{"double_t", "both.y", "clock.t"}));

  // Rows by hand: every buffer slot i holds (i + 1) * t at time t, over uneven steps, so that
  // each value tells which slot it came from.
  const std::vector<double> times = {0.0, 0.25, 1.0, 2.0};
  const Recording rec = HandRecording(sys, times, [](double t, int i) { return (i + 1) * t; });
  auto slot = [&](const std::string& path_port) { return sys.FindSignal(path_port)->offset; };

  const std::vector<SummaryValue> values = Summarize(model.summaries, sys, rec);
  ASSERT_EQ(values.size(), 6u);
  const double t_end = 2.0;
  EXPECT_EQ(values[0].signal, "both.y[0]");
  EXPECT_EQ(values[0].op, SummaryOp::kMax);
  EXPECT_EQ(values[0].label, "both");
  EXPECT_DOUBLE_EQ(values[0].value, (slot("both.y") + 1) * t_end);
  EXPECT_EQ(values[1].signal, "both.y[1]");
  EXPECT_DOUBLE_EQ(values[1].value, (slot("both.y") + 2) * t_end);
  // Linear in t: the mean over [0, 2] is the value at t = 1.
  EXPECT_EQ(values[2].signal, "both.y[1]");
  EXPECT_EQ(values[2].op, SummaryOp::kMean);
  EXPECT_EQ(values[2].label, "");
  EXPECT_DOUBLE_EQ(values[2].value, slot("both.y") + 2);
  EXPECT_EQ(values[3].signal, "twice.y");
  EXPECT_DOUBLE_EQ(values[3].value, slot("twice.y") + 1);
  EXPECT_EQ(values[4].signal, "clock.t");
  EXPECT_DOUBLE_EQ(values[4].value, slot("clock.t") + 1);
  EXPECT_EQ(values[5].signal, "twice.y");
  EXPECT_EQ(values[5].op, SummaryOp::kFinal);
  EXPECT_EQ(values[5].label, "aliased");
  EXPECT_DOUBLE_EQ(values[5].value, (slot("twice.y") + 1) * t_end);
}

TEST(SummaryTest, SummarizeARealRun) {
  const Model model = ReadText(std::string(kSignals) + R"(
<summary signal="twice.y both.y[0]" op="rms"/>
<summary signal="clock.t" op="mean"/>
)");
  const System sys = Compile(model);
  Simulator sim(sys, sys.settings());
  ASSERT_TRUE(sim.Run().ok);
  const std::vector<SummaryValue> values = Summarize(model.summaries, sys, sim.recording());
  ASSERT_EQ(values.size(), 3u);
  // rms of 2t over [0, 1] is 2 / sqrt(3); of t, 1 / sqrt(3); the mean of t is 1/2.
  EXPECT_NEAR(values[0].value, 2.0 / std::sqrt(3.0), 1e-14);
  EXPECT_NEAR(values[1].value, 1.0 / std::sqrt(3.0), 1e-14);
  EXPECT_NEAR(values[2].value, 0.5, 1e-14);
}

TEST(SummaryTest, ASystemCompiledWithoutTheSummaryCannotSummarizeIt) {
  const System sys = Compile(ReadText(kSignals));
  const Model other = ReadText(std::string(kSignals) + R"(<summary signal="both.y" op="max"/>)");
  const Recording rec = HandRecording(sys, {0.0, 1.0}, [](double t, int) { return t; });
  try {
    Summarize(other.summaries, sys, rec);
    FAIL() << "no error";
  } catch (const std::runtime_error& e) {
    EXPECT_NE(std::string(e.what()).find("summary max: 'both.y' is not among the logged signals"),
              std::string::npos)
        << e.what();
  }
}

TEST(SummaryTest, ASummarySignalThatNamesNoPortIsACompileErrorAtItsLine) {
  std::string err =
      SummaryCompileError(std::string(kSignals) + R"(<summary signal="clock.z" op="max_abs"/>)");
  EXPECT_NE(err.find("m.xml:10: summary max_abs: cannot summarize 'clock.z': no such signal"),
            std::string::npos)
      << err;
  err =
      SummaryCompileError(std::string(kSignals) + "<summary op=\"final\"\n signal=\"both.y[2]\"/>");
  EXPECT_NE(err.find("m.xml:10: summary final: cannot summarize 'both.y[2]': 'both.y' has width "
                     "2, so its elements are [0] ... [1]"),
            std::string::npos)
      << err;
}

TEST(SummaryTest, CsvHasOneRowPerValueAndQuotesLabelsThatNeedIt) {
  const std::filesystem::path path =
      std::filesystem::path(::testing::TempDir()) / "twinblocks_summary_test.csv";
  std::vector<SummaryValue> values(3);
  values[0] = {"err.y[0]", SummaryOp::kMaxAbs, 0.1, "max error, rad"};
  values[1] = {"arm/j1.q", SummaryOp::kFinal, -1.0 / 3.0, ""};
  values[2] = {"x.y", SummaryOp::kRms, kNaN, "a \"quoted\" word"};
  WriteSummaryCsv(values, path.string());
  std::ifstream in(path);
  std::stringstream text;
  text << in.rdbuf();
  EXPECT_EQ(text.str(),
            "signal,op,value,label\n"
            "err.y[0],max_abs,0.1,\"max error, rad\"\n"
            "arm/j1.q,final,-0.3333333333333333,\n"
            "x.y,rms,nan,\"a \"\"quoted\"\" word\"\n");
  std::filesystem::remove(path);
  EXPECT_THROW(WriteSummaryCsv(values, "/nonexistent_dir/s.csv"), std::runtime_error);
}

}  // namespace
}  // namespace twinblocks::graph
