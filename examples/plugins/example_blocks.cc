// The entry function of the example block library: twinblocks calls it once, when a model
// first names the library.
#include "examples/plugins/example_blocks.h"

TWINBLOCKS_BLOCK_LIBRARY(registry) {
  registry.Add(twinblocks_example::MassSpringDamperType());
  registry.Add(twinblocks_example::BouncingBallType());
  registry.Add(twinblocks_example::MovingAverageType());
}
