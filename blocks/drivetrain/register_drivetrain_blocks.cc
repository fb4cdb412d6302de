#include "blocks/drivetrain/register_drivetrain_blocks.h"

#include "blocks/drivetrain/rotational_elements.h"

namespace twinblocks::blocks {

void RegisterDrivetrainBlocks(BlockRegistry& r) {
  using namespace twinblocks::drivetrain;
  r.Add(RotationalReferenceType());
  r.Add(InertiaType());
  r.Add(SimpleGearType());
  r.Add(RotationalFrictionType());
  r.Add(RotationalSpringDamperType());
  r.Add(TorqueSourceType());
  r.Add(MotionSensorType());
  r.Add(DCMotorType());
  r.Add(PmsmType());
}

}  // namespace twinblocks::blocks
