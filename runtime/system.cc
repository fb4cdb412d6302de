#include "runtime/system.h"

#include <cmath>
#include <stdexcept>

namespace twinblocks::graph {

double SimulationSettingsValues::StartingAtol() const {
  if (atol) return *atol;
  const double r = rtol.value_or(1e-3);
  return auto_scale_atol && r < 1e-3 ? 1e-3 * r : 1e-6;
}

SimulationSettingsValues::SampleHits ParseSampleHits(const std::string& text) {
  if (text == "land") return SimulationSettingsValues::SampleHits::kLand;
  if (text == "step_over") return SimulationSettingsValues::SampleHits::kStepOver;
  throw std::invalid_argument("'sample_hits' must be land or step_over, got '" + text + "'");
}

SimulationSettingsValues::JacobianMethod ParseJacobianMethod(const std::string& text) {
  using Method = SimulationSettingsValues::JacobianMethod;
  for (Method m : {Method::kAuto, Method::kPerturbation, Method::kBlocks}) {
    if (text == JacobianMethodWord(m)) return m;
  }
  throw std::invalid_argument("'jacobian_method' must be auto, perturbation or blocks, got '" +
                              text + "'");
}

const char* JacobianMethodWord(SimulationSettingsValues::JacobianMethod method) {
  switch (method) {
    case SimulationSettingsValues::JacobianMethod::kAuto:
      return "auto";
    case SimulationSettingsValues::JacobianMethod::kPerturbation:
      return "perturbation";
    case SimulationSettingsValues::JacobianMethod::kBlocks:
      return "blocks";
  }
  return "auto";
}

System::System() = default;
System::System(System&&) noexcept = default;
System& System::operator=(System&&) noexcept = default;
System::~System() = default;

int System::FindBlock(const std::string& path) const {
  for (int i = 0; i < num_blocks(); ++i) {
    if (paths_[i] == path) return i;
  }
  return -1;
}

std::string System::DescribeState(int i) const {
  int offset = 0;
  for (int b = 0; b < num_blocks(); ++b) {
    const int n = blocks_[b]->num_continuous_states();
    if (i < offset + n) {
      const std::string own = blocks_[b]->DescribeContinuousState(i - offset);
      if (!own.empty()) return own;
      return paths_[b] + " (" + types_[b] + ") state " + std::to_string(i - offset);
    }
    offset += n;
  }
  return "state " + std::to_string(i);
}

Eigen::VectorXd System::StateAbsoluteTolerances(double atol) const {
  Eigen::VectorXd tol;
  int offset = 0;
  for (int b = 0; b < num_blocks(); ++b) {
    const int n = blocks_[b]->num_continuous_states();
    for (int k = 0; k < n; ++k) {
      const double own = blocks_[b]->state_abs_tol(k);
      if (std::isnan(own)) continue;
      if (tol.size() == 0) tol = Eigen::VectorXd::Constant(num_continuous_states(), atol);
      tol[offset + k] = own;
    }
    offset += n;
  }
  return tol;
}

std::optional<LoggedSignal> System::FindSignal(const std::string& path_port) const {
  for (const LoggedSignal& s : directory_) {
    if (s.name == path_port) return s;
  }
  return std::nullopt;
}

const LoggedSignal* System::FindLogged(const std::string& path_port) const {
  const std::optional<LoggedSignal> source = FindSignal(path_port);
  if (!source) return nullptr;
  // By buffer offset: the same output may be logged under an `as` name.
  for (const LoggedSignal& l : logged_) {
    if (l.offset == source->offset && l.width == source->width) return &l;
  }
  return nullptr;
}

void System::ReplaceBlock(int index, std::unique_ptr<blocks::Block> block) {
  const blocks::Block* old_block = blocks_[index].get();
  const blocks::Block* now = block.get();
  for (auto* order : {&major_order_, &minor_order_, &continuous_order_, &constant_order_}) {
    for (ExecutionEntry& e : *order) {
      if (e.block == old_block) e.block = now;
    }
  }
  for (auto* list : {&derivative_blocks_, &update_blocks_, &zc_blocks_, &breakpoint_blocks_}) {
    for (const blocks::Block*& b : *list) {
      if (b == old_block) b = now;
    }
  }
  blocks_[index] = std::move(block);
}

void SystemTuner::ReplaceBlock(System& system, int index, std::unique_ptr<blocks::Block> block) {
  system.ReplaceBlock(index, std::move(block));
}

blocks::Block& SystemTuner::MutableBlock(System& system, int index) {
  return *system.blocks_.at(index);
}

void System::SetParameter(const std::string& block_path, const std::string& param, double value) {
  SetParameter(block_path, param, std::vector<double>{value});
}

void System::SetParameter(const std::string& block_path, const std::string& param,
                          const std::vector<double>& values) {
  if (!tuner_) throw std::logic_error("System::SetParameter on a System not made by Compile");
  tuner_->SetParameter(*this, block_path, param, values);
}

std::vector<std::string> System::SetVariable(const std::string& name, double value) {
  return SetVariable(name, std::vector<double>{value});
}

std::vector<std::string> System::SetVariable(const std::string& name,
                                             const std::vector<double>& values) {
  if (!tuner_) throw std::logic_error("System::SetVariable on a System not made by Compile");
  return tuner_->SetVariable(*this, name, values);
}

}  // namespace twinblocks::graph
