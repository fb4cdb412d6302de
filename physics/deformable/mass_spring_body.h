#pragma once

// A deformable body as a mass-spring network (Zaidi et al. 2020, "Grasp Planning Pipeline for
// Robust Manipulation of 3D Deformable Objects with Industrial Robotic Hand + Arm Systems",
// section 4): lumped masses at the nodes of a tetrahedral mesh, a spring with a dashpot on
// every edge. The model is immutable once built; the positions and velocities it is evaluated
// at belong to the caller (the simulation's state).
//
// Springs: f = k Delta + k3 Delta^3 + c Delta' along the edge, Delta = L - L0 its stretch.
// From a mesh and a material (FromTetMesh), per edge e:
//   k_e = E sum_t V_t / L_e^2   over the tetrahedra t that hold e,
// the volume form of the rule of Van Gelder 1998 ("Approximate Simulation of Elastic
// Membranes by Triangulated Spring Meshes", J. Graphics Tools 3(2)), which gives a triangle
// mesh of a membrane E times its area over L_e^2; optional cubic stiffening k3 = k3_factor
// k_e / L_e^2, and a dashpot c = damping_time k_e. Node masses rho sum_t V_t / 4.

#include <Eigen/Core>
#include <Eigen/SparseCore>
#include <array>
#include <vector>

namespace twinblocks::deformable {

/// A tetrahedral mesh: nodes (3 x n, m) and tetrahedra (4 node indices each).
struct TetMesh {
  Eigen::Matrix3Xd nodes;
  std::vector<std::array<int, 4>> tets;
};

/// The mesh's boundary: the faces that belong to one tetrahedron only, each ordered so that
/// its normal (b - a) x (c - a) points out of its tetrahedron. Sorted, so that the same mesh
/// gives the same list.
std::vector<std::array<int, 3>> BoundaryFaces(const TetMesh& mesh);

/// One spring-dashpot between nodes a and b.
struct Spring {
  int a = 0, b = 0;
  double rest_length = 0.0;  ///< L0, m
  double k = 0.0;            ///< N/m
  double k3 = 0.0;           ///< N/m^3, cubic stiffening (0: linear)
  double c = 0.0;            ///< N s/m
};

/// How FromTetMesh turns a material into springs and masses.
struct SpringRule {
  double young_modulus = 0.0;  ///< E, Pa (> 0)
  double density = 0.0;        ///< rho, kg/m^3 (> 0)
  double k3_factor = 0.0;      ///< k3 = k3_factor k / L0^2 (0: linear springs)
  double damping_time = 0.0;   ///< c = damping_time k, s
};

class MassSpringBody {
 public:
  /// A body from its parts: rest positions (3 x n), springs, node masses (n, kg).
  /// @throws std::invalid_argument naming the spring or node: an index out of range, a
  ///         spring joining a node to itself, a rest length, stiffness, damping or mass that
  ///         is negative or not finite (a mass may be 0 only on a fixed node), or sizes that
  ///         disagree.
  MassSpringBody(Eigen::Matrix3Xd rest, std::vector<Spring> springs, Eigen::VectorXd masses);

  /// The body of a tetrahedral mesh under `rule` (see the file comment).
  /// @throws std::invalid_argument naming the tetrahedron: a node index out of range or a
  ///         degenerate tetrahedron (no volume; either orientation is accepted), a node on no
  ///         tetrahedron, or E, rho not > 0 and finite.
  static MassSpringBody FromTetMesh(const TetMesh& mesh, const SpringRule& rule);

  int num_nodes() const { return static_cast<int>(rest_.cols()); }
  int num_springs() const { return static_cast<int>(springs_.size()); }
  const Eigen::Matrix3Xd& rest_positions() const { return rest_; }
  const std::vector<Spring>& springs() const { return springs_; }
  const Eigen::VectorXd& masses() const { return masses_; }
  double total_mass() const { return masses_.sum(); }

  /// The springs' forces on the nodes, f (3n), at positions x and velocities v (3n each,
  /// node-major: x[3 i + axis]). Adds into f.
  void AddSpringForces(const Eigen::Ref<const Eigen::VectorXd>& x,
                       const Eigen::Ref<const Eigen::VectorXd>& v,
                       Eigen::Ref<Eigen::VectorXd> f) const;

  /// Elastic energy sum 1/2 k Delta^2 + 1/4 k3 Delta^4 (J).
  double CalcElasticEnergy(const Eigen::Ref<const Eigen::VectorXd>& x) const;

  /// d f / d x and d f / d v of AddSpringForces (3n x 3n each), as triplets appended to the
  /// lists (duplicates sum when the matrix is built), in closed form.
  void AddForceJacobians(const Eigen::Ref<const Eigen::VectorXd>& x,
                         const Eigen::Ref<const Eigen::VectorXd>& v,
                         std::vector<Eigen::Triplet<double>>* df_dx,
                         std::vector<Eigen::Triplet<double>>* df_dv) const;

 private:
  Eigen::Matrix3Xd rest_;
  std::vector<Spring> springs_;
  Eigen::VectorXd masses_;
};

/// Static equilibrium: positions x (3n) where the springs' forces balance `external` (3n,
/// N) on every node not in `fixed` (node indices, held at their rest positions), by Newton's
/// method on the closed-form stiffness from `x` as the first guess. Returns the residual's
/// largest entry (N); at most `max_iterations` iterations.
/// @throws std::invalid_argument on sizes, or a fixed index out of range.
double SolveStatics(const MassSpringBody& body, const std::vector<int>& fixed,
                    const Eigen::Ref<const Eigen::VectorXd>& external, Eigen::VectorXd* x,
                    int max_iterations = 50);

/// The volume of a tetrahedron (m^3), signed: positive when (b - a, c - a, d - a) is
/// right-handed.
double SignedVolume(const Eigen::Vector3d& a, const Eigen::Vector3d& b, const Eigen::Vector3d& c,
                    const Eigen::Vector3d& d);

}  // namespace twinblocks::deformable
