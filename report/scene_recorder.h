#pragma once

// What the HTML report's 3D playback shows, recorded during a run: every Solid of every
// mechanism of a System (its shape, and the body it is fixed to), the world pose of every body
// at each output row, and each SpatialContactForce's point, normal and forces at each row.
//
// The recorder is a Simulator row callback (Simulator::SetRowCallback): for each row the
// Recording gets, it asks each Mechanism for its bodies' world poses at that row's point
// (Mechanism::CalcBodyPoses) and reads the contacts' output signals. Rows of the recorder and
// of the Recording share indices, so row i of both is the same time. Poses and contacts are
// kept in single precision, as the page draws them.

#include <Eigen/Core>
#include <memory>
#include <string>
#include <vector>

#include "blocks/multibody/mechanism.h"
#include "physics/multibody/mesh.h"
#include "physics/multibody/solid_geometry.h"
#include "physics/spatial/spatial.h"
#include "runtime/simulator.h"
#include "runtime/system.h"

namespace twinblocks::report {

/// A moving body of the scene: one body of one mechanism's kinematic tree.
struct SceneBody {
  std::string name;  ///< the tree's name of the body (the joint element that moves it)
  int mechanism = 0;
  int tree_body = 0;
  int parent = -1;  ///< index into SceneRecorder::bodies(), -1: the world
  /// Where its joint sits: the joint frame's origin in the parent's body frame (in W for a
  /// body on the world), m. Viewers draw bodies without a shape as links through it.
  Eigen::Vector3d p_PJ = Eigen::Vector3d::Zero();
};

/// A Solid to draw: its shape in its frame S (solid_geometry.h) and where S is fixed.
struct SceneSolid {
  std::string name;  ///< the Solid's block path
  multibody::ShapeKind shape = multibody::ShapeKind::kNone;
  double radius = 0.0;                                     ///< m (sphere, cylinder, capsule)
  double length = 0.0;                                     ///< m (cylinder, capsule)
  Eigen::Vector3d size = Eigen::Vector3d::Zero();          ///< m (box)
  std::shared_ptr<const multibody::TriangleMesh> mesh;     ///< shape mesh, in S (m)
  Eigen::Vector3d color = Eigen::Vector3d(0.7, 0.7, 0.7);  ///< [r, g, b] in 0..1
  int body = -1;         ///< index into SceneRecorder::bodies(), -1: fixed in the world
  multibody::Pose X_BS;  ///< S in the body's frame (in W when body is -1)
};

/// A SpatialContactForce, read from its output signals.
struct SceneContact {
  std::string name;                           ///< the contact block's path
  int point = 0, normal = 0, fn = 0, ff = 0;  ///< offsets of its outputs in the signal buffer
};

/// A body's pose at one row: position p_WB (m) and orientation as a unit quaternion
/// [w, x, y, z] of R_WB.
struct BodyPose {
  Eigen::Vector3f position;
  Eigen::Vector4f quaternion;
};

/// A contact at one row: the contact point (W, m; midway between the closest points of its
/// shapes), the unit normal from B's shape to F's (W), the normal force fn (N, >= 0; 0 when
/// the shapes do not touch) and the friction force's size ff (N).
struct ContactSample {
  Eigen::Vector3f point;
  Eigen::Vector3f normal;
  float fn = 0.0f;
  float ff = 0.0f;
};

/// Records the scene of a System's run; see the top of this file.
class SceneRecorder {
 public:
  /// Collects the Solids, bodies and contacts of every Mechanism block of `system`, which
  /// must outlive the recorder. A System without mechanisms gives an empty scene.
  explicit SceneRecorder(const graph::System& system);

  /// Makes this recorder `sim`'s row callback and reserves room for the rows the run's
  /// settings ask for. The recorder must outlive the run.
  void Attach(graph::Simulator* sim);

  /// Records row `row` (the row callback): every body's pose and every contact at the point
  /// `c` holds. Rows from `row` on that were recorded before are dropped first (a restored
  /// run records them again). Allocates nothing while the reserved rows last.
  /// @throws std::logic_error when `row` skips rows (row > num_rows()).
  void Record(int row, const blocks::Context& c);

  bool empty() const { return bodies_.empty() && solids_.empty(); }
  const std::vector<SceneBody>& bodies() const { return bodies_; }
  const std::vector<SceneSolid>& solids() const { return solids_; }
  const std::vector<SceneContact>& contacts() const { return contacts_; }
  int num_rows() const { return num_rows_; }

  /// Body `body`'s pose at row `row`.
  BodyPose pose(int row, int body) const;
  /// Contact `k` at row `row`.
  ContactSample contact(int row, int k) const;

  /// Floats per body and row (position 3, quaternion 4), per contact and row (point 3,
  /// normal 3, fn, ff): the layout of pose_data() and contact_data().
  static constexpr int kPoseFloats = 7;
  static constexpr int kContactFloats = 8;
  /// Row-major: row r's poses start at r * bodies().size() * kPoseFloats.
  const std::vector<float>& pose_data() const { return poses_; }
  const std::vector<float>& contact_data() const { return contact_values_; }

 private:
  struct MechanismEntry {
    const multibody::Mechanism* mechanism = nullptr;
    std::unique_ptr<multibody::Mechanism::PoseScratch> scratch;
    int first_body = 0;  ///< its tree's body 0 in bodies_
  };

  std::vector<MechanismEntry> mechanisms_;
  std::vector<SceneBody> bodies_;
  std::vector<SceneSolid> solids_;
  std::vector<SceneContact> contacts_;
  std::vector<float> poses_;           ///< (rows x bodies x kPoseFloats)
  std::vector<float> contact_values_;  ///< (rows x contacts x kContactFloats)
  int num_rows_ = 0;
};

}  // namespace twinblocks::report
