#include "physics/grasp/detail/linear_program.h"

#include <glpk.h>

#include <cmath>
#include <memory>
#include <vector>

namespace twinblocks::grasp::detail {
namespace {

struct GlpProbDeleter {
  void operator()(glp_prob* p) const { glp_delete_prob(p); }
};

int BoundType(double lower, double upper) {
  const bool has_lower = std::isfinite(lower);
  const bool has_upper = std::isfinite(upper);
  if (has_lower && has_upper) {
    return lower == upper ? GLP_FX : GLP_DB;
  }
  return has_lower ? GLP_LO : (has_upper ? GLP_UP : GLP_FR);
}

double Finite(double x) { return std::isfinite(x) ? x : 0.0; }

}  // namespace

LinearProgramSolution SolveLinearProgram(const LinearProgram& lp) {
  const int rows = static_cast<int>(lp.A.rows());
  const int cols = static_cast<int>(lp.A.cols());
  LinearProgramSolution out;
  if (lp.c.size() != cols || lp.row_lower.size() != rows || lp.row_upper.size() != rows ||
      lp.col_lower.size() != cols || lp.col_upper.size() != cols || rows == 0 || cols == 0) {
    out.message = "linear program with inconsistent sizes";
    return out;
  }
  glp_term_out(GLP_OFF);
  const std::unique_ptr<glp_prob, GlpProbDeleter> owner(glp_create_prob());
  glp_prob* P = owner.get();
  glp_set_obj_dir(P, lp.maximize ? GLP_MAX : GLP_MIN);
  glp_add_rows(P, rows);
  glp_add_cols(P, cols);
  for (int i = 0; i < rows; ++i) {
    glp_set_row_bnds(P, i + 1, BoundType(lp.row_lower[i], lp.row_upper[i]), Finite(lp.row_lower[i]),
                     Finite(lp.row_upper[i]));
  }
  for (int j = 0; j < cols; ++j) {
    glp_set_col_bnds(P, j + 1, BoundType(lp.col_lower[j], lp.col_upper[j]), Finite(lp.col_lower[j]),
                     Finite(lp.col_upper[j]));
    glp_set_obj_coef(P, j + 1, lp.c[j]);
  }
  // GLPK's arrays are 1-based: entry 0 is unused.
  std::vector<int> ia(1), ja(1);
  std::vector<double> ar(1);
  for (int j = 0; j < cols; ++j) {
    for (int i = 0; i < rows; ++i) {
      if (lp.A(i, j) != 0.0) {
        ia.push_back(i + 1);
        ja.push_back(j + 1);
        ar.push_back(lp.A(i, j));
      }
    }
  }
  glp_load_matrix(P, static_cast<int>(ia.size()) - 1, ia.data(), ja.data(), ar.data());

  glp_smcp parm;
  glp_init_smcp(&parm);
  parm.msg_lev = GLP_MSG_OFF;
  parm.it_lim = 100000;
  parm.tm_lim = 10000;
  glp_adv_basis(P, 0);
  const int code = glp_simplex(P, &parm);
  if (code != 0) {
    out.message = "GLPK's simplex stopped with code " + std::to_string(code);
    return out;
  }
  switch (glp_get_status(P)) {
    case GLP_OPT:
      break;
    case GLP_NOFEAS:
      out.status = LinearProgramStatus::kInfeasible;
      out.message = "no point satisfies the constraints";
      return out;
    case GLP_UNBND:
      out.status = LinearProgramStatus::kUnbounded;
      out.message = "the objective is unbounded";
      return out;
    default:
      out.message = "GLPK's simplex ended with status " + std::to_string(glp_get_status(P));
      return out;
  }
  out.status = LinearProgramStatus::kOptimal;
  out.x.resize(cols);
  for (int j = 0; j < cols; ++j) {
    out.x[j] = glp_get_col_prim(P, j + 1);
  }
  out.objective = glp_get_obj_val(P);
  return out;
}

}  // namespace twinblocks::grasp::detail
