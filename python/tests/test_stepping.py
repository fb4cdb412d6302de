"""The step API of Simulator (docs/stepping.md): advance_to, external inputs (find_input,
set_input), signals (find_signal, read), continuous states, snapshots (save_state,
restore_state), results so far; and every error path."""

import numpy as np
import pytest

import twinblocks as tb


@pytest.fixture
def system():
    """An external input u (2 elements) integrated: x' = u, x(0) = [1, 1]; y = 2 x."""
    m = tb.Model("stepped")
    m.add_inport("", "u", width=2)
    m.add_block("", "Integrator", "x", x0=[1, 1])
    m.add_block("", "Gain", "err", k=2)
    m.connect("", ".u", "x.u")
    m.connect("", "x.y", "err.u")
    m.add_log("x.y", "x")
    m.set_simulation(solver="ode4", step=1e-3, t_end=1, output_interval=1e-3)
    return tb.compile(m)


def test_advance_with_inputs_and_reads(system):
    sim = tb.Simulator(system)
    sim.initialize()
    u = sim.find_input("u")
    x = sim.find_signal("x.y")
    assert (u.width, x.width) == (2, 2)
    np.testing.assert_array_equal(sim.read(x), [1, 1])
    np.testing.assert_array_equal(sim.read(sim.find_signal(".u")), [0, 0])  # held at 0
    sim.set_input(u, [2.0, -1.0])
    outcome = sim.advance_to(0.5)
    assert outcome.ok and sim.time == 0.5
    # x = x0 + u t, which ode4 integrates exactly but for rounding.
    np.testing.assert_allclose(sim.read(x), [2.0, 0.5], rtol=1e-12)
    np.testing.assert_allclose(sim.read(sim.find_signal("err.y")), [4.0, 1.0], rtol=1e-12)
    sim.set_input(u, np.array([0.0, 0.0]))
    assert sim.advance_to(1.0).ok
    results = sim.results()
    assert results.ok and results.outcome.t == 1.0
    assert results["x"].shape == (1001, 2)
    states = sim.find_continuous_states("x")
    assert states.size == 2
    np.testing.assert_array_equal(sim.read_continuous_states(states), sim.read(x))


def test_snapshots_repeat_the_run_bitwise(system):
    sim = tb.Simulator(system)
    u = sim.find_input("u")
    sim.initialize()
    sim.set_input(u, [1.0, 3.0])
    sim.advance_to(0.25)
    snap = sim.save_state()
    assert snap.valid and snap.time == 0.25 and snap.num_recorded_rows == 251
    sim.set_input(u, [0.5, 0.5])
    sim.advance_to(0.75)
    first = sim.results()["x"].copy()
    sim.restore_state(snap)
    assert sim.time == 0.25
    assert sim.results()["x"].shape[0] == 251
    sim.set_input(u, [0.5, 0.5])
    sim.advance_to(0.75)
    np.testing.assert_array_equal(sim.results()["x"], first)
    # Saving into an existing snapshot; restoring into another simulator of the system.
    into = tb.Snapshot()
    assert not into.valid
    assert sim.save_state(into=into) is None
    assert into.time == 0.75
    other = tb.Simulator(system)
    other.initialize()
    other.restore_state(into)
    np.testing.assert_array_equal(other.read(other.find_signal("x.y")),
                                  sim.read(sim.find_signal("x.y")))


def test_step_api_errors(system):
    sim = tb.Simulator(system)
    with pytest.raises(RuntimeError, match="SaveState before Initialize"):
        sim.save_state()
    with pytest.raises(RuntimeError, match="SetInput before Initialize"):
        sim.set_input(sim.find_input("u"), [1, 2])
    with pytest.raises(ValueError, match="no external input 'v'; did you mean 'u'"):
        sim.find_input("v")
    with pytest.raises(ValueError, match="no signal 'x.z'"):
        sim.find_signal("x.z")
    with pytest.raises(ValueError, match=r"block 'err' \(Gain\) has no continuous states"):
        sim.find_continuous_states("err")
    with pytest.raises(ValueError, match="no block 'nope'; blocks with continuous states: x"):
        sim.find_continuous_states("nope")
    sim.initialize()
    u = sim.find_input("u")
    with pytest.raises(ValueError, match="input 'u' has width 2, got 1 values"):
        sim.set_input(u, [1.0])
    with pytest.raises(ValueError, match="is nan, expected a finite number"):
        sim.set_input(u, [1.0, np.nan])
    with pytest.raises(TypeError):
        sim.set_input(u, "1, 2")
    sim.advance_to(0.5)
    with pytest.raises(ValueError, match="from the current time to t_end"):
        sim.advance_to(0.25)
    with pytest.raises(ValueError):
        sim.advance_to(2.0)
    with pytest.raises(ValueError, match="the snapshot is empty"):
        sim.restore_state(tb.Snapshot())
    m = tb.Model("other")
    m.add_block("", "Constant", "c", value=1)
    other = tb.Simulator(tb.compile(m))
    other.initialize()
    with pytest.raises(ValueError):
        sim.restore_state(other.save_state())


def test_a_failure_while_stepping_is_an_outcome_until_restored(blowup):
    m = blowup
    m.set_simulation(solver="ode1", step=0.01, t_end=2)
    sim = tb.Simulator(tb.compile(m))
    sim.initialize()
    snap = sim.save_state()
    outcome = sim.advance_to(1.5)
    assert not outcome.ok and "simulation failed at t = " in outcome.error
    assert not sim.advance_to(sim.time).ok  # the same failure
    assert not sim.results().ok
    sim.restore_state(snap)
    assert sim.advance_to(0.5).ok
