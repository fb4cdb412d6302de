"""twinblocks: block-diagram models (XML), compiled and simulated, from Python.

    import twinblocks as tb
    model = tb.load("examples/mass_spring_damper.xml")
    model.set_param("spring", "k", 40)
    results = tb.simulate(model, t_end=2.0)
    x = results["mass.x"]            # numpy array, shape (rows, width)

The editing API (Model.add_block, connect, ...), compile, System (tunable parameters),
Simulator (run, or step by step with advance_to, set_input, read, save_state), Results and
sweep are the C++ library's (bound with pybind11); docs/python.md is the guide. Block types
written in Python (UserBlock, register_block) are in user_block.py; docs/user-blocks.md.
Builders of underactuated hands (SoftHand, Reflex) are in hands.py (tb.hands), the e_GRASP
hand and its object-level control scenario in egrasp.py (tb.egrasp).
"""

from ._twinblocks import (
    Block,
    Define,
    Diagram,
    InputHandle,
    Model,
    ModelError,
    Outcome,
    Port,
    Results,
    Signal,
    SignalHandle,
    Simulator,
    Snapshot,
    StatesHandle,
    System,
    WriteError,
    compile,
    format_number,
    grasp,
    import_urdf,
    kinematics,
    limits,
    load,
    load_string,
    save,
    set_limits,
    simulate,
    registered_block_types,
    sweep,
    to_xml,
)
from .user_block import Input, Output, Param, UserBlock, register_block
from . import egrasp, hands

__all__ = [
    "Block",
    "Define",
    "Diagram",
    "Input",
    "InputHandle",
    "Model",
    "ModelError",
    "Outcome",
    "Output",
    "Param",
    "Port",
    "Results",
    "Signal",
    "SignalHandle",
    "Simulator",
    "Snapshot",
    "StatesHandle",
    "System",
    "UserBlock",
    "WriteError",
    "compile",
    "format_number",
    "grasp",
    "kinematics",
    "egrasp",
    "hands",
    "import_urdf",
    "limits",
    "load",
    "load_string",
    "register_block",
    "registered_block_types",
    "save",
    "set_limits",
    "simulate",
    "sweep",
    "to_xml",
]
