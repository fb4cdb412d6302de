// Mechanism, the contacts stage: the geometry of every contact pair and its forces.

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
#include "blocks/multibody/mechanism.h"

namespace twinblocks::multibody {

using blocks::BlockError;
using blocks::Context;

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
      r.force += pf.force;
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

}  // namespace twinblocks::multibody
