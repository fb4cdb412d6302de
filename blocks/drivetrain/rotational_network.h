#pragma once

// Rotational networks reduced to generalized coordinates (docs/design.md, "Rotational networks"):
// ideal gears merge the shafts they join into one coordinate, each node turning at k times
// it; a cluster holding a joint's shaft rides on the joint's coordinate (k = 1 at the shaft),
// one holding a RotationalReference is fixed, any other gets a coordinate of its own.
// Inertias add J k^2 to their cluster's coordinate; the other elements add generalized
// forces by virtual work, k_R T_R + k_C T_C.

#include <stdexcept>
#include <string>
#include <vector>

#include "physics/drivetrain/dc_motor_model.h"
#include "physics/drivetrain/friction_model.h"
#include "physics/drivetrain/pmsm_model.h"

namespace twinblocks::drivetrain {

/// A joint shaft: the node a joint's `shaft` port is on, and which joint (caller's index).
struct Shaft {
  int node = -1;
  int joint = -1;
  int element = -1;  ///< caller's element index of the joint
};

/// A problem with the network; `element` is the caller's index of the element at fault.
class RotationalNetworkError : public std::runtime_error {
 public:
  RotationalNetworkError(int element, const std::string& what)
      : std::runtime_error(what), element_(element) {}
  int element() const { return element_; }

 private:
  int element_;
};

/// Where a node's angle comes from: k times its cluster's coordinate.
struct NodeCoordinate {
  int cluster = -1;  ///< -1: fixed (angle 0)
  double k = 0.0;
};

struct RotationalCluster {
  int joint = -1;        ///< the joint whose coordinate it rides on, or -1 (own coordinate)
  double inertia = 0.0;  ///< sum J k^2, kg m^2
};

enum class RotationalForceKind { kFriction, kSpringDamper, kTorqueSource };

/// An element that acts between R and C (torque T on R, -T on C).
struct RotationalForce {
  RotationalForceKind kind = RotationalForceKind::kFriction;
  NodeCoordinate R, C;
  FrictionParameters friction;
  double k = 0.0, c = 0.0;  ///< spring-damper
  int element = -1;         ///< caller's index
  int element_port = -1;    ///< the torque source's input, in the element's inputs
};

struct RotationalSensor {
  NodeCoordinate R, C;
  int element = -1;
  int out_phi = -1, out_w = -1;  ///< in the element's outputs
};

enum class MotorKind { kDC, kPmsmFoc, kPmsmVoltage };

/// A motor between R (rotor) and C (case, on a fixed node): electrical states of its own,
/// torque on R from its currents. Its rotor inertia is already in R's cluster and its viscous
/// friction is one of the forces.
struct RotationalMotor {
  MotorKind kind = MotorKind::kDC;
  std::string name;
  NodeCoordinate R, C;
  DCMotorParameters dc;
  PmsmParameters pmsm;
  int element = -1;
  int in_command = -1;                             ///< v, tau_ref or vdq, in the element's inputs
  int out_current = -1, out_tau = -1, out_w = -1;  ///< in the element's outputs
  int out_vdq = -1;                                ///< a PMSM's applied voltage

  /// DC: i. PMSM, foc: i_d, i_q, then the PI integrators z_d, z_q. PMSM, voltage: i_d, i_q.
  int num_states() const {
    return kind == MotorKind::kDC ? 1 : kind == MotorKind::kPmsmFoc ? 4 : 2;
  }
};

/// What a rotational element is in its network, as it describes itself
/// (RotationalElement::Part): the builder reads this, never the element's type. R is the
/// element's first rotational port and C its second (a gear's B and F).
struct RotationalPart {
  enum class Kind {
    kReference,  ///< holds its node still
    kGear,       ///< w_B = ratio w_F between its two nodes
    kInertia,    ///< adds J k^2 to its node's cluster
    kForce,      ///< a torque between R and C: `force`
    kSensor,     ///< measures R against C: `sensor`
    kMotor,      ///< a motor between R and C: `motor`
  };
  Kind kind = Kind::kInertia;
  double ratio = 1.0;    ///< kGear
  double inertia = 0.0;  ///< kInertia, kMotor (the rotor's): kg m^2
  double viscous = 0.0;  ///< kMotor: the rotor's viscous friction, N m s/rad
  /// kForce: its kind, parameters and input; the builder sets R, C and element.
  RotationalForce force;
  /// kSensor: its outputs; the builder sets R, C and element.
  RotationalSensor sensor;
  /// kMotor: its kind, parameters and ports; the builder sets name, R, C and element.
  RotationalMotor motor;
};

/// One element of a rotational network as the builder sees it.
struct RotationalNetworkElement {
  RotationalPart part;     ///< what the element is
  std::string name;        ///< its path, for messages
  std::vector<int> nodes;  ///< node of each rotational port, in the element's port order
  int element = -1;        ///< the caller's index of the element, for errors
};

struct DrivetrainModel {
  std::vector<RotationalCluster> clusters;
  std::vector<RotationalForce> forces;
  std::vector<RotationalSensor> sensors;
  std::vector<RotationalMotor> motors;
  /// Per shaft given to the builder: the cluster it drives.
  std::vector<int> shaft_cluster;

  bool empty() const {
    return clusters.empty() && forces.empty() && sensors.empty() && motors.empty();
  }
};

/// Reduces the rotational elements and joint shafts of a model. A cluster of its own must
/// have inertia.
/// @throws RotationalNetworkError naming the element at fault: contradictory gear ratios, two
///         joints geared together, a joint held by a reference, a free shaft with no inertia,
///         a motor whose case is not held by a RotationalReference.
DrivetrainModel BuildDrivetrain(const std::vector<RotationalNetworkElement>& elements,
                                const std::vector<Shaft>& shafts, int num_nodes);

/// Torque T that the element puts on R (C takes -T) at relative angle phi and speed w of R
/// against C; `input` is a torque source's input.
inline double RotationalForceTorque(const RotationalForce& f, double phi, double w, double input) {
  switch (f.kind) {
    case RotationalForceKind::kFriction:
      return -FrictionTorque(f.friction, w);
    case RotationalForceKind::kSpringDamper:
      return -(f.k * phi + f.c * w);
    case RotationalForceKind::kTorqueSource:
      return input;
  }
  return 0.0;
}

}  // namespace twinblocks::drivetrain
