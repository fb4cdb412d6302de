#include "blocks/multibody/rigid_transform.h"

#include <Eigen/Geometry>
#include <memory>
#include <string>
#include <vector>

#include "blocks/multibody/detail/frame_params.h"
#include "blocks/multibody/mechanism_builder.h"

namespace twinblocks::multibody {

using blocks::BlockError;
using blocks::BlockType;
using blocks::ParamKind;
using blocks::Params;
using namespace internal;

RigidTransformElement::RigidTransformElement(const Params& p) {
  FramePort("B");
  FramePort("F");
  X_BF.translation = Vector3(p, "translation");
  const std::string& rotation = p.Word("rotation");
  Eigen::Matrix3d R = Eigen::Matrix3d::Identity();
  if (rotation == "axis_angle") {
    R = Eigen::AngleAxisd(p.Scalar("angle"), UnitAxis(p, "axis")).toRotationMatrix();
  } else if (rotation == "rpy") {
    const Eigen::Vector3d rpy = Vector3(p, "rpy");
    R = Rz(rpy.z()) * Ry(rpy.y()) * Rx(rpy.x());  // roll, pitch, yaw about fixed x, y, z
  } else if (rotation == "quaternion") {
    R = UnitQuaternion(p.Vector("quaternion"), "quaternion").toRotationMatrix();
  } else if (rotation == "matrix") {
    const Eigen::MatrixXd m = p.Matrix("matrix");
    if (m.rows() != 3 || m.cols() != 3) {
      throw BlockError("parameter 'matrix' must be 3x3 (row-major rows), got " +
                           std::to_string(m.rows()) + "x" + std::to_string(m.cols()),
                       "matrix");
    }
    R = m;
    if ((R.transpose() * R - Eigen::Matrix3d::Identity()).cwiseAbs().maxCoeff() > 1e-6 ||
        R.determinant() < 0.0) {
      throw BlockError("parameter 'matrix' must be a rotation (orthonormal, determinant +1)",
                       "matrix");
    }
    // Re-orthonormalize what passed the check so that round-off does not accumulate.
    R = Eigen::Quaterniond(R).normalized().toRotationMatrix();
  }
  X_BF.rotation = R;
  if (!X_BF.translation.allFinite() || !R.allFinite()) {
    throw BlockError("the transform is not finite");
  }
}

BlockType RigidTransformType() {
  BlockType t = internal::MultibodyType("RigidTransform", "A fixed offset between two frames.");
  t.doc =
      "F = B * T, with T = [R p; 0 1] fixed: p = translation (m, in B) and R from `rotation`: "
      "axis_angle (unit `axis`, `angle` in rad), rpy (roll, pitch, yaw about the fixed x, y, z "
      "axes: R = Rz(yaw) Ry(pitch) Rx(roll)), quaternion ([w, x, y, z], normalized) or matrix "
      "(3x3, rows). Frames joined by rigid transforms belong to one rigid body.";
  t.reference = "Simscape Multibody Rigid Transform";
  t.params = {{"translation", ParamKind::kVector, "[0, 0, 0]", "p of F in B, m"},
              {"rotation",
               ParamKind::kWord,
               "none",
               "how R is given",
               {"none", "axis_angle", "rpy", "quaternion", "matrix"}},
              {"axis", ParamKind::kVector, "[0, 0, 1]", "rotation axis (axis_angle)"},
              {"angle", ParamKind::kScalar, "0", "rotation angle, rad (axis_angle)"},
              {"rpy", ParamKind::kVector, "[0, 0, 0]", "roll, pitch, yaw, rad (rpy)"},
              {"quaternion", ParamKind::kVector, "[1, 0, 0, 0]", "[w, x, y, z] (quaternion)"},
              {"matrix", ParamKind::kMatrix, "[[1,0,0],[0,1,0],[0,0,1]]", "R, rows (matrix)"}};
  t.physical_ports = internal::BaseFollowerPorts();
  t.create = [](const Params& p) { return std::make_unique<RigidTransformElement>(p); };
  return t;
}

void RigidTransformElement::Contribute(MechanismBuilder& builder) const {
  builder.AddRigidConnection(X_BF);
}

}  // namespace twinblocks::multibody
