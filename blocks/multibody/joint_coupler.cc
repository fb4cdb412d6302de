#include "blocks/multibody/joint_coupler.h"

#include <cmath>
#include <memory>
#include <string>

#include "blocks/block_error.h"
#include "blocks/multibody/mechanism_builder.h"

namespace twinblocks::multibody {

using blocks::BlockError;
using blocks::BlockType;
using blocks::ParamKind;
using blocks::Params;

JointCouplerElement::JointCouplerElement(const Params& p)
    : ratio(p.Scalar("ratio")), offset(p.Scalar("offset")) {
  port_a = DeclarePhysicalPort("A", "rotational");
  port_b = DeclarePhysicalPort("B", "rotational");
  // The multiplier comes with the constrained accelerations: stage 1, like a joint's torque.
  out_tau = DeclareOutput("tau", 1, 1);
  if (ratio == 0.0 || !std::isfinite(ratio)) {
    throw BlockError(
        "parameter 'ratio' must be non-zero and finite (q_A = ratio * q_B + offset); to hold "
        "joint A still, use a WeldJoint",
        "ratio");
  }
  if (!std::isfinite(offset)) throw BlockError("parameter 'offset' must be finite", "offset");
}

BlockType JointCouplerType() {
  BlockType t;
  t.name = "JointCoupler";
  t.category = "Multibody";
  t.summary = "Two 1-DOF joints moving together: q_A = ratio * q_B + offset.";
  t.doc =
      "Connect A and B to the `shaft` ports of two revolute or prismatic joints of the "
      "mechanism (give each actuation=\"port\"; the same shaft may also carry a motor, gear or "
      "friction). The coupler holds q_A = ratio * q_B + offset exactly, as one constraint row "
      "solved with the closed loops' (docs/loops.md): velocities qd_A = ratio * qd_B, and a "
      "generalized force tau on joint A with -ratio * tau on joint B, so that it does no work "
      "(an ideal tendon, gear or linkage transmission; Zaidi et al. 2020's finger coupling (eq. 3) "
      "is "
      "ratio 1/3 between the distal and the proximal joint). Output `tau` is that force on A "
      "(N m for a revolute joint, N for a prismatic one). The joints' q0 are assembly targets: "
      "the one with priority=\"low\" moves to satisfy the coupling. A coupled joint must be a "
      "joint of the tree (not the joint that closes a loop). A joint may be in several "
      "couplings (a chain of fingers' joints); couplings that contradict each other or the "
      "loops are an assembly error.";
  t.reference =
      "Simscape Multibody: joints' Simscape rotational ports joined by a Simple Gear; MuJoCo "
      "equality/joint";
  t.params = {{"ratio", ParamKind::kScalar, "1", "q_A / q_B (non-zero)"},
              {"offset", ParamKind::kScalar, "0", "q_A at q_B = 0, rad or m"}};
  t.physical_ports = {{"A", "rotational: the shaft of the coupled (following) joint"},
                      {"B", "rotational: the shaft of the joint it follows"}};
  t.outputs = {{"tau", "generalized force on joint A, N m or N (joint B gets -ratio * tau)"}};
  t.create = [](const Params& p) { return std::make_unique<JointCouplerElement>(p); };
  return t;
}

void JointCouplerElement::Contribute(MechanismBuilder& builder) const {
  builder.AddJointCoupler(*this);
}

std::string JointCouplerElement::UnconnectedPortError(const std::string& path, int port) const {
  return "coupler '" + path + "': port " + physical_port(port).name +
         " is not connected; connect A and B to the `shaft` ports of the two joints it couples";
}

}  // namespace twinblocks::multibody
