#include "blocks/signal/from_workspace.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <memory>

#include "blocks/signal/detail/param_checks.h"
#include "common/format_value.h"

namespace twinblocks::blocks {

namespace {

FromWorkspace::Extrapolation ParseExtrapolation(const std::string& word) {
  if (word == "zero") return FromWorkspace::Extrapolation::kZero;
  if (word == "error") return FromWorkspace::Extrapolation::kError;
  return FromWorkspace::Extrapolation::kHold;
}

std::string Shape(const Eigen::MatrixXd& m) {
  return std::to_string(m.rows()) + " x " + std::to_string(m.cols());
}

}  // namespace

FromWorkspace::FromWorkspace(const Params& params)
    : zoh_(params.Word("interpolation") == "zoh"),
      extrapolation_(ParseExtrapolation(params.Word("extrapolation"))) {
  const Eigen::VectorXd time = params.Vector("time");
  const Eigen::MatrixXd given = params.Matrix("values");
  const Eigen::Index n = time.size();
  internal::CheckParamValues("time", time, internal::ValueRange::kFinite, "s");
  if (n == 0) throw BlockError("parameter 'time' is empty", "time");
  for (Eigen::Index i = 1; i < n; ++i) {
    if (!(time(i) > time(i - 1))) {
      throw BlockError("parameter 'time' must increase strictly: element " + std::to_string(i) +
                           " (" + FormatValue(time(i)) + ") follows " + FormatValue(time(i - 1)),
                       "time");
    }
  }
  // One row per time; a single row as long as `time` is one signal (a 1-D array from Python).
  Eigen::MatrixXd values;
  if (given.rows() == n) {
    values = given;
  } else if (given.rows() == 1 && given.cols() == n) {
    values = given.transpose();
  } else {
    throw BlockError("parameter 'values' is " + Shape(given) + ", but 'time' has " +
                         std::to_string(n) + " times: expected " + std::to_string(n) +
                         " rows (one per time, a column per signal) or one row of " +
                         std::to_string(n) + " values",
                     "values");
  }
  if (values.cols() == 0) throw BlockError("parameter 'values' is empty", "values");
  for (Eigen::Index i = 0; i < values.rows(); ++i) {
    for (Eigen::Index j = 0; j < values.cols(); ++j) {
      if (!std::isfinite(values(i, j))) {
        throw BlockError("parameter 'values' must be finite, row " + std::to_string(i) +
                             " column " + std::to_string(j) + " is " + FormatValue(values(i, j)),
                         "values");
      }
    }
  }
  width_ = static_cast<int>(values.cols());
  times_.assign(time.data(), time.data() + n);
  values_.reserve(static_cast<size_t>(values.size()));
  for (Eigen::Index i = 0; i < values.rows(); ++i) {
    for (Eigen::Index j = 0; j < values.cols(); ++j) values_.push_back(values(i, j));
  }
  DeclareOutput("y", width_);
  DeclareSampleTime(SampleTime::Continuous());
  DeclareModes(1);  // the row found at the last major step, held inside solver steps
  if (!zoh_) DeclareTimeDependence();
  // zoh: every data time is a jump; linear: the first and last times are kinks, or jumps
  // (zero), or the end of the run (error). The solvers land on each.
  DeclareBreakpoints();
}

int FromWorkspace::RowAt(double t) const {
  // Binary search: no allocation, O(log rows).
  return static_cast<int>(std::upper_bound(times_.begin(), times_.end(), t) - times_.begin()) - 1;
}

void FromWorkspace::ThrowOutside(double t) const {
  throw BlockError("time " + FormatValue(t) + " s is outside the data (" +
                       FormatValue(times_.front()) + " to " + FormatValue(times_.back()) +
                       " s) and extrapolation is 'error'",
                   "extrapolation");
}

void FromWorkspace::DoInitialize(Context& c) const { modes(c)[0] = RowAt(c.t); }

void FromWorkspace::DoCalcOutputs(Context& c, int stage) const {
  const double t = c.t;
  const int rows = num_rows();
  if (extrapolation_ == Extrapolation::kError && (t < times_.front() || t > times_.back())) {
    ThrowOutside(t);
  }
  // The row chosen at the major step holds inside a solver step: a stage that lands on the
  // next data time (or the end of the data) still sees the left limit.
  if (c.major) modes(c)[0] = RowAt(t);
  const int row = modes(c)[0];
  double* y = out(c, 0);
  const bool outside = row < 0 || row >= rows - 1;
  if (outside && extrapolation_ == Extrapolation::kZero) {
    std::fill(y, y + width_, 0.0);
    return;
  }
  if (!zoh_ && !outside) {
    // Linear: the segment of t itself, within the data the held row says t is in.
    const int i = std::clamp(RowAt(t), 0, rows - 2);
    const double s = (t - times_[i]) / (times_[i + 1] - times_[i]);
    const double* a = Row(i);
    const double* b = Row(i + 1);
    for (int k = 0; k < width_; ++k) y[k] = a[k] + s * (b[k] - a[k]);
    return;
  }
  const double* a = Row(std::max(row, 0));
  std::copy(a, a + width_, y);
}

double FromWorkspace::DoNextBreakpoint(const Context& c, double t) const {
  constexpr double kNone = std::numeric_limits<double>::infinity();
  if (!zoh_) {
    if (t < times_.front()) return times_.front();
    return t < times_.back() ? times_.back() : kNone;
  }
  const auto it = std::upper_bound(times_.begin(), times_.end(), t);
  return it == times_.end() ? kNone : *it;
}

double FromWorkspace::DoEndTime() const {
  return extrapolation_ == Extrapolation::kError ? times_.back()
                                                 : std::numeric_limits<double>::infinity();
}

std::string FromWorkspace::DoEndReason() const {
  return "the data end at t = " + FormatValue(times_.back()) + " s and extrapolation is 'error'";
}

BlockType FromWorkspaceType() {
  BlockType t;
  t.name = "FromWorkspace";
  t.category = "Sources";
  t.summary = "Plays back signals given as a time vector and a matrix of values.";
  t.doc =
      "`time` holds n times in s, strictly increasing; `values` one row per time and a column per "
      "element of y (n x m), or one row of n values for a single signal: from Python, "
      "add_block(d, 'FromWorkspace', name, time=t, values=y) with numpy arrays t (n) and y (n, or "
      "n x m) writes them as this parameter text, every number in its shortest exact form. "
      "interpolation=linear: y is interpolated linearly between rows; zoh: y holds each row until "
      "the next time. Before the first and after the last time, extrapolation=hold keeps the end "
      "row; zero gives 0 (from the last time on: the output at a major step on a jump has the new "
      "value); error ends the run at the last time (exit status 3), its row recorded, as FromFile "
      "does, and refuses a start before the first. The first and last times (zoh: every time) are "
      "breakpoints that solvers land on; the row is a mode held inside solver steps.";
  t.reference =
      "Simulink From Workspace (time and data as a structure or matrix; linear or zero-order "
      "hold; after the data: hold, zero or error. Simulink's default there is zero, here hold as "
      "FromFile; no cyclic repetition: RepeatingSequence)";
  t.params = {
      {"time", ParamKind::kVector, "", "times, s, strictly increasing (n)", {}, true},
      {"values", ParamKind::kMatrix, "", "n x m: a row per time, a column per element", {}, true},
      {"interpolation", ParamKind::kWord, "linear", "between rows", {"linear", "zoh"}},
      {"extrapolation",
       ParamKind::kWord,
       "hold",
       "before the first and after the last time",
       {"hold", "zero", "error"}}};
  t.outputs = {{"y", "the data, width m (the columns of values)"}};
  t.create = [](const Params& p) { return std::make_unique<FromWorkspace>(p); };
  return t;
}

}  // namespace twinblocks::blocks
