#include "compiler/robot_model.h"

#include "blocks/robotics/numerical_inverse_kinematics.h"
#include "compiler/compile.h"

namespace twinblocks::graph {

multibody::RobotModel CompileRobotModel(const Model& model, const std::string& robot,
                                        const std::string& frame) {
  Model probe = model;
  // Names the model cannot already use at its top level.
  std::string ik = "robot_model_probe", target = "robot_model_probe_target";
  for (int k = 1; probe.root.Find(ik) != nullptr || probe.root.Find(target) != nullptr; ++k) {
    ik = "robot_model_probe" + std::to_string(k);
    target = ik + "_target";
  }
  probe.AddBlock("", "Constant", target, {{"value", "[0, 0, 0]"}});
  probe.AddBlock("", "NumericalInverseKinematics", ik,
                 {{"robot", robot}, {"frame", frame}, {"target", "position"}});
  probe.Connect("", target + ".y", ik + ".position");
  const System system = Compile(probe);
  const int index = system.FindBlock(ik);
  const auto& block = dynamic_cast<const blocks::NumericalInverseKinematics&>(system.block(index));
  return block.robot();
}

}  // namespace twinblocks::graph
