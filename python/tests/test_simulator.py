"""Simulator and simulate: settings as keyword arguments (and their errors), runs against the
closed form, failed runs reported without raising, derivatives, threads."""

import math
import re
import threading

import numpy as np
import pytest

import twinblocks as tb
from conftest import with_unknown_block


def test_run_matches_the_closed_form(decay):
    sim = tb.Simulator(tb.compile(decay), t_end=1.0)
    results = sim.run()
    assert results.ok and results.outcome.ok and results.error == ""
    assert results.outcome.t == 1.0 and sim.time == 1.0
    x = results["x"][:, 0]
    assert np.max(np.abs(x - np.exp(-2.0 * results.time))) < 1e-8
    assert "steps" in results.stats and "steps" in sim.stats


@pytest.mark.parametrize("solver", ["ode3", "ode4", "cvode-bdf"])
def test_settings_as_keywords(decay, solver):
    settings = dict(solver=solver, t_start=0.5, t_end=1.0, output_interval=0.125)
    if solver.startswith("ode"):
        settings["step"] = 1e-3
    else:
        settings.update(rtol=1e-9, atol=1e-12, max_step=0.1, initial_step=1e-6)
    sim = tb.Simulator(tb.compile(decay), **settings)
    for key, value in settings.items():
        assert sim.settings[key] == value
    results = sim.run()
    assert results.ok
    np.testing.assert_allclose(results.time, [0.5, 0.625, 0.75, 0.875, 1.0])
    # The states start at t_start with the model's initial value.
    np.testing.assert_allclose(results["x"][:, 0], np.exp(-2.0 * (results.time - 0.5)), rtol=1e-6)


def test_jacobian_steps_keeps_the_ode23s_jacobian(decay):
    system = tb.compile(decay)
    every = tb.Simulator(system, solver="ode23s", rtol=1e-6, atol=1e-9)
    kept = tb.Simulator(system, solver="ode23s", rtol=1e-6, atol=1e-9, jacobian_steps=3)
    assert every.settings["jacobian_steps"] is None and kept.settings["jacobian_steps"] == 3
    a, b = every.run(), kept.run()
    assert a.ok and b.ok
    np.testing.assert_allclose(b["x"][-1], a["x"][-1], rtol=1e-5)


def test_jacobian_method_differences_for_ode23s_and_refusals(decay):
    # The decay's blocks give no Jacobian of their own: ode23s differences it under auto and
    # perturbation alike, and 'blocks' is refused.
    system = tb.compile(decay)
    auto = tb.Simulator(system, solver="ode23s", rtol=1e-6, atol=1e-9)
    diff = tb.Simulator(system, solver="ode23s", rtol=1e-6, atol=1e-9,
                        jacobian_method="perturbation")
    assert auto.settings["jacobian_method"] == "auto"
    assert diff.settings["jacobian_method"] == "perturbation"
    a, b = auto.run(), diff.run()
    assert a.ok and b.ok
    np.testing.assert_array_equal(a["x"], b["x"])
    with pytest.raises(ValueError, match="must be auto, perturbation or blocks, got 'exact'"):
        tb.Simulator(system, jacobian_method="exact")
    with pytest.raises(TypeError, match="setting 'jacobian_method': expected"):
        tb.Simulator(system, jacobian_method=1)
    with pytest.raises(ValueError, match="no block of this model gives a Jacobian of its own"):
        tb.Simulator(system, solver="cvode-bdf", jacobian_method="blocks")
    with pytest.raises(ValueError, match="ode45 forms none"):
        tb.Simulator(system, solver="ode45", jacobian_method="perturbation")


def test_sample_hits_step_over_passes_samples_that_change_nothing(decay):
    # A sampler of x that nothing continuous reads: stepping over, its 0.01 s hits no longer
    # end solver steps, and each is still a row at its exact time.
    decay.add_block("", "UnitDelay", "sampled", Ts=0.01)
    decay.connect("", "state.y", "sampled.u")
    decay.add_log("sampled.y", "sampled")
    system = tb.compile(decay)
    land = tb.Simulator(system, rtol=1e-7, atol=1e-10, max_step=0.5)
    over = tb.Simulator(system, rtol=1e-7, atol=1e-10, max_step=0.5, sample_hits="step_over")
    assert land.settings["sample_hits"] == "land" and over.settings["sample_hits"] == "step_over"
    a, b = land.run(), over.run()
    assert a.ok and b.ok
    steps = [int(re.search(r"steps (\d+)", r.stats).group(1)) for r in (a, b)]
    assert steps[0] >= 100 and steps[1] < steps[0] / 2, steps
    hits = np.round(b.time / 0.01) * 0.01
    assert np.count_nonzero(b.time == hits) == 101
    np.testing.assert_allclose(b["x"][:, 0], np.exp(-2.0 * b.time), rtol=1e-6)
    with pytest.raises(ValueError, match="'sample_hits' must be land or step_over, got 'skip'"):
        tb.Simulator(system, sample_hits="skip")
    with pytest.raises(ValueError, match="needs a variable-step ODE solver"):
        tb.Simulator(system, solver="ode4", sample_hits="step_over")


def test_none_unsets_an_optional_setting(decay):
    sim = tb.Simulator(tb.compile(decay), rtol=None, zero_crossings=False)
    assert sim.settings["rtol"] is None and sim.settings["zero_crossings"] is False
    assert sim.settings["atol"] == 1e-12  # the model's


def test_atol_auto_and_auto_scale(decay):
    """Simulink's `auto` absolute tolerance and its "Auto scale absolute tolerance"."""
    system = tb.compile(decay)
    sim = tb.Simulator(system, atol="auto")
    assert sim.settings["atol"] == "auto" and sim.settings["auto_scale_atol"] is True
    sim = tb.Simulator(system, auto_scale_atol=True)
    assert sim.settings["atol"] == 1e-12 and sim.settings["auto_scale_atol"] is True
    r = tb.simulate(decay, atol="auto", rtol=1e-6)
    np.testing.assert_allclose(r["x"][:, 0], np.exp(-2.0 * r.time), rtol=1e-4)
    with pytest.raises(ValueError, match="expected a positive number, None or 'auto', got 'automatic'"):
        tb.Simulator(system, atol="automatic")
    with pytest.raises(TypeError, match="'auto_scale_atol': expected True or False"):
        tb.Simulator(system, auto_scale_atol="on")
    # auto always scales: turning scaling off contradicts it, in either keyword order.
    for kwargs in ({"atol": "auto", "auto_scale_atol": False},
                   {"auto_scale_atol": False, "atol": "auto"}):
        with pytest.raises(ValueError, match="cannot be False with atol='auto'"):
            tb.Simulator(system, **kwargs)


def test_setting_errors(decay):
    system = tb.compile(decay)
    with pytest.raises(TypeError, match="unknown simulation setting 'tend'; expected one of: solver"):
        tb.Simulator(system, tend=1)
    with pytest.raises(TypeError, match="setting 't_end': expected a number"):
        tb.Simulator(system, t_end="1")
    with pytest.raises(TypeError, match="setting 'step': expected a number"):
        tb.Simulator(system, step=True)
    with pytest.raises(TypeError, match="setting 'solver': expected a solver name"):
        tb.Simulator(system, solver=3)
    with pytest.raises(TypeError, match="setting 'zero_crossings': expected True or False"):
        tb.Simulator(system, zero_crossings=1)
    with pytest.raises(ValueError, match="setting 'jacobian_steps': expected a whole number >= 1"):
        tb.Simulator(system, jacobian_steps=0)
    with pytest.raises(ValueError, match="setting 'jacobian_steps': expected a whole number >= 1"):
        tb.Simulator(system, jacobian_steps=2.5)
    with pytest.raises(ValueError, match="ode9"):
        tb.Simulator(system, solver="ode9")
    with pytest.raises(ValueError, match=r"t_end \(0\) must be after t_start \(0\)"):
        tb.Simulator(system, t_end=0)
    with pytest.raises(ValueError, match="step must be a positive number"):
        tb.Simulator(system, solver="ode1", step=-1e-3)
    with pytest.raises(ValueError, match="output_interval must be a positive number"):
        tb.Simulator(system, output_interval=0)


def test_simulate_compiles_and_runs(decay):
    results = tb.simulate(decay, extra_logs=["rate.y"], solver="ode4", step=1e-3)
    assert results.ok
    np.testing.assert_allclose(results["rate.y"], -2.0 * results["x"], rtol=1e-12)
    with pytest.raises(tb.ModelError, match=r"bad.xml:\d+: block 'n' \(Nope\): unknown block type"):
        tb.simulate(with_unknown_block(decay, "Nope"))
    with pytest.raises(TypeError):
        tb.simulate(decay, bogus=1)


def test_a_failed_run_reports_and_keeps_its_rows(blowup):
    results = tb.simulate(blowup, solver="ode1", step=0.01, t_end=2.0)
    assert not results.ok and not results.outcome
    assert 1.0 < results.outcome.t < 2.0
    assert "simulation failed at t = " in results.error
    assert "x (Integrator)" in results.error
    assert len(results) > 100 and results.time[-1] <= results.outcome.t
    assert np.all(np.isfinite(results["x.y"]))
    assert "failed" in repr(results) and "failed" in repr(results.outcome)
    results = tb.simulate(blowup, solver="ode45", t_end=2.0)
    assert not results.ok and "step size" in results.error
    assert abs(results.outcome.t - 1.0) < 1e-3


def test_a_failure_at_the_start_is_reported_too():
    m = tb.Model()
    m.add_block("", "Constant", "zero", value=0)
    m.add_block("", "Product", "inverse", ops="/")
    m.add_block("", "Integrator", "x")
    m.connect("", "zero.y", "inverse.u1")
    m.connect("", "inverse.y", "x.u")
    results = tb.simulate(m, solver="ode1", step=0.1, t_end=1.0)
    assert not results.ok and results.outcome.t == 0.0
    assert "inf" in results.error


def test_initialize_and_evaluate_derivatives(decay):
    sim = tb.Simulator(tb.compile(decay))
    with pytest.raises(ValueError, match="call initialize"):
        sim.evaluate_derivatives(0.0, np.array([1.0]))
    sim.initialize()
    np.testing.assert_array_equal(sim.state, [1.0])
    np.testing.assert_allclose(sim.evaluate_derivatives(0.0, np.array([0.5])), [-1.0])
    with pytest.raises(ValueError, match="x has 2 elements; the system has 1 continuous states"):
        sim.evaluate_derivatives(0.0, np.array([1.0, 2.0]))


def test_evaluate_derivatives_error(blowup):
    sim = tb.Simulator(tb.compile(blowup))
    sim.initialize()
    with pytest.raises(RuntimeError, match="x"):
        sim.evaluate_derivatives(0.0, np.array([math.inf]))


def test_the_simulator_keeps_its_system_alive(decay):
    sim = tb.Simulator(tb.compile(decay), t_end=0.5)  # no other reference to the System
    import gc
    gc.collect()
    assert sim.run().ok


def test_simulators_run_in_threads(decay):
    """The GIL is released while running: simulators of one System run side by side, and give
    what a lone run gives, bitwise."""
    system = tb.compile(decay)
    alone = tb.Simulator(system, solver="ode4", step=1e-5).run()["x"]
    out = [None] * 4

    def work(i):
        out[i] = tb.Simulator(system, solver="ode4", step=1e-5).run()["x"]

    threads = [threading.Thread(target=work, args=(i,)) for i in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    for x in out:
        assert np.array_equal(x, alone)


def test_consecutive_zero_crossings_stop_a_chattering_switch():
    # x' = -sign(x): at t = 1 the switch reverses its own input. The run fails there, with
    # the block named, after max_consecutive_zc crossings, and keeps what it computed.
    model = tb.Model("chatter")
    model.add_block("", "Integrator", "x", x0=1)
    model.add_block("", "Sign", "s")
    model.add_block("", "Gain", "k", k=-1)
    model.connect("", "x.y", "s.u")
    model.connect("", "s.y", "k.u")
    model.connect("", "k.y", "x.u")
    model.add_log("x.y", "x")
    system = tb.compile(model)
    sim = tb.Simulator(system, solver="cvode-bdf", t_end=3, max_consecutive_zc=30)
    assert sim.settings["max_consecutive_zc"] == 30
    assert sim.settings["zc_time_tolerance"] == pytest.approx(10 * 128 * np.finfo(float).eps)
    results = sim.run()
    assert not results.ok
    assert "30 zero crossings in a row at block 's' (Sign)" in results.error
    assert abs(results.time[-1] - 1.0) < 1e-9
    with pytest.raises(ValueError, match="max_consecutive_zc"):
        tb.Simulator(system, max_consecutive_zc=0)


def test_a_state_of_its_own_scale_takes_its_own_absolute_tolerance():
    """x = 1e-9 exp(-2 t) under atol 1e-6: loose with auto, within rtol with abs_tol."""
    def run(abs_tol):
        m = tb.Model("small")
        m.add_block("", "Gain", "rate", k=-2)
        m.add_block("", "Integrator", "state", x0=1e-9, abs_tol=abs_tol)
        m.connect("", "state.y", "rate.u")
        m.connect("", "rate.y", "state.u")
        m.add_log("state.y", "x")
        m.set_simulation(solver="ode45", t_end=3, rtol=1e-6, atol=1e-6, max_step=1)
        results = tb.simulate(m)
        assert results.ok
        x = results["x"][:, 0]
        return np.max(np.abs(x - 1e-9 * np.exp(-2.0 * results.time)))

    assert run("auto") > 5e-12  # measured 1.4e-11 (4 steps)
    assert run(1e-18) < 1e-14   # measured 4.1e-17 (30 steps)
    m = tb.Model("m")
    m.add_block("", "Integrator", "state", abs_tol="auto")
    assert m.get_param("state", "abs_tol") == "auto"
    with pytest.raises(tb.ModelError, match="parameter 'abs_tol' is auto, not a number"):
        m.get_param_value("state", "abs_tol")
    m.set_param("state", "abs_tol", [1e-9, 1e-8])
    assert list(m.get_param_vector("state", "abs_tol")) == [1e-9, 1e-8]


def test_fixed_step_zero_crossings_stop_a_limited_integrator_at_its_limit():
    m = tb.Model("limit")
    m.add_block("", "Constant", "rate", value=1)
    m.add_block("", "Integrator", "x", upper=0.55)
    m.connect("", "rate.y", "x.u")
    m.add_log("x.y", "x")
    m.set_simulation(solver="ode4", step=0.1, t_end=1)
    system = tb.compile(m)
    assert tb.Simulator(system).settings["fixed_step_zero_crossings"] is False
    off = tb.Simulator(system).run()
    on = tb.Simulator(system, fixed_step_zero_crossings=True).run()
    assert np.min(np.abs(off.time - 0.55)) > 0.04
    row = np.argmin(np.abs(on.time - 0.55))  # the located crossing is a row, a hair past 0.55
    assert abs(on.time[row] - 0.55) < 1e-12 and on["x"][row, 0] == 0.55
    with pytest.raises(TypeError, match="fixed_step_zero_crossings"):
        tb.Simulator(system, fixed_step_zero_crossings="on")
