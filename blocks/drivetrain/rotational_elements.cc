#include "blocks/drivetrain/rotational_elements.h"

#include <cmath>
#include <memory>
#include <string>

#include "blocks/block_error.h"
#include "blocks/multibody/mechanism_builder.h"
#include "common/format_value.h"

namespace twinblocks::drivetrain {

using blocks::BlockError;
using blocks::BlockType;
using blocks::FormatValue;
using blocks::ParamKind;
using blocks::Params;

namespace {

double NonNegative(const Params& p, const char* name) {
  const double v = p.Scalar(name);
  if (!(v >= 0.0) || !std::isfinite(v)) {
    throw BlockError(
        "parameter '" + std::string(name) + "' must be zero or positive, got " + FormatValue(v),
        name);
  }
  return v;
}

double Positive(const Params& p, const char* name) {
  const double v = p.Scalar(name);
  if (!(v > 0.0) || !std::isfinite(v)) {
    throw BlockError(
        "parameter '" + std::string(name) + "' must be positive, got " + FormatValue(v), name);
  }
  return v;
}

BlockType Base(const char* name, const char* summary, const char* reference) {
  BlockType t;
  t.name = name;
  t.category = "Drivetrain";
  t.summary = summary;
  t.reference = reference;
  return t;
}

const std::vector<blocks::PortDoc> kRC = {{"R", "rotational: rod (follower)"},
                                          {"C", "rotational: case (reference)"}};

}  // namespace

void RotationalElement::Contribute(multibody::MechanismBuilder& builder) const {
  builder.AddRotational(Part());
}

RotationalReferenceElement::RotationalReferenceElement(const Params&) { RotationalPort("R"); }

InertiaElement::InertiaElement(const Params& p) : J(NonNegative(p, "J")) { RotationalPort("I"); }

SimpleGearElement::SimpleGearElement(const Params& p) : ratio(p.Scalar("ratio")) {
  RotationalPort("B");
  RotationalPort("F");
  if (ratio == 0.0 || !std::isfinite(ratio)) {
    throw BlockError("parameter 'ratio' must be non-zero and finite (w_B = ratio * w_F)", "ratio");
  }
}

RotationalFrictionElement::RotationalFrictionElement(const Params& p) {
  RotationalPort("R");
  RotationalPort("C");
  friction.breakaway_torque = NonNegative(p, "brk_torque");
  friction.breakaway_velocity = Positive(p, "brk_velocity");
  friction.coulomb_torque = NonNegative(p, "coulomb_torque");
  friction.viscous = NonNegative(p, "viscous");
  if (friction.breakaway_torque < friction.coulomb_torque) {
    throw BlockError(
        "parameter 'brk_torque' must be at least 'coulomb_torque' (the breakaway "
        "torque is the Coulomb torque plus the Stribeck peak)",
        "brk_torque");
  }
}

RotationalSpringDamperElement::RotationalSpringDamperElement(const Params& p)
    : k(NonNegative(p, "k")), c(NonNegative(p, "c")) {
  RotationalPort("R");
  RotationalPort("C");
}

TorqueSourceElement::TorqueSourceElement(const Params&) {
  RotationalPort("R");
  RotationalPort("C");
  in_tau = DeclareInput("tau", 1, blocks::FeedthroughToStage(1));
}

MotionSensorElement::MotionSensorElement(const Params&) {
  RotationalPort("R");
  RotationalPort("C");
  out_phi = DeclareOutput("phi", 1, 0);
  out_w = DeclareOutput("w", 1, 0);
}

DCMotorElement::DCMotorElement(const Params& p)
    : R(Positive(p, "R")),
      L(Positive(p, "L")),
      Kt(Positive(p, "Kt")),
      Ke(Positive(p, "Ke")),
      J(NonNegative(p, "J")),
      b(NonNegative(p, "b")) {
  RotationalPort("R");
  RotationalPort("C");
  // The voltage drives the current's rate only: no output of the mechanism needs it at once.
  in_v = DeclareInput("v", 1, blocks::kNoFeedthrough);
  out_i = DeclareOutput("i", 1, 0);
  out_tau = DeclareOutput("tau", 1, 0);
  out_w = DeclareOutput("w", 1, 0);
}

PmsmElement::PmsmElement(const Params& p)
    : pole_pairs(p.Integer("p")),
      Rs(Positive(p, "Rs")),
      Ld(Positive(p, "Ld")),
      Lq(Positive(p, "Lq")),
      psi(Positive(p, "psi")),
      J(NonNegative(p, "J")),
      b(NonNegative(p, "b")),
      Vdc(Positive(p, "Vdc")),
      i_max(Positive(p, "i_max")),
      bandwidth(Positive(p, "bandwidth")),
      foc(p.Word("mode") == "foc") {
  if (pole_pairs < 1) throw BlockError("parameter 'p' (pole pairs) must be at least 1", "p");
  RotationalPort("R");
  RotationalPort("C");
  // The command reaches the currents through their rates; only the applied voltage (with the
  // dynamics, stage 1) depends on it at once, so a controller reading joint angles and speeds
  // is no algebraic loop.
  in_command = foc ? DeclareInput("tau_ref", 1, blocks::FeedthroughToStage(1))
                   : DeclareInput("vdq", 2, blocks::FeedthroughToStage(1));
  out_idq = DeclareOutput("idq", 2, 0);
  out_tau = DeclareOutput("tau", 1, 0);
  out_w = DeclareOutput("w", 1, 0);
  out_vdq = DeclareOutput("vdq", 2, 1);
}

RotationalPart RotationalReferenceElement::Part() const {
  RotationalPart part;
  part.kind = RotationalPart::Kind::kReference;
  return part;
}

RotationalPart InertiaElement::Part() const {
  RotationalPart part;
  part.kind = RotationalPart::Kind::kInertia;
  part.inertia = J;
  return part;
}

RotationalPart SimpleGearElement::Part() const {
  RotationalPart part;
  part.kind = RotationalPart::Kind::kGear;
  part.ratio = ratio;
  return part;
}

RotationalPart RotationalFrictionElement::Part() const {
  RotationalPart part;
  part.kind = RotationalPart::Kind::kForce;
  part.force.kind = RotationalForceKind::kFriction;
  part.force.friction = friction;
  return part;
}

RotationalPart RotationalSpringDamperElement::Part() const {
  RotationalPart part;
  part.kind = RotationalPart::Kind::kForce;
  part.force.kind = RotationalForceKind::kSpringDamper;
  part.force.k = k;
  part.force.c = c;
  return part;
}

RotationalPart TorqueSourceElement::Part() const {
  RotationalPart part;
  part.kind = RotationalPart::Kind::kForce;
  part.force.kind = RotationalForceKind::kTorqueSource;
  part.force.element_port = in_tau;
  return part;
}

RotationalPart MotionSensorElement::Part() const {
  RotationalPart part;
  part.kind = RotationalPart::Kind::kSensor;
  part.sensor.out_phi = out_phi;
  part.sensor.out_w = out_w;
  return part;
}

RotationalPart DCMotorElement::Part() const {
  RotationalPart part;
  part.kind = RotationalPart::Kind::kMotor;
  part.inertia = J;
  part.viscous = b;
  RotationalMotor& motor = part.motor;
  motor.kind = MotorKind::kDC;
  motor.dc = {R, L, Kt, Ke, J, b};
  motor.in_command = in_v;
  motor.out_current = out_i;
  motor.out_tau = out_tau;
  motor.out_w = out_w;
  return part;
}

RotationalPart PmsmElement::Part() const {
  RotationalPart part;
  part.kind = RotationalPart::Kind::kMotor;
  part.inertia = J;
  part.viscous = b;
  RotationalMotor& motor = part.motor;
  motor.kind = foc ? MotorKind::kPmsmFoc : MotorKind::kPmsmVoltage;
  motor.pmsm = {pole_pairs, Rs, Ld, Lq, psi, J, b, Vdc, i_max, bandwidth};
  motor.in_command = in_command;
  motor.out_current = out_idq;
  motor.out_tau = out_tau;
  motor.out_w = out_w;
  motor.out_vdq = out_vdq;
  return part;
}

namespace {

/// A motor's port alone on its node. An open rotor R is free (it spins on the motor's own
/// inertia and damping, as in Simscape); an open case C is not: the stator would float,
/// massless, and its speed would be defined by nothing.
std::string MotorUnconnectedPortError(const blocks::Block& motor, const std::string& path,
                                      int port) {
  if (motor.physical_port(port).name != "C") return {};
  return "motor '" + path +
         "' has no reference: its case C is not connected; connect C to a RotationalReference "
         "(the motor's mount)";
}

}  // namespace

std::string DCMotorElement::UnconnectedPortError(const std::string& path, int port) const {
  return MotorUnconnectedPortError(*this, path, port);
}

std::string PmsmElement::UnconnectedPortError(const std::string& path, int port) const {
  return MotorUnconnectedPortError(*this, path, port);
}

BlockType RotationalReferenceType() {
  BlockType t = Base("RotationalReference", "Zero angle: the case, or a joint's base body.",
                     "Simscape Mechanical Rotational Reference");
  t.doc =
      "The node it is on does not turn. In a network on a joint's `shaft`, it stands for the "
      "joint's base body: torques against it act on the base (a motor's stator sits on the "
      "previous link).";
  t.physical_ports = {{"R", "rotational"}};
  t.create = [](const Params& p) { return std::make_unique<RotationalReferenceElement>(p); };
  return t;
}

BlockType InertiaType() {
  BlockType t = Base("Inertia", "A rotating inertia.", "Simscape Inertia");
  t.doc =
      "J w' = sum of the torques on its node. On a shaft geared to a joint by ratio n it adds "
      "J n^2 to the joint's diagonal of the mass matrix (Boschetti & Sinico 2024, eq. 29's B_m).";
  t.params = {{"J", ParamKind::kScalar, "", "moment of inertia, kg m^2", {}, true}};
  t.physical_ports = {{"I", "rotational"}};
  t.create = [](const Params& p) { return std::make_unique<InertiaElement>(p); };
  return t;
}

BlockType SimpleGearType() {
  BlockType t = Base("SimpleGear", "An ideal gear pair.",
                     "Simscape Simple Gear; Boschetti & Sinico 2024, \"Designing Digital Twins "
                     "of Robots Using Simscape Multibody\" (Robotics), eq. 27");
  t.doc =
      "w_B = ratio * w_F: power conserving, so the torque F delivers to its load is ratio "
      "times the torque driving B. The shafts it joins become one coordinate.";
  t.params = {{"ratio", ParamKind::kScalar, "1", "w_B / w_F"}};
  t.physical_ports = {{"B", "rotational: base (input) shaft"}, {"F", "rotational: follower shaft"}};
  t.create = [](const Params& p) { return std::make_unique<SimpleGearElement>(p); };
  return t;
}

BlockType RotationalFrictionType() {
  BlockType t = Base("RotationalFriction", "Stribeck, Coulomb and viscous friction.",
                     "Simscape Rotational Friction; Boschetti & Sinico 2024, eq. 25-26");
  t.doc =
      "T(w) = sqrt(2e) (T_brk - T_C) exp(-(w/w_St)^2) (w/w_St) + T_C tanh(w/w_Coul) + f w, "
      "w_St = w_brk sqrt(2), w_Coul = w_brk/10, w the velocity of R relative to C; T resists it "
      "(acts on R as -T, on C as +T). Smooth through zero velocity.";
  t.params = {{"brk_torque", ParamKind::kScalar, "25", "breakaway torque T_brk, N m"},
              {"brk_velocity", ParamKind::kScalar, "0.1", "breakaway velocity w_brk, rad/s"},
              {"coulomb_torque", ParamKind::kScalar, "20", "Coulomb torque T_C, N m"},
              {"viscous", ParamKind::kScalar, "0.001", "viscous coefficient f, N m s/rad"}};
  t.physical_ports = kRC;
  t.create = [](const Params& p) { return std::make_unique<RotationalFrictionElement>(p); };
  return t;
}

BlockType RotationalSpringDamperType() {
  BlockType t = Base("RotationalSpringDamper", "A torsion spring and damper.",
                     "Simscape Rotational Spring-Damper");
  t.doc =
      "T = k phi + c w with phi, w of R relative to C, acting on R as -T and on C as +T. A "
      "compliant coupling: the shafts on its two sides keep coordinates of their own.";
  t.params = {{"k", ParamKind::kScalar, "0", "stiffness, N m/rad"},
              {"c", ParamKind::kScalar, "0", "damping, N m s/rad"}};
  t.physical_ports = kRC;
  t.create = [](const Params& p) { return std::make_unique<RotationalSpringDamperElement>(p); };
  return t;
}

BlockType TorqueSourceType() {
  BlockType t = Base("TorqueSource", "An ideal torque source.", "Simscape Ideal Torque Source");
  t.doc = "Applies tau to R and -tau to C: a positive tau turns R forward relative to C.";
  t.inputs = {{"tau", "torque, N m"}};
  t.physical_ports = kRC;
  t.create = [](const Params& p) { return std::make_unique<TorqueSourceElement>(p); };
  return t;
}

BlockType MotionSensorType() {
  BlockType t = Base("MotionSensor", "Angle and velocity of R relative to C.",
                     "Simscape Ideal Rotational Motion Sensor");
  t.doc = "phi and w of R relative to C; it adds no torque.";
  t.outputs = {{"phi", "rad, continuous"}, {"w", "rad/s"}};
  t.physical_ports = kRC;
  t.create = [](const Params& p) { return std::make_unique<MotionSensorElement>(p); };
  return t;
}

BlockType DCMotorType() {
  BlockType t = Base("DCMotor", "A DC motor: armature circuit and rotor.", "Simscape DC Motor");
  t.doc =
      "L di/dt = v - R i - Ke w; the rotor (inertia J, viscous b) turns R relative to C with "
      "torque Kt i - b w, and C takes the reaction. State: i. The rotor inertia J rides on R; "
      "the case C must be held by a RotationalReference. R may be left open, as in Simscape: "
      "no torque flows there, and the rotor spins on its own inertia and damping (J w' = Kt i "
      "- b w; needs J > 0).";
  t.params = {{"R", ParamKind::kScalar, "", "armature resistance, ohm", {}, true},
              {"L", ParamKind::kScalar, "", "armature inductance, H", {}, true},
              {"Kt", ParamKind::kScalar, "", "torque constant, N m/A", {}, true},
              {"Ke", ParamKind::kScalar, "", "back-emf constant, V s/rad", {}, true},
              {"J", ParamKind::kScalar, "0", "rotor inertia, kg m^2"},
              {"b", ParamKind::kScalar, "0", "rotor viscous friction, N m s/rad"}};
  t.inputs = {{"v", "armature voltage, V"}};
  t.outputs = {{"i", "armature current, A"},
               {"tau", "electromagnetic torque Kt i, N m"},
               {"w", "rotor speed relative to C, rad/s"}};
  t.physical_ports = kRC;
  t.create = [](const Params& p) { return std::make_unique<DCMotorElement>(p); };
  return t;
}

BlockType PmsmType() {
  BlockType t = Base(
      "PMSM", "A permanent-magnet synchronous motor with its drive.",
      "Simscape Electrical PMSM with an averaged inverter; Boschetti & Sinico 2024, section 4.3");
  t.doc =
      "Rotor dq frame: Ld did/dt = vd - Rs id + p w Lq iq, Lq diq/dt = vq - Rs iq - p w (Ld id + "
      "psi); torque 1.5 p (psi iq + (Ld - Lq) id iq). The averaged inverter limits |vdq| to "
      "Vdc/sqrt(3). mode=foc: the input is the torque command; field-oriented control sets "
      "id* = 0, iq* = tau_ref / (1.5 p psi), limited to i_max, with PI current loops of the "
      "given bandwidth (Kp = L 2 pi bw, Ki = Rs 2 pi bw), decoupling feed-forward of the speed "
      "voltages and back-emf (so each loop is exactly first order at bw), and anti-windup by "
      "conditional integration while the voltage limits. mode=voltage: the input is [vd, vq]. "
      "States: id, iq (and the two PI integrators in foc). The rotor inertia J rides on R; the "
      "case C must be held by a RotationalReference; R may be left open (the rotor then spins "
      "on its own inertia J > 0).";
  t.params = {{"p", ParamKind::kScalar, "4", "pole pairs"},
              {"Rs", ParamKind::kScalar, "0.5", "stator resistance, ohm"},
              {"Ld", ParamKind::kScalar, "1.5e-3", "d-axis inductance, H"},
              {"Lq", ParamKind::kScalar, "1.5e-3", "q-axis inductance, H"},
              {"psi", ParamKind::kScalar, "0.05", "permanent-magnet flux linkage, Wb"},
              {"J", ParamKind::kScalar, "0", "rotor inertia, kg m^2"},
              {"b", ParamKind::kScalar, "0", "rotor viscous friction, N m s/rad"},
              {"Vdc", ParamKind::kScalar, "300", "DC bus voltage, V"},
              {"i_max", ParamKind::kScalar, "20", "current limit, A"},
              {"bandwidth", ParamKind::kScalar, "2000", "current-loop bandwidth, Hz"},
              {"mode", ParamKind::kWord, "foc", "what the input commands", {"foc", "voltage"}}};
  t.inputs = {{"tau_ref", "torque command, N m (mode foc)"}, {"vdq", "[vd, vq], V (mode voltage)"}};
  t.outputs = {{"idq", "[id, iq], A"},
               {"tau", "electromagnetic torque, N m"},
               {"w", "rotor speed relative to C, rad/s"},
               {"vdq", "[vd, vq] the inverter applies, V, |vdq| <= Vdc/sqrt(3)"}};
  t.physical_ports = kRC;
  t.create = [](const Params& p) { return std::make_unique<PmsmElement>(p); };
  return t;
}

}  // namespace twinblocks::drivetrain
