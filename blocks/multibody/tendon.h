#pragma once

// Tendon: the transmission of an underactuated hand (Rocchi & Hauser 2016, "A Generic
// Simulator for Underactuated Compliant Hands", the adaptive-synergy model): a cable over n
// joints with moment arms R, its displacement s = l(q) (eq. 2), the joint torques R^T f of its
// tension f and, optionally, the joints' springs -E (q - q_rest) (eq. 3, 8). A physical
// element of the mechanism: its ports J1..Jn join the `shaft` ports of the joints it pulls,
// as a JointCoupler's do, and a rigid tendon driven by its displacement is one more row of
// the mechanism's constraints (loop_closure.h).

#include <Eigen/Core>
#include <string>
#include <utility>
#include <vector>

#include "blocks/block_registry.h"
#include "blocks/multibody/mechanism_element.h"
#include "blocks/param.h"

namespace twinblocks::multibody {

class TendonElement final : public MechanismElement {
 public:
  explicit TendonElement(const blocks::Params& p);
  void Contribute(MechanismBuilder& builder) const override;
  std::string UnconnectedPortError(const std::string& path, int port) const override;

  /// Number of joints n (the length of R or of R_functions).
  int num_joints() const { return static_cast<int>(joint_ports.size()); }

  Eigen::VectorXd arms;                                   ///< constant moment arms (R), or zeros
  std::vector<std::string> arm_expressions;               ///< R_functions, one per joint, or empty
  std::vector<std::pair<std::string, double>> variables;  ///< the model's, for the functions
  Eigen::VectorXd q_rest, E;                              ///< E empty: no springs
  bool force_driven = false, elastic = false;
  double stiffness = 0.0, damping = 0.0, sigma_scaling = 1.0, sigma_offset = 0.0;
  double filter_tc = 0.01;
  /// routing = chain: J1..Jn lie in this order on one path from the base outward (a cable
  /// along one finger), checked when the mechanism is built.
  bool chain = false;
  std::vector<int> joint_ports;  ///< physical ports J1..Jn
  int port_t = -1;               ///< physical port T, for a SynergyEquilibrium
  int in_command = -1;           ///< s (displacement) or force
  int out_f = -1, out_length = -1;
};

blocks::BlockType TendonType();

}  // namespace twinblocks::multibody
