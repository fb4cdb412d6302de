#include "blocks/multibody/synergy_equilibrium.h"

#include <memory>
#include <string>

#include "blocks/multibody/frame_element.h"
#include "blocks/multibody/mechanism_builder.h"

namespace twinblocks::multibody {

using blocks::BlockType;
using blocks::ParamKind;
using blocks::Params;

SynergyEquilibriumElement::SynergyEquilibriumElement(const Params& p) : gravity(p.Bool("gravity")) {
  port_t = DeclarePhysicalPort("T", "tendon");
  // It reads the contact forces, which the dynamics stage computes.
  out_q = DeclareOutput("q", 1, 1);
  out_f = DeclareOutput("f", 1, 1);
}

void SynergyEquilibriumElement::Contribute(MechanismBuilder& builder) const {
  builder.AddSynergyEquilibrium(*this);
}

std::string SynergyEquilibriumElement::UnconnectedPortError(const std::string& path,
                                                            int port) const {
  return "synergy equilibrium '" + path +
         "': port T is not connected; connect it to the port T of the Tendon whose equilibrium "
         "it predicts";
}

BlockType SynergyEquilibriumType() {
  BlockType t = internal::MultibodyType(
      "SynergyEquilibrium",
      "The adaptive-synergy model's predicted equilibrium of a tendon's joints (q, f).");
  t.doc =
      "Connect T to a Tendon's port T. At every step it solves the quasi-static balance of "
      "Rocchi & Hauser 2016, \"A Generic Simulator for Underactuated Compliant Hands\" (eq. 3-5 "
      "with the reference's sign): R(q)^T f - E (q - q_rest) + tau_ext = 0 and l(q) = s, for "
      "the joints of the tendon, with tau_ext = J^T f_c the generalized forces of the current "
      "contact forces on them (and, with gravity=\"true\", of the bodies' weights), held "
      "fixed. The stiffness is the tendons' E plus the joints' own springs (stiffness, q_eq). "
      "Joints coupled to the tendon's (JointCoupler: the matched joints of rolling-contact "
      "pairs) move with them and add their contact torques through the coupling; other tendons "
      "that share joints with this one are solved with it, at their own commands. For moment "
      "arms that change with q it iterates Newton's method to convergence (the paper "
      "linearizes once). Outputs: q, the predicted positions of the tendon's joints (in the "
      "order of its ports J1..Jn), and f, the predicted tension. A sliding contact's friction, "
      "the joints' damping and the links' inertia are not part of the balance: the prediction "
      "holds when the hand is at rest.";
  t.reference =
      "No Simulink block; the predicted configuration of Rocchi & Hauser's "
      "CompliantHandEmulator (eq. 5)";
  t.params = {{"gravity",
               ParamKind::kWord,
               "true",
               "count the bodies' weights among the external forces",
               {"true", "false"}}};
  t.outputs = {{"q", "predicted joint positions, one per joint of the tendon (rad or m)"},
               {"f", "predicted tension (N, or N m for dimensionless arms)"}};
  t.physical_ports = {{"T", "tendon: the port T of the Tendon"}};
  t.create = [](const Params& p) { return std::make_unique<SynergyEquilibriumElement>(p); };
  return t;
}

}  // namespace twinblocks::multibody
