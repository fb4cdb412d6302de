#pragma once

// Grasps the grasp library's tests share.

#include <Eigen/Core>
#include <cmath>
#include <numbers>

namespace twinblocks::grasp::testing {

/// The test sphere's radius (m).
inline constexpr double kSphereRadius = 0.05;
/// m g of the test object (N): 0.2 kg.
inline constexpr double kWeight = 0.2 * 9.81;

/// nc contacts spaced 2 pi / nc apart on the equator (z = 0) of a sphere of radius r centred
/// at the origin, the first at angle `phase` (rad) from +x; normals point to the centre.
/// The default, 10 degrees, keeps every normal's x and y nonzero, so that each contact
/// frame's t1 is z (CalcContactFrame: the axis of the smallest |n_k|, without a tie).
inline void EquatorGrasp(int nc, double r, Eigen::Matrix3Xd* p_W, Eigen::Matrix3Xd* n_W,
                         double phase = 10.0 * std::numbers::pi / 180.0) {
  p_W->resize(3, nc);
  n_W->resize(3, nc);
  for (int i = 0; i < nc; ++i) {
    const double theta = phase + 2.0 * std::numbers::pi * i / nc;
    const Eigen::Vector3d radial(std::cos(theta), std::sin(theta), 0.0);
    p_W->col(i) = r * radial;
    n_W->col(i) = -radial;
  }
}

}  // namespace twinblocks::grasp::testing
