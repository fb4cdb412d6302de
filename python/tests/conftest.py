"""Shared fixtures of the Python tests: the repository, small models built in code."""

import importlib.util
import os
import pathlib

import pytest

import twinblocks as tb

REPO = pathlib.Path(os.environ.get("TWINBLOCKS_SOURCE_DIR",
                                   pathlib.Path(__file__).resolve().parents[2]))


@pytest.fixture
def repo():
    return REPO


def load_example(name):
    """examples/NAME.py as a module, for tests of its functions."""
    spec = importlib.util.spec_from_file_location(name, REPO / "examples" / f"{name}.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def decay_model():
    """dx/dt = -a x, x(0) = 1 (a = 2): x = exp(-a t), logged as 'x'."""
    m = tb.Model("decay")
    m.set_variable("a", 2)
    m.add_block("", "Gain", "rate", k="-a")
    m.add_block("", "Integrator", "state", x0=1)
    m.connect("", "state.y", "rate.u")
    m.connect("", "rate.y", "state.u")
    m.add_log("state.y", "x")
    m.set_simulation(solver="ode45", t_end=1, rtol=1e-10, atol=1e-12)
    return m


def blowup_model():
    """dx/dt = x^2, x(0) = 1: x = 1 / (1 - t) leaves every solver at t = 1."""
    m = tb.Model("blowup")
    m.add_block("", "Product", "square")
    m.add_block("", "Integrator", "x", x0=1)
    m.connect("", "x.y", "square.u1")
    m.connect("", "x.y", "square.u2")
    m.connect("", "square.y", "x.u")
    m.add_log("x.y")
    return m


def with_unknown_block(model, type_name="NoSuchBlock", name="n"):
    """`model` with a block of a type nobody knows, as a model file could say it: the editing
    calls refuse such a block, the reader keeps it (it only reads), and compile rejects it
    with the file:line and block path. The way to reach a compile error from Python."""
    text = tb.to_xml(model).replace(
        "</model>", f'  <block type="{type_name}" name="{name}"/>\n</model>')
    return tb.load_string(text, "bad.xml")


@pytest.fixture
def decay():
    return decay_model()


@pytest.fixture
def blowup():
    return blowup_model()
