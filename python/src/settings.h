#pragma once

// Run settings between Python and C++: keyword arguments over a System's defaults, and a
// dict for display.

#include <pybind11/pybind11.h>

#include <span>
#include <utility>

#include "runtime/simulation_settings.h"
#include "runtime/system.h"

namespace twinblocks::python {

/// `defaults` with the keyword arguments applied, one per setting of the schema
/// (runtime/simulation_settings.h; None unsets an optional one).
/// @throws pybind11::type_error for an unknown name or a value of the wrong type.
graph::SimulationSettingsValues ApplySettings(graph::SimulationSettingsValues defaults,
                                              const pybind11::kwargs& settings);

/// The value of one setting (runtime/simulation_settings.h) from Python: a str for the
/// solver and for words, a number, True or False; None unsets an optional setting when
/// `allow_none`.
/// @throws pybind11::type_error or pybind11::value_error "setting 'NAME': expected ...".
graph::SettingValue SettingFromPython(const graph::SimulationSetting& setting,
                                      pybind11::handle value, bool allow_none);

/// Refuses settings given together that contradict each other (graph::FindSettingConflict).
/// @throws pybind11::value_error naming both, in Python's terms.
void RefuseSettingConflicts(
    std::span<const std::pair<const graph::SimulationSetting*, graph::SettingValue>> given);

/// Every setting by name; unset optional ones are None.
pybind11::dict SettingsDict(const graph::SimulationSettingsValues& settings);

}  // namespace twinblocks::python
