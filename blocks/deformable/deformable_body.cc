#include "blocks/deformable/deformable_body.h"

#include <cmath>
#include <filesystem>
#include <string>

#include "common/format_value.h"
#include "physics/contact/contact_law.h"
#include "physics/deformable/tet_mesher.h"
#include "physics/multibody/mesh.h"

namespace twinblocks::blocks {

namespace {

double Positive(const Params& p, const char* name) {
  const double v = p.Scalar(name);
  if (!(v > 0.0) || !std::isfinite(v)) {
    throw BlockError(
        std::string("parameter '") + name + "' must be > 0 and finite, got " + FormatValue(v),
        name);
  }
  return v;
}

double NonNegative(const Params& p, const char* name) {
  const double v = p.Scalar(name);
  if (!(v >= 0.0) || !std::isfinite(v)) {
    throw BlockError(
        std::string("parameter '") + name + "' must be >= 0 and finite, got " + FormatValue(v),
        name);
  }
  return v;
}

double PoissonRatio(const Params& p, const char* name) {
  const double nu = p.Scalar(name);
  if (!(nu > -1.0 && nu < 0.5)) {
    throw BlockError(
        std::string("parameter '") + name + "' must be in (-1, 0.5), got " + FormatValue(nu), name);
  }
  return nu;
}

// The width of one sphere's motion on the input `solids`: position, rotation (row by row),
// velocity, angular velocity.
constexpr int kMotionWidth = 18;

Eigen::Vector3d Vector3(const Params& p, const char* name) {
  const Eigen::VectorXd v = p.Vector(name);
  if (v.size() != 3 || !v.allFinite()) {
    throw BlockError(std::string("parameter '") + name + "' must be 3 finite values", name);
  }
  return v;
}

}  // namespace

struct DeformableBody::Scratch final : BlockWorkspace {
  Scratch(int n, int springs, int pairs, int partners)
      : force(3 * n),
        contacts(pairs),
        wrench(6, partners),
        normal_force(partners),
        touching(partners) {
    // Each spring's four 3 x 3 blocks: sized here, so that the run allocates nothing.
    df_dx.reserve(36 * static_cast<size_t>(springs));
    df_dv.reserve(36 * static_cast<size_t>(springs));
  }
  Eigen::VectorXd force;  ///< (3n)
  /// (surface nodes x partners, node-major) the contacts of the last CalcContacts
  std::vector<deformable::NodeContact> contacts;
  Eigen::Matrix<double, 6, Eigen::Dynamic> wrench;  ///< per partner: force, torque about its
                                                    ///< origin, what the body exerts (world)
  Eigen::VectorXd normal_force;                     ///< per partner: the sum of f_n
  Eigen::VectorXd touching;                         ///< per partner: the number of touching nodes
  std::vector<Eigen::Triplet<double>> df_dx, df_dv;
  void CopyFrom(const BlockWorkspace& other) override {
    *this = static_cast<const Scratch&>(other);
  }
};

DeformableBody::DeformableBody(const Params& params) {
  const std::string& shape = params.Word("shape");
  const Eigen::VectorXd size = params.Vector("size");
  const double element_size = Positive(params, "element_size");
  const double E = Positive(params, "young_modulus");
  const double nu = PoissonRatio(params, "poisson_ratio");
  deformable::SpringRule rule;
  rule.young_modulus = E;
  rule.density = Positive(params, "density");
  rule.k3_factor = params.Word("spring") == "cubic" ? params.Scalar("k3_factor") : 0.0;
  rule.damping_time = params.Scalar("damping_time");
  if (!(rule.k3_factor >= 0.0) || !std::isfinite(rule.k3_factor) || !(rule.damping_time >= 0.0) ||
      !std::isfinite(rule.damping_time)) {
    throw BlockError("parameters 'k3_factor' and 'damping_time' must be >= 0 and finite",
                     rule.k3_factor >= 0.0 ? "damping_time" : "k3_factor");
  }
  // A primitive by its size, or a closed surface from a file (shape = mesh).
  const bool from_file = shape == "mesh";
  const int needed = shape == "sphere" ? 1 : (shape == "cylinder" ? 2 : 3);
  if (!from_file && (size.size() != needed || !size.allFinite() || (size.array() <= 0.0).any())) {
    throw BlockError("parameter 'size' of a " + shape + " must be " +
                         (needed == 1   ? "[radius]"
                          : needed == 2 ? "[radius, height]"
                                        : "[x, y, z] edges") +
                         ", > 0 (m)",
                     "size");
  }
  Eigen::Vector3d dims = Eigen::Vector3d::Zero();
  if (!from_file) dims.head(needed) = size;
  deformable::TetMesh mesh;
  try {
    if (from_file) {
      if (!params.has("file") || params.String("file").empty()) {
        throw BlockError("shape 'mesh' needs parameter 'file' (a closed STL or OBJ surface, m)",
                         "file");
      }
      std::filesystem::path file(params.String("file"));
      if (file.is_relative()) file = std::filesystem::path(params.base_dir()) / file;
      mesh = deformable::MeshSurface(multibody::LoadMesh(file.lexically_normal().string()),
                                     element_size);
    } else {
      const deformable::Primitive primitive = shape == "sphere" ? deformable::Primitive::kSphere
                                              : shape == "box"  ? deformable::Primitive::kBox
                                                                : deformable::Primitive::kCylinder;
      mesh = deformable::MeshPrimitive(primitive, dims, element_size);
    }
    body_ = std::make_shared<const deformable::MassSpringBody>(
        deformable::MassSpringBody::FromTetMesh(mesh, rule));
  } catch (const BlockError&) {
    throw;
  } catch (const std::exception& e) {
    throw BlockError(e.what(), from_file ? "file" : "size");
  }
  tets_ = mesh.tets;
  const int n = body_->num_nodes();
  const Eigen::Vector3d position = Vector3(params, "position");
  const Eigen::Vector3d stretch = Vector3(params, "deformation");
  gravity_ = Vector3(params, "gravity");
  x0_.resize(3 * n);
  for (int i = 0; i < n; ++i) {
    x0_.segment<3>(3 * i) = position + stretch.cwiseProduct(mesh.nodes.col(i));
  }
  fixed_.assign(n, 0);
  const Eigen::VectorXd fixed = params.Vector("fixed_nodes");
  for (int k = 0; k < fixed.size(); ++k) {
    const double i = fixed[k];
    if (!(i >= 0 && i < n) || i != std::floor(i)) {
      throw BlockError("parameter 'fixed_nodes': " + FormatValue(i) +
                           " is not a node index of the mesh (0.." + std::to_string(n - 1) + ")",
                       "fixed_nodes");
    }
    fixed_[static_cast<int>(i)] = 1;
  }
  // Nodes that start at or below a height (a body clamped along its base).
  const Eigen::VectorXd below = params.Vector("fixed_below");
  if (below.size() > 1 || (below.size() == 1 && !std::isfinite(below[0]))) {
    throw BlockError("parameter 'fixed_below' must be [] (none) or [z] (m)", "fixed_below");
  }
  for (int i = 0; i < n && below.size() == 1; ++i) {
    if (x0_[3 * i + 2] <= below[0]) fixed_[i] = 1;
  }
  inverse_mass_.resize(n);
  for (int i = 0; i < n; ++i) inverse_mass_[i] = fixed_[i] ? 0.0 : 1.0 / body_->masses()[i];

  // The surface, and each surface node's curvature radius for the Hertz law: the sphere's
  // radius on a sphere, a cylinder's on its side, flat (infinite) elsewhere.
  std::vector<unsigned char> on_surface(n, 0);
  for (const auto& f : deformable::BoundaryFaces(mesh)) {
    for (const int i : f) on_surface[i] = 1;
  }
  std::vector<double> curvature_radius;
  for (int i = 0; i < n; ++i) {
    if (on_surface[i] == 0) continue;
    surface_nodes_.push_back(i);
    const Eigen::Vector3d p = mesh.nodes.col(i);
    double r = std::numeric_limits<double>::infinity();
    if (shape == "sphere") {
      r = dims[0];
    } else if (shape == "cylinder") {
      const double tol = 1e-6 * std::max(dims[0], dims[1]);
      if (std::abs(std::hypot(p.x(), p.y()) - dims[0]) <= tol &&
          std::abs(p.z()) < 0.5 * dims[1] - tol) {
        r = dims[0];
      }
    }
    curvature_radius.push_back(r);
  }
  const int ns = static_cast<int>(surface_nodes_.size());

  const Eigen::VectorXd radii = params.Vector("contact_radius");
  num_spheres_ = static_cast<int>(radii.size());
  if (num_spheres_ > 0) {
    const double tip_E = Positive(params, "contact_young_modulus");
    const double tip_nu = PoissonRatio(params, "contact_poisson_ratio");
    const double gamma = NonNegative(params, "contact_gamma");
    contact::AnchoredFrictionParams friction;
    friction.mu = NonNegative(params, "contact_mu");
    friction.stiffness = Positive(params, "contact_kt");
    friction.damping = NonNegative(params, "contact_ct");
    for (int j = 0; j < num_spheres_; ++j) {
      if (!(radii[j] > 0.0) || !std::isfinite(radii[j])) {
        throw BlockError("parameter 'contact_radius': entry " + std::to_string(j) + " is " +
                             FormatValue(radii[j]) + ", expected a radius > 0 (m)",
                         "contact_radius");
      }
      Partner partner{contact::Shape::Sphere(radii[j]), {}};
      for (int s = 0; s < ns; ++s) {
        // R = (1/R_tip + 1/R_object)^-1: the tip's own on a flat face.
        const double r = 1.0 / (1.0 / radii[j] + 1.0 / curvature_radius[s]);
        deformable::NodeContactLaw law;
        law.stiffness = contact::HertzStiffness(tip_E, tip_nu, E, nu, r);
        law.damping = contact::HertzDamping(gamma, r);
        law.friction = friction;
        partner.laws.push_back(law);
      }
      partners_.push_back(std::move(partner));
    }
  }
  const Eigen::VectorXd table = params.Vector("table");
  if (table.size() > 1 || (table.size() == 1 && !std::isfinite(table[0]))) {
    throw BlockError("parameter 'table' must be [] (none) or [z] (m), the table top's height",
                     "table");
  }
  has_table_ = table.size() == 1;
  if (has_table_) {
    deformable::NodeContactLaw law;
    law.stiffness = Positive(params, "table_stiffness");
    law.damping = NonNegative(params, "table_damping");
    law.exponent = 1.0;
    law.friction.mu = NonNegative(params, "table_mu");
    law.friction.stiffness = Positive(params, "contact_kt");
    law.friction.damping = NonNegative(params, "contact_ct");
    Partner partner{contact::Shape::Plane(), std::vector<deformable::NodeContactLaw>(ns, law)};
    table_height_ = table[0];
    partners_.push_back(std::move(partner));
  }
  // The anchors, 3 per surface node and partner, in the partner's frame.
  if (!partners_.empty()) DeclareDiscreteStates(3LL * ns * num_partners());
  if (num_spheres_ > 0) {
    DeclareInput("solids", kMotionWidth * num_spheres_);
    // The nodes follow a pressing tip within microseconds: the tips' states (a finger's
    // joints, a motion filter) belong in the solvers' Jacobian with the nodes'.
    DeclareStiffInputs();
  }

  DeclareOutput("positions", 3 * n);
  DeclareOutput("centroid", 3);
  DeclareOutput("volume", 1);
  DeclareOutput("elastic_energy", 1);
  DeclareOutput("kinetic_energy", 1);
  DeclareOutput("velocities", 3 * n);
  if (num_spheres_ > 0) {
    out_contact_force_ = DeclareOutput("contact_force", 3 * num_spheres_);
    out_contact_torque_ = DeclareOutput("contact_torque", 3 * num_spheres_);
    out_normal_force_ = DeclareOutput("contact_normal_force", num_spheres_);
    out_contact_nodes_ = DeclareOutput("contact_nodes", num_spheres_);
  }
  if (has_table_) out_table_force_ = DeclareOutput("table_force", 3);
  DeclareSampleTime(SampleTime::Continuous());
  DeclareContinuousStates(6 * n);
  DeclareStiffJacobian();
}

std::unique_ptr<BlockWorkspace> DeformableBody::DoMakeWorkspace() const {
  return std::make_unique<Scratch>(body_->num_nodes(), static_cast<int>(body_->springs().size()),
                                   static_cast<int>(surface_nodes_.size()) * num_partners(),
                                   num_partners());
}

void DeformableBody::DoInitialize(Context& c) const {
  const int n = body_->num_nodes();
  Eigen::Map<Eigen::VectorXd> s(x(c), 6 * n);
  s.head(3 * n) = x0_;
  s.tail(3 * n).setZero();
  // No anchor yet: a contact that is touching at the start sticks where it is at its first
  // major step.
  const int na = 3 * static_cast<int>(surface_nodes_.size()) * num_partners();
  std::fill(xd(c), xd(c) + na, std::numeric_limits<double>::quiet_NaN());
}

deformable::SolidMotion DeformableBody::PartnerMotion(const Context& c, int j) const {
  deformable::SolidMotion m;
  if (j >= num_spheres_) {  // the table: still, its top at z = table_height_
    m.X_WS.translation = Eigen::Vector3d(0.0, 0.0, table_height_);
    return m;
  }
  const double* u = in(c, 0) + kMotionWidth * j;
  m.X_WS.translation = Eigen::Vector3d(u[0], u[1], u[2]);
  for (int r = 0; r < 3; ++r) {
    for (int k = 0; k < 3; ++k) m.X_WS.rotation(r, k) = u[3 + 3 * r + k];
  }
  m.v_WSo = Eigen::Vector3d(u[12], u[13], u[14]);
  m.w_WS = Eigen::Vector3d(u[15], u[16], u[17]);
  return m;
}

void DeformableBody::CalcContacts(const Context& c, const Eigen::Ref<const Eigen::VectorXd>& pos,
                                  const Eigen::Ref<const Eigen::VectorXd>& vel, Scratch& ws) const {
  const int np = num_partners();
  ws.wrench.setZero();
  ws.normal_force.setZero();
  ws.touching.setZero();
  const double* anchors = xd(c);
  for (int j = 0; j < np; ++j) {
    const deformable::SolidMotion motion = PartnerMotion(c, j);
    const Partner& partner = partners_[j];
    for (int s = 0; s < static_cast<int>(surface_nodes_.size()); ++s) {
      const int i = surface_nodes_[s];
      const int pair = s * np + j;
      const Eigen::Vector3d p = pos.segment<3>(3 * i), v = vel.segment<3>(3 * i);
      Eigen::Vector3d anchor(anchors[3 * pair], anchors[3 * pair + 1], anchors[3 * pair + 2]);
      if (!anchor.allFinite()) {  // none yet: at the node itself
        anchor = motion.X_WS.rotation.transpose() * (p - motion.X_WS.translation);
      }
      deformable::NodeContact& contact = ws.contacts[pair];
      contact = deformable::CalcNodeContact(partner.laws[s], partner.shape, motion, p, v, anchor);
      if (!contact.touching || fixed_[i]) {
        contact.touching = contact.touching && !fixed_[i];
        continue;
      }
      ws.force.segment<3>(3 * i) += contact.force;
      // What the body exerts on the partner: the opposite, at the node.
      ws.wrench.col(j).head<3>() -= contact.force;
      ws.wrench.col(j).tail<3>() -= (p - motion.X_WS.translation).cross(contact.force);
      ws.normal_force[j] += contact.normal_force;
      ws.touching[j] += 1.0;
    }
  }
}

void DeformableBody::DoUpdate(Context& c) const {
  if (partners_.empty()) return;
  const int n = body_->num_nodes();
  Scratch& ws = workspace<Scratch>(c);
  const Eigen::Map<const Eigen::VectorXd> pos(x(c), 3 * n), vel(x(c) + 3 * n, 3 * n);
  ws.force.setZero();
  CalcContacts(c, pos, vel, ws);
  const int np = num_partners();
  double* anchors = xd(c);
  for (int j = 0; j < np; ++j) {
    const deformable::SolidMotion motion = PartnerMotion(c, j);
    for (int s = 0; s < static_cast<int>(surface_nodes_.size()); ++s) {
      const int pair = s * np + j;
      const Eigen::Vector3d p = pos.segment<3>(3 * surface_nodes_[s]);
      Eigen::Vector3d anchor(anchors[3 * pair], anchors[3 * pair + 1], anchors[3 * pair + 2]);
      if (!anchor.allFinite()) {
        anchor = motion.X_WS.rotation.transpose() * (p - motion.X_WS.translation);
      }
      const Eigen::Vector3d next =
          deformable::UpdateNodeAnchor(partners_[j].laws[s], motion, ws.contacts[pair], p, anchor);
      for (int a = 0; a < 3; ++a) anchors[3 * pair + a] = next[a];
    }
  }
}

void DeformableBody::DoCalcOutputs(Context& c, int stage) const {
  const int n = body_->num_nodes();
  const Eigen::Map<const Eigen::VectorXd> pos(x(c), 3 * n), vel(x(c) + 3 * n, 3 * n);
  std::copy(pos.data(), pos.data() + 3 * n, out(c, 0));
  // Centroid: the mass centre of the lumped masses.
  Eigen::Vector3d centre = Eigen::Vector3d::Zero();
  double kinetic = 0.0;
  for (int i = 0; i < n; ++i) {
    centre += body_->masses()[i] * pos.segment<3>(3 * i);
    kinetic += 0.5 * body_->masses()[i] * vel.segment<3>(3 * i).squaredNorm();
  }
  centre /= body_->total_mass();
  std::copy(centre.data(), centre.data() + 3, out(c, 1));
  double volume = 0.0;
  for (const auto& t : tets_) {
    volume +=
        std::abs(deformable::SignedVolume(pos.segment<3>(3 * t[0]), pos.segment<3>(3 * t[1]),
                                          pos.segment<3>(3 * t[2]), pos.segment<3>(3 * t[3])));
  }
  out(c, 2)[0] = volume;
  out(c, 3)[0] = body_->CalcElasticEnergy(pos);
  out(c, 4)[0] = kinetic;
  std::copy(vel.data(), vel.data() + 3 * n, out(c, 5));
  if (partners_.empty()) return;
  Scratch& ws = workspace<Scratch>(c);
  ws.force.setZero();
  CalcContacts(c, pos, vel, ws);
  for (int j = 0; j < num_spheres_; ++j) {
    for (int a = 0; a < 3; ++a) {
      out(c, out_contact_force_)[3 * j + a] = ws.wrench(a, j);
      out(c, out_contact_torque_)[3 * j + a] = ws.wrench(3 + a, j);
    }
    out(c, out_normal_force_)[j] = ws.normal_force[j];
    out(c, out_contact_nodes_)[j] = ws.touching[j];
  }
  if (has_table_) {
    for (int a = 0; a < 3; ++a) out(c, out_table_force_)[a] = ws.wrench(a, num_spheres_);
  }
}

void DeformableBody::DoCalcDerivatives(Context& c) const {
  const int n = body_->num_nodes();
  Scratch& ws = workspace<Scratch>(c);
  const Eigen::Map<const Eigen::VectorXd> pos(x(c), 3 * n), vel(x(c) + 3 * n, 3 * n);
  double* d = xdot(c);
  ws.force.setZero();
  body_->AddSpringForces(pos, vel, ws.force);
  if (!partners_.empty()) CalcContacts(c, pos, vel, ws);
  for (int i = 0; i < n; ++i) {
    for (int a = 0; a < 3; ++a) {
      d[3 * i + a] = fixed_[i] ? 0.0 : vel[3 * i + a];
      d[3 * n + 3 * i + a] = fixed_[i] ? 0.0 : ws.force[3 * i + a] * inverse_mass_[i] + gravity_[a];
    }
  }
}

void DeformableBody::DoCalcStiffJacobian(Context& c, Eigen::Ref<Eigen::MatrixXd> J) const {
  const int n = body_->num_nodes();
  Scratch& ws = workspace<Scratch>(c);
  const Eigen::Map<const Eigen::VectorXd> pos(x(c), 3 * n), vel(x(c) + 3 * n, 3 * n);
  ws.df_dx.clear();
  ws.df_dv.clear();
  body_->AddForceJacobians(pos, vel, &ws.df_dx, &ws.df_dv);
  for (int k = 0; k < 3 * n; ++k) {
    if (!fixed_[k / 3]) J(k, 3 * n + k) += 1.0;  // x' = v
  }
  for (const auto& t : ws.df_dx) {
    const int i = t.row() / 3;
    if (!fixed_[i]) J(3 * n + t.row(), t.col()) += t.value() * inverse_mass_[i];
  }
  for (const auto& t : ws.df_dv) {
    const int i = t.row() / 3;
    if (!fixed_[i]) J(3 * n + t.row(), 3 * n + t.col()) += t.value() * inverse_mass_[i];
  }
  if (partners_.empty()) return;
  // The contacts' slopes on each touching node's own 3 x 3 blocks.
  ws.force.setZero();
  CalcContacts(c, pos, vel, ws);
  const int np = num_partners();
  for (int s = 0; s < static_cast<int>(surface_nodes_.size()); ++s) {
    const int i = surface_nodes_[s];
    for (int j = 0; j < np; ++j) {
      const deformable::NodeContact& contact = ws.contacts[s * np + j];
      if (!contact.touching) continue;
      J.block<3, 3>(3 * n + 3 * i, 3 * i) += inverse_mass_[i] * contact.dforce_dposition;
      J.block<3, 3>(3 * n + 3 * i, 3 * n + 3 * i) += inverse_mass_[i] * contact.dforce_dvelocity;
    }
  }
}

bool DeformableBody::DoStiffJacobianStructure(std::vector<std::pair<int, int>>* entries) const {
  const int n = body_->num_nodes();
  for (int k = 0; k < 3 * n; ++k) entries->emplace_back(k, 3 * n + k);
  // Each surface node's own blocks, where its contacts' slopes go (its springs' too).
  for (const int i : surface_nodes_) {
    for (int a = 0; a < 3; ++a) {
      for (int b = 0; b < 3; ++b) {
        entries->emplace_back(3 * n + 3 * i + a, 3 * i + b);
        entries->emplace_back(3 * n + 3 * i + a, 3 * n + 3 * i + b);
      }
    }
  }
  // Each spring couples its two nodes' 3 x 3 blocks, in position and velocity.
  const auto block = [&](int r, int col) {
    for (int i = 0; i < 3; ++i) {
      for (int j = 0; j < 3; ++j) {
        entries->emplace_back(3 * n + 3 * r + i, 3 * col + j);
        entries->emplace_back(3 * n + 3 * r + i, 3 * n + 3 * col + j);
      }
    }
  };
  for (const deformable::Spring& s : body_->springs()) {
    block(s.a, s.a);
    block(s.a, s.b);
    block(s.b, s.a);
    block(s.b, s.b);
  }
  return true;
}

void DeformableBody::DoStiffInputRows(std::vector<int>* rows) const {
  const int n = body_->num_nodes();
  for (const int i : surface_nodes_) {
    for (int a = 0; a < 3; ++a) rows->push_back(3 * n + 3 * i + a);
  }
}

BlockType DeformableBodyType() {
  BlockType t;
  t.name = "DeformableBody";
  t.category = "Deformable";
  t.summary = "A deformable body: a mass-spring network on a tetrahedral mesh.";
  t.doc =
      "The primitive `shape` (sphere: size [radius]; box: [x, y, z]; cylinder along z: "
      "[radius, height]) is tetrahedralized by Gmsh at `element_size` and centred at "
      "`position` (world); shape = mesh fills the closed surface in `file` (STL or OBJ, m, "
      "moved by `position`; a surface that is not closed, or that Gmsh cannot fill, is one "
      "line). Node masses rho sum V_t / 4 over the node's tetrahedra; on every "
      "edge a spring and dashpot, f = k Delta + k3 Delta^3 + c Delta' along it, with k = E sum "
      "V_t / L0^2 over the edge's tetrahedra (the volume form of Van Gelder's rule), k3 = "
      "k3_factor k / L0^2 (spring = cubic; 0 for linear) and c = damping_time k. Each free "
      "node: m x'' = sum of its springs' forces + m g. Nodes in `fixed_nodes` stay where they "
      "start. `deformation` scales the initial positions about the centre per axis, the body "
      "at rest. States: positions (3n) then velocities (3n); the stiff Jacobian is given in "
      "closed form with its sparsity. Contacts (Zaidi et al. eq. 4-10): each surface node against "
      "each sphere of contact_radius, f_n = max(0, K delta^1.5 + C delta'), K = 2 Psi sqrt(R), "
      "Psi = 1/((1 - nu^2)/E + (1 - nu_s^2)/E_s), C = 4 pi R gamma, R = (1/R_s + 1/R_o)^-1 "
      "with R_o the object's curvature radius at the node (a sphere's radius, a cylinder's on "
      "its side, infinite on flat faces); against the table f_n = max(0, k delta + c delta'); "
      "friction by an anchored spring k_t, damper c_t while |f_t| <= mu f_n, else mu f_n "
      "against the slip, each anchor fixed in the partner's frame and updated at major steps.";
  t.reference =
      "Zaidi et al. 2020, \"Grasp Planning Pipeline for Robust Manipulation of 3D Deformable "
      "Objects with Industrial Robotic Hand + Arm Systems\", section 4; A. Van Gelder 1998, "
      "\"Approximate Simulation of Elastic Membranes by Triangulated Spring Meshes\"";
  t.params = {
      {"shape",
       ParamKind::kWord,
       "sphere",
       "a primitive, or mesh: the closed surface in `file`",
       {"sphere", "box", "cylinder", "mesh"}},
      {"file", ParamKind::kString, "", "shape = mesh: a closed STL or OBJ surface (m)"},
      {"size", ParamKind::kVector, "[]",
       "sphere [radius]; box [x, y, z]; cylinder [r, h] (m); not for a mesh"},
      {"element_size", ParamKind::kScalar, "", "the mesh's element size (m, > 0)", {}, true},
      {"young_modulus", ParamKind::kScalar, "", "E (Pa, > 0)", {}, true},
      {"poisson_ratio", ParamKind::kScalar, "0.39", "nu, in (-1, 0.5)"},
      {"density", ParamKind::kScalar, "100", "rho (kg/m^3, > 0)"},
      {"spring", ParamKind::kWord, "linear", "linear or cubic", {"linear", "cubic"}},
      {"k3_factor", ParamKind::kScalar, "80", "k3 = k3_factor k / L0^2 (spring = cubic)"},
      {"damping_time", ParamKind::kScalar, "1e-3", "c = damping_time k (s, >= 0)"},
      {"position", ParamKind::kVector, "[0, 0, 0]", "centre of the mesh in the world (m)"},
      {"deformation", ParamKind::kVector, "[1, 1, 1]", "initial stretch about the centre"},
      {"gravity", ParamKind::kVector, "[0, 0, -9.81]", "g (m/s^2)"},
      {"fixed_nodes", ParamKind::kVector, "[]", "node indices held where they start"},
      {"fixed_below", ParamKind::kVector, "[]",
       "[] or [z]: the nodes that start at or below height z are held too (m)"},
      {"contact_radius", ParamKind::kVector, "[]",
       "radii of the rigid spheres (fingertips) the surface touches, one per sphere (m); their "
       "motion on the input solids"},
      {"contact_young_modulus", ParamKind::kScalar, "70e9", "the spheres' E (Pa; aluminium)"},
      {"contact_poisson_ratio", ParamKind::kScalar, "0.33", "the spheres' nu"},
      {"contact_gamma", ParamKind::kScalar, "50", "gamma of C = 4 pi R gamma (N s/m^2)"},
      {"contact_mu", ParamKind::kScalar, "0.5", "friction coefficient against the spheres"},
      {"contact_kt", ParamKind::kScalar, "1e4", "k_t, the sticking spring (N/m)"},
      {"contact_ct", ParamKind::kScalar, "1", "c_t, the sticking damper (N s/m)"},
      {"table", ParamKind::kVector, "[]", "[] or [z]: a table top at height z (m)"},
      {"table_stiffness", ParamKind::kScalar, "1e4", "the table's k per node (N/m)"},
      {"table_damping", ParamKind::kScalar, "1", "the table's c per node (N s/m)"},
      {"table_mu", ParamKind::kScalar, "0.5", "friction coefficient on the table"}};
  t.inputs = {{"solids",
               "with contact_radius: per sphere its position (3), rotation (9, row by row), "
               "velocity (3) and angular velocity (3), world (a TransformSensor's outputs)"}};
  t.outputs = {{"positions", "node positions, 3n (m, world)"},
               {"centroid", "mass centre, 3 (m)"},
               {"volume", "sum of the tetrahedra's volumes (m^3)"},
               {"elastic_energy", "sum 1/2 k Delta^2 + 1/4 k3 Delta^4 (J)"},
               {"kinetic_energy", "sum 1/2 m v^2 (J)"},
               {"velocities", "node velocities, 3n (m/s, world)"},
               {"contact_force",
                "with contact_radius: the force the body exerts on each sphere, "
                "3 per sphere (N, world)"},
               {"contact_torque", "its torque about the sphere's centre, 3 per sphere (N m)"},
               {"contact_normal_force", "the sum of f_n over each sphere's nodes (N)"},
               {"contact_nodes", "the number of nodes touching each sphere"},
               {"table_force", "with a table: the force the body exerts on it (N, world)"}};
  t.create = [](const Params& p) { return std::make_unique<DeformableBody>(p); };
  return t;
}

}  // namespace twinblocks::blocks
