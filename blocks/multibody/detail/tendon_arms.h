#pragma once

// The moment arms of a mechanism's tendons as its runs evaluate them: constant ones read from
// the model, configuration-dependent ones through a parser each (bound to storage of its own,
// so that evaluation allocates nothing and looks nothing up). One object per run (it lives in
// a workspace): copying one gives the copy parsers of its own, and assigning keeps them (the
// model, hence the functions, are the same).

#include <Eigen/Core>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "blocks/math_expression.h"
#include "blocks/multibody/mechanism_model.h"

namespace twinblocks::multibody::internal {

class TendonArms {
 public:
  TendonArms() = default;
  explicit TendonArms(const std::vector<MechanismTendon>& tendons);
  TendonArms(const TendonArms& other);
  TendonArms& operator=(const TendonArms& other);
  TendonArms(TendonArms&&) noexcept = default;
  TendonArms& operator=(TendonArms&&) noexcept = default;

  /// r_j(q_j) of tendon t's joint j at the joint's position q_j.
  double Arm(const MechanismTendon& t, int tendon, int j, double q_j) const;
  /// d r_j / d q_j there (zero for a constant arm).
  double ArmSlope(const MechanismTendon& t, int tendon, int j, double q_j) const;
  /// l(q) = sum_j integral_{q_rest_j}^{q_j} r_j, q the tree's coordinates.
  double Length(const MechanismTendon& t, int tendon,
                const Eigen::Ref<const Eigen::VectorXd>& q) const;

 private:
  struct Function {
    double q = 0.0;  ///< the variable the parser reads
    blocks::MathExpression expr;
  };
  void Parse();
  /// Per tendon, per joint: the expression's text ("" for a constant arm) and its parser.
  std::vector<std::vector<std::string>> texts_;
  std::vector<std::pair<std::string, double>> variables_;
  std::vector<std::vector<std::unique_ptr<Function>>> functions_;
};

}  // namespace twinblocks::multibody::internal
