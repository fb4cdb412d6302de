"""Source blocks from Python: FromWorkspace plays back numpy arrays passed as parameters (their
text exact), against the closed forms of linear interpolation and zero-order hold; a noise
source repeats bit for bit with its seed; a StopSimulation ends a run ok, with its block."""

import numpy as np
import pytest

import twinblocks as tb


def playback_model(t, y, **params):
    m = tb.Model("playback")
    m.add_block("", "FromWorkspace", "u", time=t, values=y, **params)
    m.add_block("", "Integrator", "area")
    m.connect("", "u.y", "area.u")
    m.add_log("u.y", "u")
    m.add_log("area.y", "area")
    m.set_simulation(solver="ode45", t_end=2.5, rtol=1e-10, atol=1e-12, output_interval=0.05)
    return m


def test_from_workspace_interpolates_numpy_arrays_linearly():
    t = np.linspace(0.0, 2.0, 41)
    y = np.column_stack([np.sin(3.0 * t), t ** 2])
    m = playback_model(t, y)
    # The arrays are kept as exact text: every double reads back bitwise.
    text = m.get_param("u", "time")
    assert np.array_equal(np.array(eval(text)), t)
    results = tb.simulate(m)
    assert results.ok, results.error
    u = results["u"]
    assert u.shape == (len(results.time), 2)
    inside = results.time <= 2.0
    for column in range(2):
        expected = np.interp(results.time[inside], t, y[:, column])
        np.testing.assert_allclose(u[inside, column], expected, rtol=0, atol=1e-12)
    # Held after the data (extrapolation hold, the default).
    np.testing.assert_array_equal(u[~inside], np.tile(y[-1], (np.count_nonzero(~inside), 1)))
    # The integral of the piecewise-linear second column up to 2 s: the trapezoid rule's sum,
    # then the held end value; the solver landed on the data's ends.
    area = np.trapz(y[:, 1], t) + y[-1, 1] * 0.5
    assert abs(results["area"][-1, 1] - area) < 1e-8


def test_from_workspace_zero_order_hold_and_zero_extrapolation():
    t = np.array([0.5, 1.0, 1.5])
    y = np.array([1.0, -2.0, 3.0])  # 1-D: one signal
    results = tb.simulate(playback_model(t, y, interpolation="zoh", extrapolation="zero"))
    assert results.ok, results.error
    u = results["u"][:, 0]
    expected = np.where(results.time < 0.5, 0.0,
                        np.where(results.time < 1.0, 1.0,
                                 np.where(results.time < 1.5, -2.0, 0.0)))
    np.testing.assert_array_equal(u, expected)
    assert abs(results["area"][-1, 0] - (0.5 * 1.0 - 0.5 * 2.0)) < 1e-9


def test_from_workspace_refuses_a_table_of_the_wrong_shape():
    m = tb.Model("bad")
    m.add_block("", "FromWorkspace", "u", time=np.array([0.0, 1.0, 2.0]),
                values=np.ones((2, 2)))
    with pytest.raises(tb.ModelError, match=r"'values' is 2 x 2, but 'time' has 3 times"):
        tb.compile(m)


def noise_model(seed):
    m = tb.Model("noise")
    m.add_block("", "BandLimitedWhiteNoise", "w", power=0.1, Ts=0.01, seed=seed)
    m.add_log("w.y", "w")
    m.set_simulation(solver="ode4", step=0.01, t_end=5)
    return m


def test_noise_repeats_bitwise_with_its_seed_and_has_variance_power_over_ts():
    a = tb.simulate(noise_model(11))["w"][:, 0]
    b = tb.simulate(noise_model(11))["w"][:, 0]
    c = tb.simulate(noise_model(12))["w"][:, 0]
    assert np.array_equal(a, b)
    assert not np.array_equal(a, c)
    # 501 samples of variance 0.1 / 0.01 = 10: within 4 standard deviations of the estimator.
    assert abs(np.var(a, ddof=1) - 10.0) < 4 * 10.0 * np.sqrt(2.0 / (len(a) - 1))


def test_stop_simulation_ends_the_run_ok_naming_the_block():
    m = tb.Model("stop")
    m.add_block("", "Clock", "clock")
    m.add_block("", "Step", "late", time=0.75)
    m.add_block("", "StopSimulation", "halt")
    m.connect("", "late.y", "halt.u")
    m.add_log("clock.t", "t")
    m.set_simulation(solver="ode45", t_end=2)
    results = tb.simulate(m)
    assert results.ok
    assert results.outcome.stopped and results.outcome.stopped_by == "halt"
    assert results.outcome.t == 0.75 and results.time[-1] == 0.75
    assert "stopped by 'halt'" in repr(results.outcome)
