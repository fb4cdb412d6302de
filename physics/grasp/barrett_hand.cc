#include "physics/grasp/barrett_hand.h"

#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <string>

#include "physics/grasp/detail/text.h"
#include "physics/multibody/dh.h"

namespace twinblocks::grasp {
namespace {

using multibody::ModifiedDhTransform;
using multibody::Pose;

// Angles converted back to counts carry a rounding of about 1e-12 counts; a count this far past
// a limit is taken as on it, anything further is refused.
constexpr double kBarrettCountSlack = 1e-6;

void CheckBarrettFinger(int finger) {
  if (finger < 0 || finger >= kBarrettNumFingers) {
    throw std::invalid_argument("grasp: Barrett finger index " + std::to_string(finger) +
                                "; expected 0, 1 or 2 (F1, F2, F3)");
  }
}

void CheckBarrettAngle(double angle, const char* name) {
  if (!std::isfinite(angle)) {
    throw std::invalid_argument(std::string("grasp: Barrett joint angle ") + name + " " +
                                detail::NumberText(angle) + " is not finite");
  }
}

void CheckBarrettCount(double count, double max, const std::string& name) {
  if (!std::isfinite(count) || count < -kBarrettCountSlack || count > max + kBarrettCountSlack) {
    throw std::invalid_argument("grasp: Barrett encoder count " + name + " = " +
                                detail::NumberText(count) + " is outside [0, " +
                                detail::NumberText(max) + "]");
  }
}

// Row 1 of the DH table: the knuckle of finger f turned by the spread.
Pose BarrettKnuckleFrame(int finger, double spread) {
  const int r = kBarrettSpreadSign[finger];
  const int j = kBarrettQuarterTurns[finger];
  return ModifiedDhTransform(0.0, r * kBarrettAw, r * spread - j * 90.0 * kBarrettRadPerDeg,
                             kBarrettDw);
}

}  // namespace

BarrettJointAngles CalcBarrettJointAngles(const Eigen::Vector4d& q_M) {
  for (int k = 0; k < 3; ++k) {
    CheckBarrettCount(q_M[k], kBarrettMaxFingerCounts, "q_M" + std::to_string(k + 1));
  }
  CheckBarrettCount(q_M[3], kBarrettMaxSpreadCounts, "q_M4");
  BarrettJointAngles angles;
  for (int k = 0; k < 3; ++k) {
    angles.proximal[k] = q_M[k] / kBarrettProximalCountsPerDeg * kBarrettRadPerDeg;
    angles.distal[k] = q_M[k] / kBarrettDistalCountsPerDeg * kBarrettRadPerDeg;
  }
  angles.spread = q_M[3] / kBarrettSpreadCountsPerDeg * kBarrettRadPerDeg;
  return angles;
}

Eigen::Vector4d CalcBarrettEncoderCounts(double spread, const std::array<double, 3>& proximal) {
  Eigen::Vector4d q_M;
  for (int k = 0; k < 3; ++k) {
    CheckBarrettAngle(proximal[k], "Theta2");
    q_M[k] = proximal[k] / kBarrettRadPerDeg * kBarrettProximalCountsPerDeg;
    CheckBarrettCount(q_M[k], kBarrettMaxFingerCounts, "q_M" + std::to_string(k + 1));
  }
  CheckBarrettAngle(spread, "Theta1");
  q_M[3] = spread / kBarrettRadPerDeg * kBarrettSpreadCountsPerDeg;
  CheckBarrettCount(q_M[3], kBarrettMaxSpreadCounts, "q_M4");
  // Within the slack: on the limit.
  q_M.head<3>() = q_M.head<3>().cwiseMax(0.0).cwiseMin(kBarrettMaxFingerCounts);
  q_M[3] = std::min(std::max(q_M[3], 0.0), kBarrettMaxSpreadCounts);
  return q_M;
}

BarrettFingerFrames CalcBarrettFingerFrames(int finger, double spread, double theta2,
                                            double theta3) {
  CheckBarrettFinger(finger);
  CheckBarrettAngle(spread, "Theta1");
  CheckBarrettAngle(theta2, "Theta2");
  CheckBarrettAngle(theta3, "Theta3");
  BarrettFingerFrames frames;
  frames.X_WK = BarrettKnuckleFrame(finger, spread);
  frames.X_WP = frames.X_WK * ModifiedDhTransform(90.0 * kBarrettRadPerDeg, kBarrettA1,
                                                  theta2 + kBarrettPhi2, 0.0);
  frames.X_WD = frames.X_WP * ModifiedDhTransform(0.0, kBarrettA2, theta3 + kBarrettPhi3, 0.0);
  frames.X_WT =
      frames.X_WD * ModifiedDhTransform(-90.0 * kBarrettRadPerDeg, kBarrettA3, 0.0, kBarrettD3);
  frames.p_WS_W = frames.X_WD.TransformPoint({kBarrettA3 - kBarrettTipRadius, 0.0, 0.0});
  return frames;
}

multibody::Pose CalcBarrettProximalBase(int finger, double spread) {
  CheckBarrettFinger(finger);
  CheckBarrettAngle(spread, "Theta1");
  return BarrettKnuckleFrame(finger, spread) *
         ModifiedDhTransform(90.0 * kBarrettRadPerDeg, kBarrettA1, 0.0, 0.0);
}

}  // namespace twinblocks::grasp
