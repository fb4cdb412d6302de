#pragma once

// The example block library libtwinblocks_example_blocks.so: three user block types written
// against the block API alone (blocks/user/user_block.h), as a block library outside
// twinblocks would be (docs/user-blocks.md).

#include "blocks/user/user_block.h"

namespace twinblocks_example {

/// m x'' + c x' + k x = F: states x, v; input F; outputs x, v.
twinblocks::user::BlockType MassSpringDamperType();
/// A ball under gravity that bounces off the ground h = 0 with restitution cr: a zero
/// crossing and a reset of a continuous state.
twinblocks::user::BlockType BouncingBallType();
/// The mean of the last n samples of its input: discrete states at a sample time.
twinblocks::user::BlockType MovingAverageType();

}  // namespace twinblocks_example
