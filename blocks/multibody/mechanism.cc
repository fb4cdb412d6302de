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
#include "blocks/multibody/detail/synergy_problem.h"

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
  if (!m_.contacts.empty()) has_external_forces_ = true;
  // Closed loops act on the tree through wrench pairs, and are projected at major steps.
  // Joint couplings are rows of the same system (loop_closure.h). A loop closed by a free or
  // bushing joint has no rows but the joint's outputs and forces.
  if (m_.num_constraint_rows > 0 || !m_.loops.empty()) {
    has_external_forces_ = true;
    DeclareUpdate();
    DeclareProjection();
    if (!m_.loops.empty()) DeclareDWork(static_cast<int>(m_.loops.size()));
  }
  for (const MechanismTendon& t : m_.tendons) {
    for (int j : t.joints)
      tendon_on_driven_joint_ = tendon_on_driven_joint_ || m_.joints[j].prescribed;
  }
  // Synergy equilibria read the bodies' poses (contact points, weights).
  if (tendon_on_driven_joint_ || !m_.equilibria.empty()) has_external_forces_ = true;
  needs_kinematics_ = needs_kinematics_ || has_external_forces_;
  cache_evaluations_ = m_.num_constraint_rows == 0 && m_.loops.empty();
  reuse_dynamics_ = cache_evaluations_ && m_.forces.empty() && m_.tendons.empty() &&
                    m_.drivetrain.clusters.empty() && m_.drivetrain.motors.empty() &&
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
  FindPassiveJoints();
  // The stiff terms an implicit solver needs from the mechanism: a contact's stiffness,
  // damping and friction, and the joints' springs, dampers and stops (on light links their
  // time constants I / damping reach 1e-5 s). Without either, the solvers difference the
  // whole diagram, which also holds gravity and the Coriolis terms.
  if (!m_.contacts.empty() || free_passive_) DeclareStiffJacobian();
  for (const MechanismJoint& j : m_.joints) {
    if (j.out_torque.connected()) joint_force_ports_.push_back(j.out_torque.index);
    if (j.out_wrench.connected()) joint_force_ports_.push_back(j.out_wrench.index);
  }
}

void Mechanism::FindPassiveJoints() {
  passive_joints_.clear();
  free_passive_ = false;
  for (size_t n = 0; n < m_.joints.size(); ++n) {
    const MechanismJoint& j = m_.joints[n];
    const auto nonzero = [](const auto& values) {
      return std::any_of(values.begin(), values.end(), [](double v) { return v != 0.0; });
    };
    if (nonzero(j.properties.stiffness) || nonzero(j.properties.damping) ||
        std::isfinite(j.properties.lower) || std::isfinite(j.properties.upper)) {
      passive_joints_.push_back(static_cast<int>(n));
      if (!j.prescribed && j.kind != JointKind::kFree && j.kind != JointKind::kWeld) {
        free_passive_ = true;
      }
    }
  }
  // A tendon's springs and an elastic tendon act on its joints like joint springs.
  tendon_springs_ = false;
  for (const MechanismTendon& t : m_.tendons) {
    if (t.E.size() == 0 && !t.elastic) continue;
    for (int j : t.joints) tendon_springs_ = tendon_springs_ || !m_.joints[j].prescribed;
  }
  free_passive_ = free_passive_ || tendon_springs_;
}

void Mechanism::SetNumbers(MechanismModel model) {
  // Everything else the constructor and Configure derive is the structure PatchMechanism keeps.
  m_ = std::move(model);
  FindPassiveJoints();
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
    const int w = input_widths[j.in_actuation.index];
    if (w == 1) {
      filter_x_[i] = nx;
      nx += 2;
      // The filter's states carry q and qd: only qdd needs the input now.
      SetInputFeedthrough(j.in_actuation.index, blocks::FeedthroughToStage(1));
    } else if (w != 3) {
      throw BlockError("input '" + m_.inputs[j.in_actuation.index].name + "' has width " +
                           std::to_string(w) + ", expected 1 (q, filtered) or 3 ([q, qd, qdd])",
                       {}, m_.inputs[j.in_actuation.index].name);
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
  free_index_of_v_.assign(tree.nv(), -1);
  for (size_t a = 0; a < free_v_.size(); ++a) free_index_of_v_[free_v_[a]] = static_cast<int>(a);
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
  // The stiff Jacobian's free rows: fixed here, with the structure it declares.
  const bool filter_constrained =
      m_.num_constraint_rows > 0 &&
      std::any_of(filter_x_.begin(), filter_x_.end(), [](int f) { return f >= 0; });
  passive_in_jacobian_ = free_passive_;
  free_rows_in_jacobian_ = !free_v_.empty() && (!m_.contacts.empty() || free_prescribed_coupled_ ||
                                                passive_in_jacobian_ || filter_constrained);
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
  // A tendon's command given as s alone is filtered: two states, s and sd.
  tendon_filter_x_.assign(m_.tendons.size(), -1);
  for (size_t k = 0; k < m_.tendons.size(); ++k) {
    const MechanismTendon& t = m_.tendons[k];
    if (t.force_driven) continue;
    const int w = input_widths[t.in_command.index];
    if (w == 1) {
      tendon_filter_x_[k] = nx;
      nx += 2;
    } else if (w != 3) {
      throw BlockError("input '" + m_.inputs[t.in_command.index].name + "' has width " +
                           std::to_string(w) + ", expected 1 (s, filtered) or 3 ([s, sd, sdd])",
                       {}, m_.inputs[t.in_command.index].name);
    }
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
  for (size_t k = 0; k < tendon_filter_x_.size(); ++k) {
    if (tendon_filter_x_[k] >= 0 && (i == tendon_filter_x_[k] || i == tendon_filter_x_[k] + 1)) {
      return "command filter of tendon '" + m_.tendons[k].name + "'";
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
  auto ws = std::make_unique<Workspace>(*m_.tree, static_cast<int>(m_.drivetrain.clusters.size()),
                                        static_cast<int>(m_.drivetrain.motors.size()),
                                        static_cast<int>(m_.contacts.size()), max_forces, m_.loops,
                                        free_v_, m_.couplings,
                                        num_dae_rows_, m_.tendons);
  for (const MechanismSynergyEquilibrium& eq : m_.equilibria) {
    ws->equilibria.push_back(internal::MakeSynergySolver(m_, eq));
  }
  ws->contact_frame_poses.resize(contact_frames_.size());
  ws->dynamics_u = Eigen::VectorXd::Zero(m_.tree->nv());
  return ws;
}

int Mechanism::IndependentLoopRows() const {
  if (m_.num_constraint_rows == 0 || free_v_.empty()) return 0;
  const KinematicTree& tree = *m_.tree;
  KinematicTreeData data(tree);
  LoopClosureData ld(tree, m_.loops, free_v_, m_.couplings, m_.tendons);
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
  // A tendon's command filter starts at rest at the tendon's initial length.
  Workspace& tendon_ws = workspace<Workspace>(c);
  for (size_t k = 0; k < m_.tendons.size(); ++k) {
    if (tendon_filter_x_[k] < 0) continue;
    xs[tendon_filter_x_[k]] =
        tendon_ws.loops.arms.Length(m_.tendons[k], static_cast<int>(k), m_.q0);
    xs[tendon_filter_x_[k] + 1] = 0.0;
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

}  // namespace twinblocks::multibody
