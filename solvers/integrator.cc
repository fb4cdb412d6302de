#include "solvers/integrator.h"

#include "solvers/detail/step_helpers.h"

namespace twinblocks::solvers {

void Integrator::StartAt(double t, const Eigen::Ref<const Eigen::VectorXd>& x) {
  internal::CheckStateSize(name(), x.size(), problem_->num_states());
  if (started_) ++stats_.resets;
  started_ = true;
  t_ = t;
  x_ = x;
}

}  // namespace twinblocks::solvers
