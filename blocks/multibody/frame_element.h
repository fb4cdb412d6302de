#pragma once

// The base of the frame-network blocks (docs/multibody.md). They are elements, not
// running blocks: each holds its evaluated parameters and declares its frame ports and its
// signal ports; the compiler hands all elements of a model to BuildMechanism
// (mechanism_builder.h), which reduces them to one kinematic tree run by one Mechanism block
// that takes over their signal ports.

#include <vector>

#include "blocks/block_registry.h"
#include "blocks/multibody/mechanism_element.h"
#include "blocks/param.h"

namespace twinblocks::multibody {

/// Base of every frame-network element: declares no runtime behaviour.
class FrameElement : public MechanismElement {
 protected:
  FrameElement() = default;
  /// Declares a frame port.
  int FramePort(const char* name) { return DeclarePhysicalPort(name, "frame"); }
};

namespace internal {

/// A catalog entry's common part for the Multibody category.
inline blocks::BlockType MultibodyType(const char* name, const char* summary) {
  blocks::BlockType t;
  t.name = name;
  t.category = "Multibody";
  t.summary = summary;
  return t;
}

/// The frame ports of a two-frame block: B (base) and F (follower), for its docs.
inline const std::vector<blocks::PortDoc>& BaseFollowerPorts() {
  static const std::vector<blocks::PortDoc> ports = {{"B", "frame: base"},
                                                     {"F", "frame: follower"}};
  return ports;
}

}  // namespace internal

}  // namespace twinblocks::multibody
