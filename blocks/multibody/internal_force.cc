#include "blocks/multibody/internal_force.h"

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

InternalForceElement::InternalForceElement(const Params& p) {
  FramePort("B");
  FramePort("F");
  spring_damper = p.Word("mode") == "spring_damper";
  k = p.Scalar("k");
  c = p.Scalar("c");
  length0 = p.Scalar("length0");
  if (!spring_damper) in_f = DeclareInput("f", 1, blocks::FeedthroughToStage(1));
  out_distance = DeclareOutput("distance", 1, 0);
  out_speed = DeclareOutput("speed", 1, 0);
}

BlockType InternalForceType() {
  BlockType t =
      internal::MultibodyType("InternalForce", "Equal and opposite forces along the line B-F.");
  t.doc =
      "A force f along the line between the origins of B and F, on F in the direction from B "
      "to F and on B opposite: positive f pushes them apart. mode=input: f is the input; "
      "mode=spring_damper: f = -k (distance - length0) - c speed, speed = d(distance)/dt.";
  t.reference = "Simscape Multibody Internal Force";
  t.params = {{"mode", ParamKind::kWord, "input", "where f comes from", {"input", "spring_damper"}},
              {"k", ParamKind::kScalar, "0", "spring constant, N/m"},
              {"c", ParamKind::kScalar, "0", "damping, N s/m"},
              {"length0", ParamKind::kScalar, "0", "unstretched length, m"}};
  t.inputs = {{"f", "N, positive pushes apart (mode=input)"}};
  t.outputs = {{"distance", "|p_F - p_B|, m"}, {"speed", "d(distance)/dt, m/s"}};
  t.physical_ports = internal::BaseFollowerPorts();
  t.create = [](const Params& p) { return std::make_unique<InternalForceElement>(p); };
  return t;
}

void InternalForceElement::Contribute(MechanismBuilder& builder) const {
  builder.AddInternalForce(*this);
}

}  // namespace twinblocks::multibody
