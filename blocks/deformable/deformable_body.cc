#include "blocks/deformable/deformable_body.h"

#include <cmath>
#include <string>

#include "common/format_value.h"
#include "physics/deformable/tet_mesher.h"

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

Eigen::Vector3d Vector3(const Params& p, const char* name) {
  const Eigen::VectorXd v = p.Vector(name);
  if (v.size() != 3 || !v.allFinite()) {
    throw BlockError(std::string("parameter '") + name + "' must be 3 finite values", name);
  }
  return v;
}

}  // namespace

struct DeformableBody::Scratch final : BlockWorkspace {
  explicit Scratch(int n) : force(3 * n) {}
  Eigen::VectorXd force;  ///< (3n)
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
  const double nu = params.Scalar("poisson_ratio");
  if (!(nu > -1.0 && nu < 0.5)) {
    throw BlockError("parameter 'poisson_ratio' must be in (-1, 0.5), got " + FormatValue(nu),
                     "poisson_ratio");
  }
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
  const int needed = shape == "sphere" ? 1 : (shape == "cylinder" ? 2 : 3);
  if (size.size() != needed || !size.allFinite() || (size.array() <= 0.0).any()) {
    throw BlockError("parameter 'size' of a " + shape + " must be " +
                         (needed == 1   ? "[radius]"
                          : needed == 2 ? "[radius, height]"
                                        : "[x, y, z] edges") +
                         ", > 0 (m)",
                     "size");
  }
  Eigen::Vector3d dims = Eigen::Vector3d::Zero();
  dims.head(needed) = size;
  deformable::TetMesh mesh;
  try {
    const deformable::Primitive primitive = shape == "sphere" ? deformable::Primitive::kSphere
                                            : shape == "box"  ? deformable::Primitive::kBox
                                                              : deformable::Primitive::kCylinder;
    mesh = deformable::MeshPrimitive(primitive, dims, element_size);
    body_ = std::make_shared<const deformable::MassSpringBody>(
        deformable::MassSpringBody::FromTetMesh(mesh, rule));
  } catch (const std::exception& e) {
    throw BlockError(e.what(), "size");
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
  inverse_mass_.resize(n);
  for (int i = 0; i < n; ++i) inverse_mass_[i] = fixed_[i] ? 0.0 : 1.0 / body_->masses()[i];
  DeclareOutput("positions", 3 * n);
  DeclareOutput("centroid", 3);
  DeclareOutput("volume", 1);
  DeclareOutput("elastic_energy", 1);
  DeclareOutput("kinetic_energy", 1);
  DeclareSampleTime(SampleTime::Continuous());
  DeclareContinuousStates(6 * n);
  DeclareStiffJacobian();
}

std::unique_ptr<BlockWorkspace> DeformableBody::DoMakeWorkspace() const {
  return std::make_unique<Scratch>(body_->num_nodes());
}

void DeformableBody::DoInitialize(Context& c) const {
  const int n = body_->num_nodes();
  Eigen::Map<Eigen::VectorXd> s(x(c), 6 * n);
  s.head(3 * n) = x0_;
  s.tail(3 * n).setZero();
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
}

void DeformableBody::DoCalcDerivatives(Context& c) const {
  const int n = body_->num_nodes();
  Scratch& ws = workspace<Scratch>(c);
  const Eigen::Map<const Eigen::VectorXd> pos(x(c), 3 * n), vel(x(c) + 3 * n, 3 * n);
  double* d = xdot(c);
  ws.force.setZero();
  body_->AddSpringForces(pos, vel, ws.force);
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
}

bool DeformableBody::DoStiffJacobianStructure(std::vector<std::pair<int, int>>* entries) const {
  const int n = body_->num_nodes();
  for (int k = 0; k < 3 * n; ++k) entries->emplace_back(k, 3 * n + k);
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

BlockType DeformableBodyType() {
  BlockType t;
  t.name = "DeformableBody";
  t.category = "Deformable";
  t.summary = "A deformable body: a mass-spring network on a tetrahedral mesh.";
  t.doc =
      "The primitive `shape` (sphere: size [radius]; box: [x, y, z]; cylinder along z: "
      "[radius, height]) is tetrahedralized by Gmsh at `element_size` and centred at "
      "`position` (world). Node masses rho sum V_t / 4 over the node's tetrahedra; on every "
      "edge a spring and dashpot, f = k Delta + k3 Delta^3 + c Delta' along it, with k = E sum "
      "V_t / L0^2 over the edge's tetrahedra (the volume form of Van Gelder's rule), k3 = "
      "k3_factor k / L0^2 (spring = cubic; 0 for linear) and c = damping_time k. Each free "
      "node: m x'' = sum of its springs' forces + m g. Nodes in `fixed_nodes` stay where they "
      "start. `deformation` scales the initial positions about the centre per axis, the body "
      "at rest. States: positions (3n) then velocities (3n); the stiff Jacobian is given in "
      "closed form with its sparsity. poisson_ratio is the contact's (Hertz), checked here.";
  t.reference =
      "Zaidi et al. 2020, \"Grasp Planning Pipeline for Robust Manipulation of 3D Deformable "
      "Objects with Industrial Robotic Hand + Arm Systems\", section 4; A. Van Gelder 1998, "
      "\"Approximate Simulation of Elastic Membranes by Triangulated Spring Meshes\"";
  t.params = {
      {"shape", ParamKind::kWord, "sphere", "the primitive", {"sphere", "box", "cylinder"}},
      {"size",
       ParamKind::kVector,
       "",
       "sphere [radius]; box [x, y, z]; cylinder [r, h] (m)",
       {},
       true},
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
      {"fixed_nodes", ParamKind::kVector, "[]", "node indices held where they start"}};
  t.outputs = {{"positions", "node positions, 3n (m, world)"},
               {"centroid", "mass centre, 3 (m)"},
               {"volume", "sum of the tetrahedra's volumes (m^3)"},
               {"elastic_energy", "sum 1/2 k Delta^2 + 1/4 k3 Delta^4 (J)"},
               {"kinetic_energy", "sum 1/2 m v^2 (J)"}};
  t.create = [](const Params& p) { return std::make_unique<DeformableBody>(p); };
  return t;
}

}  // namespace twinblocks::blocks
