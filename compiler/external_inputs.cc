// Phases 2a and 8b of Compile(): the model's top-level <inport>s become external inputs. Each
// is a source block whose output slice of the signal buffer is written from outside the model
// (Simulator::SetInput) and held between writes; it starts at 0.
#include <cmath>

#include "blocks/math_expression.h"
#include "common/input_limits.h"
#include "compiler/detail/compiler.h"

namespace twinblocks::graph {

namespace {

/// A top-level inport: a source that computes nothing. Its output holds what the simulator
/// wrote there last (0 at the start): a zero-order hold on the outside world.
class ExternalInput final : public blocks::Block {
 public:
  explicit ExternalInput(int width) {
    DeclareOutput("y", width);
    // Its value changes between major steps only, but at any of them: it is not constant,
    // and a discrete rate would make blocks downstream wait for its hits.
    DeclareSampleTime(blocks::SampleTime::Continuous());
  }

 protected:
  void DoConfigure(const std::vector<int>& input_widths) override {}
};

const blocks::BlockType& ExternalInputType() {
  static const blocks::BlockType type = [] {
    blocks::BlockType t;
    t.name = "Inport";
    t.category = "Sources";
    t.summary = "A top-level <inport> of the model: an external input (made by the compiler).";
    return t;
  }();
  return type;
}

}  // namespace

void Compiler::AddExternalInputs() {
  for (const PortDecl& port : model_.root.ports) {
    if (port.kind != PortDecl::Kind::kInport) {
      FailAt(port.where, "the top level of a model takes <inport>s only, not '" + port.name + "'");
    }
    for (const BlockNode& node : model_.root.blocks) {
      if (node.name == port.name) {
        FailAt(port.where, "<inport> '" + port.name + "' has the name of the block at line " +
                               std::to_string(node.where.line) +
                               "; an external input and a block need different names");
      }
    }
    int width = 1;
    if (!port.width.empty()) {
      double value = 0.0;
      try {
        const Eigen::MatrixXd m = EvaluateNumeric(port.width, root_scope_);
        if (m.size() != 1) throw blocks::ExpressionError("expected a scalar");
        value = m(0, 0);
      } catch (const blocks::ExpressionError& e) {
        FailAt(port.where, "<inport> '" + port.name + "': width: " + e.what());
      }
      if (!(value >= 1.0) || value != std::floor(value)) {
        FailAt(port.where, "<inport> '" + port.name + "': width must be a whole number >= 1, got " +
                               FormatNumber(value));
      }
      if (value > static_cast<double>(blocks::CurrentInputLimits().signal_width)) {
        FailAt(port.where, "<inport> '" + port.name + "': width " + FormatNumber(value) + " is " +
                               blocks::OverLimit("signal_width"));
      }
      width = static_cast<int>(value);
    }
    FlatBlock fb;
    fb.path = port.name;
    fb.type = &ExternalInputType();
    fb.where = port.where;
    fb.block = std::make_unique<ExternalInput>(width);
    const int flat = static_cast<int>(flat_.size());
    flat_.push_back(std::move(fb));
    // Named as the top-level diagram names it (".tau"); seen from outside it is an input, so
    // that ResolveEndpoint's flip makes it a source inside.
    Point p;
    p.name = "." + port.name;
    p.role_outside = Role::kSink;
    p.block = flat;
    p.port = 0;
    p.is_real_output = true;
    AddPoint(std::move(p));
  }
}

void Compiler::ResolveExternalInputs() {
  for (const PortDecl& port : model_.root.ports) {
    std::optional<LoggedSignal> s = ResolveSignal("." + port.name);
    if (!s) throw std::logic_error("external input '" + port.name + "' has no signal");
    s->name = port.name;
    system_.external_inputs_.push_back(*s);
  }
}

}  // namespace twinblocks::graph
