#include <memory>

#include "examples/plugins/example_blocks.h"

namespace twinblocks_example {

namespace {

using twinblocks::user::Context;
using twinblocks::user::Params;

// m x'' + c x' + k x = F as two first-order states: x' = v, v' = (F - c v - k x) / m.
class MassSpringDamper final : public twinblocks::user::Block {
 public:
  explicit MassSpringDamper(const Params& p)
      : m_(p.Scalar("m")),
        c_(p.Scalar("c")),
        k_(p.Scalar("k")),
        x0_(p.Scalar("x0")),
        v0_(p.Scalar("v0")) {
    if (!(m_ > 0.0)) throw std::invalid_argument("parameter 'm' must be positive (a mass, kg)");
    // The outputs are the states: F is not direct feedthrough, so a controller may close a
    // loop around the block without an algebraic loop.
    DeclareInput("F", 1, /*direct_feedthrough=*/false);
    DeclareOutput("x");
    DeclareOutput("v");
    DeclareContinuousStates(2);
  }

  void Initialize(Context& c) const override {
    double* x = c.mutable_continuous_state();
    x[0] = x0_;
    x[1] = v0_;
  }

  void CalcOutputs(Context& c) const override {
    const double* x = c.continuous_state();
    c.output(0)[0] = x[0];
    c.output(1)[0] = x[1];
  }

  void CalcDerivatives(Context& c) const override {
    const double* x = c.continuous_state();
    const double force = c.input(0)[0];
    double* xdot = c.derivatives();
    xdot[0] = x[1];
    xdot[1] = (force - c_ * x[1] - k_ * x[0]) / m_;
  }

  std::string DescribeContinuousState(int i) const override { return i == 0 ? "x" : "v"; }

 private:
  double m_, c_, k_, x0_, v0_;
};

}  // namespace

twinblocks::user::BlockType MassSpringDamperType() {
  twinblocks::user::BlockType t;
  t.name = "MassSpringDamper";
  t.category = "Example blocks";
  t.summary = "A mass on a linear spring and damper, driven by a force.";
  t.doc =
      "m x'' + c x' + k x = F, integrated as x' = v, v' = (F - c v - k x) / m from x(0) = x0, "
      "v(0) = v0. The outputs are the states, so F is not direct feedthrough.";
  t.reference = "The same as Integrator, Gain and Sum blocks (examples/user_blocks.xml)";
  t.params = {{"m", twinblocks::user::ParamKind::kScalar, "1", "mass, kg (> 0)"},
              {"c", twinblocks::user::ParamKind::kScalar, "0", "damping, N s/m"},
              {"k", twinblocks::user::ParamKind::kScalar, "1", "stiffness, N/m"},
              {"x0", twinblocks::user::ParamKind::kScalar, "0", "initial position, m"},
              {"v0", twinblocks::user::ParamKind::kScalar, "0", "initial velocity, m/s"}};
  t.inputs = {{"F", "applied force, N"}};
  t.outputs = {{"x", "position, m"}, {"v", "velocity, m/s"}};
  t.create = [](const Params& p) { return std::make_unique<MassSpringDamper>(p); };
  return t;
}

}  // namespace twinblocks_example
