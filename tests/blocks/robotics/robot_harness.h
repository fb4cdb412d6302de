#pragma once

// A block that computes with a robot model (a RobotUser), run on its own: made from the
// catalog, bound to a robot and configured the way the compiler does it, for unit tests.

#include <gtest/gtest.h>

#include <Eigen/Core>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

#include "blocks/block.h"
#include "physics/multibody/robot_model.h"
#include "tests/blocks/block_test_helpers.h"

namespace twinblocks::blocks::testing {

// Makes the block, binds the robot, configures with the widths the robot asks for (or the
// given ones), lays out inputs then outputs, and runs outputs at major steps.
class RobotHarness {
 public:
  RobotHarness(const std::string& type, const ParamTexts& texts, const multibody::RobotModel& robot,
               std::vector<int> widths = {}) {
    const BlockType& t = TypeOf(type);
    block_ = t.create(MakeParams(t, texts));
    user_ = dynamic_cast<multibody::RobotUser*>(block_.get());
    if (user_ == nullptr) throw std::logic_error(type + " is not a RobotUser");
    user_->BindRobot(robot);
    if (widths.empty()) {
      for (int i = 0; i < block_->num_inputs(); ++i) {
        widths.push_back(block_->input_port(i).name == "q" ? robot.tree->nq() : robot.tree->nv());
      }
    }
    block_->Configure(widths);
    Block::Layout layout;
    layout.index = 0;
    layout.sample_time = SampleTime::Continuous();
    block_->SetLayout(layout);
    int offset = 0;
    for (int i = 0; i < block_->num_inputs(); ++i) {
      block_->SetInputOffset(i, offset);
      offset += block_->input_port(i).width;
    }
    for (int i = 0; i < block_->num_outputs(); ++i) {
      block_->SetOutputOffset(i, offset);
      offset += block_->output_port(i).width;
    }
    signals_.assign(offset, 0.0);
    dwork_.assign(block_->num_dwork(), 0.0);
    workspace_ = block_->MakeWorkspace();
    workspaces_ = {workspace_.get()};
    c_.signals = signals_.data();
    c_.dwork = dwork_.data();
    c_.workspaces = workspaces_.data();
    block_->Initialize(c_);
  }

  const Block& block() const { return *block_; }
  multibody::RobotUser& user() { return *user_; }

  void SetInput(const std::string& port, const Eigen::VectorXd& v) {
    const Block::InputPort& p = block_->input_port(block_->FindInput(port));
    ASSERT_EQ(v.size(), p.width) << port;
    for (int k = 0; k < p.width; ++k) signals_[p.offset + k] = v[k];
  }
  /// Computes the outputs, and nothing else (for counting allocations).
  void CalcOutputs() { block_->CalcOutputs(c_, 0); }
  Eigen::VectorXd Output(const std::string& port) {
    block_->CalcOutputs(c_, 0);
    const Block::OutputPort& p = block_->output_port(block_->FindOutput(port));
    return Eigen::Map<const Eigen::VectorXd>(signals_.data() + p.offset, p.width);
  }

 private:
  std::unique_ptr<Block> block_;
  multibody::RobotUser* user_ = nullptr;
  std::vector<double> signals_, dwork_;
  std::unique_ptr<BlockWorkspace> workspace_;
  std::vector<BlockWorkspace*> workspaces_;
  Context c_;
};

}  // namespace twinblocks::blocks::testing
