#pragma once
// Contact geometry that knows the kinematic tree: the layering check must refuse it.
#include "physics/multibody/kinematic_tree.h"
