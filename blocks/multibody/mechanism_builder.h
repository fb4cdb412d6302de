#pragma once

// Frame networks reduced to minimal coordinates (DESIGN.md, "Physical networks"): frames
// joined by rigid connections (RigidTransform, WeldJoint) collapse into rigid bodies whose
// Solids add up; joints become the edges of a kinematic tree rooted at World, found by a
// depth-first search in element order; the joint that would close a loop is reported.
//
// The compiler gives the elements and which node each frame port is on (ports joined by
// lines share a node); it knows nothing of bodies. Errors name the element at fault.

#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

#include "blocks/block.h"
#include "blocks/multibody/mechanism_model.h"
#include "physics/multibody/robot_model.h"

namespace twinblocks::multibody {

/// One element of a frame network, as the compiler sees it.
struct NetworkElement {
  const blocks::Block* block = nullptr;  ///< a FrameElement subclass
  std::string name;                      ///< its path, for messages
  std::vector<int> nodes;                ///< node of each physical port, 0..num_nodes-1
};

/// A frame network that cannot be built; `element` is the index of the element at fault.
class NetworkError : public std::runtime_error {
 public:
  NetworkError(int element, const std::string& what)
      : std::runtime_error(what), element_(element) {}
  int element() const { return element_; }

 private:
  int element_;
};

/// Reduces all frame elements of a model to one mechanism. A port alone on its node (no other
/// element's port there) is unconnected, an error except for World's W.
/// @throws NetworkError
MechanismModel BuildMechanism(const std::vector<NetworkElement>& elements, int num_nodes,
                              const std::string& name);

/// The tree of the elements marked in `in_robot`, rooted at the node where they attach to the
/// rest of the network (or at their World), with `frame` (element index, port index; -1 for
/// none) as the frame of interest. Gravity is the World's, turned into the base frame when the
/// base is fixed to World.
/// @throws NetworkError
RobotModel BuildRobotModel(const std::vector<NetworkElement>& elements, int num_nodes,
                           const std::vector<unsigned char>& in_robot, int frame_element,
                           int frame_port, const std::string& name);

}  // namespace twinblocks::multibody
