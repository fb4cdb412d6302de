#pragma once

// A SynergyEquilibrium's balance as SynergyEquilibriumSolver states it
// (physics/multibody/synergy_equilibrium.h), from the mechanism's model: which numbers go
// where. For the builder (checking at compile that the balance is determined) and for the
// Mechanism (solving it at each step).

#include <Eigen/Core>

#include "blocks/multibody/detail/tendon_arms.h"
#include "blocks/multibody/mechanism_model.h"
#include "physics/multibody/synergy_equilibrium.h"

namespace twinblocks::multibody::internal {

/// A solver sized for eq, with its springs (K, b) and couplings (C, d) filled in.
SynergyEquilibriumSolver MakeSynergySolver(const MechanismModel& m,
                                           const MechanismSynergyEquilibrium& eq);

/// l, R, dR of eq's tendons at the balance's joint positions q_eq (eq.joints order), the
/// other coordinates from q_tree (which it changes on eq's joints: scratch of size nq).
void EvaluateSynergyTendons(const MechanismModel& m, const MechanismSynergyEquilibrium& eq,
                            const TendonArms& arms, const Eigen::VectorXd& q_eq,
                            Eigen::VectorXd& q_tree, Eigen::VectorXd& l, Eigen::MatrixXd& R,
                            Eigen::MatrixXd& dR);

}  // namespace twinblocks::multibody::internal
