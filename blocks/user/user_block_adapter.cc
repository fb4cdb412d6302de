#include "blocks/user/user_block_adapter.h"

#include <cmath>
#include <stdexcept>
#include <utility>

namespace twinblocks::blocks {

namespace {

bool IsPortName(const std::string& name) {
  if (name.empty() || std::isdigit(static_cast<unsigned char>(name[0]))) return false;
  for (char ch : name) {
    if (!std::isalnum(static_cast<unsigned char>(ch)) && ch != '_') return false;
  }
  return true;
}

void CheckPortName(const std::string& name, const char* kind,
                   const std::vector<std::string>& taken) {
  if (!IsPortName(name)) {
    throw BlockError(std::string("the block declares ") + kind + " port '" + name +
                     "': port names are letters, digits and '_', not starting with a digit");
  }
  for (const std::string& t : taken) {
    if (t == name) throw BlockError("the block declares port '" + name + "' twice");
  }
}

void CheckWidth(int width, const std::string& name) {
  if (width < 1) {
    throw BlockError("the block declares port '" + name + "' of width " + std::to_string(width) +
                         "; widths are 1 or more",
                     {}, name);
  }
}

}  // namespace

/// The user block's view of one call: its slices of the simulation's Context.
class UserBlockAdapter::View final : public user::Context {
 public:
  View(const UserBlockAdapter& block, blocks::Context& c, bool initializing)
      : block_(block), c_(c), initializing_(initializing) {}

  double time() const override { return c_.t; }
  bool is_major_step() const override { return c_.major; }
  bool is_sample_hit() const override { return block_.is_sample_hit(c_); }
  const double* input(int port) const override { return block_.in(c_, port); }
  double* output(int port) override { return block_.out(c_, port); }
  const double* continuous_state() const override { return block_.x(c_); }
  double* mutable_continuous_state() override {
    if (initializing_) return block_.x(c_);
    if (!c_.major) {
      throw std::logic_error(
          "the block writes its continuous states inside a solver step; it may reset them only "
          "at major steps (Update, or CalcOutputs where is_major_step())");
    }
    c_.states_reset = true;
    return block_.x(c_);
  }
  double* derivatives() override { return block_.xdot(c_); }
  double* discrete_state() override { return block_.xd(c_); }
  int* modes() override { return block_.modes(c_); }
  double* zero_crossings() override { return block_.zc(c_); }
  bool zero_crossing_located(int k) const override { return block_.zc_crossed(c_, k); }

 private:
  const UserBlockAdapter& block_;
  blocks::Context& c_;
  bool initializing_;
};

UserBlockAdapter::UserBlockAdapter(std::unique_ptr<user::Block> block) : block_(std::move(block)) {
  const user::Block& b = *block_;
  std::vector<std::string> names;
  for (const user::Block::InputPort& p : b.inputs()) {
    CheckPortName(p.name, "input", names);
    CheckWidth(p.width, p.name);
    names.push_back(p.name);
    DeclareInput(p.name, p.width, p.direct_feedthrough ? kFeedthrough : kNoFeedthrough);
  }
  for (const user::Block::OutputPort& p : b.outputs()) {
    CheckPortName(p.name, "output", names);
    CheckWidth(p.width, p.name);
    names.push_back(p.name);
    DeclareOutput(p.name, p.width);
  }
  DeclareContinuousStates(b.num_continuous_states());
  DeclareDiscreteStates(b.num_discrete_states());
  DeclareModes(b.num_modes());
  DeclareZeroCrossings(b.num_zero_crossings());
  const double period = b.sample_period(), offset = b.sample_offset();
  if (period == 0.0) {
    if (offset != 0.0) {
      throw BlockError("the block declares a sample offset (" + std::to_string(offset) +
                       " s) without a sample period");
    }
    DeclareSampleTime(SampleTime::Continuous());
  } else {
    if (!(period > 0.0) || !std::isfinite(period)) {
      throw BlockError("the block declares sample period " + std::to_string(period) +
                       " s; expected a positive finite number");
    }
    if (!(offset >= 0.0 && offset < period)) {
      throw BlockError("the block declares sample offset " + std::to_string(offset) +
                       " s; expected 0 <= offset < period (" + std::to_string(period) + " s)");
    }
    DeclareSampleTime(SampleTime::Discrete(period, offset));
  }
  if (b.has_update()) DeclareUpdate();
  if (b.depends_on_time()) DeclareTimeDependence();
}

std::string UserBlockAdapter::DescribeContinuousState(int i) const {
  return block_->DescribeContinuousState(i);
}

void UserBlockAdapter::DoInitialize(Context& c) const {
  double* x = this->x(c);
  for (int i = 0; i < num_continuous_states(); ++i) x[i] = 0.0;
  double* xd = this->xd(c);
  for (int i = 0; i < num_discrete_states(); ++i) xd[i] = 0.0;
  int* m = modes(c);
  for (int i = 0; i < num_modes(); ++i) m[i] = 0;
  View view(*this, c, /*initializing=*/true);
  block_->Initialize(view);
}

void UserBlockAdapter::DoCalcOutputs(Context& c, int stage) const {
  View view(*this, c, false);
  block_->CalcOutputs(view);
}

void UserBlockAdapter::DoCalcDerivatives(Context& c) const {
  View view(*this, c, false);
  block_->CalcDerivatives(view);
}

void UserBlockAdapter::DoUpdate(Context& c) const {
  View view(*this, c, false);
  block_->Update(view);
}

void UserBlockAdapter::DoCalcZeroCrossings(Context& c) const {
  View view(*this, c, false);
  block_->CalcZeroCrossings(view);
}

}  // namespace twinblocks::blocks
