#pragma once

// The interface every element of a physical network has toward the mechanism it is compiled
// into: frame elements (frame_element.h), joint couplers and rotational elements. Each element
// says what it is by calling one MechanismBuilder method for itself (Contribute), so the
// builder never asks an element's type; adding an element kind adds a class and a builder
// method, not a branch. This is a build-time interface: the elements never run.

#include <string>

#include "blocks/block.h"

namespace twinblocks::multibody {

class MechanismBuilder;  // mechanism_builder.h

/// Base of every block that a Mechanism takes over.
class MechanismElement : public blocks::Block {
 public:
  /// Tells `builder` what this element is and what it connects (one Add* call).
  virtual void Contribute(MechanismBuilder& builder) const = 0;

  /// The message when physical port `port` shares its node with no other element; empty when
  /// the port may stay alone (World's W). `path` is the element's path, for the message.
  virtual std::string UnconnectedPortError(const std::string& path, int port) const;

 protected:
  MechanismElement() = default;
};

}  // namespace twinblocks::multibody
