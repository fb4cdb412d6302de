#pragma once

// One Bind* function per area of the C++ API, each in its own *_bindings.cc, called in this
// order by module.cc: a new C++ call is bound by a few lines in the file of its area.

#include <pybind11/pybind11.h>

#include "model/model.h"

namespace twinblocks::python {

/// twinblocks.ModelError (a ValueError) and the translation of graph::ModelError into it.
void BindErrors(pybind11::module_& m);
/// Raises twinblocks.WriteError (an OSError and a RuntimeError) with `message`.
[[noreturn]] void RaiseWriteError(const std::string& message);
/// Model and the snapshot classes Block, Diagram, Define; format_number.
void BindModel(pybind11::module_& m);
/// The Model's editing calls for its other elements (model_element_bindings.cc), called by
/// BindModel.
void BindModelElementEditing(pybind11::class_<graph::Model>& c);
/// load, load_string, save, to_xml: the XML reader and writer.
void BindModelIo(pybind11::module_& m);
/// compile and System.
void BindSystem(pybind11::module_& m);
/// Results, the recorded signals of a run as numpy arrays.
void BindResults(pybind11::module_& m);
/// Simulator, Outcome and simulate; the step API (Snapshot).
void BindSimulator(pybind11::module_& m);
/// sweep(): batch runs over parameter values (the sweep library).
void BindSweep(pybind11::module_& m);
/// Block types written in Python: _register_block_type (twinblocks.register_block) and
/// registered_block_types (user_block_bindings.cc).
void BindUserBlocks(pybind11::module_& m);
/// twinblocks.grasp: the grasp analysis library (grasp_bindings.cc).
void BindGrasp(pybind11::module_& m);
/// The Barrett hand's pregrasp and the candidate points of objects (grasp_synthesis_bindings.cc),
/// in twinblocks.grasp; called by BindGrasp.
void BindGraspSynthesis(pybind11::module_& g);
/// twinblocks.kinematics: the finger's closed forms and Robot, the numerical inverse
/// kinematics of a model's chain (kinematics_bindings.cc).
void BindKinematics(pybind11::module_& m);

}  // namespace twinblocks::python
