#include "blocks/multibody/detail/tendon_arms.h"

#include "physics/multibody/tendon.h"

namespace twinblocks::multibody::internal {

TendonArms::TendonArms(const std::vector<MechanismTendon>& tendons) {
  for (const MechanismTendon& t : tendons) {
    texts_.push_back(t.arm_expressions);
    if (variables_.empty()) variables_ = t.variables;
  }
  Parse();
}

TendonArms::TendonArms(const TendonArms& other)
    : texts_(other.texts_), variables_(other.variables_) {
  Parse();
}

TendonArms& TendonArms::operator=(const TendonArms& other) {
  if (texts_ != other.texts_) {
    texts_ = other.texts_;
    variables_ = other.variables_;
    Parse();
  }
  return *this;
}

void TendonArms::Parse() {
  functions_.clear();
  for (const std::vector<std::string>& tendon : texts_) {
    functions_.emplace_back();
    for (const std::string& text : tendon) {
      if (text.empty()) {
        functions_.back().push_back(nullptr);
        continue;
      }
      // Checked by the Tendon element at compile: these parse.
      auto f = std::make_unique<Function>();
      f->expr.DefineVariable("q", &f->q);
      for (const auto& [name, value] : variables_) {
        if (name != "q" && !blocks::MathExpression::IsReservedName(name)) {
          f->expr.DefineConstant(name, value);
        }
      }
      f->expr.SetExpression(text);
      functions_.back().push_back(std::move(f));
    }
  }
}

double TendonArms::Arm(const MechanismTendon& t, int tendon, int j, double q_j) const {
  Function* f = functions_[tendon][j].get();
  if (f == nullptr) return t.arms[j];
  f->q = q_j;
  return f->expr.Evaluate();
}

double TendonArms::ArmSlope(const MechanismTendon& t, int tendon, int j, double q_j) const {
  if (functions_[tendon][j] == nullptr) return 0.0;
  return CentralDerivative([&](double x) { return Arm(t, tendon, j, x); }, q_j);
}

double TendonArms::Length(const MechanismTendon& t, int tendon,
                          const Eigen::Ref<const Eigen::VectorXd>& q) const {
  double l = 0.0;
  for (size_t j = 0; j < t.joints.size(); ++j) {
    const double q_j = q[t.q_index[j]];
    if (functions_[tendon][j] == nullptr) {
      l += t.arms[j] * (q_j - t.q_rest[j]);
    } else {
      l += GaussLegendreIntegral([&](double x) { return Arm(t, tendon, static_cast<int>(j), x); },
                                 t.q_rest[j], q_j);
    }
  }
  return l;
}

}  // namespace twinblocks::multibody::internal
