#pragma once

// Frame networks reduced to minimal coordinates (docs/design.md, "The runtime shape"): frames
// joined by rigid connections (RigidTransform, WeldJoint) collapse into rigid bodies whose
// Solids add up; joints become the edges of a kinematic tree rooted at World, found by a
// depth-first search in element order; the joint that would close a loop is reported.
//
// The compiler gives the elements and which node each frame port is on (ports joined by
// lines share a node); it knows nothing of bodies. Errors name the element at fault.

#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include "blocks/block.h"
#include "blocks/multibody/joint_coupler.h"
#include "blocks/multibody/mechanism_element.h"
#include "blocks/multibody/mechanism_model.h"
#include "blocks/multibody/synergy_equilibrium.h"
#include "blocks/multibody/tendon.h"
#include "physics/multibody/robot_model.h"

namespace twinblocks::contact {
class SpatialContactForceElement;  // blocks/contact/spatial_contact_force.h
}  // namespace twinblocks::contact

namespace twinblocks::multibody {

/// One element of a frame network, as the compiler sees it.
struct NetworkElement {
  const blocks::Block* block = nullptr;  ///< a MechanismElement
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

/// What the elements of a network are, as each says of itself: BuildMechanism asks every
/// element (MechanismElement::Contribute) once, in element order, and each calls the one Add*
/// method that describes it; the builder's stages then read these tables. Per element index,
/// the typed accessors return nullptr for an element of another kind.
class MechanismBuilder {
 public:
  /// Asks every element what it is.
  /// @throws NetworkError for a block that is no mechanism element.
  explicit MechanismBuilder(const std::vector<NetworkElement>& elements);

  /// @name For MechanismElement::Contribute: the element being asked is ...
  /// @{
  /// ... the World (its one port is W).
  void AddWorld(const WorldElement& world);
  /// ... a rigid connection between its ports B and F: F = B * X_BF (RigidTransform, WeldJoint).
  void AddRigidConnection(const Pose& X_BF);
  /// ... a Solid at its port R.
  void AddSolid(const SolidElement& solid);
  /// ... a joint that moves (not a weld): an edge of the tree, or a loop constraint.
  void AddJoint(const JointElement& joint);
  void AddTransformSensor(const TransformSensorElement& sensor);
  void AddExternalForce(const ExternalForceTorqueElement& force);
  void AddInternalForce(const InternalForceElement& force);
  void AddContact(const contact::SpatialContactForceElement& contact);
  /// ... a coupler between two joints' shafts (a constraint, not a drivetrain element).
  void AddJointCoupler(const JointCouplerElement& coupler);
  /// ... a tendon over joints' shafts (a constraint or a force, not a drivetrain element).
  void AddTendon(const TendonElement& tendon);
  /// ... the predicted equilibrium of a tendon.
  void AddSynergyEquilibrium(const SynergyEquilibriumElement& equilibrium);
  /// ... an element of a rotational network.
  void AddRotational(const drivetrain::RotationalPart& part);
  /// @}

  const std::vector<NetworkElement>& elements() const { return elements_; }
  int num_elements() const { return static_cast<int>(elements_.size()); }
  const MechanismElement& element(int e) const { return *mechanism_elements_[e]; }
  const WorldElement* world(int e) const { return world_[e]; }
  /// The pose of F in B when element e joins its two frames rigidly.
  const std::optional<Pose>& rigid(int e) const { return rigid_[e]; }
  const SolidElement* solid(int e) const { return solid_[e]; }
  const JointElement* joint(int e) const { return joint_[e]; }
  const JointCouplerElement* coupler(int e) const { return coupler_[e]; }
  /// Element index and element, in element order.
  template <typename T>
  using List = std::vector<std::pair<int, const T*>>;
  const List<TransformSensorElement>& sensors() const { return sensors_; }
  const List<ExternalForceTorqueElement>& external_forces() const { return external_forces_; }
  const List<InternalForceElement>& internal_forces() const { return internal_forces_; }
  const List<contact::SpatialContactForceElement>& contacts() const { return contacts_; }
  const List<TendonElement>& tendons() const { return tendons_; }
  const List<SynergyEquilibriumElement>& equilibria() const { return equilibria_; }
  /// The rotational network's elements (joint couplers are not among them).
  const std::vector<drivetrain::RotationalNetworkElement>& rotational() const {
    return rotational_;
  }

 private:
  const std::vector<NetworkElement>& elements_;
  int current_ = -1;  ///< the element being asked
  std::vector<const MechanismElement*> mechanism_elements_;
  std::vector<const WorldElement*> world_;
  std::vector<std::optional<Pose>> rigid_;
  std::vector<const SolidElement*> solid_;
  std::vector<const JointElement*> joint_;
  std::vector<const JointCouplerElement*> coupler_;
  List<TendonElement> tendons_;
  List<SynergyEquilibriumElement> equilibria_;
  List<TransformSensorElement> sensors_;
  List<ExternalForceTorqueElement> external_forces_;
  List<InternalForceElement> internal_forces_;
  List<contact::SpatialContactForceElement> contacts_;
  std::vector<drivetrain::RotationalNetworkElement> rotational_;
};

/// Reduces all frame elements of a model to one mechanism. A port alone on its node (no other
/// element's port there) is unconnected, an error except for World's W.
/// @throws NetworkError
MechanismModel BuildMechanism(const std::vector<NetworkElement>& elements, int num_nodes,
                              const std::string& name);

/// The mechanism BuildMechanism would build from `after`, made from `built`, the one it built
/// from `before`, without building it again: the two lists hold the same elements on the same
/// nodes, those marked in `changed` with other numbers. Only numbers that leave the tree, the
/// coordinates and the ports as they are can be patched in: a contact's law; a joint's springs,
/// dampers, stops and motion filter; a spring-damper's constants; a rotational element's
/// torques and a motor's constants, when no joint's reflected inertia changes.
/// @returns nullopt for any other change (a mass, a pose, a gear ratio, ...): build it again.
/// @throws NetworkError as BuildMechanism would for the new numbers.
std::optional<MechanismModel> PatchMechanism(const MechanismModel& built,
                                             const std::vector<NetworkElement>& before,
                                             const std::vector<NetworkElement>& after,
                                             const std::vector<unsigned char>& changed,
                                             int num_nodes);

/// The tree of the elements marked in `in_robot`, rooted at the node where they attach to the
/// rest of the network (or at their World), with `frame` (element index, port index; -1 for
/// none) as the frame of interest. Gravity is the World's, turned into the base frame when the
/// base is fixed to World.
/// @throws NetworkError
RobotModel BuildRobotModel(const std::vector<NetworkElement>& elements, int num_nodes,
                           const std::vector<unsigned char>& in_robot, int frame_element,
                           int frame_port, const std::string& name);

}  // namespace twinblocks::multibody
