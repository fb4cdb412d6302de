#include "physics/deformable/mass_spring_body.h"

#include <Eigen/SparseLU>
#include <algorithm>
#include <cmath>
#include <map>
#include <stdexcept>
#include <string>
#include <utility>

namespace twinblocks::deformable {

namespace {

bool FiniteNonNegative(double x) { return std::isfinite(x) && x >= 0.0; }

/// Adds the 3 x 3 block B at (3 r, 3 c) and its pattern into `out`.
void AddBlock(std::vector<Eigen::Triplet<double>>* out, int r, int c, const Eigen::Matrix3d& B,
              double sign) {
  for (int i = 0; i < 3; ++i) {
    for (int j = 0; j < 3; ++j) out->emplace_back(3 * r + i, 3 * c + j, sign * B(i, j));
  }
}

}  // namespace

std::vector<std::array<int, 3>> BoundaryFaces(const TetMesh& mesh) {
  // Each face by its sorted nodes, with the tetrahedron's fourth node; a face seen twice is
  // inside.
  struct Face {
    std::array<int, 3> sorted;
    std::array<int, 3> nodes;
    int opposite;
  };
  std::vector<Face> faces;
  faces.reserve(4 * mesh.tets.size());
  for (const auto& t : mesh.tets) {
    for (int k = 0; k < 4; ++k) {
      Face f{{t[(k + 1) % 4], t[(k + 2) % 4], t[(k + 3) % 4]}, {}, t[k]};
      f.nodes = f.sorted;
      std::sort(f.sorted.begin(), f.sorted.end());
      faces.push_back(f);
    }
  }
  std::sort(faces.begin(), faces.end(),
            [](const Face& a, const Face& b) { return a.sorted < b.sorted; });
  std::vector<std::array<int, 3>> boundary;
  for (size_t i = 0; i < faces.size();) {
    size_t j = i + 1;
    while (j < faces.size() && faces[j].sorted == faces[i].sorted) ++j;
    if (j == i + 1) {
      std::array<int, 3> f = faces[i].nodes;
      const Eigen::Vector3d a = mesh.nodes.col(f[0]), b = mesh.nodes.col(f[1]),
                            c = mesh.nodes.col(f[2]), d = mesh.nodes.col(faces[i].opposite);
      if ((b - a).cross(c - a).dot(d - a) > 0.0) std::swap(f[1], f[2]);  // away from d
      boundary.push_back(f);
    }
    i = j;
  }
  return boundary;
}

double SignedVolume(const Eigen::Vector3d& a, const Eigen::Vector3d& b, const Eigen::Vector3d& c,
                    const Eigen::Vector3d& d) {
  return (b - a).dot((c - a).cross(d - a)) / 6.0;
}

MassSpringBody::MassSpringBody(Eigen::Matrix3Xd rest, std::vector<Spring> springs,
                               Eigen::VectorXd masses)
    : rest_(std::move(rest)), springs_(std::move(springs)), masses_(std::move(masses)) {
  const int n = num_nodes();
  if (masses_.size() != n) {
    throw std::invalid_argument("deformable body: " + std::to_string(masses_.size()) +
                                " masses for " + std::to_string(n) + " nodes");
  }
  if (!rest_.allFinite()) throw std::invalid_argument("deformable body: a node is not finite");
  for (int i = 0; i < n; ++i) {
    if (!FiniteNonNegative(masses_[i])) {
      throw std::invalid_argument("deformable body: node " + std::to_string(i) + " has mass " +
                                  std::to_string(masses_[i]) + "; expected finite and >= 0");
    }
  }
  for (size_t s = 0; s < springs_.size(); ++s) {
    const Spring& sp = springs_[s];
    const std::string name = "deformable body: spring " + std::to_string(s);
    if (sp.a < 0 || sp.a >= n || sp.b < 0 || sp.b >= n || sp.a == sp.b) {
      throw std::invalid_argument(name + " joins nodes " + std::to_string(sp.a) + " and " +
                                  std::to_string(sp.b) + "; expected two nodes of 0.." +
                                  std::to_string(n - 1));
    }
    if (!FiniteNonNegative(sp.rest_length) || !FiniteNonNegative(sp.k) ||
        !FiniteNonNegative(sp.k3) || !FiniteNonNegative(sp.c)) {
      throw std::invalid_argument(name + ": rest length, k, k3 and c must be finite and >= 0");
    }
  }
}

MassSpringBody MassSpringBody::FromTetMesh(const TetMesh& mesh, const SpringRule& rule) {
  if (!(rule.young_modulus > 0.0) || !std::isfinite(rule.young_modulus) || !(rule.density > 0.0) ||
      !std::isfinite(rule.density)) {
    throw std::invalid_argument("deformable body: Young's modulus and density must be > 0");
  }
  if (!FiniteNonNegative(rule.k3_factor) || !FiniteNonNegative(rule.damping_time)) {
    throw std::invalid_argument("deformable body: k3_factor and damping_time must be >= 0");
  }
  const int n = static_cast<int>(mesh.nodes.cols());
  Eigen::VectorXd masses = Eigen::VectorXd::Zero(n);
  std::map<std::pair<int, int>, double> edge_volume;  // sum of V_t over the edge's tets
  for (size_t t = 0; t < mesh.tets.size(); ++t) {
    const std::array<int, 4>& tet = mesh.tets[t];
    for (int i : tet) {
      if (i < 0 || i >= n) {
        throw std::invalid_argument("deformable body: tetrahedron " + std::to_string(t) +
                                    " names node " + std::to_string(i) + "; the mesh has 0.." +
                                    std::to_string(n - 1));
      }
    }
    const double volume = std::abs(SignedVolume(mesh.nodes.col(tet[0]), mesh.nodes.col(tet[1]),
                                                mesh.nodes.col(tet[2]), mesh.nodes.col(tet[3])));
    if (!(volume > 0.0)) {
      throw std::invalid_argument("deformable body: tetrahedron " + std::to_string(t) +
                                  " has no volume (its four nodes are coplanar)");
    }
    for (int i = 0; i < 4; ++i) {
      masses[tet[i]] += rule.density * volume / 4.0;
      for (int j = i + 1; j < 4; ++j) {
        edge_volume[{std::min(tet[i], tet[j]), std::max(tet[i], tet[j])}] += volume;
      }
    }
  }
  for (int i = 0; i < n; ++i) {
    if (masses[i] == 0.0) {
      throw std::invalid_argument("deformable body: node " + std::to_string(i) +
                                  " is on no tetrahedron");
    }
  }
  std::vector<Spring> springs;
  springs.reserve(edge_volume.size());
  for (const auto& [edge, volume] : edge_volume) {
    Spring s;
    s.a = edge.first;
    s.b = edge.second;
    s.rest_length = (mesh.nodes.col(s.b) - mesh.nodes.col(s.a)).norm();
    s.k = rule.young_modulus * volume / (s.rest_length * s.rest_length);
    s.k3 = rule.k3_factor * s.k / (s.rest_length * s.rest_length);
    s.c = rule.damping_time * s.k;
    springs.push_back(s);
  }
  return MassSpringBody(mesh.nodes, std::move(springs), std::move(masses));
}

void MassSpringBody::AddSpringForces(const Eigen::Ref<const Eigen::VectorXd>& x,
                                     const Eigen::Ref<const Eigen::VectorXd>& v,
                                     Eigen::Ref<Eigen::VectorXd> f) const {
  for (const Spring& s : springs_) {
    const Eigen::Vector3d d = x.segment<3>(3 * s.b) - x.segment<3>(3 * s.a);
    const double L = d.norm();
    if (!(L > 0.0)) continue;  // coincident nodes: no direction to push along
    const Eigen::Vector3d u = d / L;
    const double stretch = L - s.rest_length;
    const double rate = u.dot(v.segment<3>(3 * s.b) - v.segment<3>(3 * s.a));
    // Tension pulls a towards b.
    const Eigen::Vector3d fa =
        (s.k * stretch + s.k3 * stretch * stretch * stretch + s.c * rate) * u;
    f.segment<3>(3 * s.a) += fa;
    f.segment<3>(3 * s.b) -= fa;
  }
}

double MassSpringBody::CalcElasticEnergy(const Eigen::Ref<const Eigen::VectorXd>& x) const {
  double energy = 0.0;
  for (const Spring& s : springs_) {
    const double stretch = (x.segment<3>(3 * s.b) - x.segment<3>(3 * s.a)).norm() - s.rest_length;
    const double d2 = stretch * stretch;
    energy += 0.5 * s.k * d2 + 0.25 * s.k3 * d2 * d2;
  }
  return energy;
}

void MassSpringBody::AddForceJacobians(const Eigen::Ref<const Eigen::VectorXd>& x,
                                       const Eigen::Ref<const Eigen::VectorXd>& v,
                                       std::vector<Eigen::Triplet<double>>* df_dx,
                                       std::vector<Eigen::Triplet<double>>* df_dv) const {
  for (const Spring& s : springs_) {
    const Eigen::Vector3d d = x.segment<3>(3 * s.b) - x.segment<3>(3 * s.a);
    const double L = d.norm();
    if (!(L > 0.0)) continue;
    const Eigen::Vector3d u = d / L;
    const Eigen::Vector3d v_ab = v.segment<3>(3 * s.b) - v.segment<3>(3 * s.a);
    const double stretch = L - s.rest_length;
    const double rate = u.dot(v_ab);
    const double tension = s.k * stretch + s.k3 * stretch * stretch * stretch + s.c * rate;
    const Eigen::Matrix3d P = Eigen::Matrix3d::Identity() - u * u.transpose();
    // f_a = tension u; d/dx_b: u (d tension/dx_b)^T + tension (I - u u^T) / L, with
    // d tension/dx_b = (k + 3 k3 stretch^2) u + c (I - u u^T) v_ab / L.
    const Eigen::Vector3d dtension =
        (s.k + 3.0 * s.k3 * stretch * stretch) * u + s.c * (P * v_ab) / L;
    const Eigen::Matrix3d K = u * dtension.transpose() + (tension / L) * P;
    // f_a depends on x_b - x_a: +K for x_b, -K for x_a; f_b = -f_a the opposite.
    AddBlock(df_dx, s.a, s.b, K, 1.0);
    AddBlock(df_dx, s.a, s.a, K, -1.0);
    AddBlock(df_dx, s.b, s.b, K, -1.0);
    AddBlock(df_dx, s.b, s.a, K, 1.0);
    if (df_dv != nullptr && s.c != 0.0) {
      const Eigen::Matrix3d C = s.c * u * u.transpose();
      AddBlock(df_dv, s.a, s.b, C, 1.0);
      AddBlock(df_dv, s.a, s.a, C, -1.0);
      AddBlock(df_dv, s.b, s.b, C, -1.0);
      AddBlock(df_dv, s.b, s.a, C, 1.0);
    }
  }
}

double SolveStatics(const MassSpringBody& body, const std::vector<int>& fixed,
                    const Eigen::Ref<const Eigen::VectorXd>& external, Eigen::VectorXd* x,
                    int max_iterations) {
  const int n = body.num_nodes();
  if (external.size() != 3 * n || x->size() != 3 * n) {
    throw std::invalid_argument("SolveStatics: external and x need 3n = " + std::to_string(3 * n) +
                                " entries");
  }
  // Free coordinates: the index of each in the reduced system, -1 when fixed.
  std::vector<int> index(3 * n, 0);
  for (int i : fixed) {
    if (i < 0 || i >= n) throw std::invalid_argument("SolveStatics: fixed node out of range");
    for (int a = 0; a < 3; ++a) {
      index[3 * i + a] = -1;
      (*x)[3 * i + a] = body.rest_positions()(a, i);
    }
  }
  int m = 0;
  for (int& k : index) {
    if (k >= 0) k = m++;
  }
  const Eigen::VectorXd zero = Eigen::VectorXd::Zero(3 * n);
  Eigen::VectorXd f(3 * n), r(m);
  std::vector<Eigen::Triplet<double>> triplets, reduced;
  double residual = 0.0;
  for (int it = 0; it <= max_iterations; ++it) {
    f = external;
    body.AddSpringForces(*x, zero, f);
    for (int k = 0; k < 3 * n; ++k) {
      if (index[k] >= 0) r[index[k]] = f[k];
    }
    residual = m > 0 ? r.cwiseAbs().maxCoeff() : 0.0;
    if (it == max_iterations || residual <= 1e-14 * (1.0 + external.cwiseAbs().maxCoeff())) {
      break;
    }
    triplets.clear();
    body.AddForceJacobians(*x, zero, &triplets, nullptr);
    reduced.clear();
    for (const auto& t : triplets) {
      if (index[t.row()] >= 0 && index[t.col()] >= 0) {
        reduced.emplace_back(index[t.row()], index[t.col()], t.value());
      }
    }
    // A slack direction (a hanging chain sideways, a spring at its rest length across) has no
    // stiffness: a tiny diagonal keeps the step defined there, and zero where no force acts.
    double scale = 0.0;
    for (const auto& t : reduced) scale = std::max(scale, std::abs(t.value()));
    for (int k = 0; k < m; ++k) reduced.emplace_back(k, k, -1e-12 * scale);
    Eigen::SparseMatrix<double> K(m, m);
    K.setFromTriplets(reduced.begin(), reduced.end());
    Eigen::SparseLU<Eigen::SparseMatrix<double>> lu;
    lu.compute(K);
    if (lu.info() != Eigen::Success) break;  // singular: a node held by nothing
    // f(x + dx) = f + K dx = 0.
    const Eigen::VectorXd dx = lu.solve(-r);
    for (int k = 0; k < 3 * n; ++k) {
      if (index[k] >= 0) (*x)[k] += dx[index[k]];
    }
  }
  return residual;
}

}  // namespace twinblocks::deformable
