#include "report/scene_recorder.h"

#include <Eigen/Geometry>
#include <algorithm>
#include <stdexcept>
#include <string>

namespace twinblocks::report {

SceneRecorder::SceneRecorder(const graph::System& system) {
  for (int i = 0; i < system.num_blocks(); ++i) {
    const auto* mech = dynamic_cast<const multibody::Mechanism*>(&system.block(i));
    if (mech == nullptr) continue;
    const multibody::MechanismModel& m = mech->model();
    MechanismEntry entry;
    entry.mechanism = mech;
    entry.scratch = mech->MakePoseScratch();
    entry.first_body = static_cast<int>(bodies_.size());
    const int mech_index = static_cast<int>(mechanisms_.size());
    for (int b = 0; b < m.tree->num_bodies(); ++b) {
      const multibody::BodySpec& spec = m.tree->body(b);
      bodies_.push_back({spec.name, mech_index, b,
                         spec.parent < 0 ? -1 : entry.first_body + spec.parent,
                         spec.X_PJ.translation});
    }
    for (const multibody::MechanismSolid& s : m.solids) {
      SceneSolid solid;
      solid.name = s.name;
      solid.shape = s.shape;
      solid.radius = s.radius;
      solid.length = s.length;
      solid.size = s.size;
      solid.mesh = s.mesh;
      solid.color = s.color;
      solid.body = s.at.body < 0 ? -1 : entry.first_body + s.at.body;
      solid.X_BS = s.at.X_BF;
      solids_.push_back(std::move(solid));
    }
    for (const multibody::MechanismContact& con : m.contacts) {
      contacts_.push_back({con.name, mech->output_port(con.out_point).offset,
                           mech->output_port(con.out_normal).offset,
                           mech->output_port(con.out_fn).offset,
                           mech->output_port(con.out_ff).offset});
    }
    mechanisms_.push_back(std::move(entry));
  }
}

void SceneRecorder::Attach(graph::Simulator* sim) {
  const graph::SimulationSettingsValues& s = sim->settings();
  // As many rows as the Recording reserves: one per output time, else a first guess.
  int rows = 4096;
  if (s.output_interval && *s.output_interval > 0.0) {
    rows = static_cast<int>(std::min(1e7, (s.t_end - s.t_start) / *s.output_interval)) + 3;
  }
  poses_.reserve(static_cast<size_t>(rows) * bodies_.size() * kPoseFloats);
  contact_values_.reserve(static_cast<size_t>(rows) * contacts_.size() * kContactFloats);
  sim->SetRowCallback([this](int row, const blocks::Context& c) { Record(row, c); });
}

void SceneRecorder::Record(int row, const blocks::Context& c) {
  if (row < 0 || row > num_rows_) {
    throw std::logic_error("SceneRecorder::Record: row " + std::to_string(row) + " after " +
                           std::to_string(num_rows_) + " rows");
  }
  num_rows_ = row;
  poses_.resize(static_cast<size_t>(row) * bodies_.size() * kPoseFloats);
  contact_values_.resize(static_cast<size_t>(row) * contacts_.size() * kContactFloats);
  for (MechanismEntry& entry : mechanisms_) {
    const std::vector<multibody::Pose>& X_WB =
        entry.mechanism->CalcBodyPoses(c, entry.scratch.get());
    for (const multibody::Pose& X : X_WB) {
      const Eigen::Quaterniond q(X.rotation);
      const double values[kPoseFloats] = {
          X.translation.x(), X.translation.y(), X.translation.z(), q.w(), q.x(), q.y(), q.z()};
      for (double v : values) poses_.push_back(static_cast<float>(v));
    }
  }
  for (const SceneContact& k : contacts_) {
    const double* s = c.signals;
    const double values[kContactFloats] = {s[k.point],  s[k.point + 1],  s[k.point + 2],
                                           s[k.normal], s[k.normal + 1], s[k.normal + 2],
                                           s[k.fn],     s[k.ff]};
    for (double v : values) contact_values_.push_back(static_cast<float>(v));
  }
  num_rows_ = row + 1;
}

BodyPose SceneRecorder::pose(int row, int body) const {
  if (row < 0 || row >= num_rows_ || body < 0 || body >= static_cast<int>(bodies_.size())) {
    throw std::out_of_range("SceneRecorder::pose(" + std::to_string(row) + ", " +
                            std::to_string(body) + ")");
  }
  const float* p = poses_.data() + (static_cast<size_t>(row) * bodies_.size() + body) * kPoseFloats;
  return {Eigen::Vector3f(p[0], p[1], p[2]), Eigen::Vector4f(p[3], p[4], p[5], p[6])};
}

ContactSample SceneRecorder::contact(int row, int k) const {
  if (row < 0 || row >= num_rows_ || k < 0 || k >= static_cast<int>(contacts_.size())) {
    throw std::out_of_range("SceneRecorder::contact(" + std::to_string(row) + ", " +
                            std::to_string(k) + ")");
  }
  const float* p =
      contact_values_.data() + (static_cast<size_t>(row) * contacts_.size() + k) * kContactFloats;
  return {Eigen::Vector3f(p[0], p[1], p[2]), Eigen::Vector3f(p[3], p[4], p[5]), p[6], p[7]};
}

}  // namespace twinblocks::report
