#include "blocks/signal/gain.h"

#include <memory>
#include <string>

#include "blocks/signal/detail/block_helpers.h"

namespace twinblocks::blocks {

Gain::Gain(const Params& params) {
  const Eigen::MatrixXd k = params.Matrix("k");
  if (k.size() == 0) throw BlockError("parameter 'k' is empty", "k");
  rows_ = static_cast<int>(k.rows());
  cols_ = static_cast<int>(k.cols());
  if (k.size() == 1) {
    kind_ = Kind::kScalar;
    k_ = k(0, 0);
  } else if (cols_ == 1) {
    // A vector `[a, b, c]` evaluates to a column: element-wise, as Simulink's default.
    kind_ = Kind::kElementwise;
    kv_.assign(k.data(), k.data() + k.size());
  } else {
    kind_ = Kind::kMatrix;
    for (int r = 0; r < rows_; ++r) {
      for (int col = 0; col < cols_; ++col) kv_.push_back(k(r, col));
    }
  }
  DeclareInput("u");
  DeclareOutput("y");
}

void Gain::DoConfigure(const std::vector<int>& input_widths) {
  const int wu = input_widths[0];
  switch (kind_) {
    case Kind::kScalar:
      SetOutputWidth(0, wu);
      break;
    case Kind::kElementwise:
      if (wu != 1) internal::CheckParamFitsWidth("k", rows_, wu, "u");
      u_stride_ = internal::StrideOf(wu);
      SetOutputWidth(0, rows_);
      break;
    case Kind::kMatrix:
      if (wu != cols_) {
        throw BlockError("gain matrix 'k' is " + std::to_string(rows_) + "x" +
                             std::to_string(cols_) + ", so input 'u' must have width " +
                             std::to_string(cols_) + ", got " + std::to_string(wu),
                         "k", "u");
      }
      SetOutputWidth(0, rows_);
      SetOutputShape(0, SignalShape::Vector());  // K u is a new vector, whatever u was
      break;
  }
}

void Gain::DoCalcOutputs(Context& c, int stage) const {
  const double* u = in(c, 0);
  double* y = out(c, 0);
  switch (kind_) {
    case Kind::kScalar: {
      const int n = out_width(0);
      const double k = k_;
      for (int i = 0; i < n; ++i) y[i] = k * u[i];
      return;
    }
    case Kind::kElementwise: {
      const double* k = kv_.data();
      for (int i = 0; i < rows_; ++i) y[i] = k[i] * u[i * u_stride_];
      return;
    }
    case Kind::kMatrix: {
      const double* k = kv_.data();
      for (int r = 0; r < rows_; ++r, k += cols_) {
        double acc = 0.0;
        for (int j = 0; j < cols_; ++j) acc += k[j] * u[j];
        y[r] = acc;
      }
      return;
    }
  }
}

BlockType GainType() {
  BlockType t;
  t.name = "Gain";
  t.category = "Math and continuous";
  t.summary = "Multiplies the input by a constant gain.";
  t.doc =
      "y = k u. A scalar k scales every element. A vector k ([a, b, c], n elements) "
      "multiplies element-wise: y_i = k_i u_i, with u of width n or a scalar that expands. "
      "A matrix k ([[...], [...]], r x c with c > 1) gives the matrix product y = K u: u must "
      "have width c and y has width r. Inherited sample time; direct feedthrough.";
  t.reference = "Simulink Gain (element-wise K.*u; matrix K*u)";
  t.params = {{"k", ParamKind::kMatrix, "1", "gain: scalar, vector (element-wise) or matrix"}};
  t.inputs = {{"u", "input; width per k"}};
  t.outputs = {{"y", "k u"}};
  t.create = [](const Params& p) { return std::make_unique<Gain>(p); };
  return t;
}

}  // namespace twinblocks::blocks
