#pragma once

// JointCoupler: two one-degree-of-freedom joints moving together, q_A = ratio * q_B + offset
// (docs/loops.md, "Coupled joints"): the tendon or linkage transmission of an underactuated
// finger (Zaidi et al. 2020, "Grasp Planning Pipeline for Robust Manipulation of 3D
// Deformable Objects", eq. 3, the Barrett hand), a gear between two joints. It is one more row of
// the closed-loop constraints (loop_closure.h), not a drivetrain element: the two joints keep
// their own coordinates and the coupler's multiplier is the force it transmits.

#include <string>

#include "blocks/block_registry.h"
#include "blocks/multibody/mechanism_element.h"
#include "blocks/param.h"

namespace twinblocks::multibody {

/// Joins the `shaft` ports of two revolute or prismatic joints (actuation="port").
class JointCouplerElement final : public MechanismElement {
 public:
  explicit JointCouplerElement(const blocks::Params& p);
  void Contribute(MechanismBuilder& builder) const override;
  std::string UnconnectedPortError(const std::string& path, int port) const override;

  double ratio = 1.0;            ///< q_A = ratio * q_B + offset
  double offset = 0.0;           ///< rad or m, in A's unit
  int port_a = -1, port_b = -1;  ///< physical ports A and B
  int out_tau = -1;              ///< the generalized force the coupler applies to joint A
};

blocks::BlockType JointCouplerType();

}  // namespace twinblocks::multibody
