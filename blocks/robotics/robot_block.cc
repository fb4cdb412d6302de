#include "blocks/robotics/robot_block.h"

namespace twinblocks::blocks::internal {

RobotBlock::RobotBlock(const Params& params, bool needs_frame) : needs_frame_(needs_frame) {
  // Empty is allowed: the robot is then every frame block of the model.
  robot_path_ = params.String("robot");
  if (needs_frame) {
    frame_path_ = params.String("frame");
    if (frame_path_.empty()) {
      throw BlockError(
          "parameter 'frame' must name a frame port inside the robot as block.port (e.g. "
          "\"j6.F\")",
          "frame");
    }
  }
}

void RobotBlock::BindRobot(const multibody::RobotModel& robot) {
  if (!robot.tree) {
    throw BlockError("robot '" + robot_path_ + "' has no kinematic tree", "robot");
  }
  if (needs_frame_ && (robot.frame_body < -1 || robot.frame_body >= robot.tree->num_bodies())) {
    throw BlockError("frame '" + frame_path_ + "' is on body " + std::to_string(robot.frame_body) +
                         ", but robot '" + robot_path_ + "' has bodies 0.." +
                         std::to_string(robot.tree->num_bodies() - 1) + " (or -1, its base)",
                     "frame");
  }
  robot_ = robot;
}

const multibody::KinematicTree& RobotBlock::BoundTree() const {
  if (!robot_.tree) {
    throw BlockError(
        "no robot bound: the compiler gives this block the robot named by its "
        "'robot' parameter ('" +
            robot_path_ + "') before it sizes the ports",
        "robot");
  }
  return *robot_.tree;
}

void RobotBlock::CheckInputWidth(const std::vector<int>& input_widths, int port, int expected,
                                 const char* size_name) const {
  if (input_widths[port] != expected) {
    const std::string& name = input_port(port).name;
    throw BlockError("input '" + name + "' has width " + std::to_string(input_widths[port]) +
                         ", expected " + size_name + " = " + std::to_string(expected) +
                         " of robot '" + robot_path_ + "'",
                     {}, name);
  }
}

std::unique_ptr<BlockWorkspace> RobotBlock::DoMakeWorkspace() const {
  return std::make_unique<RobotWorkspace>(BoundTree());
}

}  // namespace twinblocks::blocks::internal
