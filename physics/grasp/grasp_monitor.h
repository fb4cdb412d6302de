#pragma once

// The measures of a grasp evaluated along a simulation, from the contacts as the simulation
// measures them (point, normal and force of each contact on the object), at every sample
// of a run. The quasi-static tools (SynGrasp, GraspIt!) evaluate a grasp once, at contacts
// the user places; here the contacts come and go with the dynamics, so the monitor first
// finds which are active, then builds the grasp of those.
//
// Everything is sized once, for the most contacts the monitor is given, so that an
// evaluation allocates nothing: it runs inside a simulation's step loop.

#include <Eigen/Core>
#include <memory>

#include "physics/grasp/grasp_input.h"

namespace twinblocks::grasp {

class EpsilonSolver;

/// The values of one measured contact, as SpatialContactForce outputs them: point (m, world),
/// unit normal from the hand into the object, total force on the object (N, world).
inline constexpr int kMeasuredContactSize = 9;

struct GraspMonitorOptions {
  ContactModel model = ContactModel::kHardFinger;
  FrictionCone cone;
  /// L (m) of the epsilon's wrenches [f; tau / L]; 0: at each evaluation, the largest
  /// distance from the reference point to an active contact (as CalcGraspQuality).
  double torque_length = 0.0;
  /// A contact is active when its normal force f . n exceeds this (N, >= 0).
  double threshold = 0.0;
};

/// What one evaluation gives.
struct GraspMeasures {
  int num_active = 0;
  bool force_closure = false;
  double epsilon = 0.0;             ///< L1 Ferrari-Canny quality (N per N), 0 when not closure
  double min_singular_value = 0.0;  ///< sigma_6 of the active contacts' G (N and N m mixed)
  double internal_force = 0.0;      ///< |f - G^+ G f| (N): the part of f in null(G)
  double slip = 0.0;                ///< max over active contacts of |f_t| / (mu f_n)
};

/// Evaluates GraspMeasures from measured contacts without allocating.
class GraspMonitor {
 public:
  /// Sizes every buffer for `max_contacts` contacts.
  /// @throws std::invalid_argument when max_contacts is outside [1, kMaxContacts], the cone
  ///         is bad (CheckFrictionCone), mu is 0 for a model with friction (its slip margin
  ///         has no meaning: use the point contact without friction), or the torque length or
  ///         threshold is negative or not finite.
  GraspMonitor(int max_contacts, const GraspMonitorOptions& options);
  ~GraspMonitor();
  GraspMonitor(const GraspMonitor&) = delete;
  GraspMonitor& operator=(const GraspMonitor&) = delete;

  /// The measures of the grasp made by the active contacts among `num_contacts` measured
  /// ones (kMeasuredContactSize values each, contact after contact) about the object's
  /// reference point p_WO.
  /// @throws std::runtime_error (one line naming the contact) when an active contact's
  ///         values are not finite or its normal is not a unit vector, when p_WO is not
  ///         finite, or when the epsilon solver gives no answer (its facet pool exhausted,
  ///         rounding): an error, never a guess.
  const GraspMeasures& Evaluate(const double* contacts, int num_contacts,
                                const Eigen::Vector3d& p_WO);

  const GraspMeasures& measures() const { return measures_; }
  int max_contacts() const { return max_contacts_; }

 private:
  /// Gathers the active contacts into p_, n_, f_ and checks them.
  void CollectActive(const double* contacts, int num_contacts);
  /// sigma_min and the internal force from G G^T of the active contacts.
  void CalcMatrixMeasures(const Eigen::Vector3d& p_WO);
  void CalcSlip();
  void CalcEpsilon(const Eigen::Vector3d& p_WO);

  int max_contacts_;
  GraspMonitorOptions options_;
  Eigen::Matrix3Xd p_, n_, f_;  // active contacts: points, normals, forces (3 x max)
  Eigen::Matrix<double, 6, Eigen::Dynamic> wrenches_;  // primitive wrenches (6 x max points)
  std::unique_ptr<EpsilonSolver> epsilon_solver_;
  GraspMeasures measures_;
};

}  // namespace twinblocks::grasp
