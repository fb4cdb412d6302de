#include "blocks/discrete/discrete_pid_2dof.h"

#include <memory>

#include "blocks/discrete/discrete_pid.h"

namespace twinblocks::blocks {

BlockType DiscretePid2DofType() {
  BlockType t = DiscretePidType();
  t.name = "DiscretePID2DOF";
  t.summary = "Discrete two-degree-of-freedom PID: set-point weights on P and D.";
  t.doc =
      "The DiscretePID of e = r - y whose proportional and derivative terms see the reference "
      "weighted: with the defaults, u[k] = Kp (b r[k] - y[k]) + I[k] + Kd (d[k] - d[k-1]) / "
      "Ts with d = c r - y, and I[k+1] = I[k] + Ki Ts (r[k] - y[k]); I[0] = 0, d[-1] = 0. b "
      "= c = 1 is the DiscretePID of r - y; b = 0 (and c = 0) gives no proportional "
      "(derivative) kick on a step of r, while the integral still removes the steady error. "
      "Element-wise; r and y have one width or one of them is a scalar.\n" +
      DiscretePidOptionsDoc();
  t.reference =
      "Simulink Discrete PID Controller (2DOF) (parallel form, set-point weights b and c; "
      "integrator and filter methods; output saturation with anti-windup clamping or "
      "back-calculation). Differs: the default derivative is unfiltered (N = inf, "
      "filter_method = backward-euler).";
  t.params.push_back({"b", ParamKind::kScalar, "1", "set-point weight of the proportional term"});
  t.params.push_back({"c", ParamKind::kScalar, "1", "set-point weight of the derivative term"});
  t.inputs = {{"r", "reference, scalar or the width of y"},
              {"y", "measured output, scalar or the width of r"}};
  t.outputs = {{"u", "control signal, the common width of r and y"}};
  t.create = [](const Params& p) { return std::make_unique<DiscretePid>(p, /*two_dof=*/true); };
  return t;
}

}  // namespace twinblocks::blocks
