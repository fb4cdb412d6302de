#include "physics/grasp/grasp_matrix.h"

#include <Eigen/SVD>
#include <cmath>

namespace twinblocks::grasp {

Eigen::Matrix3d CalcContactFrame(const Eigen::Vector3d& n_W) {
  int k = 0;
  for (int j = 1; j < 3; ++j) {
    if (std::abs(n_W[j]) < std::abs(n_W[k])) {
      k = j;
    }
  }
  // |n_k| <= 1/sqrt(3), so |e_k - n_k n| >= sqrt(2/3): the projection is never short.
  const Eigen::Vector3d t1 = (Eigen::Vector3d::Unit(k) - n_W[k] * n_W).normalized();
  Eigen::Matrix3d R_WC;
  R_WC.col(0) = n_W;
  R_WC.col(1) = t1;
  R_WC.col(2) = n_W.cross(t1);
  return R_WC;
}

GraspMatrix CalcGraspMatrix(const Eigen::Matrix3Xd& p_W, const Eigen::Matrix3Xd& n_W,
                            const Eigen::Vector3d& p_WO, ContactModel model) {
  CheckContacts(p_W, n_W, p_WO);
  const int nc = static_cast<int>(p_W.cols());
  const int c = NumContactComponents(model);
  GraspMatrix out;
  out.G.setZero(6, nc * c);
  out.R_WC.reserve(nc);
  for (int i = 0; i < nc; ++i) {
    const Eigen::Matrix3d R_WC = CalcContactFrame(n_W.col(i));
    const Eigen::Vector3d r = p_W.col(i) - p_WO;
    const int directions = c == 1 ? 1 : 3;
    for (int j = 0; j < directions; ++j) {
      out.G.block<3, 1>(0, i * c + j) = R_WC.col(j);
      out.G.block<3, 1>(3, i * c + j) = r.cross(R_WC.col(j));
    }
    if (model == ContactModel::kSoftFinger) {
      out.G.block<3, 1>(3, i * c + 3) = R_WC.col(0);
    }
    out.R_WC.push_back(R_WC);
  }
  const Eigen::JacobiSVD<Eigen::MatrixXd> svd(out.G);
  out.singular_values.setZero();
  const Eigen::VectorXd& s = svd.singularValues();
  out.singular_values.head(s.size()) = s;
  out.min_singular_value = out.singular_values[5];
  return out;
}

}  // namespace twinblocks::grasp
