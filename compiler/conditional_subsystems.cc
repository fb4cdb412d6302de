// Conditional subsystems (enabled, triggered, enabled and triggered), part of phase 2 of
// Compile(): a subsystem with an <enable> or <trigger> port gets a control block, which
// decides at major steps whether the blocks inside run, and an output block per outport,
// which holds or resets what the subsystem gives outside while it does not run. The blocks
// inside are marked with the condition; the simulator skips them while it is not active
// (System::Runs), and the execution order puts the control first.
#include <memory>

#include "blocks/conditional/condition_control.h"
#include "blocks/conditional/conditional_output.h"
#include "blocks/math_expression.h"
#include "compiler/detail/compiler.h"

namespace twinblocks::graph {

using blocks::ConditionalOutput;
using blocks::ConditionControl;

namespace {

const PortDecl* FindPort(const std::vector<PortDecl>& ports, PortDecl::Kind kind) {
  for (const PortDecl& p : ports) {
    if (p.kind == kind) return &p;
  }
  return nullptr;
}

}  // namespace

void Compiler::AddCondition(const std::string& path, const std::vector<PortDecl>& ports,
                            const Scope& scope, size_t first_flat) {
  const PortDecl* enable = FindPort(ports, PortDecl::Kind::kEnable);
  const PortDecl* trigger = FindPort(ports, PortDecl::Kind::kTrigger);
  if (enable == nullptr && trigger == nullptr) {
    for (const PortDecl& p : ports) {
      if (p.kind == PortDecl::Kind::kOutport && (!p.behavior.empty() || !p.initial.empty())) {
        FailAt(p.where, "outport '" + p.name + "' of '" + path +
                            "' says what it gives while disabled, but the subsystem has no "
                            "<enable> or <trigger> port: it always runs");
      }
    }
    return;
  }
  const int g = static_cast<int>(conditions_.size());
  const PortDecl& control_port = trigger != nullptr ? *trigger : *enable;

  // The control block, driven through the subsystem's boundary ports.
  ConditionControl::Spec spec;
  spec.enable = enable != nullptr;
  spec.reset_states = enable != nullptr && enable->behavior == "reset";
  spec.edge = trigger != nullptr ? ConditionControl::EdgeFromWord(trigger->behavior)
                                 : ConditionControl::Edge::kNone;
  FlatBlock control;
  control.path = path + "/<" + control_port.name + ">";
  control.type = trigger != nullptr ? &blocks::TriggerPortType() : &blocks::EnablePortType();
  control.where = control_port.where;
  control.block = std::make_unique<ConditionControl>(spec);
  const int control_flat = static_cast<int>(flat_.size());
  flat_.push_back(std::move(control));
  AddBlockPoints(control_flat);
  auto drive = [this](const std::string& sink, int source, const SourceLocation& at) {
    Point& p = points_[point_index_.at(sink)];
    p.driver = source;
    p.driver_where = at;
  };
  const std::string control_path = flat_[control_flat].path;  // flat_ grows below
  if (enable != nullptr) {
    drive(control_path + ".enable", point_index_.at(path + "." + enable->name), enable->where);
  }
  if (trigger != nullptr) {
    drive(control_path + ".trigger", point_index_.at(path + "." + trigger->name), trigger->where);
  }

  // The blocks inside: those of nested conditional subsystems keep their own condition, whose
  // parent this one becomes.
  std::vector<const blocks::Block*> members;
  for (size_t f = first_flat; f < static_cast<size_t>(control_flat); ++f) {
    FlatBlock& fb = flat_[f];
    if (!fb.block) continue;  // Goto and From: resolved into lines, they never run
    if (fb.block->is_network_element()) {
      FailBlock(fb, "a physical block cannot be in an enabled or triggered subsystem ('" + path +
                        "'): its network is simulated as a whole; put it outside and switch "
                        "its signal inputs instead");
    }
    if (fb.condition < 0) {
      fb.condition = g;
      members.push_back(fb.block.get());
    }
  }
  for (Condition& c : conditions_) {
    if (c.parent < 0 && flat_[c.control].condition == g) c.parent = g;
  }
  static_cast<ConditionControl&>(*flat_[control_flat].block).SetMembers(std::move(members));
  conditions_.push_back({control_flat, -1, trigger != nullptr});

  // One output block per outport, between the subsystem's inside and its outside.
  for (const PortDecl& p : ports) {
    if (p.kind != PortDecl::Kind::kOutport) continue;
    if (p.behavior == "reset" && enable == nullptr) {
      FailAt(p.where, "outport '" + p.name + "' of triggered subsystem '" + path +
                          "' cannot reset: a triggered subsystem's outputs hold between its "
                          "triggers (disabled=\"reset\" needs an <enable>)");
    }
    Eigen::VectorXd initial = Eigen::VectorXd::Zero(1);
    if (!p.initial.empty()) {
      try {
        const Eigen::MatrixXd m = EvaluateNumeric(p.initial, scope);
        if (m.rows() != 1 && m.cols() != 1) {
          throw blocks::ExpressionError("expected a scalar or a vector");
        }
        initial = m.reshaped();
      } catch (const blocks::ExpressionError& e) {
        FailAt(p.where, "outport '" + p.name + "' initial output: " + e.what());
      }
    }
    const int boundary = point_index_.at(path + "." + p.name);
    const int inner = points_[boundary].driver;
    if (inner < 0) continue;  // unconnected inside: reported where it is read
    FlatBlock output;
    output.path = path + "/<" + p.name + ">";
    output.type = &blocks::ConditionalOutportType();
    output.where = p.where;
    output.block = std::make_unique<ConditionalOutput>(p.behavior == "reset", std::move(initial));
    const int output_flat = static_cast<int>(flat_.size());
    flat_.push_back(std::move(output));
    AddBlockPoints(output_flat);
    const std::string output_path = flat_[output_flat].path;
    drive(output_path + ".u", inner, points_[boundary].driver_where);
    drive(output_path + ".active", point_index_.at(control_path + ".active"), p.where);
    drive(output_path + ".enabled", point_index_.at(control_path + ".enabled"), p.where);
    points_[boundary].driver = point_index_.at(output_path + ".y");
  }
}

bool Compiler::InTriggeredSubsystem(const FlatBlock& fb) const {
  for (int g = fb.condition; g >= 0; g = conditions_[g].parent) {
    if (conditions_[g].triggered) return true;
  }
  return false;
}

}  // namespace twinblocks::graph
