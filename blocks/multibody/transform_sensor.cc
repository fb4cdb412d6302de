#include "blocks/multibody/transform_sensor.h"

#include <memory>
#include <string>
#include <vector>

#include "blocks/multibody/detail/frame_params.h"
#include "blocks/multibody/mechanism_builder.h"

namespace twinblocks::multibody {

using blocks::BlockError;
using blocks::BlockType;
using blocks::ParamKind;
using blocks::Params;
using namespace internal;

TransformSensorElement::TransformSensorElement(const Params&) {
  FramePort("B");
  FramePort("F");
  out_position = DeclareOutput("position", 3, 0);
  out_rotation = DeclareOutput("rotation", 9, 0);
  out_v = DeclareOutput("v", 3, 0);
  out_w = DeclareOutput("w", 3, 0);
  out_euler = DeclareOutput("euler_zyx", 3, 0);
}

BlockType TransformSensorType() {
  BlockType t = internal::MultibodyType("TransformSensor", "Pose and velocity of F relative to B.");
  t.doc =
      "position p_BF and rotation R_BF (3x3, rows) of F in B; v = dp/dt as seen in B; w = "
      "angular velocity of F relative to B, in B; euler_zyx = [z, y, x] angles with R = Rz Ry "
      "Rx. A sensor adds no force.";
  t.reference = "Simscape Multibody Transform Sensor (measurement frame: base)";
  t.outputs = {{"position", "3, m"},
               {"rotation", "9: R_BF row-major"},
               {"v", "3, m/s, in B"},
               {"w", "3, rad/s, in B"},
               {"euler_zyx", "3: z, y, x angles, rad"}};
  t.physical_ports = internal::BaseFollowerPorts();
  t.create = [](const Params& p) { return std::make_unique<TransformSensorElement>(p); };
  return t;
}

void TransformSensorElement::Contribute(MechanismBuilder& builder) const {
  builder.AddTransformSensor(*this);
}

}  // namespace twinblocks::multibody
