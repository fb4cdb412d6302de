#include "blocks/robotics/register_robotics_blocks.h"

#include "blocks/robotics/computed_torque.h"
#include "blocks/robotics/finger_inverse_kinematics.h"
#include "blocks/robotics/finger_kinematics.h"
#include "blocks/robotics/forward_kinematics.h"
#include "blocks/robotics/gravity_torque.h"
#include "blocks/robotics/inverse_dynamics.h"
#include "blocks/robotics/inverse_kinematics.h"
#include "blocks/robotics/jacobian.h"
#include "blocks/robotics/mass_matrix.h"
#include "blocks/robotics/numerical_inverse_kinematics.h"
#include "blocks/robotics/stewart_ik.h"
#include "blocks/robotics/trajectory.h"
#include "blocks/robotics/velocity_product_torque.h"

namespace twinblocks::blocks {

void RegisterRoboticsBlocks(BlockRegistry& r) {
  r.Add(TrajectoryType());
  r.Add(InverseKinematicsType());
  r.Add(NumericalInverseKinematicsType());
  r.Add(ForwardKinematicsType());
  r.Add(JacobianType());
  r.Add(InverseDynamicsType());
  r.Add(MassMatrixType());
  r.Add(GravityTorqueType());
  r.Add(VelocityProductTorqueType());
  r.Add(ComputedTorqueType());
  r.Add(StewartIKType());
  r.Add(FingerKinematicsType());
  r.Add(FingerInverseKinematicsType());
}

}  // namespace twinblocks::blocks
