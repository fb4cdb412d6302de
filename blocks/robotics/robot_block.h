#pragma once

#include <Eigen/Core>
#include <memory>
#include <string>
#include <vector>

#include "blocks/block.h"
#include "blocks/param.h"
#include "physics/multibody/kinematic_tree.h"
#include "physics/multibody/robot_model.h"

namespace twinblocks::blocks::internal {

/// Scratch of a robot block, one per simulator: the algorithms' data and the vectors they
/// need besides, so that the step loop never allocates.
struct RobotWorkspace final : BlockWorkspace {
  explicit RobotWorkspace(const multibody::KinematicTree& tree)
      : data(tree), zero_v(Eigen::VectorXd::Zero(tree.nv())), tau(tree.nv()), J(6, tree.nv()) {}
  multibody::KinematicTreeData data;
  Eigen::VectorXd zero_v;  ///< (nv) zero velocities or accelerations
  Eigen::VectorXd tau;     ///< (nv) a saved torque
  Eigen::MatrixXd J;       ///< (6 x nv) a Jacobian

  void CopyFrom(const BlockWorkspace& other) override {
    *this = static_cast<const RobotWorkspace&>(other);
  }
};

/// The common part of the blocks that compute with a robot rather than simulate it
/// (ForwardKinematics, Jacobian, InverseDynamics, MassMatrix, ...): the `robot` and `frame`
/// parameters, the model the compiler binds, and a workspace sized from it. The robot is
/// not known when the block is constructed (the compiler builds it from another part of the
/// diagram), so such blocks declare their ports with unknown widths and fix them in
/// DoConfigure from the bound tree.
class RobotBlock : public Block, public multibody::RobotUser {
 public:
  std::string robot_path() const override { return robot_path_; }
  std::string frame_path() const override { return frame_path_; }
  /// @throws BlockError when the model has no tree or its frame is not on the tree.
  void BindRobot(const multibody::RobotModel& robot) override;
  int DefaultInputWidth() const override { return robot_.tree ? robot_.tree->nq() : 1; }

 protected:
  /// Reads `robot` and, if `needs_frame`, `frame`.
  /// @throws BlockError naming the parameter when it is missing, or `frame` is empty.
  RobotBlock(const Params& params, bool needs_frame);

  /// @throws BlockError "no robot bound" unless BindRobot was called; else the tree.
  const multibody::KinematicTree& BoundTree() const;
  /// @throws BlockError naming the port unless input `port` has width `expected`.
  void CheckInputWidth(const std::vector<int>& input_widths, int port, int expected,
                       const char* size_name) const;
  std::unique_ptr<BlockWorkspace> DoMakeWorkspace() const override;
  RobotWorkspace& Scratch(const Context& c) const { return workspace<RobotWorkspace>(c); }
  /// Input `port` as a vector of `n` entries, without copying.
  Eigen::Map<const Eigen::VectorXd> InVector(const Context& c, int port, int n) const {
    return Eigen::Map<const Eigen::VectorXd>(in(c, port), n);
  }

  multibody::RobotModel robot_;  ///< empty tree until BindRobot

 private:
  std::string robot_path_;
  std::string frame_path_;
  bool needs_frame_ = false;
};

/// The `robot` and `frame` parameters, as every robot block's registry entry lists them.
inline ParamSpec RobotParam() {
  return {"robot", ParamKind::kString,
          "",      "path of the subsystem that is the robot (empty: the whole model)",
          {},      true};
}
inline ParamSpec FrameParam() {
  return {"frame", ParamKind::kString,
          "",      "frame port inside the robot, block.port relative to it (e.g. j6.F)",
          {},      true};
}

}  // namespace twinblocks::blocks::internal
