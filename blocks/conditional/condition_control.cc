#include "blocks/conditional/condition_control.h"

#include <algorithm>

#include "blocks/signal/detail/reset_trigger.h"

namespace twinblocks::blocks {

namespace {

// dwork: "no major step yet", then the `active` output, then per trigger element its value
// at the last major step.
constexpr int kFirstSlot = 0;
constexpr int kActiveSlot = 1;

BlockType PortType(const char* name, const char* summary, const char* doc) {
  BlockType t;
  t.name = name;
  t.category = "Routing and structure";
  t.summary = summary;
  t.doc = doc;
  t.reference = "Simulink Enabled, Triggered and Enabled and Triggered Subsystem";
  return t;
}

}  // namespace

ConditionControl::Edge ConditionControl::EdgeFromWord(const std::string& word) {
  if (word == "falling") return Edge::kFalling;
  if (word == "either") return Edge::kEither;
  return Edge::kRising;
}

ConditionControl::ConditionControl(const Spec& spec) : spec_(spec) {
  if (spec_.enable) in_enable_ = DeclareInput("enable");
  if (spec_.edge != Edge::kNone) in_trigger_ = DeclareInput("trigger");
  DeclareOutput("active", 1);
  DeclareOutput("enabled", 1);
  DeclareSampleTime(SampleTime::Continuous());
  DeclareUpdate();
}

void ConditionControl::DoConfigure(const std::vector<int>& input_widths) {
  enable_width_ = in_enable_ >= 0 ? input_widths[in_enable_] : 0;
  trigger_width_ = in_trigger_ >= 0 ? input_widths[in_trigger_] : 0;
  DeclareModes(1);  // enabled, decided at major steps
  DeclareDWork(2 + trigger_width_);
  DeclareZeroCrossings(enable_width_ + trigger_width_);
}

void ConditionControl::DoInitialize(Context& c) const {
  modes(c)[0] = 0;
  double* w = dwork(c);
  w[kFirstSlot] = 1.0;
  w[kActiveSlot] = 0.0;
  std::fill_n(w + 2, trigger_width_, 0.0);
}

bool ConditionControl::Enabled(const Context& c) const {
  if (in_enable_ < 0) return true;
  const double* u = in(c, in_enable_);
  // Simulink: a vector enable signal enables the subsystem when any element is positive.
  return std::any_of(u, u + enable_width_, [](double v) { return v > 0.0; });
}

bool ConditionControl::Fired(const Context& c) const {
  const internal::ResetTrigger edge(spec_.edge == Edge::kRising    ? "rising"
                                    : spec_.edge == Edge::kFalling ? "falling"
                                                                   : "either");
  const double* u = in(c, in_trigger_);
  const double* prev = dwork(c) + 2;
  const bool first = dwork(c)[kFirstSlot] != 0.0;
  for (int j = 0; j < trigger_width_; ++j) {
    if (edge.Fires(prev[j], u[j], first, zc_crossed(c, enable_width_ + j))) return true;
  }
  return false;
}

void ConditionControl::DoCalcOutputs(Context& c, int) const {
  int& enabled = modes(c)[0];
  double* w = dwork(c);
  if (c.major) {
    const bool now = Enabled(c);
    const bool first = w[kFirstSlot] != 0.0;
    if (now != (enabled != 0) && !first) {
      // What the subsystem feeds jumps: the solver starts again from here.
      c.states_reset = true;
      if (now && spec_.reset_states) {
        for (const Block* b : members_) b->Initialize(c);
      }
    }
    const bool was = enabled != 0 && !first;
    enabled = now ? 1 : 0;
    bool active = false;
    if (spec_.edge == Edge::kNone) {
      // At the major step that disables it, the subsystem runs once more: Simulink runs it at
      // the left side of the located switch, so that what its outports then hold is its
      // output at the switch, not at the step before.
      active = now || was;
    } else {
      active = now && Fired(c);
      if (active) c.states_reset = true;
    }
    w[kActiveSlot] = active ? 1.0 : 0.0;
  } else if (spec_.edge == Edge::kNone) {
    w[kActiveSlot] = enabled != 0 ? 1.0 : 0.0;  // inside solver steps: as decided
  }
  out(c, 0)[0] = w[kActiveSlot];
  out(c, 1)[0] = enabled != 0 ? 1.0 : 0.0;
}

void ConditionControl::DoUpdate(Context& c) const {
  double* w = dwork(c);
  w[kFirstSlot] = 0.0;
  if (in_trigger_ >= 0) std::copy_n(in(c, in_trigger_), trigger_width_, w + 2);
}

void ConditionControl::DoCalcZeroCrossings(Context& c) const {
  double* z = zc(c);
  if (in_enable_ >= 0) std::copy_n(in(c, in_enable_), enable_width_, z);
  if (in_trigger_ >= 0) std::copy_n(in(c, in_trigger_), trigger_width_, z + enable_width_);
}

const BlockType& EnablePortType() {
  static const BlockType type =
      PortType("enable", "The enable port of an enabled subsystem.",
               "The subsystem runs while any element of the signal at its <enable> port is > 0.");
  return type;
}

const BlockType& TriggerPortType() {
  static const BlockType type =
      PortType("trigger", "The trigger port of a triggered subsystem.",
               "The subsystem runs once at each edge of the signal at its <trigger> port.");
  return type;
}

}  // namespace twinblocks::blocks
