#include "blocks/block.h"

#include <algorithm>
#include <stdexcept>
#include <string>

#include "common/input_limits.h"

namespace twinblocks::blocks {

int Block::FindInput(const std::string& name) const {
  for (int i = 0; i < num_inputs(); ++i) {
    if (inputs_[i].name == name) return i;
  }
  return -1;
}

int Block::FindOutput(const std::string& name) const {
  for (int i = 0; i < num_outputs(); ++i) {
    if (outputs_[i].name == name) return i;
  }
  return -1;
}

int Block::FindPhysicalPort(const std::string& name) const {
  for (int i = 0; i < num_physical_ports(); ++i) {
    if (physical_[i].name == name) return i;
  }
  return -1;
}

int Block::DeclarePhysicalPort(std::string name, std::string domain) {
  physical_.push_back({std::move(name), std::move(domain)});
  return num_physical_ports() - 1;
}

int Block::CheckedCount(std::int64_t n, const char* what) {
  const std::int64_t limit = CurrentInputLimits().block_values;
  if (n < 0 || n > limit) {
    throw BlockError("the block needs " + std::to_string(n) + " " + what + ", " +
                     OverLimit("block_values"));
  }
  return static_cast<int>(n);
}

void Block::CheckPortCountParam(std::int64_t n, const char* param) {
  if (n <= CurrentInputLimits().ports) return;
  throw BlockError("parameter '" + std::string(param) + "' asks for " + std::to_string(n) +
                       " ports, " + OverLimit("ports"),
                   param);
}

namespace {

// A block's ports are as many as its parameters say (a Demux's outputs, a Sum's signs): check
// each against the ports limit before it is made, not a billion of them after, and each
// declared width against the signal_width limit.
void CheckPortCount(size_t ports, int width) {
  const InputLimits& limits = CurrentInputLimits();
  if (static_cast<std::int64_t>(ports) >= limits.ports) {
    throw BlockError("the block needs more than " + std::to_string(ports) + " ports, " +
                     OverLimit("ports"));
  }
  if (width > limits.signal_width) {
    throw BlockError("a port of width " + std::to_string(width) + " is " +
                     OverLimit("signal_width"));
  }
}

}  // namespace

int Block::DeclareInput(std::string name, int width, unsigned feedthrough) {
  CheckPortCount(inputs_.size(), width);
  inputs_.push_back({std::move(name), width, feedthrough, -1});
  return num_inputs() - 1;
}

int Block::DeclareOutput(std::string name, int width, int stage) {
  CheckPortCount(outputs_.size(), width);
  outputs_.push_back({std::move(name), width, stage, -1});
  num_stages_ = std::max(num_stages_, stage + 1);
  return num_outputs() - 1;
}

void Block::DeclareSampleTime(SampleTime st, bool requires_discrete) {
  sample_time_ = st;
  requires_discrete_ = requires_discrete;
}

void Block::Configure(const std::vector<int>& input_widths,
                      const std::vector<SignalShape>& input_shapes) {
  for (int i = 0; i < num_inputs(); ++i) {
    const int declared = inputs_[i].width;
    const int given = input_widths[i];
    if (declared != kDynamicWidth && declared != given) {
      throw BlockError("input '" + inputs_[i].name + "' has width " + std::to_string(given) +
                           ", expected " + std::to_string(declared),
                       {}, inputs_[i].name);
    }
    inputs_[i].width = given;
    // A shape that does not fit the width (a driver whose width a feedback loop made the
    // compiler assume) is no shape.
    const bool fits = i < static_cast<int>(input_shapes.size()) && input_shapes[i].Fits(given);
    inputs_[i].shape = fits ? input_shapes[i] : SignalShape::Vector();
  }
  DoConfigure(input_widths);
  const InputLimits& limits = CurrentInputLimits();
  std::int64_t values = std::int64_t{nx_} + nz_ + nxd_ + ndwork_ + nmodes_ + nzc_;
  for (OutputPort& p : outputs_) {
    if (p.width < 0) {
      throw BlockError("the width of output '" + p.name + "' could not be determined", {}, p.name);
    }
    if (p.width > limits.signal_width) {
      throw BlockError("output '" + p.name + "' has width " + std::to_string(p.width) + ", " +
                           OverLimit("signal_width"),
                       {}, p.name);
    }
    values += p.width;
    if (p.shape_set && !p.shape.Fits(p.width)) {
      throw std::logic_error("output '" + p.name + "' is a " + p.shape.Describe() +
                             " but has width " + std::to_string(p.width));
    }
    if (!p.shape_set) p.shape = InheritedShape(p.width);
  }
  if (values > limits.block_values) {
    throw BlockError("the block needs " + std::to_string(values) +
                     " values (outputs, states and work memory), " + OverLimit("block_values"));
  }
}

SignalShape Block::InheritedShape(int width) const {
  // The element-wise pattern: every input has the output's width or is a scalar that expands.
  if (width <= 1) return SignalShape::Vector();
  const SignalShape* shape = nullptr;
  for (const InputPort& in : inputs_) {
    if (in.width == 1) continue;
    if (in.width != width) return SignalShape::Vector();
    if (shape == nullptr) {
      shape = &in.shape;
    } else if (!(*shape == in.shape)) {
      return SignalShape::Vector();
    }
  }
  return shape != nullptr ? *shape : SignalShape::Vector();
}

bool Block::StiffJacobianStructure(std::vector<std::pair<int, int>>* entries) const {
  const size_t first = entries->size();
  if (!DoStiffJacobianStructure(entries)) {
    entries->resize(first);
    return false;
  }
  for (size_t i = first; i < entries->size(); ++i) {
    (*entries)[i].first += x_offset_;
    (*entries)[i].second += x_offset_;
  }
  return true;
}

int Block::CommonWidth(const std::vector<int>& widths) const {
  int common = 1;
  for (int i = 0; i < static_cast<int>(widths.size()); ++i) {
    const int w = widths[i];
    if (w == 1) continue;
    if (common == 1) {
      common = w;
    } else if (w != common) {
      throw BlockError("input '" + inputs_[i].name + "' has width " + std::to_string(w) +
                           ", but another input has width " + std::to_string(common) +
                           " (inputs must have equal widths or be scalars)",
                       {}, inputs_[i].name);
    }
  }
  return common;
}

void Block::DoConfigure(const std::vector<int>& input_widths) {
  const int w = input_widths.empty() ? 1 : CommonWidth(input_widths);
  for (OutputPort& p : outputs_) {
    if (p.width == kDynamicWidth) p.width = w;
  }
}

void Block::SetLayout(const Layout& layout) {
  index_ = layout.index;
  x_offset_ = layout.x;
  xd_offset_ = layout.xd;
  dwork_offset_ = layout.dwork;
  modes_offset_ = layout.modes;
  zc_offset_ = layout.zc;
  z_offset_ = layout.z;
  rate_index_ = layout.rate_index;
  condition_ = layout.condition;
  sample_time_ = layout.sample_time;
}

void Block::DoCalcResidual(Context& c) const {
  DoCalcDerivatives(c);
  const double* f = c.xdot + x_offset_;
  const double* xp = c.xp + x_offset_;
  double* r = c.residual + x_offset_;
  for (int i = 0; i < nx_; ++i) r[i] = xp[i] - f[i];
}

}  // namespace twinblocks::blocks
