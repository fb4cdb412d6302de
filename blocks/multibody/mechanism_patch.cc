// PatchMechanism: a built mechanism brought to new numbers of its elements without building it
// again, for the changes that leave its tree, coordinates and ports as they are. Retuning a
// contact's stiffness or a friction torque on a compiled System should cost the few numbers it
// changes, not a new mechanism (rebuilding it from every element is most of a retune).
#include <optional>

#include "blocks/contact/spatial_contact_force.h"
#include "blocks/multibody/detail/frame_tree_builder.h"
#include "blocks/multibody/internal_force.h"
#include "blocks/multibody/mechanism_builder.h"

namespace twinblocks::multibody {

namespace {

// True when the two blocks have the same signal ports: the Mechanism's ports are theirs.
bool SamePorts(const blocks::Block& a, const blocks::Block& b) {
  if (a.num_inputs() != b.num_inputs() || a.num_outputs() != b.num_outputs()) return false;
  for (int i = 0; i < a.num_inputs(); ++i) {
    const auto& p = a.input_port(i);
    const auto& q = b.input_port(i);
    if (p.name != q.name || p.width != q.width || p.feedthrough != q.feedthrough) return false;
  }
  for (int i = 0; i < a.num_outputs(); ++i) {
    const auto& p = a.output_port(i);
    const auto& q = b.output_port(i);
    if (p.name != q.name || p.width != q.width || p.stage != q.stage) return false;
  }
  return true;
}

bool SameVector(const Eigen::VectorXd& a, const Eigen::VectorXd& b) {
  return a.size() == b.size() && a == b;
}

// True when two versions of a joint differ in nothing the tree or the coordinates depend on:
// only in JointProperties' springs, dampers, stops and filter.
bool SameJointMotion(const JointElement& a, const JointElement& b) {
  return a.kind == b.kind && a.axis == b.axis && SameVector(a.q0, b.q0) &&
         SameVector(a.qd0, b.qd0) && a.priority_high == b.priority_high && a.cut == b.cut &&
         a.properties.actuation == b.properties.actuation && a.shaft_port == b.shaft_port;
}

// True when a drivetrain built again keeps what the tree and the ports depend on: the clusters'
// joints and inertias (an inertia is a joint's armature), and which element each force, sensor
// and motor is and where its ports are.
bool SameDrivetrainShape(const drivetrain::DrivetrainModel& a,
                         const drivetrain::DrivetrainModel& b) {
  if (a.clusters.size() != b.clusters.size() || a.forces.size() != b.forces.size() ||
      a.sensors.size() != b.sensors.size() || a.motors.size() != b.motors.size() ||
      a.shaft_cluster != b.shaft_cluster) {
    return false;
  }
  for (size_t i = 0; i < a.clusters.size(); ++i) {
    if (a.clusters[i].joint != b.clusters[i].joint ||
        a.clusters[i].inertia != b.clusters[i].inertia) {
      return false;
    }
  }
  for (size_t i = 0; i < a.forces.size(); ++i) {
    if (a.forces[i].kind != b.forces[i].kind || a.forces[i].element != b.forces[i].element ||
        a.forces[i].element_port != b.forces[i].element_port) {
      return false;
    }
  }
  for (size_t i = 0; i < a.sensors.size(); ++i) {
    if (a.sensors[i].element != b.sensors[i].element) return false;
  }
  for (size_t i = 0; i < a.motors.size(); ++i) {
    if (a.motors[i].kind != b.motors[i].kind || a.motors[i].element != b.motors[i].element) {
      return false;
    }
  }
  return true;
}

// The position of element e in one of the builder's lists, or -1.
template <typename T>
int IndexIn(const MechanismBuilder::List<T>& list, int e) {
  for (size_t i = 0; i < list.size(); ++i) {
    if (list[i].first == e) return static_cast<int>(i);
  }
  return -1;
}

}  // namespace

std::optional<MechanismModel> PatchMechanism(const MechanismModel& built,
                                             const std::vector<NetworkElement>& before,
                                             const std::vector<NetworkElement>& after,
                                             const std::vector<unsigned char>& changed,
                                             int num_nodes) {
  const MechanismBuilder network(after);
  std::optional<MechanismBuilder> old_network;  // only to compare a joint with what it was
  MechanismModel m = built;
  bool drivetrain = false;
  for (int e = 0; e < network.num_elements(); ++e) {
    if (!changed[e]) continue;
    if (!SamePorts(*before[e].block, *after[e].block)) return std::nullopt;
    if (const int k = IndexIn(network.contacts(), e); k >= 0) {
      m.contacts[k].laws = internal::ContactLaws(e, *network.contacts()[k].second, m.contacts[k]);
    } else if (const JointElement* joint = network.joint(e)) {
      if (!old_network) old_network.emplace(before);
      const JointElement* old_joint = old_network->joint(e);
      if (old_joint == nullptr || !SameJointMotion(*old_joint, *joint)) return std::nullopt;
      for (MechanismJoint& j : m.joints) {
        if (j.element == e) j.properties = joint->properties;
      }
      for (LoopConstraint& loop : m.loops) {
        if (loop.element == e) loop.properties = joint->properties;
      }
    } else if (const int k = IndexIn(network.internal_forces(), e); k >= 0) {
      const InternalForceElement& f = *network.internal_forces()[k].second;
      MechanismInternalForce& force = m.internal_forces[k];
      if (f.spring_damper != force.spring_damper) return std::nullopt;
      force.k = f.k;
      force.c = f.c;
      force.length0 = f.length0;
    } else {
      bool rotational = false;
      for (const drivetrain::RotationalNetworkElement& r : network.rotational()) {
        rotational = rotational || r.element == e;
      }
      if (!rotational) return std::nullopt;  // a Solid, a World, a rigid transform, ...
      drivetrain = true;
    }
  }
  if (drivetrain) {
    drivetrain::DrivetrainModel model;
    try {
      model = drivetrain::BuildDrivetrain(network.rotational(), internal::JointShafts(network),
                                          num_nodes);
    } catch (const drivetrain::RotationalNetworkError& err) {
      throw NetworkError(err.element(), err.what());
    }
    if (!SameDrivetrainShape(m.drivetrain, model)) return std::nullopt;
    m.drivetrain = std::move(model);
  }
  return m;
}

}  // namespace twinblocks::multibody
