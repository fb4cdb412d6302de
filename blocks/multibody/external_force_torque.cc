#include "blocks/multibody/external_force_torque.h"

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

ExternalForceTorqueElement::ExternalForceTorqueElement(const Params& p) {
  FramePort("F");
  world_frame = p.Word("frame") == "world";
  in_force = DeclareInput("force", 3, blocks::FeedthroughToStage(1));
  in_torque = DeclareInput("torque", 3, blocks::FeedthroughToStage(1));
}

BlockType ExternalForceTorqueType() {
  BlockType t =
      internal::MultibodyType("ExternalForceTorque", "A force and torque applied at a frame.");
  t.doc =
      "Applies `force` at F's origin and `torque` to the body F is fixed in, expressed in the "
      "world frame (frame=world) or in F (frame=local).";
  t.reference = "Simscape Multibody External Force and Torque";
  t.params = {{"frame",
               ParamKind::kWord,
               "world",
               "frame the inputs are expressed in",
               {"world", "local"}}};
  t.inputs = {{"force", "3, N"}, {"torque", "3, N m"}};
  t.physical_ports = {{"F", "frame: where the force acts"}};
  t.create = [](const Params& p) { return std::make_unique<ExternalForceTorqueElement>(p); };
  return t;
}

void ExternalForceTorqueElement::Contribute(MechanismBuilder& builder) const {
  builder.AddExternalForce(*this);
}

}  // namespace twinblocks::multibody
