#include "blocks/signal/pid_2dof.h"

#include <memory>
#include <string>
#include <utility>

#include "blocks/signal/pid.h"

namespace twinblocks::blocks {

BlockType Pid2DofType() {
  BlockType t = PidType();
  t.name = "PID2DOF";
  t.summary = "Continuous two-degree-of-freedom PID: set-point weights on P and D.";
  t.doc =
      "u = Kp (b r - y) + Ki xi + Kd N (c r - y - f), with xi' = r - y (the integral) and f' "
      "= N (c r - y - f) (the derivative filter), both zero at the start: the PID of e = r - "
      "y whose proportional and derivative terms see the reference weighted by b and c. b = "
      "c = 1 is the PID of r - y; b = 0 (and c = 0) gives no proportional (derivative) kick "
      "on a step of r, while the integral still removes the steady error. Element-wise; r "
      "and y have one width or one of them is a scalar. y is direct feedthrough unless Kp = "
      "Kd = 0, r only when Kp b != 0 or Kd c != 0. Continuous sample time.\n" +
      PidLimitsDoc();
  t.reference =
      "Simulink PID Controller (2DOF) (continuous, parallel form, filter coefficient N, "
      "set-point weights b and c; output saturation with anti-windup clamping or "
      "back-calculation)";
  t.params.push_back({"b", ParamKind::kScalar, "1", "set-point weight of the proportional term"});
  t.params.push_back({"c", ParamKind::kScalar, "1", "set-point weight of the derivative term"});
  t.inputs = {{"r", "reference, scalar or the width of y"},
              {"y", "measured output, scalar or the width of r"}};
  t.outputs = {{"u", "control signal, the common width of r and y"}};
  t.create = [](const Params& p) { return std::make_unique<Pid>(p, /*two_dof=*/true); };
  return t;
}

}  // namespace twinblocks::blocks
