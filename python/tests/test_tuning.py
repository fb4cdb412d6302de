"""System.set_parameter and System.set_variable: retuning a compiled model between runs gives
the results of a recompile, bitwise, and every refusal leaves the system as it was."""

import numpy as np
import pytest

import twinblocks as tb


@pytest.fixture
def model():
    """x' = -a x through rate (Gain k=-a), plus a Sine whose amplitude is a vector."""
    m = tb.Model("tune")
    m.set_variable("a", 2)
    m.set_variable("b", "a*3")
    m.add_block("", "Gain", "rate", k="-a")
    m.add_block("", "Integrator", "state", x0=1)
    m.add_block("", "Sine", "wave", amplitude=[1, 2], frequency="b")
    m.connect("", "state.y", "rate.u")
    m.connect("", "rate.y", "state.u")
    m.add_log("state.y", "x")
    m.add_log("wave.y", "w")
    m.set_simulation(solver="ode4", step=1e-3, t_end=0.2)
    return m


def run(system):
    return tb.Simulator(system).run()


def test_set_parameter_matches_a_recompile(model):
    system = tb.compile(model)
    system.set_parameter("rate", "k", -5.0)
    system.set_parameter("wave", "amplitude", np.array([0.5, 3.0]))
    tuned = run(system)
    model.set_param("rate", "k", -5.0)
    model.set_param("wave", "amplitude", [0.5, 3.0])
    fresh = run(tb.compile(model))
    np.testing.assert_array_equal(tuned["x"], fresh["x"])
    np.testing.assert_array_equal(tuned["w"], fresh["w"])
    # The retune changed the run: the check can fail.
    model.set_param("rate", "k", "-a")
    assert not np.array_equal(tuned["x"], run(tb.compile(model))["x"])


def test_set_variable_rebuilds_what_depends_on_it(model):
    system = tb.compile(model)
    rebuilt = system.set_variable("a", 4)
    assert sorted(rebuilt) == ["rate", "wave"]  # wave through b = a*3
    tuned = run(system)
    model.set_variable("a", 4)
    fresh = run(tb.compile(model))
    np.testing.assert_array_equal(tuned["x"], fresh["x"])
    np.testing.assert_array_equal(tuned["w"], fresh["w"])


def test_tuning_errors_change_nothing(model):
    system = tb.compile(model)
    before = run(system)
    with pytest.raises(tb.ModelError, match="rat"):
        system.set_parameter("rat", "k", 1.0)
    with pytest.raises(tb.ModelError, match="kk"):
        system.set_parameter("rate", "kk", 1.0)
    with pytest.raises(tb.ModelError, match="width"):
        system.set_parameter("wave", "amplitude", [1, 2, 3])  # would change the output width
    with pytest.raises(tb.ModelError, match="zz"):
        system.set_variable("zz", 1)
    with pytest.raises(TypeError, match="expected a number or a list of numbers"):
        system.set_parameter("rate", "k", "2*a")
    with pytest.raises(TypeError, match="expected a number or a list of numbers"):
        system.set_variable("a", None)
    after = run(system)
    np.testing.assert_array_equal(after["x"], before["x"])
    np.testing.assert_array_equal(after["w"], before["w"])
