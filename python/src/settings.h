#pragma once

// Run settings between Python and C++: keyword arguments over a System's defaults, and a
// dict for display.

#include <pybind11/pybind11.h>

#include "runtime/system.h"

namespace twinblocks::python {

/// `defaults` with the keyword arguments applied: solver (str), t_start, t_end, step, rtol,
/// atol, max_step, initial_step, output_interval (numbers; None unsets an optional one) and
/// zero_crossings (bool).
/// @throws pybind11::type_error for an unknown name or a value of the wrong type.
graph::SimulationSettingsValues ApplySettings(graph::SimulationSettingsValues defaults,
                                              const pybind11::kwargs& settings);

/// Every setting by name; unset optional ones are None.
pybind11::dict SettingsDict(const graph::SimulationSettingsValues& settings);

}  // namespace twinblocks::python
