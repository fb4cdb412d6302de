#include "blocks/lookup/detail/table_lookup_block.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <utility>

#include "blocks/signal/detail/block_helpers.h"

namespace twinblocks::blocks::internal {

using lookup::kMaxDimensions;

TableLookupBlock::TableLookupBlock(lookup::GridInterpolant table,
                                   const std::vector<std::string>& inputs)
    : table_(std::move(table)) {
  if (inputs.empty()) {
    for (int j = 0; j < table_.num_dimensions(); ++j) DeclareInput(NumberedPort("u", j));
  } else {
    for (const std::string& name : inputs) DeclareInput(name);
  }
  DeclareOutput("y");
}

void TableLookupBlock::DoConfigure(const std::vector<int>& input_widths) {
  const int w = CommonWidth(input_widths);
  u_strides_.clear();
  for (int width : input_widths) u_strides_.push_back(StrideOf(width));
  SetOutputWidth(0, w);
  const std::int64_t per_dimension = std::int64_t{w} * table_.num_dimensions();
  if (table_.is_piecewise_constant()) {
    DeclareModes(per_dimension);
    DeclareZeroCrossings(2 * per_dimension);
  } else {
    DeclareDWork(per_dimension);
  }
}

void TableLookupBlock::DoInitialize(Context& c) const {
  if (num_modes() > 0) std::fill(modes(c), modes(c) + num_modes(), 0);
  if (num_dwork() > 0) std::fill(dwork(c), dwork(c) + num_dwork(), 0.0);
}

void TableLookupBlock::DoCalcOutputs(Context& c, int stage) const {
  const int d = table_.num_dimensions();
  const int w = out_width(0);
  double* y = out(c, 0);
  if (d == 1 && !table_.is_piecewise_constant()) {
    // The common case without the gathering below: one input, a hint per element.
    const double* u = in(c, 0);
    const int s = u_strides_[0];
    double* hint_store = dwork(c);
    for (int i = 0; i < w; ++i) {
      int hint = static_cast<int>(hint_store[i]);
      y[i] = table_.is_linear_1d() ? table_.EvaluateLinear1D(u[i * s], &hint)
                                   : table_.Evaluate(u + i * s, &hint);
      hint_store[i] = hint;
    }
    return;
  }
  double u[kMaxDimensions];
  if (table_.is_piecewise_constant()) {
    int* cells = modes(c);
    for (int i = 0; i < w; ++i, cells += d) {
      bool nan = false;
      for (int j = 0; j < d; ++j) {
        u[j] = in(c, j)[i * u_strides_[j]];
        nan = nan || std::isnan(u[j]);
      }
      // Inside a solver step the cells chosen at the major step hold: y stays constant and
      // the zero crossings tell the solver where the input leaves the cell.
      if (c.major) {
        for (int j = 0; j < d; ++j) cells[j] = table_.Cell(j, u[j], cells[j]);
      } else {
        // A table retuned to fewer breakpoints keeps the modes of the old one until the next
        // major step.
        for (int j = 0; j < d; ++j) cells[j] = std::min(cells[j], table_.axis(j).size() - 1);
      }
      y[i] = nan ? std::numeric_limits<double>::quiet_NaN() : table_.ValueAtCells(cells);
    }
    return;
  }
  int hints[kMaxDimensions];
  double* hint_store = dwork(c);
  for (int i = 0; i < w; ++i, hint_store += d) {
    for (int j = 0; j < d; ++j) {
      u[j] = in(c, j)[i * u_strides_[j]];
      hints[j] = static_cast<int>(hint_store[j]);
    }
    y[i] = table_.Evaluate(u, hints);
    for (int j = 0; j < d; ++j) hint_store[j] = hints[j];
  }
}

void TableLookupBlock::DoCalcZeroCrossings(Context& c) const {
  if (!table_.is_piecewise_constant()) return;
  const int d = table_.num_dimensions();
  const int w = out_width(0);
  const bool active = ZeroCrossingsActive(*this);
  const int* cells = modes(c);
  double* z = zc(c);
  for (int i = 0; i < w; ++i) {
    for (int j = 0; j < d; ++j, ++cells, z += 2) {
      const double u = in(c, j)[i * u_strides_[j]];
      const int last = table_.axis(j).size() - 1;
      const int cell = std::min(*cells, last);
      z[0] = active && cell > 0 ? u - table_.Cut(j, cell) : 1.0;
      z[1] = active && cell < last ? u - table_.Cut(j, cell + 1) : -1.0;
    }
  }
}

}  // namespace twinblocks::blocks::internal
