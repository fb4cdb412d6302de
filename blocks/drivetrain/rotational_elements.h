#pragma once

// The blocks of a rotational network (docs/multibody.md, "Drivetrains"): references, inertias,
// gears, friction, springs, torque sources, sensors and motors. Like the frame blocks they are
// elements, not running blocks: each holds its evaluated parameters and declares its
// rotational ports and its signal ports; the compiler reduces a network to generalized
// coordinates (ideal gears merge shafts; inertias reflect by the ratio squared; the other
// elements add generalized forces by virtual work) and runs it inside the mechanism whose
// joint shafts it drives.
//
// Sign conventions (Simscape's): an element between R and C acts on R with its torque and on
// C with the opposite; its relative angle and velocity are R's minus C's.

#include <string>

#include "blocks/block_registry.h"
#include "blocks/drivetrain/rotational_network.h"
#include "blocks/multibody/mechanism_element.h"
#include "blocks/param.h"
#include "physics/drivetrain/friction_model.h"

namespace twinblocks::drivetrain {

/// Base of every rotational element: declares no runtime behaviour.
class RotationalElement : public multibody::MechanismElement {
 public:
  /// What the element is in its network (rotational_network.h).
  virtual RotationalPart Part() const = 0;
  /// Hands Part() to the mechanism's drivetrain.
  void Contribute(multibody::MechanismBuilder& builder) const final;

 protected:
  RotationalElement() = default;
  int RotationalPort(const char* name) { return DeclarePhysicalPort(name, "rotational"); }
};

/// Zero angle: the case of the machine, or in a network on a joint's shaft, its base body.
class RotationalReferenceElement final : public RotationalElement {
 public:
  explicit RotationalReferenceElement(const blocks::Params& p);
  RotationalPart Part() const override;
};

class InertiaElement final : public RotationalElement {
 public:
  explicit InertiaElement(const blocks::Params& p);
  RotationalPart Part() const override;
  double J = 0.0;  ///< kg m^2
};

/// w_B = ratio * w_F, ideal and power conserving.
class SimpleGearElement final : public RotationalElement {
 public:
  explicit SimpleGearElement(const blocks::Params& p);
  RotationalPart Part() const override;
  double ratio = 1.0;
};

class RotationalFrictionElement final : public RotationalElement {
 public:
  explicit RotationalFrictionElement(const blocks::Params& p);
  RotationalPart Part() const override;
  FrictionParameters friction;
};

class RotationalSpringDamperElement final : public RotationalElement {
 public:
  explicit RotationalSpringDamperElement(const blocks::Params& p);
  RotationalPart Part() const override;
  double k = 0.0, c = 0.0;  ///< N m/rad, N m s/rad
};

class TorqueSourceElement final : public RotationalElement {
 public:
  explicit TorqueSourceElement(const blocks::Params& p);
  RotationalPart Part() const override;
  int in_tau;
};

class MotionSensorElement final : public RotationalElement {
 public:
  explicit MotionSensorElement(const blocks::Params& p);
  RotationalPart Part() const override;
  int out_phi, out_w;
};

/// Armature circuit and rotor: L di/dt = v - R i - Ke w, torque Kt i on the rotor.
class DCMotorElement final : public RotationalElement {
 public:
  explicit DCMotorElement(const blocks::Params& p);
  RotationalPart Part() const override;
  std::string UnconnectedPortError(const std::string& path, int port) const override;
  double R = 0.0, L = 0.0, Kt = 0.0, Ke = 0.0, J = 0.0, b = 0.0;
  int in_v, out_i, out_tau, out_w;
};

/// Surface or interior PMSM in the rotor dq frame with an averaged inverter, driven by
/// field-oriented current control (mode foc) or by dq voltages (mode voltage).
class PmsmElement final : public RotationalElement {
 public:
  explicit PmsmElement(const blocks::Params& p);
  RotationalPart Part() const override;
  std::string UnconnectedPortError(const std::string& path, int port) const override;
  int pole_pairs = 4;
  double Rs = 0.0, Ld = 0.0, Lq = 0.0, psi = 0.0, J = 0.0, b = 0.0;
  double Vdc = 0.0, i_max = 0.0, bandwidth = 0.0;  ///< V, A, Hz of the current loops
  bool foc = true;
  int in_command, out_idq, out_tau, out_w, out_vdq;
};

blocks::BlockType RotationalReferenceType();
blocks::BlockType InertiaType();
blocks::BlockType SimpleGearType();
blocks::BlockType RotationalFrictionType();
blocks::BlockType RotationalSpringDamperType();
blocks::BlockType TorqueSourceType();
blocks::BlockType MotionSensorType();
blocks::BlockType DCMotorType();
blocks::BlockType PmsmType();

}  // namespace twinblocks::drivetrain
