#pragma once
// A physics engine that reaches up into the block library: the layering check must refuse it.
#include "blocks/block.h"
#include "physics/spatial/spatial.h"
