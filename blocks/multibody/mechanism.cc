#include "blocks/multibody/mechanism.h"

#include <Eigen/Cholesky>
#include <Eigen/Geometry>
#include <Eigen/LU>
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>
#include <stdexcept>

#include "blocks/block_error.h"
#include "blocks/multibody/detail/mechanism_workspace.h"

namespace twinblocks::multibody {

using blocks::BlockError;
using blocks::Context;

Mechanism::Mechanism(MechanismModel model) : m_(std::move(model)) {
  for (const MechanismPort& p : m_.inputs) DeclareInput(p.name, p.width, p.feedthrough);
  for (const MechanismPort& p : m_.outputs) DeclareOutput(p.name, p.width, p.stage);
  DeclareSampleTime(blocks::SampleTime::Continuous());
  needs_kinematics_ = !m_.sensors.empty() || !m_.internal_forces.empty() || !m_.contacts.empty();
  for (const MechanismExternalForce& f : m_.forces) {
    if (f.F.body >= 0) has_external_forces_ = true;
  }
  for (const MechanismInternalForce& f : m_.internal_forces) {
    if (f.B.body >= 0 || f.F.body >= 0) has_external_forces_ = true;
  }
  if (!m_.contacts.empty()) {
    has_external_forces_ = true;
    DeclareStiffJacobian();
  }
  // Closed loops act on the tree through wrench pairs, and are projected at major steps.
  // Joint couplings are rows of the same system (loop_closure.h). A loop closed by a free or
  // bushing joint has no rows but the joint's outputs and forces.
  if (m_.num_constraint_rows > 0 || !m_.loops.empty()) {
    has_external_forces_ = true;
    DeclareUpdate();
    DeclareProjection();
    if (!m_.loops.empty()) DeclareDWork(static_cast<int>(m_.loops.size()));
  }
  needs_kinematics_ = needs_kinematics_ || has_external_forces_;
  cache_evaluations_ = m_.num_constraint_rows == 0 && m_.loops.empty();
  reuse_dynamics_ = cache_evaluations_ && m_.forces.empty() && m_.drivetrain.clusters.empty() &&
                    m_.drivetrain.motors.empty() &&
                    std::all_of(m_.internal_forces.begin(), m_.internal_forces.end(),
                                [](const MechanismInternalForce& f) { return f.spring_damper; });
  auto frame_index = [this](const FrameLocation& at) {
    for (size_t i = 0; i < contact_frames_.size(); ++i) {
      const FrameLocation& known = contact_frames_[i];
      if (known.body == at.body && known.X_BF.rotation == at.X_BF.rotation &&
          known.X_BF.translation == at.X_BF.translation) {
        return static_cast<int>(i);
      }
    }
    contact_frames_.push_back(at);
    return static_cast<int>(contact_frames_.size()) - 1;
  };
  for (const MechanismContact& con : m_.contacts) {
    contact_shape_start_.push_back(static_cast<int>(contact_shape_frame_.size()));
    for (const MechanismContactShape& b : con.b) contact_shape_frame_.push_back(frame_index(b.at));
    for (const MechanismContactShape& f : con.f) contact_shape_frame_.push_back(frame_index(f.at));
  }
  for (size_t n = 0; n < m_.joints.size(); ++n) {
    const MechanismJoint& j = m_.joints[n];
    const auto nonzero = [](const auto& values) {
      return std::any_of(values.begin(), values.end(), [](double v) { return v != 0.0; });
    };
    if (nonzero(j.properties.stiffness) || nonzero(j.properties.damping) ||
        std::isfinite(j.properties.lower) || std::isfinite(j.properties.upper)) {
      passive_joints_.push_back(static_cast<int>(n));
    }
  }
  for (const MechanismJoint& j : m_.joints) {
    if (j.out_torque >= 0) joint_force_ports_.push_back(j.out_torque);
    if (j.out_wrench >= 0) joint_force_ports_.push_back(j.out_wrench);
  }
}

void Mechanism::DoConfigure(const std::vector<int>& input_widths) {
  const KinematicTree& tree = *m_.tree;
  free_v_.clear();
  for (const MechanismJoint& j : m_.joints) {
    if (j.prescribed) continue;
    for (int k = 0; k < j.nv; ++k) free_v_.push_back(j.v_index + k);
  }
  x_of_q_.assign(tree.nq(), -1);
  x_of_v_.assign(tree.nv(), -1);
  filter_x_.assign(m_.joints.size(), -1);
  int nx = 0;
  for (const MechanismJoint& j : m_.joints) {
    if (j.prescribed) continue;
    for (int k = 0; k < j.nq; ++k) x_of_q_[j.q_index + k] = nx++;
  }
  for (const MechanismJoint& j : m_.joints) {
    if (j.prescribed) continue;
    for (int k = 0; k < j.nv; ++k) x_of_v_[j.v_index + k] = nx++;
  }
  moves_freely_.assign(tree.num_bodies(), false);
  for (int b = 0; b < tree.num_bodies(); ++b) {
    const int end = b + 1 < tree.num_bodies() ? tree.idx_v(b + 1) : tree.nv();
    for (int k = tree.idx_v(b); k < end; ++k) {
      if (x_of_v_[k] >= 0) moves_freely_[b] = true;
    }
    if (tree.parent(b) >= 0 && moves_freely_[tree.parent(b)]) moves_freely_[b] = true;
  }
  for (size_t i = 0; i < m_.joints.size(); ++i) {
    const MechanismJoint& j = m_.joints[i];
    if (!j.prescribed) continue;
    const int w = input_widths[j.in_actuation];
    if (w == 1) {
      filter_x_[i] = nx;
      nx += 2;
      // The filter's states carry q and qd: only qdd needs the input now.
      SetInputFeedthrough(j.in_actuation, blocks::FeedthroughToStage(1));
    } else if (w != 3) {
      throw BlockError("input '" + m_.inputs[j.in_actuation].name + "' has width " +
                           std::to_string(w) + ", expected 1 (q, filtered) or 3 ([q, qd, qdd])",
                       {}, m_.inputs[j.in_actuation].name);
    }
  }
  free_q_states_.clear();
  free_v_states_.clear();
  filter_q_states_.clear();
  filter_v_states_.clear();
  input_driven_joints_.clear();
  for (int i = 0; i < tree.nq(); ++i) {
    if (x_of_q_[i] >= 0) free_q_states_.push_back({i, x_of_q_[i]});
  }
  for (int i = 0; i < tree.nv(); ++i) {
    if (x_of_v_[i] >= 0) free_v_states_.push_back({i, x_of_v_[i]});
  }
  for (size_t n = 0; n < m_.joints.size(); ++n) {
    const MechanismJoint& j = m_.joints[n];
    if (!j.prescribed) continue;
    if (filter_x_[n] >= 0) {
      filter_q_states_.push_back({j.q_index, filter_x_[n]});
      filter_v_states_.push_back({j.v_index, filter_x_[n] + 1});
    } else {
      input_driven_joints_.push_back(static_cast<int>(n));
    }
  }
  // Which state carries each coordinate, for the Jacobian's columns.
  v_state_.assign(tree.nv(), -1);
  q_state_.assign(tree.nv(), -1);
  for (int b = 0; b < tree.num_bodies(); ++b) {
    const JointType type = tree.joint(b).type();
    const int iv = tree.idx_v(b);
    if (x_of_v_[iv] < 0) continue;
    for (int k = 0; k < tree.joint(b).nv(); ++k) v_state_[iv + k] = x_of_v_[iv + k];
    if (type == JointType::kRevolute || type == JointType::kPrismatic) {
      q_state_[iv] = x_of_q_[tree.idx_q(b)];
    }
  }
  free_prescribed_coupled_ = false;
  for (size_t n = 0; n < m_.joints.size(); ++n) {
    const MechanismJoint& p = m_.joints[n];
    if (!p.prescribed) continue;
    if (filter_x_[n] >= 0) {
      q_state_[p.v_index] = filter_x_[n];
      v_state_[p.v_index] = filter_x_[n] + 1;
    }
    for (const MechanismJoint& f : m_.joints) {
      if (f.prescribed || f.nv == 0) continue;
      auto is_ancestor = [&tree](int a, int b) {
        for (int i = b; i >= 0; i = tree.parent(i)) {
          if (i == a) return true;
        }
        return false;
      };
      if (is_ancestor(p.body, f.body) || is_ancestor(f.body, p.body)) {
        free_prescribed_coupled_ = true;
      }
    }
  }
  // Free bodies without children on free joints (grasped objects): in body coordinates their
  // mass matrix is their spatial inertia, whatever q.
  free_mass_constant_ = !free_prescribed_coupled_ && !free_v_.empty();
  for (int b = 0; b < tree.num_bodies(); ++b) {
    if (!moves_freely_[b]) continue;
    bool has_children = false;
    for (int i = b + 1; i < tree.num_bodies() && !has_children; ++i) {
      has_children = tree.parent(i) == b;
    }
    if (tree.joint(b).type() != JointType::kFree || has_children) free_mass_constant_ = false;
  }
  // A drivetrain cluster of its own (not on a joint) has an angle and a speed.
  cluster_x_.assign(m_.drivetrain.clusters.size(), -1);
  cluster_joint_.assign(m_.drivetrain.clusters.size(), -1);
  for (size_t j = 0; j < m_.joints.size(); ++j) {
    if (m_.joint_cluster[j] >= 0) cluster_joint_[m_.joint_cluster[j]] = static_cast<int>(j);
  }
  for (size_t c = 0; c < cluster_x_.size(); ++c) {
    if (cluster_joint_[c] < 0) {
      cluster_x_[c] = nx;
      nx += 2;
    }
  }
  motor_x_.clear();
  for (const drivetrain::RotationalMotor& motor : m_.drivetrain.motors) {
    motor_x_.push_back(nx);
    nx += motor.num_states();
  }
  DeclareContinuousStates(nx);
  // As a DAE (ida): lambda and mu of the independent loop rows.
  num_dae_rows_ = IndependentLoopRows();
  DeclareAlgebraicVariables(2 * num_dae_rows_);
  // Each contact's onset is a zero crossing of its distance, and whether it is on is a mode
  // held within solver steps.
  DeclareModes(static_cast<int>(m_.contacts.size()));
  DeclareZeroCrossings(static_cast<int>(m_.contacts.size()));
}

std::string Mechanism::DescribeContinuousState(int i) const {
  for (size_t n = 0; n < m_.joints.size(); ++n) {
    const MechanismJoint& j = m_.joints[n];
    for (int k = 0; k < j.nq; ++k) {
      if (x_of_q_[j.q_index + k] == i) {
        return "position " + std::to_string(k) + " of joint '" + j.name + "'";
      }
    }
    for (int k = 0; k < j.nv; ++k) {
      if (x_of_v_[j.v_index + k] == i) {
        return "velocity " + std::to_string(k) + " of joint '" + j.name + "'";
      }
    }
    if (filter_x_[n] >= 0 && (i == filter_x_[n] || i == filter_x_[n] + 1)) {
      return "motion filter of joint '" + j.name + "'";
    }
  }
  for (size_t c = 0; c < cluster_x_.size(); ++c) {
    if (cluster_x_[c] >= 0 && (i == cluster_x_[c] || i == cluster_x_[c] + 1)) {
      return std::string(i == cluster_x_[c] ? "angle" : "speed") + " of drivetrain shaft " +
             std::to_string(c);
    }
  }
  for (size_t k = 0; k < motor_x_.size(); ++k) {
    const drivetrain::RotationalMotor& motor = m_.drivetrain.motors[k];
    const int local = i - motor_x_[k];
    if (local < 0 || local >= motor.num_states()) continue;
    static constexpr const char* kPmsm[] = {"current i_d", "current i_q", "PI integrator of i_d",
                                            "PI integrator of i_q"};
    return std::string(motor.kind == drivetrain::MotorKind::kDC ? "armature current"
                                                                : kPmsm[local]) +
           " of motor '" + motor.name + "'";
  }
  return {};
}

std::unique_ptr<blocks::BlockWorkspace> Mechanism::DoMakeWorkspace() const {
  int max_forces = 0;
  for (const MechanismContact& k : m_.contacts) {
    max_forces += static_cast<int>(k.laws.size()) * contact::kMaxContactPoints;
  }
  auto ws = std::make_unique<Workspace>(
      *m_.tree, static_cast<int>(m_.drivetrain.clusters.size()),
      static_cast<int>(m_.drivetrain.motors.size()), static_cast<int>(m_.contacts.size()),
      max_forces, m_.loops, static_cast<int>(free_v_.size()), m_.couplings, num_dae_rows_);
  ws->contact_frame_poses.resize(contact_frames_.size());
  ws->dynamics_u = Eigen::VectorXd::Zero(m_.tree->nv());
  return ws;
}

int Mechanism::IndependentLoopRows() const {
  if (m_.num_constraint_rows == 0 || free_v_.empty()) return 0;
  const KinematicTree& tree = *m_.tree;
  KinematicTreeData data(tree);
  LoopClosureData ld(tree, m_.loops, static_cast<int>(free_v_.size()), m_.couplings);
  const Eigen::VectorXd q0 = m_.q0;
  ForwardKinematics(tree, &data, q0);
  CalcLoopPositions(tree, m_.loops, data, &ld);
  CalcCouplingPositions(q0, &ld);
  FactorLoopSystem(tree, free_v_, LoopMetric::kMass, q0, &data, &ld);
  const auto D = ld.ldlt.vectorD();
  const double largest = D.cwiseAbs().maxCoeff();
  int rank = 0;
  for (Eigen::Index i = 0; i < D.size(); ++i) {
    if (std::abs(D[i]) > kRankTolerance * largest) ++rank;
  }
  return rank;
}

void Mechanism::DoInitialize(Context& c) const {
  double* xs = x(c);
  for (int i = 0; i < static_cast<int>(x_of_q_.size()); ++i) {
    if (x_of_q_[i] >= 0) xs[x_of_q_[i]] = m_.q0[i];
  }
  for (int i = 0; i < static_cast<int>(x_of_v_.size()); ++i) {
    if (x_of_v_[i] >= 0) xs[x_of_v_[i]] = m_.v0[i];
  }
  for (size_t n = 0; n < m_.joints.size(); ++n) {
    if (filter_x_[n] < 0) continue;
    // The filter starts at rest at the joint's q0: set q0 to where the motion starts.
    xs[filter_x_[n]] = m_.joints[n].q0[0];
    xs[filter_x_[n] + 1] = 0.0;
  }
  // Shafts of their own start at rest at angle 0.
  for (int x0 : cluster_x_) {
    if (x0 < 0) continue;
    xs[x0] = 0.0;
    xs[x0 + 1] = 0.0;
  }
  // Motors start de-energized, their controllers reset.
  for (size_t k = 0; k < motor_x_.size(); ++k) {
    std::fill_n(xs + motor_x_[k], m_.drivetrain.motors[k].num_states(), 0.0);
  }
  // Contacts start open; the first major step closes those that overlap.
  std::fill_n(modes(c), m_.contacts.size(), 0);
  Workspace& ws = workspace<Workspace>(c);
  ws.posed = false;
  ws.contacts_current = false;
  ws.dynamics_reusable = false;
  // A cut revolute joint's angle unwraps from its q0.
  for (size_t k = 0; k < m_.loops.size(); ++k) {
    const LoopConstraint& loop = m_.loops[k];
    dwork(c)[k] = loop.q0.size() > 0 ? loop.q0[0] : 0.0;
  }
}

void Mechanism::AssembleTreeCoordinates(const Context& c, Eigen::VectorXd* q,
                                        Eigen::VectorXd* v) const {
  const double* xs = x(c);
  for (const CoordinateState& s : free_q_states_) (*q)[s.coordinate] = xs[s.state];
  for (const CoordinateState& s : free_v_states_) (*v)[s.coordinate] = xs[s.state];
  for (const CoordinateState& s : filter_q_states_) (*q)[s.coordinate] = xs[s.state];
  for (const CoordinateState& s : filter_v_states_) (*v)[s.coordinate] = xs[s.state];
  for (int n : input_driven_joints_) {
    const MechanismJoint& j = m_.joints[n];
    const double* motion = in(c, j.in_actuation);
    (*q)[j.q_index] = motion[0];
    (*v)[j.v_index] = motion[1];
  }
}

Mechanism::PoseScratch::PoseScratch(const KinematicTree& tree)
    : q(Eigen::VectorXd::Zero(tree.nq())), v(Eigen::VectorXd::Zero(tree.nv())), data(tree) {}

std::unique_ptr<Mechanism::PoseScratch> Mechanism::MakePoseScratch() const {
  return std::make_unique<PoseScratch>(*m_.tree);
}

const std::vector<Pose>& Mechanism::CalcBodyPoses(const Context& c, PoseScratch* scratch) const {
  AssembleTreeCoordinates(c, &scratch->q, &scratch->v);
  ForwardKinematics(*m_.tree, &scratch->data, scratch->q);
  return scratch->data.X_WB;
}

void Mechanism::AssembleCoordinates(const Context& c, Workspace& ws) const {
  AssembleTreeCoordinates(c, &ws.q, &ws.v);
  const double* xs = x(c);
  // Drivetrain clusters: a joint's coordinate, or their own states.
  for (size_t c = 0; c < cluster_x_.size(); ++c) {
    if (cluster_joint_[c] >= 0) {
      const MechanismJoint& j = m_.joints[cluster_joint_[c]];
      ws.cluster_angle[c] = ws.q[j.q_index];
      ws.cluster_speed[c] = ws.v[j.v_index];
    } else {
      ws.cluster_angle[c] = xs[cluster_x_[c]];
      ws.cluster_speed[c] = xs[cluster_x_[c] + 1];
    }
  }
  ws.kinematics_valid = false;
  ws.dynamics_valid = false;
}

Eigen::Vector3d Mechanism::PointVelocity(const Workspace& ws, int body,
                                         const Eigen::Vector3d& p_W) const {
  if (body < 0) return Eigen::Vector3d::Zero();
  const Pose& X_WB = ws.data.X_WB[body];
  const Vector6d& V = ws.data.V[body];  // in B, at B's origin
  return X_WB.rotation * V.tail<3>() + (X_WB.rotation * V.head<3>()).cross(p_W - X_WB.translation);
}

void Mechanism::TakeIfCloser(const contact::PairGeometry& g, ContactResult* r) {
  if (g.distance < r->distance) {
    r->distance = g.distance;
    r->normal = g.normal;
    r->point = 0.5 * (g.point_a + g.point_b);
  }
}

bool Mechanism::ContactGeometryDemanded(const Context& c, size_t k) const {
  const MechanismContact& con = m_.contacts[k];
  return output_demanded(c, con.out_distance) || output_demanded(c, con.out_point) ||
         output_demanded(c, con.out_normal);
}

void Mechanism::ContactGeometry(const Workspace& ws, size_t k, ContactResult* r) const {
  const MechanismContact& con = m_.contacts[k];
  const int* frame_of_b = contact_shape_frame_.data() + contact_shape_start_[k];
  const int* frame_of_f = frame_of_b + con.b.size();
  const Pose* frame_pose = ws.contact_frame_poses.data();
  r->distance = std::numeric_limits<double>::infinity();
  for (size_t ib = 0; ib < con.b.size(); ++ib) {
    for (size_t jf = 0; jf < con.f.size(); ++jf) {
      TakeIfCloser(contact::Collide(con.b[ib].shape, frame_pose[frame_of_b[ib]], con.f[jf].shape,
                                    frame_pose[frame_of_f[jf]]),
                   r);
    }
  }
}

void Mechanism::CompleteContactGeometry(Workspace& ws) const {
  if (!ws.any_geometry_deferred) return;
  for (size_t k = 0; k < m_.contacts.size(); ++k) {
    if (ws.geometry_deferred[k] == 0) continue;
    ContactGeometry(ws, k, &ws.contact[k]);
    ws.geometry_deferred[k] = 0;
  }
  ws.any_geometry_deferred = false;
}

void Mechanism::EvaluateContacts(Context& c, Workspace& ws) const {
  EnsureKinematics(ws);
  int* mode = modes(c);
  if (ws.contacts_current) {
    // The same q and v as the last evaluation: its contacts stand if every mode does (a
    // major step decides the modes from the distances, which are the same).
    // The geometry left out there is needed now by a major step, or by outputs this
    // evaluation reads (an output row's).
    bool complete = c.major;
    for (size_t k = 0; k < m_.contacts.size() && ws.any_geometry_deferred && !complete; ++k) {
      complete = ws.geometry_deferred[k] != 0 && ContactGeometryDemanded(c, k);
    }
    if (complete) CompleteContactGeometry(ws);
    bool same = true;
    for (size_t k = 0; k < m_.contacts.size() && same; ++k) {
      const int now = c.major ? (ws.contact[k].distance < 0.0 ? 1 : 0) : mode[k];
      same = now == ws.contact_modes[k];
    }
    if (same) return;
  }
  // Each shape frame's world pose once (an object against many phalanges is one frame).
  // Assigned in each branch: a conditional expression copies through a temporary first.
  for (size_t i = 0; i < contact_frames_.size(); ++i) {
    const FrameLocation& at = contact_frames_[i];
    if (at.body < 0) {
      ws.contact_frame_poses[i] = at.X_BF;
    } else {
      ws.contact_frame_poses[i] = ws.data.X_WB[at.body] * at.X_BF;
    }
  }
  const Pose* frame_pose = ws.contact_frame_poses.data();
  ws.num_contact_forces = 0;
  ws.any_geometry_deferred = false;
  // Sizes read once: the stores below could alias them for all the compiler knows.
  const size_t num_contacts = m_.contacts.size();
  for (size_t k = 0; k < num_contacts; ++k) {
    const MechanismContact& con = m_.contacts[k];
    ContactResult& r = ws.contact[k];
    r = ContactResult{};
    const bool defer = !c.major && mode[k] == 0 && !ContactGeometryDemanded(c, k);
    ws.geometry_deferred[k] = defer ? 1 : 0;
    if (defer) {
      // Off for the whole step (its onset is located, not stepped into): it adds no force,
      // and only the zero crossings at the step's end read its distance.
      r.distance = std::numeric_limits<double>::quiet_NaN();
      ws.any_geometry_deferred = true;
      continue;
    }
    r.distance = std::numeric_limits<double>::infinity();
    const int first_force = ws.num_contact_forces;
    // Geometry first: whether the contact is on is decided from the distance at major steps.
    const size_t nb = con.b.size(), nf = con.f.size();
    const contact::ContactLaw* law_of_pair = con.laws.data();
    const int* frame_of_b = contact_shape_frame_.data() + contact_shape_start_[k];
    const int* frame_of_f = frame_of_b + nb;
    for (size_t ib = 0; ib < nb; ++ib) {
      const MechanismContactShape& b = con.b[ib];
      const Pose& X_Wb = frame_pose[frame_of_b[ib]];
      for (size_t jf = 0; jf < nf; ++jf) {
        const MechanismContactShape& f = con.f[jf];
        const contact::ContactLaw& law = *law_of_pair++;
        const contact::PairGeometry g =
            contact::Collide(b.shape, X_Wb, f.shape, frame_pose[frame_of_f[jf]]);
        TakeIfCloser(g, &r);
        for (int i = 0; i < g.num_points; ++i) {
          const contact::ContactPoint& p = g.points[i];
          const Eigen::Vector3d v =
              PointVelocity(ws, f.at.body, p.position) - PointVelocity(ws, b.at.body, p.position);
          const double vn = v.dot(g.normal);
          const double fn = contact::NormalForce(law, p.depth, -vn);
          const Eigen::Vector3d vt = v - vn * g.normal;
          const double speed = vt.norm();
          Eigen::Vector3d force = fn * g.normal;
          if (speed > 0.0 && law.friction != contact::FrictionModel::kNone) {
            force -= (contact::FrictionCoefficient(law, speed) * fn / speed) * vt;
          }
          ws.contact_forces[ws.num_contact_forces++] = {
              b.at.body, f.at.body, p.position, force, fn, g.normal, vt, p.depth, vn, &law};
        }
      }
    }
    if (c.major) mode[k] = r.distance < 0.0 ? 1 : 0;
    if (mode[k] == 0) {
      // Not on yet (the onset is still to be located): no force inside this step.
      ws.num_contact_forces = first_force;
      continue;
    }
    Eigen::Vector3d friction = Eigen::Vector3d::Zero(), moment_point = Eigen::Vector3d::Zero();
    for (int i = first_force; i < ws.num_contact_forces; ++i) {
      const PointForce& pf = ws.contact_forces[i];
      r.fn += pf.normal_force;
      friction += pf.force - pf.normal_force * r.normal;
      moment_point += pf.normal_force * pf.point;
    }
    r.ff = friction.norm();
    if (r.fn > 0.0) r.point = moment_point / r.fn;
  }
  std::copy_n(mode, m_.contacts.size(), ws.contact_modes.begin());
  ws.contacts_current = ws.posed;
  ++ws.forces_generation;
}

void Mechanism::EnsureKinematics(Workspace& ws) const {
  if (ws.kinematics_valid) return;
  ws.kinematics_valid = true;
  if (ws.posed && ws.q == ws.q_posed && ws.v == ws.v_posed) return;
  ForwardKinematics(*m_.tree, &ws.data, ws.q, ws.v);
  ws.q_posed = ws.q;
  ws.v_posed = ws.v;
  ws.posed = cache_evaluations_;
  ws.contacts_current = false;
  ++ws.forces_generation;
}

void Mechanism::FrameMotion(const Workspace& ws, const FrameLocation& f, Pose* X_WF,
                            Eigen::Vector3d* w, Eigen::Vector3d* v) const {
  if (f.body < 0) {
    *X_WF = f.X_BF;
    w->setZero();
    v->setZero();
    return;
  }
  const Pose& X_WB = ws.data.X_WB[f.body];
  const Vector6d& V = ws.data.V[f.body];  // in B, at B's origin
  *X_WF = X_WB * f.X_BF;
  const Eigen::Vector3d w_B = V.head<3>();
  *w = X_WB.rotation * w_B;
  *v = X_WB.rotation * (V.tail<3>() + w_B.cross(f.X_BF.translation));
}

Mechanism::LineOfAction Mechanism::InternalForceLine(const Workspace& ws,
                                                     const MechanismInternalForce& f) const {
  Pose X_WB, X_WF;
  Eigen::Vector3d wB, vB, wF, vF;
  FrameMotion(ws, f.B, &X_WB, &wB, &vB);
  FrameMotion(ws, f.F, &X_WF, &wF, &vF);
  const Eigen::Vector3d d = X_WF.translation - X_WB.translation;
  LineOfAction line;
  line.distance = d.norm();
  // Coincident origins have no line: no force, rather than a direction made of round-off.
  line.direction =
      line.distance > 1e-12 ? Eigen::Vector3d(d / line.distance) : Eigen::Vector3d::Zero();
  line.speed = line.direction.dot(vF - vB);
  return line;
}

void Mechanism::ApplyAtPoint(Workspace& ws, int body, const Eigen::Vector3d& p_W,
                             const Eigen::Vector3d& f_W) const {
  if (body < 0) return;
  const Pose& X_WB = ws.data.X_WB[body];
  const Eigen::Matrix3d R_BW = X_WB.rotation.transpose();
  const Eigen::Vector3d f_B = R_BW * f_W;
  ws.f_ext[body].head<3>() += (R_BW * (p_W - X_WB.translation)).cross(f_B);
  ws.f_ext[body].tail<3>() += f_B;
}

void Mechanism::AddPassiveForces(const MechanismJoint& j, const Workspace& ws, double* u) const {
  switch (j.kind) {
    case JointKind::kRevolute:
    case JointKind::kPrismatic: {
      const double q = ws.q[j.q_index], qd = ws.v[j.v_index];
      double f =
          -j.properties.stiffness[0] * (q - j.properties.q_eq[0]) - j.properties.damping[0] * qd;
      f -= internal::StopForce(q - j.properties.upper, qd, j.properties);
      f += internal::StopForce(j.properties.lower - q, -qd, j.properties);
      u[j.v_index] += f;
      break;
    }
    case JointKind::kBushing:
      for (int k = 0; k < 6; ++k) {
        u[j.v_index + k] +=
            -j.properties.stiffness[k] * (ws.q[j.q_index + k] - j.properties.q_eq[k]) -
            j.properties.damping[k] * ws.v[j.v_index + k];
      }
      break;
    case JointKind::kSpherical:
      for (int k = 0; k < 3; ++k) u[j.v_index + k] -= j.properties.damping[k] * ws.v[j.v_index + k];
      break;
    case JointKind::kFree:
    case JointKind::kWeld:
      break;
  }
}

bool Mechanism::DrivenJointForcesRead(const Context& c) const {
  // Loops read the tree's forces for their cut joints' outputs; keep it simple there.
  if (!m_.loops.empty()) return true;
  for (int port : joint_force_ports_) {
    if (output_demanded(c, port)) return true;
  }
  return false;
}

bool Mechanism::SameFreeBodyDynamics(Workspace& ws) const {
  if (!ws.dynamics_reusable) return false;
  EnsureKinematics(ws);
  if (!ws.posed || ws.dynamics_generation != ws.forces_generation) return false;
  // The forces on the joints that move freely: springs and stops (of the same q and v) and
  // torque inputs.
  for (const MechanismJoint& j : m_.joints) {
    if (j.prescribed) continue;
    for (int k = j.v_index; k < j.v_index + j.nv; ++k) {
      if (ws.u[k] != ws.dynamics_u[k]) return false;
    }
  }
  return true;
}

void Mechanism::Dynamics(const Context& c, Workspace& ws) const {
  const KinematicTree& tree = *m_.tree;
  ws.passive.setZero();
  for (int n : passive_joints_) AddPassiveForces(m_.joints[n], ws, ws.passive.data());
  for (size_t n = 0; n < m_.joints.size(); ++n) {
    const MechanismJoint& j = m_.joints[n];
    if (j.prescribed) {
      if (filter_x_[n] >= 0) {
        // Critically damped second-order filter: qf'' = (u - qf)/tc^2 - 2 qf'/tc.
        const double tc = j.properties.filter_tc;
        ws.u[j.v_index] =
            (in(c, j.in_actuation)[0] - ws.q[j.q_index]) / (tc * tc) - 2.0 * ws.v[j.v_index] / tc;
      } else {
        ws.u[j.v_index] = in(c, j.in_actuation)[2];
      }
      continue;
    }
    for (int k = 0; k < j.nv; ++k) ws.u[j.v_index + k] = ws.passive[j.v_index + k];
    if (j.properties.actuation == Actuation::kTorque) ws.u[j.v_index] += in(c, j.in_actuation)[0];
  }
  if (!m_.drivetrain.clusters.empty()) {
    DrivetrainForces(c, ws);
    for (size_t n = 0; n < m_.joints.size(); ++n) {
      const int cluster = m_.joint_cluster[n];
      if (cluster >= 0) ws.u[m_.joints[n].v_index] += ws.cluster_force[cluster];
    }
  }

  const DrivenForces driven =
      DrivenJointForcesRead(c) ? DrivenForces::kCompute : DrivenForces::kSkip;
  if (reuse_dynamics_ && driven == DrivenForces::kSkip && SameFreeBodyDynamics(ws)) {
    // A major step right after the evaluation at its state (the end of a solver step), with
    // only motion commands new: the free bodies accelerate as they did, the driven joints
    // as commanded.
    for (const MechanismJoint& j : m_.joints) {
      if (j.prescribed) ws.data.qdd.segment(j.v_index, j.nv) = ws.u.segment(j.v_index, j.nv);
    }
    ws.dynamics_valid = true;
    return;
  }
  const std::vector<Vector6d>* f_ext = nullptr;
  if (has_external_forces_) {
    EnsureKinematics(ws);
    for (Vector6d& f : ws.f_ext) f.setZero();
    // A force f (in W) at frame F: in F's body frame, at the body's origin.
    auto apply = [&ws](const FrameLocation& at, const Eigen::Vector3d& f_W,
                       const Eigen::Vector3d& tau_W) {
      if (at.body < 0) return;
      const Eigen::Matrix3d R_BW = ws.data.X_WB[at.body].rotation.transpose();
      const Eigen::Vector3d f_B = R_BW * f_W;
      ws.f_ext[at.body].head<3>() += R_BW * tau_W + at.X_BF.translation.cross(f_B);
      ws.f_ext[at.body].tail<3>() += f_B;
    };
    for (const MechanismExternalForce& f : m_.forces) {
      Eigen::Vector3d force = Eigen::Map<const Eigen::Vector3d>(in(c, f.in_force));
      Eigen::Vector3d torque = Eigen::Map<const Eigen::Vector3d>(in(c, f.in_torque));
      if (!f.world_frame && f.F.body >= 0) {
        const Eigen::Matrix3d R_WF = ws.data.X_WB[f.F.body].rotation * f.F.X_BF.rotation;
        force = R_WF * force;
        torque = R_WF * torque;
      } else if (!f.world_frame) {
        force = f.F.X_BF.rotation * force;
        torque = f.F.X_BF.rotation * torque;
      }
      apply(f.F, force, torque);
    }
    for (const MechanismInternalForce& f : m_.internal_forces) {
      const LineOfAction line = InternalForceLine(ws, f);
      const double magnitude = f.spring_damper
                                   ? -f.k * (line.distance - f.length0) - f.c * line.speed
                                   : in(c, f.in_f)[0];
      apply(f.F, magnitude * line.direction, Eigen::Vector3d::Zero());
      apply(f.B, -magnitude * line.direction, Eigen::Vector3d::Zero());
    }
    for (int i = 0; i < ws.num_contact_forces; ++i) {
      const PointForce& pf = ws.contact_forces[i];
      ApplyAtPoint(ws, pf.body_f, pf.point, pf.force);
      ApplyAtPoint(ws, pf.body_b, pf.point, -pf.force);
    }
    f_ext = &ws.f_ext;
  }
  if (!m_.loops.empty()) AddCutJointForces(c, ws);
  if (m_.num_constraint_rows > 0) {
    if (UsesDaeMultipliers(c, ws)) {
      ApplyDaeMultipliers(c, ws);
    } else {
      SolveLoopConstraints(ws);
    }
  }
  if (ws.kinematics_valid) {
    // The contacts placed the bodies at this q and v already.
    AbaHybridAfterKinematics(tree, &ws.data, ws.v, ws.u, m_.prescribed, f_ext, driven);
  } else {
    AbaHybrid(tree, &ws.data, ws.q, ws.v, ws.u, m_.prescribed, f_ext, driven);
    ws.posed = false;  // its X_PB and V are of this q and v, its X_WB of another's
  }
  if (reuse_dynamics_) {
    ws.dynamics_generation = ws.forces_generation;
    ws.dynamics_u = ws.u;  // same size: no allocation
    ws.dynamics_reusable = ws.kinematics_valid && ws.posed && driven == DrivenForces::kSkip &&
                           std::none_of(ws.data.drives_free.begin(), ws.data.drives_free.end(),
                                        [](unsigned char d) { return d != 0; });
  }
  for (size_t k = 0; k < m_.drivetrain.motors.size(); ++k) {
    if (m_.drivetrain.motors[k].kind != drivetrain::MotorKind::kDC) {
      ws.motor_drive[k] = PmsmDrive(c, ws, static_cast<int>(k));
    }
  }
  ws.dynamics_valid = true;
}

void Mechanism::WriteKinematicOutputs(Context& c, Workspace& ws) const {
  for (const MechanismJoint& j : m_.joints) {
    const double* q = ws.q.data() + j.q_index;
    const double* v = ws.v.data() + j.v_index;
    switch (j.kind) {
      case JointKind::kRevolute:
      case JointKind::kPrismatic:
        // One element: a call to memcpy would cost more than the copy.
        out(c, j.out_q)[0] = q[0];
        out(c, j.out_qd)[0] = v[0];
        break;
      case JointKind::kBushing:
        std::copy(q, q + j.nq, out(c, j.out_q));
        std::copy(v, v + j.nv, out(c, j.out_qd));
        break;
      case JointKind::kSpherical: {
        internal::WriteNormalizedQuaternion(q, out(c, j.out_quaternion));
        const Eigen::Vector3d w = internal::RotationOf(q) * Eigen::Map<const Eigen::Vector3d>(v);
        std::copy(w.data(), w.data() + 3, out(c, j.out_w));
        break;
      }
      case JointKind::kFree: {
        std::copy(q, q + 3, out(c, j.out_position));
        internal::WriteNormalizedQuaternion(q + 3, out(c, j.out_quaternion));
        const Eigen::Matrix3d R = internal::RotationOf(q + 3);
        const Eigen::Vector3d w = R * Eigen::Map<const Eigen::Vector3d>(v);
        const Eigen::Vector3d lin = R * Eigen::Map<const Eigen::Vector3d>(v + 3);
        std::copy(lin.data(), lin.data() + 3, out(c, j.out_v));
        std::copy(w.data(), w.data() + 3, out(c, j.out_w));
        break;
      }
      case JointKind::kWeld:
        break;
    }
  }
  if (!m_.loops.empty()) EnsureKinematics(ws);
  for (size_t k = 0; k < m_.loops.size(); ++k) {
    const LoopConstraint& loop = m_.loops[k];
    const RelativeMotion rel = CalcRelativeMotion(CalcFrameMotionW(ws.data, nullptr, loop.B),
                                                  CalcFrameMotionW(ws.data, nullptr, loop.F));
    if (loop.kind == JointKind::kSpherical) {
      const Eigen::Quaterniond r(rel.R);
      double* qo = out(c, loop.out_quaternion);
      qo[0] = r.w();
      qo[1] = r.x();
      qo[2] = r.y();
      qo[3] = r.z();
      std::copy_n(rel.w.data(), 3, out(c, loop.out_w));
    } else if (loop.kind == JointKind::kBushing) {
      CalcBushingCoordinates(rel, out(c, loop.out_q), out(c, loop.out_qd));
    } else if (loop.kind == JointKind::kFree) {
      // F's pose in B, and its velocity relative to B in B (the tree free joint's outputs).
      const Eigen::Quaterniond r(rel.R);
      double* qo = out(c, loop.out_quaternion);
      qo[0] = r.w();
      qo[1] = r.x();
      qo[2] = r.y();
      qo[3] = r.z();
      std::copy_n(rel.e.data(), 3, out(c, loop.out_position));
      std::copy_n(rel.e_dot.data(), 3, out(c, loop.out_v));
      std::copy_n(rel.w.data(), 3, out(c, loop.out_w));
    } else {
      const CutJointCoordinate jc = CutCoordinate(c, loop, rel, static_cast<int>(k));
      out(c, loop.out_q)[0] = jc.q;
      out(c, loop.out_qd)[0] = jc.qd;
    }
  }
  for (size_t i = 0; i < m_.drivetrain.sensors.size(); ++i) {
    const drivetrain::RotationalSensor& sensor = m_.drivetrain.sensors[i];
    NodeMotion(ws, sensor.R, sensor.C, out(c, m_.sensor_phi[i]), out(c, m_.sensor_w[i]));
  }
  for (size_t k = 0; k < m_.drivetrain.motors.size(); ++k) {
    const drivetrain::RotationalMotor& motor = m_.drivetrain.motors[k];
    const MechanismMotorPorts& ports = m_.motor_ports[k];
    const double* s = x(c) + motor_x_[k];
    std::copy_n(s, motor.kind == drivetrain::MotorKind::kDC ? 1 : 2, out(c, ports.current));
    out(c, ports.tau)[0] = MotorTorque(c, static_cast<int>(k));
    double phi;
    NodeMotion(ws, motor.R, motor.C, &phi, out(c, ports.w));
  }
  if (!needs_kinematics_) return;
  EnsureKinematics(ws);
  for (const MechanismSensor& s : m_.sensors) {
    // Sensors feed logs and discrete blocks more often than the dynamics: mostly only the
    // major steps need them.
    if (!output_demanded(c, s.out_position) && !output_demanded(c, s.out_rotation) &&
        !output_demanded(c, s.out_v) && !output_demanded(c, s.out_w) &&
        !output_demanded(c, s.out_euler)) {
      continue;
    }
    Pose X_WB, X_WF;
    Eigen::Vector3d wB, vB, wF, vF;
    FrameMotion(ws, s.B, &X_WB, &wB, &vB);
    FrameMotion(ws, s.F, &X_WF, &wF, &vF);
    const Eigen::Matrix3d R_BW = X_WB.rotation.transpose();
    const Eigen::Vector3d d_W = X_WF.translation - X_WB.translation;
    const Eigen::Vector3d p = R_BW * d_W;
    const Eigen::Matrix3d R = R_BW * X_WF.rotation;
    // dp/dt as seen in B: the relative velocity less what B's rotation alone would give.
    const Eigen::Vector3d v = R_BW * (vF - vB - wB.cross(d_W));
    const Eigen::Vector3d w = R_BW * (wF - wB);
    double* po = out(c, s.out_position);
    double* ro = out(c, s.out_rotation);
    double* vo = out(c, s.out_v);
    double* wo = out(c, s.out_w);
    double* eo = out(c, s.out_euler);
    for (int k = 0; k < 3; ++k) {
      po[k] = p[k];
      vo[k] = v[k];
      wo[k] = w[k];
      for (int l = 0; l < 3; ++l) ro[3 * k + l] = R(k, l);
    }
    // R = Rz(a) Ry(b) Rx(g).
    eo[1] = std::asin(std::clamp(-R(2, 0), -1.0, 1.0));
    eo[0] = std::atan2(R(1, 0), R(0, 0));
    eo[2] = std::atan2(R(2, 1), R(2, 2));
  }
  for (const MechanismInternalForce& f : m_.internal_forces) {
    const LineOfAction line = InternalForceLine(ws, f);
    out(c, f.out_distance)[0] = line.distance;
    out(c, f.out_speed)[0] = line.speed;
  }
  if (m_.contacts.empty()) return;
  EvaluateContacts(c, ws);
  for (size_t k = 0; k < m_.contacts.size(); ++k) {
    const MechanismContact& con = m_.contacts[k];
    const ContactResult& r = ws.contact[k];
    out(c, con.out_fn)[0] = r.fn;
    out(c, con.out_ff)[0] = r.ff;
    if (ws.geometry_deferred[k] != 0) continue;  // not read in this evaluation
    out(c, con.out_distance)[0] = r.distance;
    // Element by element: std::copy_n of three doubles is a call to memmove.
    double* point = out(c, con.out_point);
    double* normal = out(c, con.out_normal);
    for (int i = 0; i < 3; ++i) {
      point[i] = r.point[i];
      normal[i] = r.normal[i];
    }
  }
}

void Mechanism::DoCalcZeroCrossings(Context& c) const {
  Workspace& ws = workspace<Workspace>(c);
  CompleteContactGeometry(ws);
  double* z = zc(c);
  for (size_t k = 0; k < m_.contacts.size(); ++k) z[k] = ws.contact[k].distance;
}

void Mechanism::WriteDynamicOutputs(Context& c, Workspace& ws) const {
  const KinematicTreeData& data = ws.data;
  if (!m_.loops.empty()) {
    // The loops' accelerations at the constrained qdd, for the cut joints' qdd.
    CalcSpatialAccelerations(*m_.tree, ws.data, &ws.data.qdd, &ws.loops.A);
  }
  for (size_t k = 0; k < m_.loops.size(); ++k) {
    const LoopConstraint& loop = m_.loops[k];
    const FrameMotionW B = CalcFrameMotionW(ws.data, &ws.loops.A, loop.B);
    const FrameMotionW F = CalcFrameMotionW(ws.data, &ws.loops.A, loop.F);
    const RelativeMotion rel = CalcRelativeMotion(B, F);
    // What B transmits to F: the constraint's wrench and the joint's own force, at F's origin.
    const Vector6d w = LoopWrenchW(loop, ws.loops, static_cast<int>(k)) + ws.cut_force[k];
    double actuator = 0.0;
    if (loop.kind == JointKind::kRevolute || loop.kind == JointKind::kPrismatic) {
      const CutJointCoordinate jc = CutCoordinate(c, loop, rel, static_cast<int>(k));
      out(c, loop.out_qdd)[0] = jc.qdd;
      if (loop.properties.actuation == Actuation::kTorque) actuator = in(c, loop.in_actuation)[0];
      out(c, loop.out_torque)[0] = actuator;
    }
    const Eigen::Matrix3d R_FW = F.X_WF.rotation.transpose();
    const Eigen::Vector3d force = R_FW * w.tail<3>(), torque = R_FW * w.head<3>();
    double* wo = out(c, loop.out_wrench);
    for (int i = 0; i < 3; ++i) {
      wo[i] = force[i];
      wo[3 + i] = torque[i];
    }
  }
  for (const JointCoupling& coupling : m_.couplings) {
    out(c, coupling.out_tau)[0] = ws.loops.lambda[coupling.row];
  }
  for (size_t k = 0; k < m_.drivetrain.motors.size(); ++k) {
    if (m_.motor_ports[k].vdq < 0) continue;
    const Eigen::Vector2d& vdq = ws.motor_drive[k].vdq;
    std::copy_n(vdq.data(), 2, out(c, m_.motor_ports[k].vdq));
  }
  for (const MechanismJoint& j : m_.joints) {
    if (j.out_qdd >= 0) out(c, j.out_qdd)[0] = data.qdd[j.v_index];
    if (j.out_torque >= 0 && output_demanded(c, j.out_torque)) {
      double actuator = 0.0;
      if (j.properties.actuation == Actuation::kTorque)
        actuator = ws.u[j.v_index] - ws.passive[j.v_index];
      // Through a shaft: what the drivetrain delivers to the joint.
      if (j.properties.actuation == Actuation::kPort) {
        actuator = ws.cluster_force[m_.joint_cluster[&j - m_.joints.data()]];
      }
      // The actuator supplies what the motion needs beyond the joint's own springs and stops.
      if (j.prescribed) actuator = data.tau[j.v_index] - ws.passive[j.v_index];
      out(c, j.out_torque)[0] = actuator;
    }
    if (j.out_wrench >= 0 && output_demanded(c, j.out_wrench)) {
      // What the tree's parent side transmits to the child body, at its origin, in its frame.
      Vector6d f = data.F[j.body];
      if (j.reversed) {
        // The child is on B's side: F receives the opposite, seen from F (= the joint frame).
        const Pose X_FB = j.X_JF_reversed * data.X_PB[j.body];
        f = X_FB.ActForce(-f);
      }
      double* w = out(c, j.out_wrench);
      for (int k = 0; k < 3; ++k) {
        w[k] = f[3 + k];
        w[3 + k] = f[k];
      }
    }
  }
}

void Mechanism::DoCalcOutputs(Context& c, int stage) const {
  Workspace& ws = workspace<Workspace>(c);
  if (stage == 0) {
    AssembleCoordinates(c, ws);
    WriteKinematicOutputs(c, ws);
    return;
  }
  Dynamics(c, ws);
  WriteDynamicOutputs(c, ws);
}

void Mechanism::DoCalcDerivatives(Context& c) const {
  Workspace& ws = workspace<Workspace>(c);
  if (!ws.dynamics_valid) Dynamics(c, ws);
  ws.dynamics_valid = false;  // the next evaluation starts at stage 0 again
  WriteDerivatives(c, ws);
}

namespace {

/// Adds one point force's terms to d(generalized force on the free coordinates)/d(v) and
/// /d(q) (dqdd's left and right nv columns): J_free^T dF J, J the point's velocity of f
/// relative to b (J_rel). NF: the number of free coordinates when it is known at compile time
/// (6, one free object), so that the small products unroll; Eigen::Dynamic otherwise, with
/// J_free and the products in the workspace's matrices.
template <int NF>
void AddPointForceTerms(const KinematicTree& tree, const std::vector<int>& free_v,
                        const Eigen::Matrix<double, 3, Eigen::Dynamic>& J_rel, int body_f,
                        int body_b, const Eigen::Matrix3d& dF_dv, const Eigen::Matrix3d& dF_dx,
                        Eigen::Matrix<double, 3, NF>& J_free, Eigen::Matrix<double, NF, 3>& A_v,
                        Eigen::Matrix<double, NF, 3>& A_x, Eigen::MatrixXd* dqdd) {
  using Column = Eigen::Map<Eigen::Matrix<double, NF, 1>>;
  const int nf = static_cast<int>(free_v.size());
  const int nv = tree.nv();
  for (int a = 0; a < nf; ++a) J_free.col(a) = J_rel.col(free_v[a]);
  // Lazy products: of dynamic size, Eigen would otherwise dispatch to its blocked kernels.
  A_v.noalias() = J_free.transpose().lazyProduct(dF_dv);
  A_x.noalias() = J_free.transpose().lazyProduct(dF_dx);
  // J_rel's columns are nonzero only for the joints between each body and their deepest
  // common ancestor (a common ancestor moves the point of f and of b alike). A parent's
  // index is below its children's, so the larger index is never the other's ancestor.
  for (int f = body_f, b = body_b; f != b;) {
    int& k = f > b ? f : b;
    const int iv = tree.idx_v(k);
    for (int col = iv; col < iv + tree.joint(k).nv(); ++col) {
      Column(dqdd->col(col).data(), nf).noalias() += A_v.lazyProduct(J_rel.col(col));
      Column(dqdd->col(nv + col).data(), nf).noalias() += A_x.lazyProduct(J_rel.col(col));
    }
    k = tree.parent(k);
  }
}

/// d(body-frame rotation increment)/d(quaternion) at a unit quaternion [w, x, y, z]: the
/// increment dtheta with q + dq = q (x) [1, dtheta / 2], dtheta = 2 vec(q* (x) dq) (3 x 4).
Eigen::Matrix<double, 3, 4> RotationIncrementOfQuaternion(const double* wxyz) {
  const Eigen::Vector3d r(wxyz[1], wxyz[2], wxyz[3]);
  Eigen::Matrix<double, 3, 4> G;
  G.col(0) = -2.0 * r;
  G.rightCols<3>() = 2.0 * (wxyz[0] * Eigen::Matrix3d::Identity() - Skew(r));
  return G;
}

/// The rows of qdot = 1/2 q (x) (0, w) (QuaternionRate) over w (4 x 3) and over q (4 x 4).
void QuaternionRateJacobian(const double* wxyz, const Eigen::Vector3d& w,
                            Eigen::Ref<Eigen::MatrixXd> over_w,
                            Eigen::Ref<Eigen::MatrixXd> over_q) {
  const Eigen::Vector3d r(wxyz[1], wxyz[2], wxyz[3]);
  over_w.row(0) = -0.5 * r.transpose();
  over_w.bottomRows<3>() = 0.5 * (wxyz[0] * Eigen::Matrix3d::Identity() + Skew(r));
  over_q(0, 0) = 0.0;
  over_q.block<1, 3>(0, 1) = -0.5 * w.transpose();
  over_q.block<3, 1>(1, 0) = 0.5 * w;
  over_q.block<3, 3>(1, 1) = -0.5 * Skew(w);
}

}  // namespace

void Mechanism::AddKinematicJacobian(const Workspace& ws, Eigen::Ref<Eigen::MatrixXd> J) const {
  const KinematicTree& tree = *m_.tree;
  for (int b = 0; b < tree.num_bodies(); ++b) {
    const int iq = tree.idx_q(b), iv = tree.idx_v(b);
    if (x_of_v_[iv] < 0) continue;
    auto xq = [&](int k) { return x_of_q_[iq + k]; };
    auto xv = [&](int k) { return x_of_v_[iv + k]; };
    switch (tree.joint(b).type()) {
      case JointType::kRevolute:
      case JointType::kPrismatic:
        J(xq(0), xv(0)) += 1.0;
        break;
      case JointType::kSpherical:
      case JointType::kFree: {
        const bool free = tree.joint(b).type() == JointType::kFree;
        const int quat = free ? 3 : 0;  // first quaternion coordinate
        const double* wxyz = ws.q.data() + iq + quat;
        Eigen::Matrix<double, 4, 3> over_w;
        Eigen::Matrix4d over_q;
        QuaternionRateJacobian(wxyz, ws.v.segment<3>(iv), over_w, over_q);
        for (int r = 0; r < 4; ++r) {
          for (int k = 0; k < 3; ++k) J(xq(quat + r), xv(k)) += over_w(r, k);
          for (int k = 0; k < 4; ++k) J(xq(quat + r), xq(quat + k)) += over_q(r, k);
        }
        if (!free) break;
        // p' = R v_B: over v_B, R; over the quaternion, d(R v_B) = R (dtheta x v_B).
        const Eigen::Matrix3d R = internal::RotationOf(wxyz);
        const Eigen::Matrix<double, 3, 4> over_quat =
            -R * Skew(ws.v.segment<3>(iv + 3)) * RotationIncrementOfQuaternion(wxyz);
        for (int r = 0; r < 3; ++r) {
          for (int k = 0; k < 3; ++k) J(xq(r), xv(3 + k)) += R(r, k);
          for (int k = 0; k < 4; ++k) J(xq(r), xq(3 + k)) += over_quat(r, k);
        }
        break;
      }
    }
  }
  // Critically damped filters: qf' = qf_dot, qf_dot' = (u - qf) / tc^2 - 2 qf_dot / tc.
  for (size_t n = 0; n < m_.joints.size(); ++n) {
    const int f = filter_x_[n];
    if (f < 0) continue;
    const double tc = m_.joints[n].properties.filter_tc;
    J(f, f + 1) += 1.0;
    J(f + 1, f) -= 1.0 / (tc * tc);
    J(f + 1, f + 1) -= 2.0 / tc;
  }
}

bool Mechanism::DoStiffJacobianStructure(std::vector<std::pair<int, int>>* entries) const {
  // What AddKinematicJacobian and DoCalcStiffJacobian write, whatever the contacts.
  const KinematicTree& tree = *m_.tree;
  const auto add_block = [entries](const int* rows, int num_rows, const int* cols, int num_cols) {
    for (int r = 0; r < num_rows; ++r) {
      for (int k = 0; k < num_cols; ++k) entries->emplace_back(rows[r], cols[k]);
    }
  };
  // Per free or spherical body: its quaternion's states, and a free body's position states.
  std::vector<int> rotation_states;
  for (int b = 0; b < tree.num_bodies(); ++b) {
    const int iq = tree.idx_q(b), iv = tree.idx_v(b);
    if (x_of_v_[iv] < 0) continue;
    const JointType type = tree.joint(b).type();
    if (type == JointType::kRevolute || type == JointType::kPrismatic) {
      entries->emplace_back(x_of_q_[iq], x_of_v_[iv]);
    } else if (type == JointType::kSpherical || type == JointType::kFree) {
      const int quat = type == JointType::kFree ? 3 : 0;
      const int* quaternion = &x_of_q_[iq + quat];
      add_block(quaternion, 4, &x_of_v_[iv], 3);
      add_block(quaternion, 4, quaternion, 4);
      rotation_states.insert(rotation_states.end(), quaternion, quaternion + 4);
      if (type == JointType::kFree) {
        add_block(&x_of_q_[iq], 3, &x_of_v_[iv + 3], 3);
        add_block(&x_of_q_[iq], 3, quaternion, 4);
        rotation_states.insert(rotation_states.end(), &x_of_q_[iq], &x_of_q_[iq] + 3);
      }
    }
  }
  for (size_t n = 0; n < m_.joints.size(); ++n) {
    const int f = filter_x_[n];
    if (f < 0) continue;
    entries->emplace_back(f, f + 1);
    entries->emplace_back(f + 1, f);
    entries->emplace_back(f + 1, f + 1);
  }
  if (free_v_.empty() || (m_.contacts.empty() && !free_prescribed_coupled_)) return true;
  // The free velocities' rows: every coordinate's state and every rotation's.
  std::vector<int> columns = rotation_states;
  for (int k = 0; k < tree.nv(); ++k) {
    if (v_state_[k] >= 0) columns.push_back(v_state_[k]);
    if (q_state_[k] >= 0) columns.push_back(q_state_[k]);
  }
  for (int v : free_v_) {
    for (int col : columns) entries->emplace_back(x_of_v_[v], col);
  }
  return true;
}

void Mechanism::DoCalcStiffJacobian(Context& c, Eigen::Ref<Eigen::MatrixXd> J) const {
  Workspace& ws = workspace<Workspace>(c);
  AddKinematicJacobian(ws, J);
  const int nf = static_cast<int>(free_v_.size());
  if (nf == 0 || (ws.num_contact_forces == 0 && !free_prescribed_coupled_)) return;
  const KinematicTree& tree = *m_.tree;
  // d(generalized force on the free coordinates)/d(v, q), summed over the contact points.
  const int nv = tree.nv();
  ws.dqdd.setZero();
  auto dqdd_dv = ws.dqdd.leftCols(nv);
  auto dqdd_dq = ws.dqdd.rightCols(nv);
  Eigen::Matrix<double, 3, 6> J_free6;
  Eigen::Matrix<double, 6, 3> A_v6, A_x6;
  for (int i = 0; i < ws.num_contact_forces; ++i) {
    const PointForce& pf = ws.contact_forces[i];
    const contact::ContactLaw& law = *pf.law;
    const Eigen::Vector3d& n = pf.normal;
    const Eigen::Matrix3d tangent_plane = Eigen::Matrix3d::Identity() - n * n.transpose();
    // d f / d v (3 x 3, W) of the force on f at the velocity of f relative to b: the normal
    // force's damping along n, and friction's resistance to slip in the tangent plane.
    const double damping = contact::NormalForceRateDerivative(law, pf.depth, -pf.normal_speed);
    const double stiffness = contact::NormalForceDepthDerivative(law, pf.depth, -pf.normal_speed);
    Eigen::Matrix3d dF_dv = -damping * n * n.transpose();
    // d f / d x: moving f by dx along n changes the depth by -n.dx, and the normal force with
    // it; friction, mu(s) f_n against the slip, follows in proportion.
    Eigen::Vector3d along = n;
    if (law.friction != contact::FrictionModel::kNone && pf.normal_force > 0.0) {
      // Friction as a viscous force of frozen coefficient, -f_n (mu(s) / s) v_slip: the
      // secant of the friction curve, not its tangent. Past the peak the tangent is flat or
      // falling, and a step implicit in it alone would overshoot through zero slip into the
      // opposite direction (chattering); with the secant an implicit step shrinks the slip
      // but never reverses it. At zero slip the two agree (2 mu_s / v_crit).
      const double per_speed = contact::FrictionCoefficientPerSpeed(law, pf.slip.norm());
      dF_dv -= (pf.normal_force * per_speed) * tangent_plane;
      along -= per_speed * pf.slip;
    }
    const Eigen::Matrix3d dF_dx = -stiffness * along * n.transpose();
    // The point's velocity (and displacement) of f relative to b over every coordinate; the
    // generalized force on the free coordinates is J_rel_free^T f.
    ws.J_rel.setZero();
    AddPointJacobian(tree, ws.data, pf.body_f, pf.point, 1.0, ws.J_rel);
    AddPointJacobian(tree, ws.data, pf.body_b, pf.point, -1.0, ws.J_rel);
    if (nf == 6) {
      AddPointForceTerms<6>(tree, free_v_, ws.J_rel, pf.body_f, pf.body_b, dF_dv, dF_dx, J_free6,
                            A_v6, A_x6, &ws.dqdd);
    } else {
      AddPointForceTerms<Eigen::Dynamic>(tree, free_v_, ws.J_rel, pf.body_f, pf.body_b, dF_dv,
                                         dF_dx, ws.J_rel_free, ws.JfT_dFv, ws.JfT_dFx, &ws.dqdd);
    }
  }
  // M_ff and M_fp: the bodies that move freely and their ancestors' joints (once only when
  // M_ff does not change with q).
  const bool mass_known = free_mass_constant_ && ws.free_mass_factored;
  if (!mass_known) {
    CrbaOfSubtrees(tree, &ws.data, ws.q, moves_freely_);
    if (!ws.kinematics_valid) ws.posed = false;  // X_PB is now of ws.q
  }
  if (free_prescribed_coupled_) {
    // M_ff qdd_f = tau_f - M_fp qdd_p - ..., and a filtered joint's qdd_p is its filter's
    // (u - qf) / tc^2 - 2 qf_dot / tc.
    for (size_t j = 0; j < m_.joints.size(); ++j) {
      if (filter_x_[j] < 0) continue;
      const double tc = m_.joints[j].properties.filter_tc;
      const int p = m_.joints[j].v_index;
      for (int a = 0; a < nf; ++a) {
        const double M_fp = ws.data.M(free_v_[a], p);
        dqdd_dq(a, p) += M_fp / (tc * tc);
        dqdd_dv(a, p) += 2.0 * M_fp / tc;
      }
    }
  }
  if (!mass_known) {
    for (int a = 0; a < nf; ++a) {
      for (int b = 0; b < nf; ++b) ws.M_free(a, b) = ws.data.M(free_v_[a], free_v_[b]);
    }
    ws.M_free_llt.compute(ws.M_free);
    ws.M_free_inverse.setIdentity();
    ws.M_free_llt.solveInPlace(ws.M_free_inverse);
    ws.free_mass_factored = true;
  }
  // M_ff^-1 applied as a product: the columns are independent, where substitution through
  // the Cholesky factor chains each unknown to the last (and divides).
  // The columns of joints that no contact reaches stay zero.
  const Eigen::MatrixXd& M_inv = ws.M_free_inverse;
  for (Eigen::Index k = 0; k < ws.dqdd.cols(); ++k) {
    double* y = ws.dqdd.col(k).data();
    if (ws.dqdd.col(k).isZero(0.0)) continue;
    double* solved = ws.dqdd_solved.col(0).data();
    if (nf == 6) {
      // One free object: fixed-size columns that the compiler unrolls and vectorizes.
      using Map6 = Eigen::Map<const Eigen::Matrix<double, 6, 6>, 0, Eigen::OuterStride<>>;
      const Map6 M6(M_inv.data(), Eigen::OuterStride<>(M_inv.outerStride()));
      Eigen::Map<Vector6d>(solved).noalias() = M6 * Eigen::Map<const Vector6d>(y);
    } else {
      for (int a = 0; a < nf; ++a) {
        double sum = 0.0;
        for (int b = 0; b < nf; ++b) sum += M_inv(a, b) * y[b];
        solved[a] = sum;
      }
    }
    std::copy_n(solved, nf, y);
  }
  // Into the free velocities' rows, by the states that carry each coordinate.
  for (int a = 0; a < nf; ++a) {
    const int row = x_of_v_[free_v_[a]];
    for (int k = 0; k < tree.nv(); ++k) {
      if (v_state_[k] >= 0) J(row, v_state_[k]) += dqdd_dv(a, k);
      if (q_state_[k] >= 0) J(row, q_state_[k]) += dqdd_dq(a, k);
    }
  }
  // Quaternion coordinates: the tangent displacement is the body-frame rotation increment
  // (and, of a free joint, the body-frame translation R^T dp).
  for (int b = 0; b < tree.num_bodies(); ++b) {
    const JointType type = tree.joint(b).type();
    const int iq = tree.idx_q(b), iv = tree.idx_v(b);
    if (x_of_v_[iv] < 0 || (type != JointType::kSpherical && type != JointType::kFree)) continue;
    const int quat = type == JointType::kFree ? 3 : 0;
    const double* wxyz = ws.q.data() + iq + quat;
    const Eigen::Matrix<double, 3, 4> G = RotationIncrementOfQuaternion(wxyz);
    const Eigen::Matrix3d R = internal::RotationOf(wxyz);
    for (int a = 0; a < nf; ++a) {
      const int row = x_of_v_[free_v_[a]];
      const Eigen::RowVector3d over_rotation = dqdd_dq.block<1, 3>(a, iv);
      const Eigen::RowVector4d over_quat = over_rotation * G;
      for (int k = 0; k < 4; ++k) J(row, x_of_q_[iq + quat + k]) += over_quat[k];
      if (type != JointType::kFree) continue;
      const Eigen::RowVector3d over_position = dqdd_dq.block<1, 3>(a, iv + 3) * R.transpose();
      for (int k = 0; k < 3; ++k) J(row, x_of_q_[iq + k]) += over_position[k];
    }
  }
}

void Mechanism::WriteDerivatives(Context& c, Workspace& ws) const {
  double* dx = xdot(c);
  CalcQDot(*m_.tree, ws.q, ws.v, ws.qdot);
  for (const CoordinateState& s : free_q_states_) dx[s.state] = ws.qdot[s.coordinate];
  for (const CoordinateState& s : free_v_states_) dx[s.state] = ws.data.qdd[s.coordinate];
  // A filter's two states, q then qd: q' = qd, qd' = its qdd (ws.u of a prescribed joint).
  for (const CoordinateState& s : filter_v_states_) {
    dx[s.state - 1] = ws.v[s.coordinate];
    dx[s.state] = ws.u[s.coordinate];
  }
  for (size_t cl = 0; cl < cluster_x_.size(); ++cl) {
    if (cluster_x_[cl] < 0) continue;
    dx[cluster_x_[cl]] = ws.cluster_speed[cl];
    dx[cluster_x_[cl] + 1] = ws.cluster_force[cl] / m_.drivetrain.clusters[cl].inertia;
  }
  for (size_t k = 0; k < motor_x_.size(); ++k) MotorDerivatives(c, ws, static_cast<int>(k));
}

}  // namespace twinblocks::multibody
