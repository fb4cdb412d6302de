#include "physics/grasp/friction_cone.h"

#include <cmath>
#include <numbers>
#include <stdexcept>
#include <string>

#include "physics/grasp/detail/text.h"
#include "physics/grasp/grasp_matrix.h"

namespace twinblocks::grasp {

Eigen::MatrixXd CalcConeGenerators(ContactModel model, const FrictionCone& cone) {
  CheckFrictionCone(cone);
  const int c = NumContactComponents(model);
  if (model == ContactModel::kPointWithoutFriction) {
    return Eigen::MatrixXd::Ones(1, 1);
  }
  const int k = cone.mu > 0.0 ? cone.edges : 1;
  const bool twisting = model == ContactModel::kSoftFinger && cone.torsional_mu > 0.0;
  Eigen::MatrixXd E = Eigen::MatrixXd::Zero(c, twisting ? 2 * k : k);
  for (int j = 0; j < k; ++j) {
    const double theta = 2.0 * std::numbers::pi * j / k;
    const Eigen::Vector3d edge(1.0, cone.mu * std::cos(theta), cone.mu * std::sin(theta));
    E.block<3, 1>(0, j) = edge;
    if (twisting) {
      E.block<3, 1>(0, k + j) = edge;
      E(3, j) = cone.torsional_mu;
      E(3, k + j) = -cone.torsional_mu;
    }
  }
  return E;
}

Eigen::MatrixXd CalcConeFacets(ContactModel model, const FrictionCone& cone) {
  CheckFrictionCone(cone);
  const int c = NumContactComponents(model);
  if (model == ContactModel::kPointWithoutFriction) {
    return Eigen::MatrixXd::Ones(1, 1);
  }
  const int k = cone.edges;
  const bool soft = model == ContactModel::kSoftFinger;
  Eigen::MatrixXd A = Eigen::MatrixXd::Zero(1 + k + (soft ? 2 : 0), c);
  A(0, 0) = 1.0;
  const double mu_inner = cone.mu * std::cos(std::numbers::pi / k);
  for (int j = 0; j < k; ++j) {
    const double phi = (2.0 * j + 1.0) * std::numbers::pi / k;
    A.block(1 + j, 0, 1, 3) << mu_inner, -std::cos(phi), -std::sin(phi);
  }
  if (soft) {
    A(k + 1, 0) = cone.torsional_mu;
    A(k + 1, 3) = -1.0;
    A(k + 2, 0) = cone.torsional_mu;
    A(k + 2, 3) = 1.0;
  }
  A.rowwise().normalize();
  return A;
}

Eigen::MatrixXd CalcPrimitiveWrenches(const Eigen::Matrix3Xd& p_W, const Eigen::Matrix3Xd& n_W,
                                      const Eigen::Vector3d& p_WO, ContactModel model,
                                      const FrictionCone& cone, double torque_length,
                                      std::vector<int>* contact_of) {
  if (!std::isfinite(torque_length) || torque_length <= 0.0) {
    throw std::invalid_argument("grasp: torque scaling length " +
                                detail::NumberText(torque_length) +
                                " m; expected a finite length > 0");
  }
  const GraspMatrix grasp = CalcGraspMatrix(p_W, n_W, p_WO, model);
  const Eigen::MatrixXd E = CalcConeGenerators(model, cone);
  const int nc = static_cast<int>(p_W.cols());
  const int c = NumContactComponents(model);
  const Eigen::Index g = E.cols();
  Eigen::MatrixXd W(6, nc * g);
  for (int i = 0; i < nc; ++i) {
    W.middleCols(i * g, g).noalias() = grasp.G.middleCols(i * c, c) * E;
  }
  W.bottomRows(3) /= torque_length;
  if (contact_of != nullptr) {
    contact_of->resize(W.cols());
    for (Eigen::Index j = 0; j < W.cols(); ++j) {
      (*contact_of)[j] = static_cast<int>(j / g);
    }
  }
  return W;
}

}  // namespace twinblocks::grasp
