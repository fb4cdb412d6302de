#pragma once

#include <string>

#include "model/model.h"
#include "physics/multibody/robot_model.h"

namespace twinblocks::graph {

/// The robot of a model as the compiler builds it for the robotics blocks: the kinematic
/// tree of the subsystem `robot` (empty: the whole model) with its base and joint limits, and
/// the frame `frame` (block.port relative to the robot) on it. For code that computes with a
/// robot outside a simulation (the Python kinematics API, benchmarks): it compiles a copy of
/// the model with one NumericalInverseKinematics block naming the robot and frame, so the
/// robot is exactly the one such a block would see.
/// @throws ModelError as Compile does, naming the robot or the frame when they are not found
///   or no joint moves the frame.
multibody::RobotModel CompileRobotModel(const Model& model, const std::string& robot,
                                        const std::string& frame);

}  // namespace twinblocks::graph
