"""Block types written in Python (twinblocks.UserBlock, docs/user-blocks.md): a Python
mass-spring-damper against the catalog's blocks with every solver, zero crossings and resets,
discrete states, errors from the hooks, saved states, sweeps, and the cost of a call."""

import math
import os
import pathlib
import time

import numpy as np
import pytest

import twinblocks as tb


@tb.register_block
class PyMassSpringDamper(tb.UserBlock):
    """A mass on a spring and damper: m x'' + c x' + k x = F. The outputs are the states."""

    inputs = [tb.Input("F", doc="applied force, N", feedthrough=False)]
    outputs = [tb.Output("x", doc="position, m"), tb.Output("v", doc="velocity, m/s")]
    params = [tb.Param("m", 1.0, "mass, kg"), tb.Param("c", 0.0, "damping, N s/m"),
              tb.Param("k", 1.0, "stiffness, N/m"), tb.Param("x0", 0.0, "initial position, m"),
              tb.Param("v0", 0.0, "initial velocity, m/s")]

    def __init__(self, m, c, k, x0, v0):
        super().__init__()
        if m <= 0:
            raise ValueError(f"m must be positive, got {m}")
        self.m, self.c, self.k = m, c, k
        self.declare_continuous_states(2, initial=[x0, v0])

    def calc_outputs(self, t, x, xd, u):
        return x[0], x[1]

    def calc_derivatives(self, t, x, xd, u):
        return [x[1], (u[0][0] - self.c * x[1] - self.k * x[0]) / self.m]


@tb.register_block
class PyBouncingBall(tb.UserBlock):
    """A ball that bounces off h = 0 with restitution cr: a zero crossing and a reset."""

    outputs = [tb.Output("h", doc="height, m"), tb.Output("v", doc="velocity, m/s")]
    params = [tb.Param("g", 9.81, "m/s^2"), tb.Param("cr", 0.8, "restitution"),
              tb.Param("h0", 2.0, "initial height, m")]

    def __init__(self, g, cr, h0):
        super().__init__()
        self.g, self.cr = g, cr
        self.declare_continuous_states(2, initial=[h0, 0.0])
        self.declare_zero_crossings(1)

    def calc_outputs(self, t, x, xd, u):
        return x[0], x[1]

    def calc_derivatives(self, t, x, xd, u):
        return [x[1], -self.g]

    def calc_zero_crossings(self, t, x, xd, u):
        return [x[0]]

    def reset(self, t, x, xd, u):
        if x[0] <= 0.0 and x[1] < 0.0:
            return [x[0], -self.cr * x[1]]
        return None


@tb.register_block
class PyAccumulator(tb.UserBlock):
    """y[k] = s[k], s[k+1] = s[k] + u[k]: a discrete sum at sample time Ts."""

    inputs = [tb.Input("u")]
    outputs = [tb.Output("y")]
    params = [tb.Param("Ts", None, "sample time, s")]

    def __init__(self, Ts):
        super().__init__()
        self.declare_discrete_states(1)
        self.declare_sample_time(Ts)

    def calc_outputs(self, t, x, xd, u):
        return xd[0]

    def update(self, t, x, xd, u):
        return [xd[0] + u[0][0]]


M, C, K, X0, V0 = 1.3, 0.45, 7.1, 0.2, -0.3


def add_plant(m, plant, suffix=""):
    """The oscillator's plant, driven by 'force.y', logging x and v (+ suffix): 'python', 'cc'
    (the example library's MassSpringDamper) or 'blocks' (Integrator, Gain and Sum)."""
    if plant == "blocks":
        m.add_block("", "Gain", "input_gain", k="1/m")
        m.add_block("", "Gain", "damping", k="-c/m")
        m.add_block("", "Gain", "spring", k="-k/m")
        m.add_block("", "Sum", "acceleration", signs="+++")
        # Position first: the states in the Python block's order [x, v].
        m.add_block("", "Integrator", "position", x0="x0")
        m.add_block("", "Integrator", "velocity", x0="v0")
        for a, b in [("force.y", "input_gain.u"), ("input_gain.y", "acceleration.u1"),
                     ("damping.y", "acceleration.u2"), ("spring.y", "acceleration.u3"),
                     ("acceleration.y", "velocity.u"), ("velocity.y", "position.u"),
                     ("velocity.y", "damping.u"), ("position.y", "spring.u")]:
            m.connect("", a, b)
        m.add_log("position.y", "x" + suffix)
        m.add_log("velocity.y", "v" + suffix)
        return
    params = dict(m="m", c="c", k="k", x0="x0", v0="v0")
    name = "plant" + suffix
    if plant == "python":
        m.add_block("", "PyMassSpringDamper", name, **params)
    else:
        m.add_block("", "MassSpringDamper", name, library="libtwinblocks_example_blocks.so",
                    **params)
    m.connect("", "force.y", name + ".F")
    m.add_log(name + ".x", "x" + suffix)
    m.add_log(name + ".v", "v" + suffix)


def oscillator(plant, solver="ode4", second=None):
    """The oscillator driven by a sine force, with `plant` (and a `second` one, logged as
    x_2 and v_2)."""
    m = tb.Model("oscillator")
    for name, value in dict(m=M, c=C, k=K, x0=X0, v0=V0).items():
        m.set_variable(name, value)
    m.set_simulation(solver=solver, t_end=6, step=1e-3, rtol=1e-9, atol=1e-11)
    m.add_block("", "Sine", "force", amplitude=1.7, frequency=2.3)
    add_plant(m, plant)
    if second:
        add_plant(m, second, "_2")
    return m


@pytest.mark.parametrize("solver", ["ode1", "ode3", "ode4", "ode5", "ros2", "ode1be"])
def test_python_mass_spring_damper_matches_the_diagram_at_fixed_step(solver):
    """L6: the Python block and the Integrator/Gain/Sum diagram, each in a run of its own with
    the same fixed-step solver and settings, agree to 1e-12 at every step. (ode1be: 1e-10; it
    takes one Newton step with a finite-difference Jacobian, whose quotients round differently
    for the two plants.)"""
    python = tb.simulate(oscillator("python", solver))
    blocks = tb.simulate(oscillator("blocks", solver))
    assert python.ok, python.error
    assert blocks.ok, blocks.error
    assert len(python) == len(blocks) > 1000
    assert np.array_equal(python.time, blocks.time)
    tolerance = 1e-10 if solver == "ode1be" else 1e-12
    for name in ["x", "v"]:
        assert np.max(np.abs(python[name] - blocks[name])) <= tolerance, name


@pytest.mark.parametrize("solver", ["ode23", "ode45", "ode23s", "cvode-bdf", "cvode-adams",
                                    "arkode-erk", "arkode-dirk", "ida"])
def test_python_mass_spring_damper_matches_the_diagram_at_variable_step(solver):
    """L6 with the variable-step solvers: both plants in one run, so one step sequence (two
    runs would step differently: a step size comes from an error estimate that is the
    difference of two nearly equal solutions, and the plants' different rounding moves it by
    1e-7 relative); every recorded row within 1e-12."""
    results = tb.simulate(oscillator("python", solver, second="blocks"))
    assert results.ok, results.error
    assert len(results) > 50
    for name in ["x", "v"]:
        assert np.max(np.abs(results[name] - results[name + "_2"])) <= 1e-12, name


@pytest.mark.parametrize("solver", ["ode4", "ode45"])
def test_python_and_library_blocks_agree(solver):
    results = tb.simulate(oscillator("python", solver, second="cc"))
    assert results.ok, results.error
    assert np.max(np.abs(results["x"] - results["x_2"])) <= 1e-12


def test_python_block_in_a_model_loaded_from_xml():
    text = tb.to_xml(oscillator("python", "ode45"))
    assert 'type="PyMassSpringDamper"' in text and "library" not in text
    model = tb.load_string(text, "python_block.xml")
    assert model.find_block("plant").type == "PyMassSpringDamper"
    results = tb.simulate(model)
    assert results.ok and len(results) > 10
    assert tb.load_string(tb.to_xml(model), "again.xml") == model


def test_library_block_added_from_python_writes_its_library():
    model = oscillator("cc")
    assert model.find_block("plant").library == "libtwinblocks_example_blocks.so"
    assert 'library="libtwinblocks_example_blocks.so"' in tb.to_xml(model)
    assert "from libtwinblocks_example_blocks.so" in repr(model.find_block("plant"))


def test_parameters_are_checked_against_the_python_type():
    model = oscillator("python")
    with pytest.raises(tb.ModelError, match="unknown parameter 'mass'; valid parameters: m, c"):
        model.set_param("plant", "mass", 2)
    with pytest.raises(tb.ModelError, match="no port 'G'"):
        model.connect("", "force.y", "plant.G")
    model.set_param("plant", "m", -1)
    with pytest.raises(tb.ModelError, match="m must be positive, got -1.0"):
        tb.compile(model)


def test_bouncing_ball_bounces_at_the_closed_form_time():
    m = tb.Model("ball")
    m.add_block("", "PyBouncingBall", "ball", h0=2, cr=0.8)
    m.add_log("ball.h", "h")
    m.add_log("ball.v", "v")
    results = tb.simulate(m, solver="ode45", t_end=1.5, rtol=1e-10, atol=1e-12)
    assert results.ok, results.error
    t1 = math.sqrt(2 * 2.0 / 9.81)
    # The row of the impact holds the outputs before the reset; the next is on the way up.
    up = np.nonzero(results["v"][:, 0] > 0)[0][0]
    assert abs(results.time[up - 1] - t1) < 1e-9
    assert abs(results["v"][up, 0] - (0.8 * 9.81 * t1 - 9.81 * (results.time[up] - t1))) < 1e-8
    assert np.max(results["h"][results.time > t1]) <= 0.64 * 2.0 + 1e-9


def test_discrete_python_block_matches_hand_recursion():
    m = tb.Model("sum")
    m.add_block("", "Constant", "one", value=0.5)
    m.add_block("", "PyAccumulator", "acc", Ts=0.1)
    m.connect("", "one.y", "acc.u")
    m.add_log("acc.y", "y")
    results = tb.simulate(m, solver="ode4", step=0.05, t_end=1)
    assert results.ok, results.error
    k = np.floor(results.time / 0.1 + 1e-9)
    assert np.allclose(results["y"][:, 0], 0.5 * k, atol=1e-12)


class Failing(tb.UserBlock):
    """x' = 1 until t = 0.5, then a ZeroDivisionError."""

    outputs = [tb.Output("y")]

    def __init__(self):
        super().__init__()
        self.declare_continuous_states(1)

    def calc_outputs(self, t, x, xd, u):
        return x[0]

    def calc_derivatives(self, t, x, xd, u):
        return [1.0 / (0.5 - t) if t < 0.5 else 1.0 / 0.0]


def test_an_exception_in_a_hook_fails_the_run_with_block_hook_and_time():
    tb.register_block(Failing, name="PyFailing")
    m = tb.Model("failing")
    m.add_subsystem("", "sub")
    m.add_block("sub", "PyFailing", "thing")
    m.add_log("sub/thing.y", "y")
    results = tb.simulate(m, solver="ode4", step=0.01, t_end=1)
    assert not results.ok
    assert results.error.startswith("simulation failed at t = 0.49 s")
    assert "at t = 0.5 s: block 'sub/thing' (PyFailing): " in results.error
    assert "ZeroDivisionError: float division by zero (in calc_derivatives, at" in results.error
    assert "test_user_blocks.py:" in results.error
    assert "\n" not in results.error


def test_wrong_results_from_a_hook_fail_the_run():
    class WrongWidth(PyMassSpringDamper):
        def calc_derivatives(self, t, x, xd, u):
            return [1.0, 2.0, 3.0]

    tb.register_block(WrongWidth, name="PyWrongWidth")
    m = oscillator("python")
    m.replace_block("plant", "PyWrongWidth")
    results = tb.simulate(m, t_end=0.1)
    assert not results.ok
    assert "calc_derivatives returned has 3 values; expected 2" in results.error


def test_registration_refuses_what_a_type_cannot_be():
    class Bad(tb.UserBlock):
        """A block."""

        inputs = [tb.Input("1u")]

    with pytest.raises(ValueError, match="port name '1u' is not an identifier"):
        tb.register_block(Bad)
    with pytest.raises(ValueError, match="is a block type of the catalog"):
        tb.register_block(PyMassSpringDamper, name="Gain")
    with pytest.raises(TypeError, match="not a subclass of twinblocks.UserBlock"):
        tb.register_block(int)
    assert {"PyMassSpringDamper", "PyBouncingBall"} <= set(tb.registered_block_types())


def test_a_missing_hook_is_a_compile_error():
    class NoDerivatives(tb.UserBlock):
        """States without derivatives."""

        outputs = [tb.Output("y")]

        def __init__(self):
            super().__init__()
            self.declare_continuous_states(1)

        def calc_outputs(self, t, x, xd, u):
            return x[0]

    tb.register_block(NoDerivatives, name="PyNoDerivatives")
    m = tb.Model()
    m.add_block("", "PyNoDerivatives", "n")
    with pytest.raises(tb.ModelError, match="declares continuous states but its class defines "
                                            "no calc_derivatives"):
        tb.compile(m)


def test_saved_state_restores_a_run_with_a_python_block():
    system = tb.compile(oscillator("python", "ode45"))
    sim = tb.Simulator(system)
    sim.advance_to(2.0)
    snapshot = sim.save_state()
    sim.advance_to(4.0)
    first = sim.read_continuous_states(sim.find_continuous_states("plant"))
    sim.restore_state(snapshot)
    sim.advance_to(4.0)
    again = sim.read_continuous_states(sim.find_continuous_states("plant"))
    assert np.array_equal(first, again)


def test_sweep_over_a_python_block_parameter_on_threads():
    model = oscillator("python", "ode45")
    model.add_summary(["plant.x"], "final", "x")
    rows = tb.sweep(model, set={"plant.k": [4, 7.1, 9]}, threads=2)
    assert [r["status"] for r in rows] == ["ok"] * 3
    reference = tb.simulate(oscillator("python", "ode45"))["x"][-1, 0]
    assert rows[1]["summaries"] == {"final(plant.x)": reference}


def cost_per_step(plant, steps=4000):
    """Wall time per ode4 step (s) of the oscillator with `plant`, best of three runs."""
    best = math.inf
    for _ in range(3):
        start = time.perf_counter()
        results = tb.simulate(oscillator(plant, "ode4"), t_end=steps * 1e-3)
        best = min(best, time.perf_counter() - start)
        assert results.ok
    return best / steps


def test_cost_of_a_python_block():
    """The cost of the Python block per ode4 step (4 calc_outputs and 4 calc_derivatives
    calls), over the same model with the C++ library's block: docs/user-blocks.md quotes these
    figures (TWINBLOCKS_PRINT_COST=1 prints them)."""
    python = cost_per_step("python")
    library = cost_per_step("cc")
    per_step = python - library
    if os.environ.get("TWINBLOCKS_PRINT_COST"):
        print(f"\nPython block: {per_step * 1e6:.1f} us per ode4 step "
              f"({per_step / 8 * 1e6:.2f} us per call); whole step {python * 1e6:.1f} us, "
              f"with the C++ library's block {library * 1e6:.2f} us")
    # A generous bound: the figure is a few tens of microseconds on a 2020s machine.
    assert per_step < 1e-3
