#include "blocks/block_registry.h"
#include "blocks/deformable/register_deformable_blocks.h"
#include "blocks/delay/register_delay_blocks.h"
#include "blocks/discrete/register_discrete_blocks.h"
#include "blocks/drivetrain/register_drivetrain_blocks.h"
#include "blocks/grasp/register_grasp_blocks.h"
#include "blocks/logic/register_logic_blocks.h"
#include "blocks/lookup/register_lookup_blocks.h"
#include "blocks/math/register_math_blocks.h"
#include "blocks/multibody/register_multibody_blocks.h"
#include "blocks/nonlinear/register_nonlinear_blocks.h"
#include "blocks/robotics/register_robotics_blocks.h"
#include "blocks/routing/register_routing_blocks.h"
#include "blocks/signal/register_signal_blocks.h"

namespace twinblocks::blocks {

const BlockRegistry& Catalog() {
  // Built on first use, by explicit calls: no static-initialization order to depend on.
  static const BlockRegistry registry = [] {
    BlockRegistry r;
    RegisterSignalBlocks(r);
    RegisterMathBlocks(r);
    RegisterDiscreteBlocks(r);
    RegisterDelayBlocks(r);
    RegisterNonlinearBlocks(r);
    RegisterLogicBlocks(r);
    RegisterLookupBlocks(r);
    RegisterRoutingBlocks(r);
    RegisterMultibodyBlocks(r);
    RegisterDrivetrainBlocks(r);
    RegisterRoboticsBlocks(r);
    RegisterGraspBlocks(r);
    RegisterDeformableBlocks(r);
    return r;
  }();
  return registry;
}

}  // namespace twinblocks::blocks
