// BuildMechanism, the closed loops: cut joints as constraints, joint couplers, and the
// assembly of the initial state so that every constraint holds.
#include <Eigen/Cholesky>
#include <cmath>
#include <cstdio>
#include <limits>
#include <optional>

#include "blocks/contact/spatial_contact_force.h"
#include "blocks/multibody/detail/frame_tree_builder.h"
#include "blocks/multibody/loop_closure.h"
#include "blocks/multibody/loop_constraint.h"
#include "physics/multibody/algorithms.h"

namespace twinblocks::multibody::internal {

/// The constraint of cut joint `e`, its rows starting at `row` (none for a free or bushing
/// joint: the loop is there for the joint's outputs and a bushing's forces).
/// @throws NetworkError for a joint that cannot close a loop.
LoopConstraint MakeLoopConstraint(const MechanismBuilder& network, int e,
                                  const FrameTreeBuilder& builder, int row) {
  const std::vector<NetworkElement>& elements = network.elements();
  const JointElement& el = *network.joint(e);
  const std::string& name = elements[e].name;
  LoopConstraint loop;
  loop.name = name;
  loop.kind = el.kind;
  loop.element = e;
  loop.row = row;
  loop.num_rows = LoopConstraintRows(el.kind);
  loop.B = builder.location(elements[e].nodes[0]);
  loop.F = builder.location(elements[e].nodes[1]);
  for (int j : builder.PathBetween(loop.B.body, loop.F.body)) {
    loop.loop.push_back(elements[j].name);
  }
  if (el.properties.actuation == Actuation::kMotion ||
      el.properties.actuation == Actuation::kPort) {
    throw NetworkError(e, "joint " + Quote(name) + " closes a kinematic loop and has actuation=" +
                              (el.properties.actuation == Actuation::kMotion ? "motion" : "port") +
                              ", which needs a coordinate of the tree; mark another joint of "
                              "the loop cut=\"true\"");
  }
  if (el.is_one_dof()) {
    loop.axis = el.axis;
    // Any two unit vectors completing the axis to a right-handed basis.
    const Eigen::Vector3d t =
        std::abs(el.axis.x()) < 0.9 ? Eigen::Vector3d::UnitX() : Eigen::Vector3d::UnitY();
    loop.n1 = (t - t.dot(el.axis) * el.axis).normalized();
    loop.n2 = el.axis.cross(loop.n1);
  }
  loop.properties = el.properties;
  loop.q0 = el.q0;
  return loop;
}

/// The coupling of JointCoupler `e`: the joints whose shafts its ports A and B are on.
/// @throws NetworkError when a port is not on a shaft of a joint of the tree, or both ports are
///         on one joint.
JointCoupling MakeJointCoupling(const MechanismBuilder& network, int e,
                                const FrameTreeBuilder& builder,
                                const std::vector<drivetrain::Shaft>& shafts,
                                const MechanismModel& m) {
  const std::vector<NetworkElement>& elements = network.elements();
  const JointCouplerElement& el = *network.coupler(e);
  JointCoupling c;
  c.name = elements[e].name;
  c.element = e;
  c.ratio = el.ratio;
  c.offset = el.offset;
  int joint[2] = {-1, -1};
  const int ports[2] = {el.port_a, el.port_b};
  for (int side = 0; side < 2; ++side) {
    const char* port = side == 0 ? "A" : "B";
    const int node = elements[e].nodes[ports[side]];
    int element = -1;
    for (const drivetrain::Shaft& s : shafts) {
      if (s.node == node) element = s.element;
    }
    if (element < 0) {
      throw NetworkError(e, "coupler " + Quote(c.name) + ": port " + port +
                                " is not connected to a joint's shaft; connect it directly to the "
                                "`shaft` port of a revolute or prismatic joint with "
                                "actuation=\"port\"");
    }
    for (size_t n = 0; n < builder.joints().size(); ++n) {
      if (builder.joints()[n].element == element) joint[side] = static_cast<int>(n);
    }
    if (joint[side] < 0) {
      throw NetworkError(e, "coupler " + Quote(c.name) + ": joint " +
                                Quote(elements[element].name) + " on port " + port +
                                " closes a kinematic loop (it is cut); a coupled joint must be a "
                                "joint of the tree: mark another joint of the loop cut=\"true\"");
    }
  }
  if (joint[0] == joint[1]) {
    throw NetworkError(e, "coupler " + Quote(c.name) + ": ports A and B are both on joint " +
                              Quote(m.joints[joint[0]].name) +
                              "; a coupler joins two different joints");
  }
  c.joint_a = joint[0];
  c.joint_b = joint[1];
  c.q_a = m.joints[joint[0]].q_index;
  c.v_a = m.joints[joint[0]].v_index;
  c.q_b = m.joints[joint[1]].q_index;
  c.v_b = m.joints[joint[1]].v_index;
  return c;
}

/// Closes the loops at the start (docs/loops.md: q0 and qd0 are assembly targets): moves the
/// low-priority coordinates as little as it can so that every constraint holds, and only if
/// that is not enough, every coordinate that is not prescribed; then the same for velocities.
/// @throws NetworkError naming the loop with the largest residual when it cannot.
void AssembleLoops(const MechanismBuilder& network, const FrameTreeBuilder& builder,
                   MechanismModel* m) {
  const KinematicTree& tree = *m->tree;
  std::vector<int> low, free;
  for (size_t n = 0; n < m->joints.size(); ++n) {
    const MechanismJoint& j = m->joints[n];
    if (j.prescribed) continue;
    const JointElement& el = *network.joint(builder.joints()[n].element);
    // Joints with no priority parameter (spherical, free, bushing) are adjustable.
    const bool high = el.is_one_dof() && el.priority_high;
    for (int k = 0; k < j.nv; ++k) {
      free.push_back(j.v_index + k);
      if (!high) low.push_back(j.v_index + k);
    }
  }
  constexpr double kTolerance = 1e-12, kFailure = 1e-9;
  constexpr int kIterations = 50;
  KinematicTreeData data(tree);
  Eigen::VectorXd q = m->q0, v = m->v0;
  for (const std::vector<int>* movable : {&low, &free}) {
    LoopClosureData ld(tree, m->loops, static_cast<int>(movable->size()), m->couplings);
    q = m->q0;
    if (ProjectPositions(tree, m->loops, *movable, LoopMetric::kIdentity, kTolerance, kIterations,
                         &data, &ld, q) <= kFailure) {
      break;
    }
  }
  LoopClosureData ld(tree, m->loops, static_cast<int>(free.size()), m->couplings);
  ForwardKinematics(tree, &data, q);
  CalcLoopPositions(tree, m->loops, data, &ld);
  CalcCouplingPositions(q, &ld);
  if (m->num_constraint_rows > 0 && ld.phi.cwiseAbs().maxCoeff() > kFailure) {
    Eigen::Index worst;
    const double residual = ld.phi.cwiseAbs().maxCoeff(&worst);
    char value[32];
    std::snprintf(value, sizeof value, "%.3g", residual);
    const ConstraintRowOwner owner = DescribeConstraintRow(*m, worst);
    if (owner.is_coupling) {
      throw NetworkError(owner.element, owner.description +
                                            " cannot be assembled: its residual "
                                            "stays " +
                                            value +
                                            " (m or rad) with every joint free to move; check the "
                                            "other couplings, loops and motion inputs of these "
                                            "joints");
    }
    throw NetworkError(owner.element,
                       owner.description + " cannot be assembled: its constraint residual stays " +
                           value +
                           " (m or rad) with every joint free to move; check the link lengths "
                           "and the joints' q0");
  }
  for (const std::vector<int>* movable : {&low, &free}) {
    LoopClosureData lv(tree, m->loops, static_cast<int>(movable->size()), m->couplings);
    v = m->v0;
    ProjectVelocities(tree, m->loops, *movable, LoopMetric::kIdentity, q, &data, &lv, v);
    if (m->num_constraint_rows == 0 || (ld.G * v).cwiseAbs().maxCoeff() <= kFailure) break;
  }
  m->q0 = q;
  m->v0 = v;
}

}  // namespace twinblocks::multibody::internal
