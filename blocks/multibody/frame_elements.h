#pragma once

// Every frame-network block (docs/multibody.md), for the code that handles them all:
// the mechanism builder and the catalog.

#include "blocks/multibody/external_force_torque.h"
#include "blocks/multibody/internal_force.h"
#include "blocks/multibody/joint_element.h"
#include "blocks/multibody/rigid_transform.h"
#include "blocks/multibody/solid.h"
#include "blocks/multibody/transform_sensor.h"
#include "blocks/multibody/world.h"
