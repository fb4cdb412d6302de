#include "physics/multibody/jacobian.h"

#include <stdexcept>
#include <string>

namespace twinblocks::multibody {

namespace {

// J must be rows x nv and body a body of the tree or -1 (the world).
void CheckArguments(const char* who, const KinematicTree& tree, int body,
                    const Eigen::Ref<Eigen::MatrixXd>& J, int rows) {
  if (J.rows() != rows || J.cols() != tree.nv()) {
    throw std::logic_error(std::string(who) + ": J is " + std::to_string(J.rows()) + " x " +
                           std::to_string(J.cols()) + ", the tree needs " + std::to_string(rows) +
                           " x " + std::to_string(tree.nv()));
  }
  if (body < -1 || body >= tree.num_bodies()) {
    throw std::logic_error(std::string(who) + ": body " + std::to_string(body) +
                           " is not in [-1, " + std::to_string(tree.num_bodies()) + ")");
  }
}

}  // namespace

void FrameJacobian(const KinematicTree& tree, const KinematicTreeData& data, int body,
                   const Pose& X_BF, Eigen::Ref<Eigen::MatrixXd> J) {
  CheckArguments("FrameJacobian", tree, body, J, 6);
  J.setZero();
  if (body < 0) return;
  // F's origin in W: the point whose velocity the linear rows give.
  const Eigen::Vector3d p_WF = data.X_WB[body].TransformPoint(X_BF.translation);
  for (int i = body; i >= 0; i = tree.parent(i)) {
    const Joint& joint = tree.joint(i);
    const MotionSubspace& S = joint.motion_subspace();
    const Pose& X_WB = data.X_WB[i];
    // Column k of S is body i's velocity per unit v_k, in B at B's origin; in world axes the
    // angular part is R w, and the point of the body at F's origin moves with
    // R v + (R w) x (p_WF - p_WB).
    const Eigen::Vector3d r = p_WF - X_WB.translation;
    const int iv = tree.idx_v(i);
    for (int k = 0; k < joint.nv(); ++k) {
      const Eigen::Vector3d w = X_WB.rotation * S.col(k).head<3>();
      J.col(iv + k).head<3>() = w;
      J.col(iv + k).tail<3>() = X_WB.rotation * S.col(k).tail<3>() + w.cross(r);
    }
  }
}

void AddPointJacobian(const KinematicTree& tree, const KinematicTreeData& data, int body,
                      const Eigen::Vector3d& p_W, double scale, Eigen::Ref<Eigen::MatrixXd> J) {
  CheckArguments("AddPointJacobian", tree, body, J, 3);
  for (int i = body; i >= 0; i = tree.parent(i)) {
    const Joint& joint = tree.joint(i);
    const MotionSubspace& S = joint.motion_subspace();
    const Pose& X_WB = data.X_WB[i];
    const Eigen::Vector3d r = p_W - X_WB.translation;
    const int iv = tree.idx_v(i);
    for (int k = 0; k < joint.nv(); ++k) {
      const Eigen::Vector3d w = X_WB.rotation * S.col(k).head<3>();
      J.col(iv + k) += scale * (X_WB.rotation * S.col(k).tail<3>() + w.cross(r));
    }
  }
}

}  // namespace twinblocks::multibody
