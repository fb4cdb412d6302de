#pragma once

// A model of a robot for blocks that compute with it rather than simulate it (forward
// kinematics, Jacobians, inverse dynamics, the mass matrix): the kinematic tree of a frame
// network and the frame of interest on it. The compiler builds one from the subsystem a
// block names in its `robot` parameter and hands it over (BindRobot) before port widths are
// propagated, so such blocks size their ports from the tree.

#include <Eigen/Core>
#include <memory>
#include <string>

#include "physics/multibody/kinematic_tree.h"
#include "physics/spatial/spatial.h"

namespace twinblocks::multibody {

struct RobotModel {
  /// The robot's bodies and joints. The robot's base (the frame its subsystem is attached
  /// by) is the tree's world. Coordinates are ordered like the tree's bodies: base to tip for
  /// a chain, depth first in file order for a branched robot.
  std::shared_ptr<const KinematicTree> tree;
  int frame_body = -1;  ///< the body the frame of interest is fixed in; -1: the base
  Pose X_BF;            ///< the frame of interest in that body's frame
  std::string name;     ///< for messages: the robot's path
  /// Position limits of the coordinates (nq each), the joints' `lower` and `upper`;
  /// -infinity and +infinity where a joint has none (and for ball and free joints).
  Eigen::VectorXd lower, upper;
};

/// Implemented by blocks that need a RobotModel.
class RobotUser {
 public:
  virtual ~RobotUser() = default;
  /// The `robot` parameter: path of the subsystem whose frame network is the robot.
  virtual std::string robot_path() const = 0;
  /// The `frame` parameter: "block.port" of a frame port inside the robot, relative to it
  /// (e.g. "j6.F"); empty when the block needs no frame.
  virtual std::string frame_path() const = 0;
  /// @throws blocks::BlockError when the robot does not suit the block.
  virtual void BindRobot(const RobotModel& robot) = 0;
};

}  // namespace twinblocks::multibody
