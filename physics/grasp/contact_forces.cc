#include "physics/grasp/contact_forces.h"

#include <Eigen/QR>
#include <Eigen/SVD>
#include <algorithm>
#include <cmath>
#include <limits>
#include <stdexcept>
#include <string>

#include "physics/grasp/detail/linear_program.h"
#include "physics/grasp/detail/text.h"
#include "physics/grasp/friction_cone.h"

namespace twinblocks::grasp {
namespace {

constexpr double kInf = std::numeric_limits<double>::infinity();

void CheckGraspMatrix(const Eigen::MatrixXd& G) {
  if (G.rows() != 6 || G.cols() < 1 || !G.allFinite()) {
    throw std::invalid_argument("grasp: G is " + std::to_string(G.rows()) + " x " +
                                std::to_string(G.cols()) +
                                (G.allFinite() ? "" : " with non-finite entries") +
                                "; expected a finite 6 x m matrix, m >= 1");
  }
}

// nc, after checking that G has whole contacts of the model and w is finite.
int CheckForceProblem(const Eigen::MatrixXd& G, ContactModel model, const Wrench& w) {
  CheckGraspMatrix(G);
  const int c = NumContactComponents(model);
  if (G.cols() % c != 0 || G.cols() / c > kMaxContacts) {
    throw std::invalid_argument("grasp: G has " + std::to_string(G.cols()) + " columns; expected " +
                                std::to_string(c) + " per contact of this model, at most " +
                                std::to_string(kMaxContacts) + " contacts");
  }
  if (!w.allFinite()) {
    throw std::invalid_argument("grasp: wrench " + detail::VectorText(w) + " is not finite");
  }
  return static_cast<int>(G.cols() / c);
}

// Fills the margin and total normal force of a solution.
void Summarize(ContactModel model, const FrictionCone& cone, ContactForces* out) {
  const int c = NumContactComponents(model);
  out->margin = CalcFrictionMargin(out->f, model, cone);
  out->total_normal_force = 0.0;
  for (Eigen::Index i = 0; i < out->f.size(); i += c) {
    out->total_normal_force += out->f[i];
  }
}

std::string Reason(const detail::LinearProgramSolution& solution) {
  if (solution.status == detail::LinearProgramStatus::kInfeasible) {
    return "no contact forces of the allowed kind balance the wrench";
  }
  return "the linear program was not solved: " + solution.message;
}

}  // namespace

Eigen::MatrixXd CalcInternalForceBasis(const Eigen::MatrixXd& G) {
  CheckGraspMatrix(G);
  const Eigen::Index m = G.cols();
  const Eigen::JacobiSVD<Eigen::MatrixXd> svd(G, Eigen::ComputeFullV);
  const Eigen::VectorXd& s = svd.singularValues();
  const double tolerance = static_cast<double>(std::max<Eigen::Index>(6, m)) *
                           std::numeric_limits<double>::epsilon() * (s.size() > 0 ? s[0] : 0.0);
  Eigen::Index rank = 0;
  while (rank < s.size() && s[rank] > tolerance) {
    ++rank;
  }
  return svd.matrixV().rightCols(m - rank);
}

MinNormForces CalcMinNormForces(const Eigen::MatrixXd& G, const Wrench& w) {
  CheckGraspMatrix(G);
  if (!w.allFinite()) {
    throw std::invalid_argument("grasp: wrench " + detail::VectorText(w) + " is not finite");
  }
  MinNormForces out;
  const Eigen::CompleteOrthogonalDecomposition<Eigen::MatrixXd> cod(G);
  out.f = -cod.solve(w);
  out.residual = (G * out.f + w).norm();
  return out;
}

double CalcFrictionMargin(const Eigen::VectorXd& f, ContactModel model, const FrictionCone& cone) {
  const int c = NumContactComponents(model);
  if (f.size() == 0 || f.size() % c != 0) {
    throw std::invalid_argument("grasp: " + std::to_string(f.size()) +
                                " force components; expected a positive multiple of " +
                                std::to_string(c));
  }
  const Eigen::MatrixXd A = CalcConeFacets(model, cone);
  double margin = kInf;
  for (Eigen::Index i = 0; i < f.size(); i += c) {
    margin = std::min(margin, (A * f.segment(i, c)).minCoeff());
  }
  return margin;
}

ContactForces CalcLargestMarginForces(const Eigen::MatrixXd& G, ContactModel model,
                                      const FrictionCone& cone, const Wrench& w,
                                      double max_normal_force) {
  const int nc = CheckForceProblem(G, model, w);
  if (!std::isfinite(max_normal_force) || max_normal_force <= 0.0) {
    throw std::invalid_argument("grasp: largest normal force " +
                                detail::NumberText(max_normal_force) +
                                " N; expected a finite force > 0");
  }
  const Eigen::MatrixXd A = CalcConeFacets(model, cone);
  const int c = NumContactComponents(model);
  const int m = nc * c;
  const Eigen::Index facets = A.rows();
  // Columns: f (m), then d. Rows: G f = -w (6), then a f_i - d >= 0 per contact and facet.
  detail::LinearProgram lp;
  lp.maximize = true;
  lp.c = Eigen::VectorXd::Zero(m + 1);
  lp.c[m] = 1.0;
  lp.A = Eigen::MatrixXd::Zero(6 + nc * facets, m + 1);
  lp.A.topLeftCorner(6, m) = G;
  lp.row_lower.resize(lp.A.rows());
  lp.row_upper.resize(lp.A.rows());
  lp.row_lower.head<6>() = -w;
  lp.row_upper.head<6>() = -w;
  for (int i = 0; i < nc; ++i) {
    const Eigen::Index row = 6 + i * facets;
    lp.A.block(row, i * c, facets, c) = A;
    lp.A.block(row, m, facets, 1).setConstant(-1.0);
  }
  lp.row_lower.tail(nc * facets).setZero();
  lp.row_upper.tail(nc * facets).setConstant(kInf);
  lp.col_lower = Eigen::VectorXd::Constant(m + 1, -kInf);
  lp.col_upper = Eigen::VectorXd::Constant(m + 1, kInf);
  for (int i = 0; i < nc; ++i) {
    lp.col_upper[i * c] = max_normal_force;
  }
  const detail::LinearProgramSolution solution = detail::SolveLinearProgram(lp);
  ContactForces out;
  if (solution.status != detail::LinearProgramStatus::kOptimal) {
    out.message = Reason(solution) + " with normal forces at most " +
                  detail::NumberText(max_normal_force) + " N";
    return out;
  }
  out.f = solution.x.head(m);
  Summarize(model, cone, &out);
  out.feasible = solution.x[m] >= -1e-12 * (1.0 + max_normal_force);
  if (!out.feasible) {
    out.message =
        "no forces inside the friction cones balance the wrench with normal forces "
        "at most " +
        detail::NumberText(max_normal_force) + " N (the best margin is " +
        detail::NumberText(solution.x[m]) + ")";
  }
  return out;
}

ContactForces CalcLeastSqueezeForces(const Eigen::MatrixXd& G, ContactModel model,
                                     const FrictionCone& cone, const Wrench& w) {
  const int nc = CheckForceProblem(G, model, w);
  const Eigen::MatrixXd E = CalcConeGenerators(model, cone);
  const int c = NumContactComponents(model);
  const Eigen::Index g = E.cols();
  detail::LinearProgram lp;
  lp.c = Eigen::VectorXd::Ones(nc * g);
  lp.A.resize(6, nc * g);
  for (int i = 0; i < nc; ++i) {
    lp.A.middleCols(i * g, g).noalias() = G.middleCols(i * c, c) * E;
  }
  lp.row_lower = -w;
  lp.row_upper = -w;
  lp.col_lower = Eigen::VectorXd::Zero(nc * g);
  lp.col_upper = Eigen::VectorXd::Constant(nc * g, kInf);
  const detail::LinearProgramSolution solution = detail::SolveLinearProgram(lp);
  ContactForces out;
  if (solution.status != detail::LinearProgramStatus::kOptimal) {
    out.message = Reason(solution) + " inside the friction cones";
    return out;
  }
  out.f.resize(nc * c);
  for (int i = 0; i < nc; ++i) {
    out.f.segment(i * c, c).noalias() = E * solution.x.segment(i * g, g);
  }
  Summarize(model, cone, &out);
  out.feasible = true;
  return out;
}

}  // namespace twinblocks::grasp
