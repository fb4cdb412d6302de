#include "physics/grasp/friction_cone.h"

#include <cmath>
#include <numbers>
#include <stdexcept>
#include <string>

#include "physics/grasp/detail/text.h"
#include "physics/grasp/grasp_matrix.h"

namespace twinblocks::grasp {

namespace {

// Generator j of one contact's cone (c components, padded with zeros to 4), j < g: the one
// place the edges are written down, for CalcConeGenerators and FillPrimitiveWrenches.
Eigen::Vector4d ConeGenerator(ContactModel model, const FrictionCone& cone, int j) {
  Eigen::Vector4d e = Eigen::Vector4d::Zero();
  e[0] = 1.0;
  if (model == ContactModel::kPointWithoutFriction) {
    return e;
  }
  const int k = cone.mu > 0.0 ? cone.edges : 1;
  const int edge = j % k;
  const double theta = 2.0 * std::numbers::pi * edge / k;
  e[1] = cone.mu * std::cos(theta);
  e[2] = cone.mu * std::sin(theta);
  if (model == ContactModel::kSoftFinger && cone.torsional_mu > 0.0) {
    e[3] = j < k ? cone.torsional_mu : -cone.torsional_mu;
  }
  return e;
}

void CheckTorqueLength(double torque_length) {
  if (!std::isfinite(torque_length) || torque_length <= 0.0) {
    throw std::invalid_argument("grasp: torque scaling length " +
                                detail::NumberText(torque_length) +
                                " m; expected a finite length > 0");
  }
}

}  // namespace

int NumConeGenerators(ContactModel model, const FrictionCone& cone) {
  CheckFrictionCone(cone);
  if (model == ContactModel::kPointWithoutFriction) {
    return 1;
  }
  const int k = cone.mu > 0.0 ? cone.edges : 1;
  return model == ContactModel::kSoftFinger && cone.torsional_mu > 0.0 ? 2 * k : k;
}

Eigen::MatrixXd CalcConeGenerators(ContactModel model, const FrictionCone& cone) {
  const int g = NumConeGenerators(model, cone);
  const int c = NumContactComponents(model);
  Eigen::MatrixXd E(c, g);
  for (int j = 0; j < g; ++j) {
    E.col(j) = ConeGenerator(model, cone, j).head(c);
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

int FillPrimitiveWrenches(const Eigen::Ref<const Eigen::Matrix3Xd>& p_W,
                          const Eigen::Ref<const Eigen::Matrix3Xd>& n_W,
                          const Eigen::Vector3d& p_WO, ContactModel model, const FrictionCone& cone,
                          double torque_length,
                          Eigen::Ref<Eigen::Matrix<double, 6, Eigen::Dynamic>> W) {
  CheckTorqueLength(torque_length);
  CheckContacts(p_W, n_W, p_WO);
  const int g = NumConeGenerators(model, cone);
  const int nc = static_cast<int>(p_W.cols());
  if (W.cols() < nc * g) {
    throw std::invalid_argument("grasp: room for " + std::to_string(W.cols()) +
                                " primitive wrenches; the grasp has " + std::to_string(nc * g));
  }
  const int c = NumContactComponents(model);
  for (int i = 0; i < nc; ++i) {
    // Contact i's columns of the grasp matrix (grasp_matrix.h), padded with zeros to 4.
    const Eigen::Matrix3d R_WC = CalcContactFrame(n_W.col(i));
    const Eigen::Vector3d r = p_W.col(i) - p_WO;
    Eigen::Matrix<double, 6, 4> G_i = Eigen::Matrix<double, 6, 4>::Zero();
    for (int j = 0; j < (c == 1 ? 1 : 3); ++j) {
      G_i.block<3, 1>(0, j) = R_WC.col(j);
      G_i.block<3, 1>(3, j) = r.cross(R_WC.col(j));
    }
    if (model == ContactModel::kSoftFinger) {
      G_i.block<3, 1>(3, 3) = R_WC.col(0);
    }
    for (int j = 0; j < g; ++j) {
      const Eigen::Matrix<double, 6, 1> w = G_i * ConeGenerator(model, cone, j);
      W.col(i * g + j) << w.head<3>(), w.tail<3>() / torque_length;
    }
  }
  return nc * g;
}

Eigen::MatrixXd CalcPrimitiveWrenches(const Eigen::Matrix3Xd& p_W, const Eigen::Matrix3Xd& n_W,
                                      const Eigen::Vector3d& p_WO, ContactModel model,
                                      const FrictionCone& cone, double torque_length,
                                      std::vector<int>* contact_of) {
  CheckTorqueLength(torque_length);
  CheckContacts(p_W, n_W, p_WO);
  const int g = NumConeGenerators(model, cone);
  Eigen::MatrixXd W(6, p_W.cols() * g);
  FillPrimitiveWrenches(p_W, n_W, p_WO, model, cone, torque_length, W);
  if (contact_of != nullptr) {
    contact_of->resize(W.cols());
    for (Eigen::Index j = 0; j < W.cols(); ++j) {
      (*contact_of)[j] = static_cast<int>(j / g);
    }
  }
  return W;
}

}  // namespace twinblocks::grasp
