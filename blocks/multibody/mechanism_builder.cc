#include "blocks/multibody/mechanism_builder.h"

#include <Eigen/Cholesky>
#include <cmath>
#include <cstdio>
#include <limits>
#include <optional>

#include "blocks/contact/spatial_contact_force.h"
#include "blocks/multibody/detail/frame_tree_builder.h"
#include "blocks/multibody/joint_coupler.h"
#include "blocks/multibody/loop_constraint.h"
#include "physics/multibody/algorithms.h"

namespace twinblocks::multibody {

using internal::AssembleLoops;
using internal::BuildContact;
using internal::FrameTreeBuilder;
using internal::JointShafts;
using internal::MakeJointCoupling;
using internal::MakeLoopConstraint;
using internal::MakeSynergyEquilibrium;
using internal::MakeTendon;
using internal::Quote;

namespace {

/// Index of the only World among the marked elements, -1 if none. @throws on a second one.
int FindWorld(const MechanismBuilder& network, const std::vector<unsigned char>& subset) {
  const std::vector<NetworkElement>& elements = network.elements();
  int world = -1;
  for (int e = 0; e < static_cast<int>(elements.size()); ++e) {
    if (!subset[e] || network.world(e) == nullptr) continue;
    if (world >= 0) {
      throw NetworkError(e, "a second World (the first is " + Quote(elements[world].name) +
                                "); a model has exactly one World");
    }
    world = e;
  }
  return world;
}

void CheckPortsConnected(const MechanismBuilder& network, int num_nodes) {
  const std::vector<NetworkElement>& elements = network.elements();
  std::vector<int> count(num_nodes, 0);
  for (const NetworkElement& e : elements) {
    for (int n : e.nodes) ++count[n];
  }
  for (int e = 0; e < static_cast<int>(elements.size()); ++e) {
    const blocks::Block& b = *elements[e].block;
    for (int p = 0; p < b.num_physical_ports(); ++p) {
      if (count[elements[e].nodes[p]] >= 2) continue;
      const std::string error = network.element(e).UnconnectedPortError(elements[e].name, p);
      if (!error.empty()) throw NetworkError(e, error);
    }
  }
}

/// The mechanism must be able to accelerate every free coordinate: the mass matrix restricted
/// to them must be positive definite. A massless body at the end of a chain is the usual cause.
/// @returns -1 when it can; else the index of a joint with no mass along its motion, or
///          m.joints.size() when the fault is spread over several joints.
int FindMasslessJoint(const MechanismModel& m) {
  const KinematicTree& tree = *m.tree;
  KinematicTreeData data(tree);
  const Eigen::MatrixXd& M = Crba(tree, &data, m.q0);
  std::vector<int> free;
  for (const MechanismJoint& j : m.joints) {
    if (j.prescribed) continue;
    for (int k = 0; k < j.nv; ++k) free.push_back(j.v_index + k);
  }
  if (free.empty()) return -1;
  Eigen::MatrixXd Mf(free.size(), free.size());
  for (size_t a = 0; a < free.size(); ++a) {
    for (size_t b = 0; b < free.size(); ++b) Mf(a, b) = M(free[a], free[b]);
  }
  const double scale = std::max(1.0, Mf.diagonal().cwiseAbs().maxCoeff());
  for (size_t n = 0; n < m.joints.size(); ++n) {
    const MechanismJoint& j = m.joints[n];
    if (j.prescribed) continue;
    for (int k = 0; k < j.nv; ++k) {
      if (!(M(j.v_index + k, j.v_index + k) > 1e-12 * scale)) return static_cast<int>(n);
    }
  }
  if (Eigen::LLT<Eigen::MatrixXd>(Mf).info() != Eigen::Success) {
    return static_cast<int>(m.joints.size());
  }
  return -1;
}

}  // namespace

std::vector<drivetrain::Shaft> internal::JointShafts(const MechanismBuilder& network) {
  std::vector<drivetrain::Shaft> shafts;
  for (int e = 0; e < network.num_elements(); ++e) {
    if (const JointElement* j = network.joint(e); j != nullptr && j->shaft_port >= 0) {
      shafts.push_back({network.elements()[e].nodes[j->shaft_port], e, e});
    }
  }
  return shafts;
}

std::string MechanismElement::UnconnectedPortError(const std::string& path, int port) const {
  const PhysicalPort& p = physical_port(port);
  if (p.domain == "frame") {
    return "frame port '" + p.name + "' of " + Quote(path) +
           " is not connected; every frame port of a frame block must be joined to another "
           "frame";
  }
  // A rotational port left open is free, as in Simscape: no torque flows through it, and its
  // shaft turns as the element lets it. The drivetrain's reduction then refuses only what has
  // no defined motion (a free shaft without inertia).
  return {};
}

MechanismBuilder::MechanismBuilder(const std::vector<NetworkElement>& elements)
    : elements_(elements),
      world_(elements.size(), nullptr),
      rigid_(elements.size()),
      solid_(elements.size(), nullptr),
      joint_(elements.size(), nullptr),
      coupler_(elements.size(), nullptr) {
  mechanism_elements_.reserve(elements.size());
  for (current_ = 0; current_ < num_elements(); ++current_) {
    // The one question about a block's type: whether it belongs to a physical network at all.
    const auto* element = dynamic_cast<const MechanismElement*>(elements[current_].block);
    if (element == nullptr) {
      throw NetworkError(current_, Quote(elements[current_].name) +
                                       " has physical ports but is no element of a frame or "
                                       "rotational network");
    }
    mechanism_elements_.push_back(element);
    element->Contribute(*this);
  }
  current_ = -1;
}

void MechanismBuilder::AddWorld(const WorldElement& world) { world_[current_] = &world; }
void MechanismBuilder::AddRigidConnection(const Pose& X_BF) { rigid_[current_] = X_BF; }
void MechanismBuilder::AddSolid(const SolidElement& solid) { solid_[current_] = &solid; }
void MechanismBuilder::AddJoint(const JointElement& joint) { joint_[current_] = &joint; }
void MechanismBuilder::AddTransformSensor(const TransformSensorElement& sensor) {
  sensors_.emplace_back(current_, &sensor);
}
void MechanismBuilder::AddExternalForce(const ExternalForceTorqueElement& force) {
  external_forces_.emplace_back(current_, &force);
}
void MechanismBuilder::AddInternalForce(const InternalForceElement& force) {
  internal_forces_.emplace_back(current_, &force);
}
void MechanismBuilder::AddContact(const contact::SpatialContactForceElement& contact) {
  contacts_.emplace_back(current_, &contact);
}
void MechanismBuilder::AddJointCoupler(const JointCouplerElement& coupler) {
  coupler_[current_] = &coupler;
}
void MechanismBuilder::AddTendon(const TendonElement& tendon) {
  tendons_.emplace_back(current_, &tendon);
}
void MechanismBuilder::AddSynergyEquilibrium(const SynergyEquilibriumElement& equilibrium) {
  equilibria_.emplace_back(current_, &equilibrium);
}
void MechanismBuilder::AddRotational(const drivetrain::RotationalPart& part) {
  rotational_.push_back({part, elements_[current_].name, elements_[current_].nodes, current_});
}

MechanismModel BuildMechanism(const std::vector<NetworkElement>& elements, int num_nodes,
                              const std::string& name) {
  MechanismModel m;
  m.name = name;
  if (elements.empty()) return m;
  const std::vector<unsigned char> all(elements.size(), 1);
  const MechanismBuilder network(elements);
  CheckPortsConnected(network, num_nodes);

  // Rotational networks first: the drive inertia they reflect onto a joint is part of its
  // body's dynamics (armature).
  const std::vector<drivetrain::Shaft> shafts = JointShafts(network);
  bool has_frames = false;
  for (int e = 0; e < static_cast<int>(elements.size()); ++e) {
    const blocks::Block& b = *elements[e].block;
    for (int p = 0; p < b.num_physical_ports(); ++p) {
      has_frames = has_frames || b.physical_port(p).domain == "frame";
    }
  }
  try {
    m.drivetrain = drivetrain::BuildDrivetrain(network.rotational(), shafts, num_nodes);
  } catch (const drivetrain::RotationalNetworkError& err) {
    throw NetworkError(err.element(), err.what());
  }
  std::vector<double> armature(elements.size(), 0.0);
  for (size_t s = 0; s < shafts.size(); ++s) {
    armature[shafts[s].element] = m.drivetrain.clusters[m.drivetrain.shaft_cluster[s]].inertia;
  }

  FrameTreeBuilder builder(network, num_nodes, all, armature);
  if (has_frames) {
    const int world = FindWorld(network, all);
    if (world < 0) {
      throw NetworkError(0,
                         "the model has frame blocks but no World block; add one and connect "
                         "the mechanism's base to its W port");
    }
    builder.Build(elements[world].nodes[0], network.world(world)->gravity);
  } else {
    builder.BuildEmpty();
  }
  m.tree = builder.tree();
  const KinematicTree& tree = *m.tree;

  // Signal ports, element by element, in the order of the elements.
  std::vector<int> input_base(elements.size()), output_base(elements.size());
  for (int e = 0; e < static_cast<int>(elements.size()); ++e) {
    const blocks::Block& b = *elements[e].block;
    input_base[e] = static_cast<int>(m.inputs.size());
    output_base[e] = static_cast<int>(m.outputs.size());
    for (int i = 0; i < b.num_inputs(); ++i) {
      const auto& port = b.input_port(i);
      m.inputs.push_back(
          {elements[e].name + "." + port.name, port.width, port.feedthrough, 0, e, i});
    }
    for (int i = 0; i < b.num_outputs(); ++i) {
      const auto& port = b.output_port(i);
      m.outputs.push_back({elements[e].name + "." + port.name, port.width, 0, port.stage, e, i});
    }
  }
  auto in = [&](int e, int port) { return MechanismInput{port < 0 ? -1 : input_base[e] + port}; };
  auto out = [&](int e, int port) {
    return MechanismOutput{port < 0 ? -1 : output_base[e] + port};
  };

  m.q0.resize(tree.nq());
  m.v0.resize(tree.nv());
  NeutralConfiguration(tree, m.q0);
  m.v0.setZero();
  m.prescribed.assign(tree.num_bodies(), 0);
  for (const auto& rec : builder.joints()) {
    const JointElement& el = *network.joint(rec.element);
    MechanismJoint j;
    j.name = elements[rec.element].name;
    j.element = rec.element;
    j.kind = el.kind;
    j.body = rec.body;
    j.first_body = rec.first_body;
    j.q_index = tree.idx_q(rec.first_body);
    j.v_index = tree.idx_v(rec.first_body);
    j.nq = tree.idx_q(rec.body) + tree.joint(rec.body).nq() - j.q_index;
    j.nv = tree.idx_v(rec.body) + tree.joint(rec.body).nv() - j.v_index;
    j.reversed = rec.reversed;
    j.X_JF_reversed = rec.X_PJ.Inverse();
    j.properties = el.properties;
    j.prescribed = el.properties.actuation == Actuation::kMotion;
    j.in_actuation = in(rec.element, el.in_actuation);
    j.out_q = out(rec.element, el.out_q);
    j.out_qd = out(rec.element, el.out_qd);
    j.out_qdd = out(rec.element, el.out_qdd);
    j.out_torque = out(rec.element, el.out_torque);
    j.out_wrench = out(rec.element, el.out_wrench);
    j.out_quaternion = out(rec.element, el.out_quaternion);
    j.out_w = out(rec.element, el.out_w);
    j.out_position = out(rec.element, el.out_position);
    j.out_v = out(rec.element, el.out_v);
    // Initial coordinates in the tree's convention.
    j.q0 = el.q0;
    j.v0 = el.qd0;
    if (el.kind == JointKind::kSpherical) {
      const Eigen::Matrix3d R =
          Eigen::Quaterniond(el.q0[0], el.q0[1], el.q0[2], el.q0[3]).toRotationMatrix();
      j.v0 = R.transpose() * el.qd0;  // w0 is given in B; the tree's omega is in F
    } else if (el.kind == JointKind::kFree) {
      const Eigen::Matrix3d R =
          Eigen::Quaterniond(el.q0[3], el.q0[4], el.q0[5], el.q0[6]).toRotationMatrix();
      j.v0.resize(6);
      j.v0 << R.transpose() * el.qd0.tail<3>(), R.transpose() * el.qd0.head<3>();
    }
    m.q0.segment(j.q_index, j.nq) = j.q0;
    m.v0.segment(j.v_index, j.nv) = j.v0;
    if (j.prescribed) m.prescribed[j.body] = 1;
    m.joints.push_back(std::move(j));
  }

  for (int e : builder.cut_joints()) {
    m.loops.push_back(MakeLoopConstraint(network, e, builder, m.num_constraint_rows));
    const JointElement& el = *network.joint(e);
    LoopConstraint& loop = m.loops.back();
    loop.in_actuation = in(e, el.in_actuation);
    loop.out_q = out(e, el.out_q);
    loop.out_qd = out(e, el.out_qd);
    loop.out_qdd = out(e, el.out_qdd);
    loop.out_torque = out(e, el.out_torque);
    loop.out_wrench = out(e, el.out_wrench);
    loop.out_quaternion = out(e, el.out_quaternion);
    loop.out_w = out(e, el.out_w);
    loop.out_position = out(e, el.out_position);
    loop.out_v = out(e, el.out_v);
    m.num_constraint_rows += loop.num_rows;
  }
  for (int e = 0; e < static_cast<int>(elements.size()); ++e) {
    const JointCouplerElement* c = network.coupler(e);
    if (c == nullptr) continue;
    m.couplings.push_back(MakeJointCoupling(network, e, shafts, m));
    m.couplings.back().out_tau = out(e, c->out_tau);
    m.couplings.back().row = m.num_constraint_rows++;
  }
  if (m.num_constraint_rows > 0) AssembleLoops(network, builder, &m);
  // Tendons after assembly: a displacement-driven tendon's command is not known until the run,
  // which starts with the tendon at the length the joints' q0 give it (a filtered command
  // starts there; a [s, sd, sdd] one is projected onto at the first major step).
  for (const auto& [e, t] : network.tendons()) {
    m.tendons.push_back(MakeTendon(network, e, shafts, m));
    MechanismTendon& tendon = m.tendons.back();
    tendon.in_command = in(e, t->in_command);
    tendon.out_f = out(e, t->out_f);
    tendon.out_length = out(e, t->out_length);
    if (!tendon.force_driven && !tendon.elastic) tendon.row = m.num_constraint_rows++;
  }
  for (const auto& [e, q] : network.equilibria()) {
    m.equilibria.push_back(MakeSynergyEquilibrium(network, e, m));
    MechanismSynergyEquilibrium& eq = m.equilibria.back();
    eq.out_q = out(e, q->out_q);
    eq.out_f = out(e, q->out_f);
    // Their widths are the tendon's joints and one tension: known only now.
    m.outputs[eq.out_q.index].width = static_cast<int>(m.tendons[eq.tendon].joints.size());
  }

  // What is attached to the bodies, each kind in element order.
  auto at = [&](int e, int port) { return builder.location(elements[e].nodes[port]); };
  for (const auto& [e, s] : network.sensors()) {
    m.sensors.push_back({elements[e].name, at(e, 0), at(e, 1), out(e, s->out_position),
                         out(e, s->out_rotation), out(e, s->out_v), out(e, s->out_w),
                         out(e, s->out_euler)});
  }
  for (const auto& [e, f] : network.external_forces()) {
    m.forces.push_back(
        {elements[e].name, at(e, 0), f->world_frame, in(e, f->in_force), in(e, f->in_torque)});
  }
  for (const auto& [e, f] : network.internal_forces()) {
    m.internal_forces.push_back({elements[e].name, at(e, 0), at(e, 1), f->spring_damper, f->k, f->c,
                                 f->length0, in(e, f->in_f), out(e, f->out_distance),
                                 out(e, f->out_speed)});
  }
  for (const auto& [e, sc] : network.contacts()) {
    MechanismContact contact = BuildContact(network, e, *sc, builder);
    contact.out_distance = out(e, sc->out_distance);
    contact.out_fn = out(e, sc->out_fn);
    contact.out_ff = out(e, sc->out_ff);
    contact.out_point = out(e, sc->out_point);
    contact.out_normal = out(e, sc->out_normal);
    contact.out_force = out(e, sc->out_force);
    m.contacts.push_back(std::move(contact));
  }
  for (int e = 0; e < static_cast<int>(elements.size()); ++e) {
    const SolidElement* s = network.solid(e);
    if (s == nullptr) continue;
    m.solids.push_back(
        {elements[e].name, s->shape, s->radius, s->length, s->size, s->mesh, s->color, at(e, 0)});
  }

  // The drivetrain's clusters on joints ride on their velocity coordinates; its sources and
  // sensors are signal ports of the mechanism like any element's.
  m.cluster_v_index.assign(m.drivetrain.clusters.size(), -1);
  m.joint_cluster.assign(m.joints.size(), -1);
  for (size_t s = 0; s < shafts.size(); ++s) {
    const int cluster = m.drivetrain.shaft_cluster[s];
    for (size_t j = 0; j < builder.joints().size(); ++j) {
      if (builder.joints()[j].element != shafts[s].element) continue;
      m.cluster_v_index[cluster] = m.joints[j].v_index;
      m.joint_cluster[j] = cluster;
    }
  }
  for (const drivetrain::RotationalForce& f : m.drivetrain.forces) {
    m.force_input.push_back(f.element_port >= 0 ? input_base[f.element] + f.element_port : -1);
  }
  for (const drivetrain::RotationalSensor& sensor : m.drivetrain.sensors) {
    m.sensor_phi.push_back(output_base[sensor.element] + sensor.out_phi);
    m.sensor_w.push_back(output_base[sensor.element] + sensor.out_w);
  }
  for (const drivetrain::RotationalMotor& motor : m.drivetrain.motors) {
    const int e = motor.element;
    m.motor_ports.push_back({in(e, motor.in_command), out(e, motor.out_current),
                             out(e, motor.out_tau), out(e, motor.out_w), out(e, motor.out_vdq)});
  }

  if (const int joint = FindMasslessJoint(m); joint >= 0) {
    const bool one = joint < static_cast<int>(m.joints.size());
    throw NetworkError(one ? builder.joints()[joint].element : 0,
                       (one ? "the bodies moved by joint " + Quote(m.joints[joint].name) +
                                  " have no mass or inertia along its motion"
                            : std::string("the mechanism's mass matrix is singular")) +
                           ", so it cannot be accelerated: give the Solids beyond it mass, or "
                           "prescribe its motion");
  }
  return m;
}

RobotModel BuildRobotModel(const std::vector<NetworkElement>& elements, int num_nodes,
                           const std::vector<unsigned char>& in_robot, int frame_element,
                           int frame_port, const std::string& name) {
  const std::vector<unsigned char> all(elements.size(), 1);
  const MechanismBuilder network(elements);
  const int world = FindWorld(network, all);
  Eigen::Vector3d gravity(0.0, 0.0, -9.81);
  if (world >= 0) gravity = network.world(world)->gravity;
  // The base: the robot's World, or the first node it shares with the rest of the network.
  int root_node = world >= 0 && in_robot[world] ? elements[world].nodes[0] : -1;
  if (root_node < 0) {
    std::vector<unsigned char> outside_node(num_nodes, 0);
    for (int e = 0; e < static_cast<int>(elements.size()); ++e) {
      if (in_robot[e]) continue;
      for (int n : elements[e].nodes) outside_node[n] = 1;
    }
    for (int e = 0; e < static_cast<int>(elements.size()) && root_node < 0; ++e) {
      if (!in_robot[e]) continue;
      for (int n : elements[e].nodes) {
        if (outside_node[n]) {
          root_node = n;
          break;
        }
      }
    }
  }
  int first = -1;
  for (int e = 0; e < static_cast<int>(elements.size()) && first < 0; ++e) {
    if (in_robot[e]) first = e;
  }
  if (first < 0) throw NetworkError(-1, "robot '" + name + "' has no frame blocks");
  if (root_node < 0) {
    throw NetworkError(first, "robot '" + name +
                                  "' is attached to nothing: connect its base to World, or put "
                                  "a World inside it");
  }
  // Gravity in the base frame, when the base is fixed to World.
  if (world >= 0 && !in_robot[world]) {
    FrameTreeBuilder whole(network, num_nodes, all);
    whole.Build(elements[world].nodes[0], gravity);
    Pose X_WBase;
    if (whole.FixedToRoot(root_node, &X_WBase)) gravity = X_WBase.rotation.transpose() * gravity;
  }
  FrameTreeBuilder builder(network, num_nodes, in_robot);
  builder.Build(root_node, gravity);
  if (!builder.cut_joints().empty()) {
    const int e = builder.cut_joints().front();
    throw NetworkError(e, "robot '" + name + "' has a closed kinematic loop (joint " +
                              Quote(elements[e].name) +
                              " closes it); robot models for kinematics and control blocks "
                              "must be trees");
  }
  RobotModel robot;
  robot.tree = builder.tree();
  robot.name = name;
  const int nq = robot.tree->nq();
  robot.lower = Eigen::VectorXd::Constant(nq, -std::numeric_limits<double>::infinity());
  robot.upper = Eigen::VectorXd::Constant(nq, std::numeric_limits<double>::infinity());
  for (const FrameTreeBuilder::JointRecord& rec : builder.joints()) {
    const JointElement* joint = network.joint(rec.element);
    if (joint == nullptr || rec.body < 0) continue;
    const JointType type = robot.tree->joint(rec.body).type();
    if (type != JointType::kRevolute && type != JointType::kPrismatic) continue;
    const int iq = robot.tree->idx_q(rec.body);
    robot.lower[iq] = joint->properties.lower;
    robot.upper[iq] = joint->properties.upper;
  }
  if (frame_element >= 0) {
    const FrameLocation& loc = builder.location(elements[frame_element].nodes[frame_port]);
    robot.frame_body = loc.body;
    robot.X_BF = loc.X_BF;
  }
  return robot;
}

}  // namespace twinblocks::multibody
