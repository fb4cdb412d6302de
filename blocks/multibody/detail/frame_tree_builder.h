#pragma once

// The steps of BuildMechanism and BuildRobotModel (mechanism_builder.h) shared by its files:
// the kinematic tree of a set of frame elements (FrameTreeBuilder), and the contacts and
// loop constraints resolved on it.

#include <Eigen/Core>
#include <memory>
#include <string>
#include <vector>

#include "blocks/contact/spatial_contact_force.h"
#include "blocks/drivetrain/rotational_network.h"
#include "blocks/multibody/mechanism_builder.h"
#include "common/union_find.h"

namespace twinblocks::multibody::internal {

using blocks::UnionFind;

/// Two rigid bodies described in one frame, as one (mass, centre of mass and the parallel
/// axis theorem).
inline SpatialInertia Combine(const SpatialInertia& a, const SpatialInertia& b) {
  const double m = a.mass() + b.mass();
  if (m == 0.0) return {0.0, Eigen::Vector3d::Zero(), a.inertia_com() + b.inertia_com()};
  const Eigen::Vector3d com = (a.mass() * a.com() + b.mass() * b.com()) / m;
  auto shifted = [&com](const SpatialInertia& s) {
    const Eigen::Vector3d d = s.com() - com;
    return Eigen::Matrix3d(s.inertia_com() +
                           s.mass() *
                               (d.squaredNorm() * Eigen::Matrix3d::Identity() - d * d.transpose()));
  };
  return {m, com, shifted(a) + shifted(b)};
}

inline std::string Quote(const std::string& s) { return "'" + s + "'"; }

/// The kinematic tree of a set of frame elements: rigid clusters of nodes become bodies,
/// joints the tree's edges. Used for the simulated mechanism and for robot models.
class FrameTreeBuilder {
 public:
  struct JointRecord {
    int element = -1;
    int first_body = -1, body = -1;
    bool reversed = false;
    Pose X_PJ;  ///< joint frame in the parent body
  };

  /// @param armature  per element: the drive inertia reflected onto its joint (or empty).
  FrameTreeBuilder(const MechanismBuilder& network, int num_nodes,
                   const std::vector<unsigned char>& subset,
                   const std::vector<double>& armature = {})
      : network_(network),
        elements_(network.elements()),
        subset_(subset),
        armature_(armature),
        uf_(num_nodes),
        rigid_(num_nodes),
        node_pose_(num_nodes),
        posed_(num_nodes, 0),
        node_location_(num_nodes) {}

  /// Builds the tree rooted at node `root_node` (World's W, or a robot's attachment).
  void Build(int root_node, const Eigen::Vector3d& gravity) {
    CollectRigidEdges();
    ChooseTreeJoints(root_node);
    std::vector<unsigned char> visited_cluster(uf_size(), 0);
    std::vector<unsigned char> used(elements_.size(), 0);
    const int root = uf_.Find(root_node);
    visited_cluster[root] = 1;
    PoseCluster(root_node);
    AssignLocations(root, -1);
    Visit(root, -1, &visited_cluster, &used);
    // Whatever was not reached hangs in the air: name it.
    for (int e = 0; e < static_cast<int>(elements_.size()); ++e) {
      if (!subset_[e]) continue;
      const blocks::Block& b = *elements_[e].block;
      for (int p = 0; p < b.num_physical_ports(); ++p) {
        if (b.physical_port(p).domain != "frame") continue;
        const int n = elements_[e].nodes[p];
        if (!visited_cluster[uf_.Find(n)]) {
          throw NetworkError(e, Quote(elements_[e].name) +
                                    " is not connected to World through joints and rigid "
                                    "transforms: a frame network needs a path to World");
        }
      }
    }
    tree_ = std::make_shared<KinematicTree>(bodies_, gravity);
  }

  /// A network with no frames (a drivetrain on its own): no bodies.
  void BuildEmpty() {
    tree_ = std::make_shared<KinematicTree>(std::vector<BodySpec>{}, Eigen::Vector3d::Zero());
  }

  const std::shared_ptr<const KinematicTree>& tree() const { return tree_; }
  const std::vector<JointRecord>& joints() const { return joints_; }
  /// The joints that close loops (not edges of the tree), in element order.
  const std::vector<int>& cut_joints() const { return cut_joints_; }
  /// The tree joints on the path between two bodies (-1: the world), as element indices,
  /// from `a` up to the common ancestor and down to `b`.
  std::vector<int> PathBetween(int a, int b) const {
    std::vector<int> up_a, up_b;
    auto depth = [this](int i) {
      int d = 0;
      for (; i >= 0; i = bodies_[i].parent) ++d;
      return d;
    };
    int da = depth(a), db = depth(b);
    auto step = [this](int* i, std::vector<int>* path) {
      const int e = body_element_[*i];
      if (path->empty() || path->back() != e) path->push_back(e);
      *i = bodies_[*i].parent;
    };
    while (da > db) step(&a, &up_a), --da;
    while (db > da) step(&b, &up_b), --db;
    while (a != b) step(&a, &up_a), step(&b, &up_b);
    up_a.insert(up_a.end(), up_b.rbegin(), up_b.rend());
    return up_a;
  }
  const FrameLocation& location(int node) const { return node_location_[node]; }
  /// Pose of a node in the root frame, when it is fixed to the root.
  bool FixedToRoot(int node, Pose* X_RN) const {
    if (node_location_[node].body >= 0) return false;
    *X_RN = node_location_[node].X_BF;
    return true;
  }

 private:
  int uf_size() const { return static_cast<int>(rigid_.size()); }

  struct RigidEdge {
    int to;
    Pose X;  ///< pose of `to` in the frame of the node the edge leaves
    int element;
  };

  void CollectRigidEdges() {
    for (int e = 0; e < static_cast<int>(elements_.size()); ++e) {
      if (!subset_[e]) continue;
      if (!network_.rigid(e)) continue;
      const Pose& X = *network_.rigid(e);
      const int nb = elements_[e].nodes[0], nf = elements_[e].nodes[1];
      rigid_[nb].push_back({nf, X, e});
      rigid_[nf].push_back({nb, X.Inverse(), e});
      uf_.Join(nb, nf);
    }
  }

  /// Poses of every node of `ref`'s rigid cluster in `ref`'s frame, by a breadth-first walk
  /// over rigid edges; a loop of transforms must close.
  void PoseCluster(int ref) {
    std::vector<int> queue{ref};
    node_pose_[ref] = Pose();
    posed_[ref] = 1;
    for (size_t i = 0; i < queue.size(); ++i) {
      const int n = queue[i];
      for (const RigidEdge& edge : rigid_[n]) {
        const Pose X = node_pose_[n] * edge.X;
        if (posed_[edge.to]) {
          const Pose& had = node_pose_[edge.to];
          const double err = (had.translation - X.translation).norm() +
                             (had.rotation - X.rotation).cwiseAbs().maxCoeff();
          if (err > 1e-9) {
            throw NetworkError(edge.element,
                               "rigid connections form a loop that does not close (mismatch " +
                                   std::to_string(err) +
                                   "): " + Quote(elements_[edge.element].name) +
                                   " disagrees with another path between the same frames");
          }
          continue;
        }
        node_pose_[edge.to] = X;
        posed_[edge.to] = 1;
        queue.push_back(edge.to);
      }
    }
  }

  /// Which joints are the tree's edges: a breadth-first search from the root's rigid cluster
  /// over joints in element order (docs/loops.md), first without the joints
  /// marked cut="true", which join the search only where nothing else reaches a body. Every
  /// other joint closes a loop and is cut.
  void ChooseTreeJoints(int root_node) {
    const int n = static_cast<int>(elements_.size());
    tree_edge_.assign(n, 0);
    std::vector<unsigned char> reached(uf_size(), 0);
    std::vector<int> queue{uf_.Find(root_node)};
    reached[queue[0]] = 1;
    auto joint_at = [&](int e) -> const JointElement* {
      return subset_[e] ? network_.joint(e) : nullptr;
    };
    auto search = [&](bool with_cut) {
      for (size_t i = 0; i < queue.size(); ++i) {
        const int cluster = queue[i];
        for (int e = 0; e < n; ++e) {
          const JointElement* j = joint_at(e);
          if (j == nullptr || tree_edge_[e] || (j->cut && !with_cut)) continue;
          const int cb = uf_.Find(elements_[e].nodes[0]), cf = uf_.Find(elements_[e].nodes[1]);
          if (cb != cluster && cf != cluster) continue;
          const int other = cb == cluster ? cf : cb;
          if (reached[other]) continue;
          reached[other] = 1;
          tree_edge_[e] = 1;
          queue.push_back(other);
          if (with_cut) return true;  // back to the search without cut joints
        }
      }
      return false;
    };
    search(false);
    while (search(true)) search(false);
    for (int e = 0; e < n; ++e) {
      const JointElement* j = joint_at(e);
      if (j == nullptr || tree_edge_[e]) continue;
      if (uf_.Find(elements_[e].nodes[0]) == uf_.Find(elements_[e].nodes[1])) continue;
      if (!reached[uf_.Find(elements_[e].nodes[0])]) continue;  // reported as not connected
      cut_joints_.push_back(e);
    }
  }

  void AssignLocations(int cluster, int body) {
    for (int n = 0; n < uf_size(); ++n) {
      if (uf_.Find(n) == cluster) node_location_[n] = {body, node_pose_[n]};
    }
  }

  SpatialInertia ClusterInertia(int cluster) {
    SpatialInertia total;
    for (int e = 0; e < static_cast<int>(elements_.size()); ++e) {
      if (!subset_[e]) continue;
      const SolidElement* s = network_.solid(e);
      if (s == nullptr) continue;
      const int n = elements_[e].nodes[0];
      if (uf_.Find(n) != cluster) continue;
      total = Combine(total, s->inertia.TransformedBy(node_pose_[n]));
    }
    return total;
  }

  void Visit(int cluster, int body, std::vector<unsigned char>* visited,
             std::vector<unsigned char>* used) {
    for (int e = 0; e < static_cast<int>(elements_.size()); ++e) {
      if (!subset_[e] || (*used)[e]) continue;
      const JointElement* j = network_.joint(e);
      if (j == nullptr) continue;
      const int nb = elements_[e].nodes[0], nf = elements_[e].nodes[1];
      const int cb = uf_.Find(nb), cf = uf_.Find(nf);
      if (cb == cf) {
        throw NetworkError(e, "joint " + Quote(elements_[e].name) +
                                  " joins two frames of one rigid body (its B and F are "
                                  "rigidly connected), so it cannot move");
      }
      if (cb != cluster && cf != cluster) continue;
      if (!tree_edge_[e]) continue;  // a cut joint: a constraint, not an edge
      (*used)[e] = 1;
      const bool reversed = cf == cluster;
      const int other = reversed ? cb : cf;
      (*visited)[other] = 1;
      const int parent_node = reversed ? nf : nb;
      const int child_node = reversed ? nb : nf;
      PoseCluster(child_node);
      const int child_body =
          AddJointBodies(e, *j, body, node_pose_[parent_node], reversed, ClusterInertia(other));
      AssignLocations(other, child_body);
      Visit(other, child_body, visited, used);
    }
  }

  int AddJointBodies(int e, const JointElement& j, int parent, const Pose& X_PJ, bool reversed,
                     const SpatialInertia& inertia) {
    const std::string& name = elements_[e].name;
    JointRecord rec;
    rec.element = e;
    rec.reversed = reversed;
    rec.X_PJ = X_PJ;
    auto add = [&](const Joint& joint, const Pose& X, const SpatialInertia& I,
                   const std::string& n) {
      BodySpec spec;
      spec.name = n;
      spec.parent = parent;
      spec.joint = joint;
      spec.X_PJ = X;
      spec.inertia = I;
      bodies_.push_back(spec);
      body_element_.push_back(e);
      parent = static_cast<int>(bodies_.size()) - 1;
      return parent;
    };
    const double sign = reversed ? -1.0 : 1.0;
    if ((j.kind == JointKind::kSpherical || j.kind == JointKind::kFree ||
         j.kind == JointKind::kBushing) &&
        reversed) {
      throw NetworkError(e, "joint " + Quote(name) +
                                " is connected with B away from World; for spherical, free and "
                                "bushing joints connect B toward World (swap B and F)");
    }
    switch (j.kind) {
      case JointKind::kRevolute:
        rec.first_body = rec.body = add(Joint::Revolute(sign * j.axis), X_PJ, inertia, name);
        if (!armature_.empty()) bodies_.back().armature = armature_[e];
        break;
      case JointKind::kPrismatic:
        rec.first_body = rec.body = add(Joint::Prismatic(sign * j.axis), X_PJ, inertia, name);
        if (!armature_.empty()) bodies_.back().armature = armature_[e];
        break;
      case JointKind::kSpherical:
        rec.first_body = rec.body = add(Joint::Spherical(), X_PJ, inertia, name);
        break;
      case JointKind::kFree:
        rec.first_body = rec.body = add(Joint::Free(), X_PJ, inertia, name);
        break;
      case JointKind::kBushing: {
        // Three translations then three rotations, through massless intermediate bodies.
        const SpatialInertia none;
        rec.first_body = add(Joint::Prismatic(Eigen::Vector3d::UnitX()), X_PJ, none, name + " x");
        add(Joint::Prismatic(Eigen::Vector3d::UnitY()), Pose(), none, name + " y");
        add(Joint::Prismatic(Eigen::Vector3d::UnitZ()), Pose(), none, name + " z");
        add(Joint::Revolute(Eigen::Vector3d::UnitX()), Pose(), none, name + " rx");
        add(Joint::Revolute(Eigen::Vector3d::UnitY()), Pose(), none, name + " ry");
        rec.body = add(Joint::Revolute(Eigen::Vector3d::UnitZ()), Pose(), inertia, name + " rz");
        break;
      }
      case JointKind::kWeld:
        break;
    }
    joints_.push_back(rec);
    return rec.body;
  }

  const MechanismBuilder& network_;
  const std::vector<NetworkElement>& elements_;
  const std::vector<unsigned char>& subset_;
  std::vector<double> armature_;
  UnionFind uf_;
  std::vector<std::vector<RigidEdge>> rigid_;
  std::vector<Pose> node_pose_;
  std::vector<unsigned char> posed_;
  std::vector<FrameLocation> node_location_;
  std::vector<BodySpec> bodies_;
  std::vector<JointRecord> joints_;
  std::vector<int> body_element_;         ///< per body: the joint element that moves it
  std::vector<unsigned char> tree_edge_;  ///< per element: a joint that is an edge of the tree
  std::vector<int> cut_joints_;
  std::shared_ptr<const KinematicTree> tree_;
};

/// The joints' shafts (actuation=port), in element order (mechanism_builder.cc).
std::vector<drivetrain::Shaft> JointShafts(const MechanismBuilder& network);

/// A SpatialContactForce resolved to the shapes on its two sides (mechanism_builder_contacts.cc).
MechanismContact BuildContact(const MechanismBuilder& network, int e,
                              const contact::SpatialContactForceElement& el,
                              const FrameTreeBuilder& builder);

/// The contact law of each pair of shapes of contact `c` (b[i] against f[j] at i * f.size() + j),
/// made by its element `el`, element `e` (mechanism_builder_contacts.cc).
/// @throws NetworkError for two planes, or a Hertz law between two flat shapes with no radius.
std::vector<contact::ContactLaw> ContactLaws(int e, const contact::SpatialContactForceElement& el,
                                             const MechanismContact& c);

/// The constraint of cut joint `e`, its rows starting at `row` (mechanism_builder_loops.cc).
/// @throws NetworkError for a joint that cannot close a loop.
LoopConstraint MakeLoopConstraint(const MechanismBuilder& network, int e,
                                  const FrameTreeBuilder& builder, int row);

/// The coupling of JointCoupler `e` (mechanism_builder_loops.cc).
/// @throws NetworkError when its ports are not on two shafts of tree joints.
JointCoupling MakeJointCoupling(const MechanismBuilder& network, int e,
                                const std::vector<drivetrain::Shaft>& shafts,
                                const MechanismModel& m);

/// The tendon of Tendon `e`: the tree joints whose shafts its ports J1..Jn are on
/// (mechanism_builder_loops.cc). @throws NetworkError when a port is not on a shaft of a tree
/// joint, or two ports are on one joint.
MechanismTendon MakeTendon(const MechanismBuilder& network, int e,
                           const std::vector<drivetrain::Shaft>& shafts, const MechanismModel& m);

/// The equilibrium of SynergyEquilibrium `e`: its tendon and the joints, tendons and couplings
/// of the balance it solves (mechanism_builder_loops.cc). @pre m's tendons and couplings made.
/// @throws NetworkError when T is not on a Tendon's T, or the balance is undetermined.
MechanismSynergyEquilibrium MakeSynergyEquilibrium(const MechanismBuilder& network, int e,
                                                   const MechanismModel& m);

/// Closes the loops at the start (mechanism_builder_loops.cc).
/// @throws NetworkError naming the loop with the largest residual when it cannot.
void AssembleLoops(const MechanismBuilder& network, const FrameTreeBuilder& builder,
                   MechanismModel* m);

}  // namespace twinblocks::multibody::internal
