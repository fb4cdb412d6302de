#include <memory>

#include "examples/plugins/example_blocks.h"

namespace twinblocks_example {

namespace {

using twinblocks::user::Context;
using twinblocks::user::Params;

// h' = v, v' = -g; where h falls through 0, v becomes -cr v. The zero-crossing function h
// makes the solver end a step at the impact; the major step there resets v.
class BouncingBall final : public twinblocks::user::Block {
 public:
  explicit BouncingBall(const Params& p)
      : g_(p.Scalar("g")), cr_(p.Scalar("cr")), h0_(p.Scalar("h0")) {
    if (!(cr_ >= 0.0 && cr_ <= 1.0)) {
      throw std::invalid_argument("parameter 'cr' must be in [0, 1] (a restitution)");
    }
    DeclareOutput("h");
    DeclareOutput("v");
    DeclareContinuousStates(2);
    DeclareZeroCrossings(1);
    DeclareMajorStepUpdate();
  }

  void Initialize(Context& c) const override { c.mutable_continuous_state()[0] = h0_; }

  void CalcOutputs(Context& c) const override {
    const double* x = c.continuous_state();
    c.output(0)[0] = x[0];
    c.output(1)[0] = x[1];
  }

  void CalcDerivatives(Context& c) const override {
    double* xdot = c.derivatives();
    xdot[0] = c.continuous_state()[1];
    xdot[1] = -g_;
  }

  void CalcZeroCrossings(Context& c) const override {
    c.zero_crossings()[0] = c.continuous_state()[0];
  }

  // At the located crossing h is a hair below 0 (or, under a fixed-step solver that does not
  // locate crossings, anywhere below): falling there is an impact.
  void Update(Context& c) const override {
    const double* x = c.continuous_state();
    if ((c.zero_crossing_located(0) || x[0] < 0.0) && x[1] < 0.0) {
      c.mutable_continuous_state()[1] = -cr_ * x[1];
    }
  }

  std::string DescribeContinuousState(int i) const override { return i == 0 ? "h" : "v"; }

 private:
  double g_, cr_, h0_;
};

}  // namespace

twinblocks::user::BlockType BouncingBallType() {
  twinblocks::user::BlockType t;
  t.name = "BouncingBall";
  t.category = "Example blocks";
  t.summary = "A ball that falls and bounces off the ground.";
  t.doc =
      "h' = v, v' = -g from h(0) = h0, v(0) = 0. A zero crossing of h locates each impact, "
      "where v becomes -cr v (the continuous state is reset and the solver restarts).";
  t.reference = "Simulink's bouncing ball (examples/bouncing_ball.xml builds it from blocks)";
  t.params = {{"g", twinblocks::user::ParamKind::kScalar, "9.81", "gravity, m/s^2"},
              {"cr", twinblocks::user::ParamKind::kScalar, "0.8", "coefficient of restitution"},
              {"h0", twinblocks::user::ParamKind::kScalar, "10", "initial height, m"}};
  t.outputs = {{"h", "height, m"}, {"v", "velocity, m/s"}};
  t.create = [](const Params& p) { return std::make_unique<BouncingBall>(p); };
  return t;
}

}  // namespace twinblocks_example
