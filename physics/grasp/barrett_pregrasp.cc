#include "physics/grasp/barrett_pregrasp.h"

#include <Eigen/Geometry>
#include <algorithm>
#include <cmath>
#include <functional>
#include <limits>
#include <numbers>
#include <stdexcept>
#include <string>

#include "physics/grasp/barrett_finger_ik.h"
#include "physics/grasp/barrett_hand.h"
#include "physics/grasp/detail/text.h"
#include "physics/grasp/grasp_input.h"
#include "physics/grasp/grasp_quality.h"
#include "physics/grasp/triangle_measures.h"

namespace twinblocks::grasp {
namespace {

constexpr double kPregraspPi = std::numbers::pi;
// Below this |n . z| a triangle counts as vertical for the sign rule of n.
constexpr double kPregraspVerticalTolerance = 1e-9;

void CheckPregraspInput(const Eigen::Matrix3Xd& p_O, const Eigen::Matrix3Xd& n_O,
                        const Eigen::Vector3d& p_OC, const BarrettPregraspOptions& options) {
  using detail::NumberText;
  using detail::VectorText;
  const Eigen::Index n = p_O.cols();
  if (n_O.cols() != n) {
    throw std::invalid_argument("grasp: pregrasp has " + std::to_string(n) +
                                " candidate points but " + std::to_string(n_O.cols()) +
                                " normals; expected one normal per point");
  }
  if (n < 3 || n > kMaxTrianglePoints) {
    throw std::invalid_argument("grasp: pregrasp has " + std::to_string(n) +
                                " candidate points; expected 3 to " +
                                std::to_string(kMaxTrianglePoints));
  }
  for (Eigen::Index i = 0; i < n; ++i) {
    const std::string name = "grasp: pregrasp candidate point " + std::to_string(i);
    if (!p_O.col(i).allFinite()) {
      throw std::invalid_argument(name + " " + VectorText(p_O.col(i)) + " is not finite");
    }
    if (!n_O.col(i).allFinite()) {
      throw std::invalid_argument(name + ": normal " + VectorText(n_O.col(i)) + " is not finite");
    }
    const double length = n_O.col(i).norm();
    if (std::abs(length - 1.0) > kUnitNormalTolerance) {
      throw std::invalid_argument(name + ": normal " + VectorText(n_O.col(i)) + " has length " +
                                  NumberText(length) + "; expected a unit vector (to " +
                                  NumberText(kUnitNormalTolerance) + ")");
    }
  }
  if (!p_OC.allFinite()) {
    throw std::invalid_argument("grasp: pregrasp object centre " + VectorText(p_OC) +
                                " is not finite");
  }
  if (!(options.q1_max >= 0.0 && options.q1_max <= 2.0)) {
    throw std::invalid_argument("grasp: pregrasp option q1_max " + NumberText(options.q1_max) +
                                "; expected a value in [0, 2]");
  }
  if (!(std::isfinite(options.closure_mu) && options.closure_mu >= 0.0)) {
    throw std::invalid_argument("grasp: pregrasp option closure_mu " +
                                NumberText(options.closure_mu) +
                                "; expected mu >= 0 (0: Algorithm 1 as published)");
  }
  const bool steps_ok = std::isfinite(options.l_step) && options.l_step > 0.0 &&
                        std::isfinite(options.l_max) && options.l_max >= 0.0 &&
                        options.l_max / options.l_step <= 1e6;
  const bool tolerances_ok =
      std::isfinite(options.max_coupling_error_deg) && options.max_coupling_error_deg > 0.0 &&
      std::isfinite(options.max_plane_distance) && options.max_plane_distance > 0.0;
  if (!steps_ok || !tolerances_ok) {
    throw std::invalid_argument(
        "grasp: pregrasp options max_coupling_error_deg " +
        NumberText(options.max_coupling_error_deg) + ", max_plane_distance " +
        NumberText(options.max_plane_distance) + ", l_step " + NumberText(options.l_step) +
        ", l_max " + NumberText(options.l_max) +
        "; expected finite values, tolerances > 0, l_step > 0, l_max >= 0 and l_max / l_step "
        "<= 1e6");
  }
}

// The triangle's unit normal, signed by the rule at the top of the header.
Eigen::Vector3d PregraspSignedNormal(const Eigen::Vector3d& a, const Eigen::Vector3d& b,
                                     const Eigen::Vector3d& c) {
  Eigen::Vector3d n = (b - a).cross(c - a).normalized();
  const double key = std::abs(n.z()) > kPregraspVerticalTolerance   ? n.z()
                     : std::abs(n.x()) > kPregraspVerticalTolerance ? -n.x()
                                                                    : -n.y();
  return key < 0.0 ? Eigen::Vector3d(-n) : n;
}

// The hand's orientation about the TCP line: the columns x_W, y_W, z_W in O for roll psi
// (rad), measured from a fixed direction e1 normal to z_W.
class PregraspRollFrame {
 public:
  explicit PregraspRollFrame(const Eigen::Vector3d& z_W) : z_(z_W) {
    const Eigen::Vector3d a =
        std::abs(z_W.x()) < 0.9 ? Eigen::Vector3d::UnitX() : Eigen::Vector3d::UnitY();
    e1_ = (a - a.dot(z_W) * z_W).normalized();
    e2_ = z_W.cross(e1_);
  }
  Eigen::Matrix3d Rotation(double psi) const {
    const Eigen::Vector3d x = std::cos(psi) * e1_ + std::sin(psi) * e2_;
    Eigen::Matrix3d R;
    R << x, z_.cross(x), z_;
    return R;
  }

 private:
  Eigen::Vector3d z_, e1_, e2_;
};

// The roll and spread fit of step 4: the targets' offsets from C_T in O, per finger.
struct PregraspPlaneFit {
  std::array<Eigen::Vector3d, 3> d_O;  // target - C_T, for F1, F2, F3
  const PregraspRollFrame* frame;

  // Sum of squared plane distances (m^2); infinity when a target is not ahead of its knuckle
  // (the plane would hold it behind the finger).
  double Cost(double psi, double spread) const {
    const Eigen::Matrix3d R = frame->Rotation(psi);
    double cost = 0.0;
    for (int f = 0; f < kBarrettNumFingers; ++f) {
      const Eigen::Vector3d p = R.transpose() * d_O[f];
      const int r = kBarrettSpreadSign[f];
      const double angle = r * spread - kBarrettQuarterTurns[f] * kPregraspPi / 2.0;
      const Eigen::Vector2d along(std::cos(angle), std::sin(angle));  // x of the knuckle frame
      const Eigen::Vector2d across(-along.y(), along.x());            // y: the plane's normal
      const Eigen::Vector2d q(p.x() - r * kBarrettAw, p.y());
      if (q.dot(along) <= 0.0) {
        return std::numeric_limits<double>::infinity();
      }
      cost += q.dot(across) * q.dot(across);
    }
    return cost;
  }
};

struct PregraspFitResult {
  double cost = std::numeric_limits<double>::infinity();
  double psi = 0.0;
  double spread = 0.0;
};

// A 1 deg grid over the roll (360 deg) and the spread (0 to 180 deg), then a compass search
// from the best node down to steps of 1e-12 rad; the spread stays within its range.
PregraspFitResult FitRollAndSpread(const PregraspPlaneFit& fit) {
  PregraspFitResult best;
  for (int i = 0; i < 360; ++i) {
    for (int k = 0; k <= 180; ++k) {
      const double cost = fit.Cost(i * kBarrettRadPerDeg, k * kBarrettRadPerDeg);
      if (cost < best.cost) {
        best = {cost, i * kBarrettRadPerDeg, k * kBarrettRadPerDeg};
      }
    }
  }
  if (!std::isfinite(best.cost)) {
    return best;
  }
  for (double h = kBarrettRadPerDeg; h > 1e-12;) {
    bool moved = false;
    const double moves[4][2] = {{h, 0.0}, {-h, 0.0}, {0.0, h}, {0.0, -h}};
    for (const auto& m : moves) {
      const double psi = best.psi + m[0];
      const double spread = std::clamp(best.spread + m[1], 0.0, kPregraspPi);
      const double cost = fit.Cost(psi, spread);
      if (cost < best.cost) {
        best = {cost, psi, spread};
        moved = true;
      }
    }
    if (!moved) {
      h *= 0.5;
    }
  }
  best.psi = std::remainder(best.psi, 2.0 * kPregraspPi);
  return best;
}

// The hand at palm distance l and the exact IK of each finger for its target.
struct PregraspFingers {
  multibody::Pose X_OW;
  std::array<BarrettFingerIk, 3> ik;
};

PregraspFingers SolvePregraspFingers(const BarrettPregrasp& plan, const Eigen::Matrix3d& R_OW,
                                     double l) {
  PregraspFingers fingers;
  fingers.X_OW = multibody::Pose(R_OW, plan.p_OT + (kBarrettDw + l) * plan.n_O);
  const multibody::Pose X_WO = fingers.X_OW.Inverse();
  for (int f = 0; f < 3; ++f) {
    fingers.ik[f] = SolveBarrettFingerIk(f, plan.spread, X_WO.TransformPoint(plan.p_OG[f]));
  }
  return fingers;
}

// Algorithm 2 after the triangle: the fingers' vertices, roll and spread, and the palm
// distance L; fills `plan` from its triangle on (found, or the nearest miss, or a message).
void PlaceHand(const Eigen::Matrix3Xd& p_O, const Eigen::Matrix3Xd& n_O,
               const BarrettPregraspOptions& options, const GraspTriangle& chosen,
               BarrettPregrasp& plan) {
  plan.triangle = chosen.indices;
  plan.q1 = chosen.q1;
  plan.q2 = chosen.q2;
  std::array<Eigen::Vector3d, 3> v;
  for (int i = 0; i < 3; ++i) {
    v[i] = p_O.col(chosen.indices[i]);
  }
  plan.p_OT = (v[0] + v[1] + v[2]) / 3.0;
  plan.n_O = PregraspSignedNormal(v[0], v[1], v[2]);

  // F3 opposite the shortest edge (the first on a tie).
  int f3 = 0;
  double shortest = std::numeric_limits<double>::infinity();
  for (int i = 0; i < 3; ++i) {
    const double edge = (v[(i + 1) % 3] - v[(i + 2) % 3]).norm();
    if (edge < shortest) {
      shortest = edge;
      f3 = i;
    }
  }
  const PregraspRollFrame roll(-plan.n_O);
  PregraspFitResult best;
  for (const bool swap : {false, true}) {
    std::array<int, 3> assign = {(f3 + 1) % 3, (f3 + 2) % 3, f3};
    if (swap) {
      std::swap(assign[0], assign[1]);
    }
    PregraspPlaneFit fit{{}, &roll};
    for (int f = 0; f < 3; ++f) {
      const int column = chosen.indices[assign[f]];
      fit.d_O[f] = CalcBarrettTipTarget(p_O.col(column), n_O.col(column)) - plan.p_OT;
    }
    const PregraspFitResult result = FitRollAndSpread(fit);
    if (result.cost < best.cost) {
      best = result;
      for (int f = 0; f < 3; ++f) {
        plan.finger_vertex[f] = chosen.indices[assign[f]];
        plan.p_OG[f] = fit.d_O[f] + plan.p_OT;
      }
    }
  }
  if (!std::isfinite(best.cost)) {
    plan.message = "no roll and spread puts every vertex ahead of its finger's knuckle";
    return;
  }
  plan.plane_residual = best.cost;
  plan.spread = best.spread;
  const Eigen::Matrix3d R_OW = roll.Rotation(best.psi);

  // Step 5: the palm moves out along the TCP line until every finger meets its target.
  const BarrettFingerTolerance tolerance{options.max_coupling_error_deg,
                                         options.max_plane_distance};
  // Reachable with Theta2 in range, whatever the coupling error and the plane distance.
  BarrettFingerTolerance in_reach;
  in_reach.max_coupling_error_deg = std::numeric_limits<double>::infinity();
  in_reach.max_plane_distance = std::numeric_limits<double>::infinity();
  const int max_steps = static_cast<int>(std::floor(options.l_max / options.l_step + 1e-9));
  // The step with the least worst coupling error among those where every target is in reach.
  double least_worst = std::numeric_limits<double>::infinity();
  int least_worst_k = -1;
  int found_k = -1;
  for (int k = 0; k <= max_steps && found_k < 0; ++k) {
    const PregraspFingers fingers = SolvePregraspFingers(plan, R_OW, k * options.l_step);
    bool all_meet = true;
    bool all_in_reach = true;
    double worst = 0.0;
    for (int f = 0; f < 3; ++f) {
      all_meet = all_meet && BarrettFingerMeets(fingers.ik[f], tolerance);
      all_in_reach = all_in_reach && BarrettFingerMeets(fingers.ik[f], in_reach);
      worst = std::max(worst, fingers.ik[f].coupling_error_deg);
    }
    if (all_in_reach && worst < least_worst) {
      least_worst = worst;
      least_worst_k = k;
    }
    found_k = all_meet ? k : -1;
  }
  if (found_k < 0) {
    plan.message = "no palm distance L in [0, " + detail::NumberText(options.l_max) +
                   "] m lets every finger meet its target (reachable, Theta2 in [0, 140] deg, "
                   "coupling error <= " +
                   detail::NumberText(options.max_coupling_error_deg) +
                   " deg, <= " + detail::NumberText(options.max_plane_distance) +
                   " m off its plane); ";
    if (least_worst_k < 0) {
      plan.message += "no L has every target reachable with Theta2 in range";
      return;
    }
    plan.message += "the least worst coupling error is " + detail::NumberText(least_worst) +
                    " deg at L = " + detail::NumberText(least_worst_k * options.l_step) + " m";
  }
  // The pregrasp found, or the nearest miss.
  plan.found = found_k >= 0;
  plan.has_hand = true;
  plan.num_l_steps = plan.found ? found_k : least_worst_k;
  plan.palm_distance = plan.num_l_steps * options.l_step;
  const PregraspFingers fingers = SolvePregraspFingers(plan, R_OW, plan.palm_distance);
  plan.X_OW = fingers.X_OW;
  for (int f = 0; f < 3; ++f) {
    const BarrettFingerIk& ik = fingers.ik[f];
    plan.theta2[f] = ik.theta2;
    plan.theta3[f] = ik.theta3;
    plan.coupling_error_deg[f] = ik.coupling_error_deg;
    plan.plane_distance[f] = ik.plane_distance;
    plan.p_OS[f] = fingers.X_OW.TransformPoint(ik.p_WS_W);
    const BarrettCoupledFinger coupled = SolveBarrettCoupledFinger(
        f, plan.spread, fingers.X_OW.Inverse().TransformPoint(plan.p_OG[f]));
    plan.coupled_theta2[f] = coupled.theta2;
    plan.coupled_tip_distance[f] = coupled.distance;
    plan.coupled_p_OS[f] = fingers.X_OW.TransformPoint(coupled.p_WS_W);
  }
  plan.q_M = CalcBarrettEncoderCounts(plan.spread, plan.coupled_theta2);
  double furthest = -std::numeric_limits<double>::infinity();
  for (Eigen::Index i = 0; i < p_O.cols(); ++i) {
    furthest = std::max(furthest, (p_O.col(i) - plan.p_OT).dot(plan.n_O));
  }
  plan.palm_clearance = plan.palm_distance - furthest;
}

// Where each coupled finger (Theta3 = Theta2 / 3), closing from Theta2 = 0 at the plan's
// spread and wrist pose, first touches its vertex's tangent plane: the tip sphere's centre c
// at (c - v) . n = R_f, v the vertex and n its outward normal; the contact c - R_f n. On a
// flat face that is where the finger lands, millimetres from the vertex when the coupling
// error is not 0. False when a finger never reaches the plane within its range.
bool PredictContacts(const Eigen::Matrix3Xd& p_O, const Eigen::Matrix3Xd& n_O,
                     const BarrettPregrasp& plan, Eigen::Matrix3Xd* p, Eigen::Matrix3Xd* n) {
  const double theta_max = 140.0 * std::numbers::pi / 180.0;
  for (int f = 0; f < 3; ++f) {
    const Eigen::Vector3d v = p_O.col(plan.finger_vertex[f]);
    const Eigen::Vector3d normal = n_O.col(plan.finger_vertex[f]);
    auto gap = [&](double theta2) {
      const Eigen::Vector3d c = plan.X_OW.TransformPoint(
          CalcBarrettFingerFrames(f, plan.spread, theta2, theta2 / 3.0).p_WS_W);
      return (c - v).dot(normal) - kBarrettTipRadius;
    };
    // The first sign change of the gap over 0.5 degree steps, then bisection.
    const double step = 0.5 * std::numbers::pi / 180.0;
    double lo = 0.0;
    double g_lo = gap(lo);
    if (!(g_lo > 0.0)) return false;  // already touching at the open pose
    double hi = -1.0;
    for (double t = step; t <= theta_max + 1e-12; t += step) {
      if (gap(t) <= 0.0) {
        hi = t;
        break;
      }
      lo = t;
    }
    if (hi < 0.0) return false;
    for (int i = 0; i < 50; ++i) {
      const double mid = 0.5 * (lo + hi);
      (gap(mid) > 0.0 ? lo : hi) = mid;
    }
    const Eigen::Vector3d c =
        plan.X_OW.TransformPoint(CalcBarrettFingerFrames(f, plan.spread, hi, hi / 3.0).p_WS_W);
    p->col(f) = c - kBarrettTipRadius * normal;
    n->col(f) = -normal;  // inward: the finger pushes into the object
  }
  return true;
}

}  // namespace

BarrettPregrasp PlanBarrettPregrasp(const Eigen::Matrix3Xd& p_O, const Eigen::Matrix3Xd& n_O,
                                    const Eigen::Vector3d& p_OC,
                                    const BarrettPregraspOptions& options) {
  CheckPregraspInput(p_O, n_O, p_OC, options);
  BarrettPregrasp plan;
  std::function<bool(const std::array<int, 3>&)> holds;
  const FrictionCone cone{options.closure_mu, 0.0, 8};
  if (options.closure_mu > 0.0) {
    // Force closure twice: of the vertices (cheap, first), then of the contacts the coupled
    // fingers will reach from the hand placed for them, which is what the grasp will be.
    holds = [&](const std::array<int, 3>& t) {
      Eigen::Matrix3Xd p(3, 3), n(3, 3);
      for (int k = 0; k < 3; ++k) {
        p.col(k) = p_O.col(t[k]);
        n.col(k) = -n_O.col(t[k]);
      }
      if (!IsForceClosure(p, n, p_OC, ContactModel::kHardFinger, cone)) return false;
      GraspTriangle trial_triangle;
      trial_triangle.found = true;
      trial_triangle.indices = t;
      BarrettPregrasp trial;
      PlaceHand(p_O, n_O, options, trial_triangle, trial);
      return trial.has_hand && PredictContacts(p_O, n_O, trial, &p, &n) &&
             IsForceClosure(p, n, p_OC, ContactModel::kHardFinger, cone);
    };
  }
  const GraspTriangle chosen = ChooseGraspTriangle(p_O, p_OC, options.q1_max, holds);
  if (!chosen.found) {
    plan.message =
        "no triangle of the " + std::to_string(p_O.cols()) +
        " candidate points has Q1 <= " + detail::NumberText(options.q1_max) +
        (holds ? " and is force closure with mu " + detail::NumberText(options.closure_mu) +
                     ", at its vertices and where the coupled fingers reach"
               : std::string());
    return plan;
  }
  PlaceHand(p_O, n_O, options, chosen, plan);
  return plan;
}

}  // namespace twinblocks::grasp
