#include "physics/grasp/grasp_input.h"

#include <cmath>
#include <stdexcept>
#include <string>

#include "physics/grasp/detail/text.h"

namespace twinblocks::grasp {
namespace {

using detail::NumberText;
using detail::VectorText;

[[noreturn]] void FailInput(const std::string& message) { throw std::invalid_argument(message); }

}  // namespace

int NumContactComponents(ContactModel model) {
  switch (model) {
    case ContactModel::kPointWithoutFriction:
      return 1;
    case ContactModel::kHardFinger:
      return 3;
    case ContactModel::kSoftFinger:
      return 4;
  }
  FailInput("grasp: unknown contact model");
}

void CheckContacts(const Eigen::Ref<const Eigen::Matrix3Xd>& p_W,
                   const Eigen::Ref<const Eigen::Matrix3Xd>& n_W, const Eigen::Vector3d& p_WO) {
  const Eigen::Index nc = p_W.cols();
  if (n_W.cols() != nc) {
    FailInput("grasp: " + std::to_string(nc) + " contact points but " + std::to_string(n_W.cols()) +
              " normals; expected one normal per contact");
  }
  if (nc < 2) {
    FailInput("grasp: " + std::to_string(nc) + " contact(s); expected at least 2");
  }
  if (nc > kMaxContacts) {
    FailInput("grasp: " + std::to_string(nc) + " contacts; at most " +
              std::to_string(kMaxContacts) + " are analysed");
  }
  if (!p_WO.allFinite()) {
    FailInput("grasp: the object's reference point " + VectorText(p_WO) + " is not finite");
  }
  for (Eigen::Index i = 0; i < nc; ++i) {
    // The name is made only on failure: a valid grasp is checked without touching the heap
    // (FillPrimitiveWrenches runs in simulation loops).
    const auto name = [i] { return "grasp: contact " + std::to_string(i); };
    if (!p_W.col(i).allFinite()) {
      FailInput(name() + ": point " + VectorText(p_W.col(i)) + " is not finite");
    }
    if (!n_W.col(i).allFinite()) {
      FailInput(name() + ": normal " + VectorText(n_W.col(i)) + " is not finite");
    }
    const double length = n_W.col(i).norm();
    if (std::abs(length - 1.0) > kUnitNormalTolerance) {
      FailInput(name() + ": normal " + VectorText(n_W.col(i)) + " has length " +
                NumberText(length) + "; expected a unit vector (to " +
                NumberText(kUnitNormalTolerance) + ")");
    }
  }
}

void CheckFrictionCone(const FrictionCone& cone) {
  if (!std::isfinite(cone.mu) || cone.mu < 0.0) {
    FailInput("grasp: friction coefficient mu = " + NumberText(cone.mu) +
              "; expected a finite mu >= 0");
  }
  if (!std::isfinite(cone.torsional_mu) || cone.torsional_mu < 0.0) {
    FailInput("grasp: torsional friction coefficient = " + NumberText(cone.torsional_mu) +
              " m; expected a finite value >= 0");
  }
  if (cone.edges < 3 || cone.edges > kMaxConeEdges) {
    FailInput("grasp: " + std::to_string(cone.edges) + " friction cone edges; expected 3 to " +
              std::to_string(kMaxConeEdges));
  }
}

void CheckContactsOnSphere(const Eigen::Matrix3Xd& p_W, const Eigen::Vector3d& p_WS, double r,
                           double tolerance) {
  if (!p_WS.allFinite() || !std::isfinite(r) || r <= 0.0 || !std::isfinite(tolerance) ||
      tolerance < 0.0) {
    FailInput("grasp: sphere centre " + VectorText(p_WS) + ", radius " + NumberText(r) +
              " m, tolerance " + NumberText(tolerance) +
              " m; expected finite values, r > 0, tolerance >= 0");
  }
  for (Eigen::Index i = 0; i < p_W.cols(); ++i) {
    const double distance = std::abs((p_W.col(i) - p_WS).norm() - r);
    if (!(distance <= tolerance)) {
      FailInput("grasp: contact " + std::to_string(i) + " at " + VectorText(p_W.col(i)) + " is " +
                NumberText(distance) + " m from the sphere's surface; expected at most " +
                NumberText(tolerance) + " m");
    }
  }
}

void CheckContactsOnBox(const Eigen::Matrix3Xd& p_W, const multibody::Pose& X_WB,
                        const Eigen::Vector3d& half_extents, double tolerance) {
  if (!half_extents.allFinite() || (half_extents.array() <= 0.0).any() ||
      !std::isfinite(tolerance) || tolerance < 0.0) {
    FailInput("grasp: box half extents " + VectorText(half_extents) + " m, tolerance " +
              NumberText(tolerance) +
              " m; expected finite positive half extents and tolerance >= 0");
  }
  const multibody::Pose X_BW = X_WB.Inverse();
  for (Eigen::Index i = 0; i < p_W.cols(); ++i) {
    const Eigen::Vector3d p_B = X_BW.TransformPoint(p_W.col(i));
    const Eigen::Vector3d excess = p_B.cwiseAbs() - half_extents;
    // Outside: the distance to the box; inside: the distance to the nearest face.
    const double distance =
        excess.maxCoeff() > 0.0 ? excess.cwiseMax(0.0).norm() : -excess.maxCoeff();
    if (!(distance <= tolerance)) {
      FailInput("grasp: contact " + std::to_string(i) + " at " + VectorText(p_W.col(i)) + " is " +
                NumberText(distance) + " m from the box's surface; expected at most " +
                NumberText(tolerance) + " m");
    }
  }
}

void CheckContactsOnCylinder(const Eigen::Matrix3Xd& p_W, const multibody::Pose& X_WC, double r,
                             double h, double tolerance) {
  if (!X_WC.translation.allFinite() || !X_WC.rotation.allFinite() || !std::isfinite(r) ||
      r <= 0.0 || !std::isfinite(h) || h <= 0.0 || !std::isfinite(tolerance) || tolerance < 0.0) {
    FailInput("grasp: cylinder at " + VectorText(X_WC.translation) + ", radius " + NumberText(r) +
              " m, height " + NumberText(h) + " m, tolerance " + NumberText(tolerance) +
              " m; expected finite values, r > 0, h > 0, tolerance >= 0");
  }
  const multibody::Pose X_CW = X_WC.Inverse();
  for (Eigen::Index i = 0; i < p_W.cols(); ++i) {
    const Eigen::Vector3d p_C = X_CW.TransformPoint(p_W.col(i));
    // Beyond the side (radially) and beyond the ends (axially); as for the box, outside the
    // distance to the solid, inside the distance to the nearest of side and ends.
    const Eigen::Vector2d excess(p_C.head<2>().norm() - r, std::abs(p_C.z()) - 0.5 * h);
    const double distance =
        excess.maxCoeff() > 0.0 ? excess.cwiseMax(0.0).norm() : -excess.maxCoeff();
    if (!(distance <= tolerance)) {
      FailInput("grasp: contact " + std::to_string(i) + " at " + VectorText(p_W.col(i)) + " is " +
                NumberText(distance) + " m from the cylinder's surface; expected at most " +
                NumberText(tolerance) + " m");
    }
  }
}

}  // namespace twinblocks::grasp
