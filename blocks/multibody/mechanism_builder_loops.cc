// BuildMechanism, the closed loops: cut joints as constraints, joint couplers, and the
// assembly of the initial state so that every constraint holds.
#include <Eigen/Cholesky>
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>
#include <optional>
#include <string>
#include <vector>

#include "blocks/contact/spatial_contact_force.h"
#include "blocks/multibody/detail/frame_tree_builder.h"
#include "blocks/multibody/detail/synergy_problem.h"
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

namespace {

/// The tree joint (index into m.joints) whose shaft is on `node`; -1 when no joint's shaft is
/// there, -2 when the joint is cut (closes a loop).
int JointOnShaft(int node, const std::vector<drivetrain::Shaft>& shafts, const MechanismModel& m,
                 int* element) {
  *element = -1;
  for (const drivetrain::Shaft& s : shafts) {
    if (s.node == node) *element = s.element;
  }
  if (*element < 0) return -1;
  for (size_t n = 0; n < m.joints.size(); ++n) {
    if (m.joints[n].element == *element) return static_cast<int>(n);
  }
  return -2;
}

}  // namespace

/// The coupling of JointCoupler `e`: the joints whose shafts its ports A and B are on.
/// @throws NetworkError when a port is not on a shaft of a joint of the tree, or both ports are
///         on one joint.
JointCoupling MakeJointCoupling(const MechanismBuilder& network, int e,
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
    int element = -1;
    joint[side] = JointOnShaft(elements[e].nodes[ports[side]], shafts, m, &element);
    if (joint[side] == -1) {
      throw NetworkError(e, "coupler " + Quote(c.name) + ": port " + port +
                                " is not connected to a joint's shaft; connect it directly to the "
                                "`shaft` port of a revolute or prismatic joint with "
                                "actuation=\"port\"");
    }
    if (joint[side] == -2) {
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

/// routing="chain": each joint's body lies beyond the previous joint's, on its path to the
/// root, so that J1..Jn follow one chain from the base outward.
void CheckTendonChain(int e, const MechanismTendon& t, const MechanismModel& m) {
  const KinematicTree& tree = *m.tree;
  for (size_t k = 1; k < t.joints.size(); ++k) {
    const int inner = m.joints[t.joints[k - 1]].body;
    bool beyond = false;
    for (int b = tree.parent(m.joints[t.joints[k]].first_body); b >= 0 && !beyond;
         b = tree.parent(b)) {
      beyond = b == inner;
    }
    if (!beyond) {
      throw NetworkError(e, "tendon " + Quote(t.name) + " has routing=\"chain\", but joint " +
                                Quote(m.joints[t.joints[k]].name) + " (J" +
                                std::to_string(k + 1) + ") is not beyond joint " +
                                Quote(m.joints[t.joints[k - 1]].name) + " (J" +
                                std::to_string(k) +
                                ") on one chain from the base; order J1..Jn from the base "
                                "outward along one branch, or use routing=\"free\"");
    }
  }
}

MechanismTendon MakeTendon(const MechanismBuilder& network, int e,
                           const std::vector<drivetrain::Shaft>& shafts, const MechanismModel& m) {
  const std::vector<NetworkElement>& elements = network.elements();
  const TendonElement* el = nullptr;
  for (const auto& [index, t] : network.tendons()) {
    if (index == e) el = t;
  }
  MechanismTendon t;
  t.name = elements[e].name;
  t.element = e;
  for (int j = 0; j < el->num_joints(); ++j) {
    const std::string port = "J" + std::to_string(j + 1);
    int element = -1;
    const int joint = JointOnShaft(elements[e].nodes[el->joint_ports[j]], shafts, m, &element);
    if (joint == -1) {
      throw NetworkError(e, "tendon " + Quote(t.name) + ": port " + port +
                                " is not connected to a joint's shaft; connect it directly to "
                                "the `shaft` port of a revolute or prismatic joint with "
                                "actuation=\"port\"");
    }
    if (joint == -2) {
      throw NetworkError(e, "tendon " + Quote(t.name) + ": joint " + Quote(elements[element].name) +
                                " on port " + port +
                                " closes a kinematic loop (it is cut); a tendon's joints must be "
                                "joints of the tree: mark another joint of the loop cut=\"true\"");
    }
    for (size_t k = 0; k < t.joints.size(); ++k) {
      if (t.joints[k] == joint) {
        throw NetworkError(e, "tendon " + Quote(t.name) + ": ports J" + std::to_string(k + 1) +
                                  " and " + port + " are both on joint " +
                                  Quote(m.joints[joint].name) +
                                  "; give each joint one moment arm (their sum)");
      }
    }
    t.joints.push_back(joint);
    t.q_index.push_back(m.joints[joint].q_index);
    t.v_index.push_back(m.joints[joint].v_index);
  }
  if (el->chain) CheckTendonChain(e, t, m);
  t.arms = el->arms;
  t.arm_expressions = el->arm_expressions;
  if (t.arm_expressions.empty()) t.arm_expressions.assign(t.joints.size(), "");
  t.variables = el->variables;
  t.q_rest = el->q_rest;
  t.E = el->E;
  t.force_driven = el->force_driven;
  t.elastic = el->elastic;
  t.stiffness = el->stiffness;
  t.damping = el->damping;
  t.sigma_scaling = el->sigma_scaling;
  t.sigma_offset = el->sigma_offset;
  t.filter_tc = el->filter_tc;
  return t;
}

MechanismSynergyEquilibrium MakeSynergyEquilibrium(const MechanismBuilder& network, int e,
                                                   const MechanismModel& m) {
  const std::vector<NetworkElement>& elements = network.elements();
  const SynergyEquilibriumElement* el = nullptr;
  for (const auto& [index, q] : network.equilibria()) {
    if (index == e) el = q;
  }
  MechanismSynergyEquilibrium eq;
  eq.name = elements[e].name;
  eq.element = e;
  eq.gravity = el->gravity;
  const int node = elements[e].nodes[el->port_t];
  for (size_t k = 0; k < m.tendons.size(); ++k) {
    const auto& [index, t] = network.tendons()[k];
    if (elements[index].nodes[t->port_t] != node) continue;
    if (eq.tendon >= 0) {
      throw NetworkError(e, "synergy equilibrium " + Quote(eq.name) +
                                ": port T joins the ports T of two tendons (" +
                                Quote(m.tendons[eq.tendon].name) + ", " + Quote(m.tendons[k].name) +
                                "); connect it to one");
    }
    eq.tendon = static_cast<int>(k);
  }
  if (eq.tendon < 0) {
    throw NetworkError(e, "synergy equilibrium " + Quote(eq.name) +
                              ": port T is not connected to a Tendon's port T");
  }
  // The balance's joints: the tendon's, those of every tendon sharing one, and every joint
  // coupled to one of them, until nothing is added.
  std::vector<char> in(m.joints.size(), 0), tendon_in(m.tendons.size(), 0);
  tendon_in[eq.tendon] = 1;
  eq.tendons.push_back(eq.tendon);
  for (int j : m.tendons[eq.tendon].joints) in[j] = 1;
  for (bool grew = true; grew;) {
    grew = false;
    for (size_t k = 0; k < m.tendons.size(); ++k) {
      if (tendon_in[k]) continue;
      bool shares = false;
      for (int j : m.tendons[k].joints) shares = shares || in[j];
      if (!shares) continue;
      tendon_in[k] = 1;
      eq.tendons.push_back(static_cast<int>(k));
      for (int j : m.tendons[k].joints) in[j] = 1;
      grew = true;
    }
    for (const JointCoupling& c : m.couplings) {
      if (in[c.joint_a] != in[c.joint_b]) {
        in[c.joint_a] = in[c.joint_b] = 1;
        grew = true;
      }
    }
  }
  // The tendon's own joints first, in its port order, then the others in model order.
  eq.joints = m.tendons[eq.tendon].joints;
  for (size_t j = 0; j < m.joints.size(); ++j) {
    if (in[j] &&
        std::find(eq.joints.begin(), eq.joints.end(), static_cast<int>(j)) == eq.joints.end()) {
      eq.joints.push_back(static_cast<int>(j));
    }
  }
  for (size_t c = 0; c < m.couplings.size(); ++c) {
    if (in[m.couplings[c].joint_a]) eq.couplings.push_back(static_cast<int>(c));
  }
  // Where each tendon's and coupling's joints stand among the balance's, once.
  auto column = [&eq](int joint) {
    return static_cast<int>(std::find(eq.joints.begin(), eq.joints.end(), joint) -
                            eq.joints.begin());
  };
  for (int t : eq.tendons) {
    eq.tendon_columns.emplace_back();
    for (int j : m.tendons[t].joints) eq.tendon_columns.back().push_back(column(j));
  }
  for (int c : eq.couplings) {
    eq.coupling_columns.emplace_back(column(m.couplings[c].joint_a),
                                     column(m.couplings[c].joint_b));
  }
  for (int j : eq.joints) {
    if (m.joints[j].kind != JointKind::kRevolute && m.joints[j].kind != JointKind::kPrismatic) {
      throw NetworkError(e, "synergy equilibrium " + Quote(eq.name) + ": joint " +
                                Quote(m.joints[j].name) + " is not a revolute or prismatic joint");
    }
  }
  for (int t : eq.tendons) {
    if (m.tendons[t].force_driven) {
      throw NetworkError(e, "synergy equilibrium " + Quote(eq.name) + ": tendon " +
                                Quote(m.tendons[t].name) +
                                " has drive=\"force\"; the adaptive-synergy balance holds "
                                "tendons at their displacement (drive=\"displacement\")");
    }
  }
  // Determined: the springs hold every motion the tendons and couplings leave (at q0).
  SynergyEquilibriumSolver solver = MakeSynergySolver(m, eq);
  const TendonArms arms(m.tendons);
  Eigen::VectorXd q_tree = m.q0, q_eq(eq.joints.size());
  for (size_t a = 0; a < eq.joints.size(); ++a) q_eq[a] = m.q0[m.joints[eq.joints[a]].q_index];
  EvaluateSynergyTendons(m, eq, arms, q_eq, q_tree, solver.l, solver.R, solver.dR);
  if (!solver.Determined()) {
    std::string springless;
    for (size_t a = 0; a < eq.joints.size(); ++a) {
      if (solver.K[a] <= 0.0) {
        springless += (springless.empty() ? "" : ", ") + Quote(m.joints[eq.joints[a]].name);
      }
    }
    throw NetworkError(e, "synergy equilibrium " + Quote(eq.name) +
                              ": the balance leaves the hand free to move (the springs do not "
                              "hold every motion the tendons and couplings allow); joints "
                              "without a positive stiffness: " +
                              (springless.empty() ? std::string("none") : springless) +
                              ". Give the tendon E or the joints a stiffness");
  }
  return eq;
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
    LoopClosureData ld(tree, m->loops, *movable, m->couplings);
    q = m->q0;
    if (ProjectPositions(tree, m->loops, *movable, LoopMetric::kIdentity, kTolerance, kIterations,
                         &data, &ld, q) <= kFailure) {
      break;
    }
  }
  LoopClosureData ld(tree, m->loops, free, m->couplings);
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
    LoopClosureData lv(tree, m->loops, *movable, m->couplings);
    v = m->v0;
    ProjectVelocities(tree, m->loops, *movable, LoopMetric::kIdentity, q, &data, &lv, v);
    if (m->num_constraint_rows == 0 || (ld.G * v).cwiseAbs().maxCoeff() <= kFailure) break;
  }
  m->q0 = q;
  m->v0 = v;
}

}  // namespace twinblocks::multibody::internal
