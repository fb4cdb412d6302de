// A block library whose registration throws.
#include <stdexcept>

#include "blocks/user/user_block.h"

TWINBLOCKS_BLOCK_LIBRARY(registry) {
  throw std::runtime_error("the test library cannot register (no licence file)");
}
