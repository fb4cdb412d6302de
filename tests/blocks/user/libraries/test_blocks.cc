// A block library for the tests of user blocks (tests/blocks/user/): blocks that fail, each
// in one way a user block may.
#include <memory>
#include <stdexcept>

#include "blocks/user/user_block.h"

namespace {

using twinblocks::user::BlockType;
using twinblocks::user::Context;
using twinblocks::user::ParamKind;
using twinblocks::user::Params;

// x' = 1; its derivatives throw from t_fail on.
class FailsAt final : public twinblocks::user::Block {
 public:
  explicit FailsAt(const Params& p) : t_fail_(p.Scalar("t_fail")) {
    DeclareOutput("y");
    DeclareContinuousStates(1);
  }
  void CalcOutputs(Context& c) const override { c.output(0)[0] = c.continuous_state()[0]; }
  void CalcDerivatives(Context& c) const override {
    if (c.time() >= t_fail_) throw std::runtime_error("the test block fails here");
    c.derivatives()[0] = 1.0;
  }

 private:
  double t_fail_;
};

// Declares an output of width 0.
class BadWidth final : public twinblocks::user::Block {
 public:
  BadWidth() { DeclareOutput("y", 0); }
};

// Resets its state inside solver steps, which the API refuses.
class ResetsInMinorSteps final : public twinblocks::user::Block {
 public:
  ResetsInMinorSteps() {
    DeclareOutput("y");
    DeclareContinuousStates(1);
  }
  void CalcOutputs(Context& c) const override { c.output(0)[0] = c.continuous_state()[0]; }
  void CalcDerivatives(Context& c) const override {
    c.mutable_continuous_state()[0] = 0.0;
    c.derivatives()[0] = 1.0;
  }
};

// y = 1 where u >= 0, else -1: a mode chosen at major steps and held inside solver steps,
// with u as its zero-crossing function (Saturation's pattern through the user API).
class SignWithMode final : public twinblocks::user::Block {
 public:
  SignWithMode() {
    DeclareInput("u");
    DeclareOutput("y");
    DeclareModes(1);
    DeclareZeroCrossings(1);
  }
  void Initialize(Context& c) const override { c.modes()[0] = 1; }
  void CalcOutputs(Context& c) const override {
    if (c.is_major_step()) c.modes()[0] = c.input(0)[0] >= 0.0 ? 1 : 0;
    c.output(0)[0] = c.modes()[0] == 1 ? 1.0 : -1.0;
  }
  void CalcZeroCrossings(Context& c) const override { c.zero_crossings()[0] = c.input(0)[0]; }
};

template <class B>
BlockType Type(const char* name, std::vector<twinblocks::user::ParamSpec> params = {}) {
  BlockType t;
  t.name = name;
  t.summary = "A block of the tests.";
  t.params = std::move(params);
  t.outputs = {{"y", "output"}};
  t.create = [](const Params& p) -> std::unique_ptr<twinblocks::user::Block> {
    if constexpr (std::is_constructible_v<B, const Params&>) {
      return std::make_unique<B>(p);
    } else {
      return std::make_unique<B>();
    }
  };
  return t;
}

}  // namespace

TWINBLOCKS_BLOCK_LIBRARY(registry) {
  registry.Add(Type<FailsAt>("FailsAt", {{"t_fail", ParamKind::kScalar, "0.5", "s"}}));
  registry.Add(Type<BadWidth>("BadWidth"));
  registry.Add(Type<ResetsInMinorSteps>("ResetsInMinorSteps"));
  BlockType sign = Type<SignWithMode>("SignWithMode");
  sign.inputs = {{"u", "input"}};
  registry.Add(std::move(sign));
}
