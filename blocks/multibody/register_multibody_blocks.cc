#include "blocks/multibody/register_multibody_blocks.h"

#include "blocks/contact/spatial_contact_force.h"
#include "blocks/multibody/frame_elements.h"
#include "blocks/multibody/joint_coupler.h"
#include "blocks/multibody/synergy_equilibrium.h"
#include "blocks/multibody/tendon.h"

namespace twinblocks::blocks {

void RegisterMultibodyBlocks(BlockRegistry& r) {
  using namespace twinblocks::multibody;
  r.Add(WorldType());
  r.Add(RigidTransformType());
  r.Add(SolidType());
  r.Add(RevoluteJointType());
  r.Add(PrismaticJointType());
  r.Add(WeldJointType());
  r.Add(SphericalJointType());
  r.Add(BushingJointType());
  r.Add(FreeJointType());
  r.Add(JointCouplerType());
  r.Add(TendonType());
  r.Add(SynergyEquilibriumType());
  r.Add(TransformSensorType());
  r.Add(ExternalForceTorqueType());
  r.Add(InternalForceType());
  r.Add(contact::SpatialContactForceType());
}

}  // namespace twinblocks::blocks
