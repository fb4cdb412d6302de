#include "blocks/multibody/world.h"

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

WorldElement::WorldElement(const Params& p) {
  FramePort("W");
  gravity = Vector3(p, "gravity");
  if (!gravity.allFinite()) throw BlockError("parameter 'gravity' must be finite", "gravity");
}

BlockType WorldType() {
  BlockType t = internal::MultibodyType("World", "The inertial frame and the model's gravity.");
  t.doc =
      "Frame W is fixed in space. Every frame network is rooted at World, and a model has "
      "exactly one. Gravity acts on every Solid as the body force m g.";
  t.reference = "Simscape Multibody World Frame and Mechanism Configuration";
  t.params = {
      {"gravity", ParamKind::kVector, "[0, 0, -9.81]", "gravitational acceleration in W, m/s^2"}};
  t.physical_ports = {{"W", "frame: the world frame"}};
  t.create = [](const Params& p) { return std::make_unique<WorldElement>(p); };
  return t;
}

void WorldElement::Contribute(MechanismBuilder& builder) const { builder.AddWorld(*this); }

// W is the frame everything hangs from; alone on its node it is a World with nothing on it.
std::string WorldElement::UnconnectedPortError(const std::string&, int) const { return {}; }

}  // namespace twinblocks::multibody
