// The compiled part of the Python package `twinblocks` (python/twinblocks/__init__.py
// re-exports it). docs/python.md is the user's guide.
#include <pybind11/pybind11.h>

#include "bindings.h"

PYBIND11_MODULE(_twinblocks, m) {
  m.doc() =
      "twinblocks: block-diagram models (XML), compiled and simulated.\n\n"
      "Load or build a Model, compile it into a System, run it with a Simulator and read the\n"
      "Results as numpy arrays keyed by signal path.";
  namespace tp = twinblocks::python;
  tp::BindErrors(m);
  tp::BindModel(m);
  tp::BindModelIo(m);
  tp::BindSystem(m);
  tp::BindResults(m);
  tp::BindSimulator(m);
  tp::BindSweep(m);
  tp::BindUserBlocks(m);
  tp::BindGrasp(m);
  tp::BindKinematics(m);
}
