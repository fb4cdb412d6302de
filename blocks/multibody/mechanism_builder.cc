#include "blocks/multibody/mechanism_builder.h"

#include <Eigen/Cholesky>
#include <cmath>
#include <cstdio>
#include <functional>
#include <limits>
#include <optional>

#include "blocks/contact/spatial_contact_force.h"
#include "blocks/multibody/joint_coupler.h"
#include "blocks/multibody/loop_closure.h"
#include "blocks/multibody/loop_constraint.h"
#include "common/union_find.h"
#include "physics/multibody/algorithms.h"

namespace twinblocks::multibody {

namespace {

using blocks::UnionFind;

/// Two rigid bodies described in one frame, as one (mass, centre of mass and the parallel
/// axis theorem).
SpatialInertia Combine(const SpatialInertia& a, const SpatialInertia& b) {
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

std::string Quote(const std::string& s) { return "'" + s + "'"; }

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
  /// over joints in element order (spec/blocks.md, "Closed loops"), first without the joints
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

/// The collision shape of a Solid, or nullopt for shape 'none'.
std::optional<contact::Shape> CollisionShapeOf(const SolidElement& s) {
  switch (s.shape) {
    case ShapeKind::kSphere:
      return contact::Shape::Sphere(s.radius);
    case ShapeKind::kBox:
      return contact::Shape::Box(s.size);
    case ShapeKind::kCylinder:
      return contact::Shape::Cylinder(s.radius, s.length);
    case ShapeKind::kCapsule:
      return contact::Shape::Capsule(s.radius, s.length);
    case ShapeKind::kPlane:
      return contact::Shape::Plane();
    case ShapeKind::kMesh:
      return contact::Shape::ConvexMesh(contact::MakeConvexHull(s.mesh->vertices));
    case ShapeKind::kNone:
      break;
  }
  return std::nullopt;
}

/// The radius of curvature a Hertz contact sees on a shape: its radius where it is round,
/// infinite where it is flat (box, plane, mesh faces).
double CurvatureRadius(const contact::Shape& s) {
  switch (s.type) {
    case contact::ShapeType::kSphere:
    case contact::ShapeType::kCylinder:
    case contact::ShapeType::kCapsule:
      return s.radius;
    default:
      return std::numeric_limits<double>::infinity();
  }
}

/// A SpatialContactForce resolved to the shapes on its two sides.
MechanismContact BuildContact(const MechanismBuilder& network, int e,
                              const contact::SpatialContactForceElement& el,
                              const FrameTreeBuilder& builder) {
  const std::vector<NetworkElement>& elements = network.elements();
  MechanismContact c;
  c.name = elements[e].name;
  for (int side = 0; side < 2; ++side) {
    const int node = elements[e].nodes[side];
    const char* port = side == 0 ? "B" : "F";
    std::vector<MechanismContactShape>& shapes = side == 0 ? c.b : c.f;
    for (int s = 0; s < static_cast<int>(elements.size()); ++s) {
      const SolidElement* solid = network.solid(s);
      if (solid == nullptr || elements[s].nodes[0] != node) continue;
      const std::optional<contact::Shape> shape = CollisionShapeOf(*solid);
      if (!shape) {
        throw NetworkError(e, "contact " + Quote(c.name) + ": the Solid " +
                                  Quote(elements[s].name) + " at its frame " + port +
                                  " has shape 'none', which has no surface to touch; give it a "
                                  "shape (sphere, box, cylinder, capsule, plane or mesh)");
      }
      if (solid->shape == ShapeKind::kMesh && !IsClosed(*solid->mesh)) {
        // A Solid takes an open mesh as a picture when its mass properties are given; the
        // contact hull and the penetration depth need the enclosed solid.
        throw NetworkError(e, "contact " + Quote(c.name) + ": the mesh of Solid " +
                                  Quote(elements[s].name) + " (" + solid->file +
                                  ") is not a closed surface, which contact needs");
      }
      shapes.push_back({elements[s].name, *shape, builder.location(node)});
    }
    if (shapes.empty()) {
      throw NetworkError(e, "contact " + Quote(c.name) + ": no Solid at its frame " + port +
                                "; connect " + port +
                                " to the R port of the Solid whose surface it touches");
    }
  }
  for (const MechanismContactShape& b : c.b) {
    for (const MechanismContactShape& f : c.f) {
      if (b.shape.type == contact::ShapeType::kPlane &&
          f.shape.type == contact::ShapeType::kPlane) {
        throw NetworkError(e, "contact " + Quote(c.name) + " is between two planes (" +
                                  Quote(b.solid) + " and " + Quote(f.solid) +
                                  "); a plane is a fixed half-space, it touches other shapes");
      }
      contact::ContactLaw law = el.law;
      if (el.materials) {
        const contact::HertzMaterials& m = *el.materials;
        double R = m.radius;
        if (R == 0.0) {
          const double rb = CurvatureRadius(b.shape), rf = CurvatureRadius(f.shape);
          R = 1.0 / (1.0 / rb + 1.0 / rf);
        }
        if (!std::isfinite(R)) {
          throw NetworkError(e, "contact " + Quote(c.name) +
                                    ": the Hertz stiffness needs a "
                                    "radius of curvature, and both " +
                                    Quote(b.solid) + " and " + Quote(f.solid) +
                                    " are flat; set parameter 'radius'");
        }
        law.stiffness = contact::HertzStiffness(m.E[0], m.nu[0], m.E[1], m.nu[1], R);
        law.damping = contact::HertzDamping(m.gamma, R);
      }
      c.laws.push_back(law);
    }
  }
  return c;
}

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

/// Closes the loops at the start (spec/blocks.md: q0 and qd0 are assembly targets): moves the
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

}  // namespace

std::string MechanismElement::UnconnectedPortError(const std::string& path, int port) const {
  const PhysicalPort& p = physical_port(port);
  if (p.domain == "frame") {
    return "frame port '" + p.name + "' of " + Quote(path) +
           " is not connected; every frame port of a frame block must be joined to another "
           "frame";
  }
  return "rotational port '" + p.name + "' of " + Quote(path) +
         " is not connected; a drivetrain element acts between shafts, connect it to another "
         "rotational port (a RotationalReference for the case)";
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
  std::vector<drivetrain::Shaft> shafts;
  bool has_frames = false;
  for (int e = 0; e < static_cast<int>(elements.size()); ++e) {
    const blocks::Block& b = *elements[e].block;
    if (const JointElement* j = network.joint(e); j != nullptr && j->shaft_port >= 0) {
      shafts.push_back({elements[e].nodes[j->shaft_port], e, e});
    }
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
  auto in = [&](int e, int port) { return port < 0 ? -1 : input_base[e] + port; };
  auto out = [&](int e, int port) { return port < 0 ? -1 : output_base[e] + port; };

  m.q0.resize(tree.nq());
  m.v0.resize(tree.nv());
  NeutralConfiguration(tree, m.q0);
  m.v0.setZero();
  m.prescribed.assign(tree.num_bodies(), 0);
  for (const auto& rec : builder.joints()) {
    const JointElement& el = *network.joint(rec.element);
    MechanismJoint j;
    j.name = elements[rec.element].name;
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
    m.couplings.push_back(MakeJointCoupling(network, e, builder, shafts, m));
    m.couplings.back().out_tau = out(e, c->out_tau);
    m.couplings.back().row = m.num_constraint_rows++;
  }
  if (m.num_constraint_rows > 0) AssembleLoops(network, builder, &m);

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
  if (frame_element >= 0) {
    const FrameLocation& loc = builder.location(elements[frame_element].nodes[frame_port]);
    robot.frame_body = loc.body;
    robot.X_BF = loc.X_BF;
  }
  return robot;
}

}  // namespace twinblocks::multibody
