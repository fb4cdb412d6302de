"""E6 Co-simulation from Python: the flagship twin's plant (models/robot6dof/cosim_plant.xml)
advanced in 1 ms steps, with the controller written here in numpy computing the motor torque
commands from the signals it reads, matches the closed-loop model
(models/robot6dof/cosim_closed_loop.xml: the same plant with the same law inside as discrete
blocks sampled every 1 ms) to 1e-9 rad and rad/s at every millisecond of the 0.5 s horizon.
A port of tests/acceptance/cosimulation_test.cc."""

import numpy as np
import pytest

import twinblocks as tb
from conftest import REPO

TS = 1e-3  # s, the controller's period
TOLERANCE = 1e-9  # rad, rad/s

# The controller of cosim_closed_loop.xml: PD on the joints plus gravity compensation from the
# model's own g(q), divided by the gear ratios (motor side).
Q_DESIRED = np.array([0.2, -0.3, 0.25, 0.1, -0.2, 0.3])  # rad
KP = np.array([2000.0, 2000, 800, 400, 400, 200])  # N m/rad
KD = np.array([200.0, 200, 80, 20, 20, 10])  # N m s/rad
GEAR_RATIO = np.array([80.0, 50, 50, 30, 30, 15])


def control(q, qd, g):
    """tau_ref = (Kp (q_d - q) - Kd qd + g) / n, in the closed loop's order of operations."""
    return (1.0 / GEAR_RATIO) * (KP * (Q_DESIRED - q) - KD * qd + g)


def cosimulate(plant, settings, controlled=True):
    """Steps the plant every millisecond with the controller above; returns its Results."""
    sim = tb.Simulator(plant, **settings)
    sim.initialize()
    # Handles once, before the loop.
    tau_ref = sim.find_input("tau_ref")
    q, qd, g = (sim.find_signal(s) for s in ("plant.q", "plant.qd", "gravity.tau"))
    t_end = plant.settings["t_end"]
    k = 1
    while True:
        if controlled:
            sim.set_input(tau_ref, control(sim.read(q), sim.read(qd), sim.read(g)))
        t_next = min(t_end, k * TS)  # t_k = k Ts, as the closed loop's sample hits
        outcome = sim.advance_to(t_next)
        assert outcome.ok, outcome.error
        if t_next >= t_end:
            break
        k += 1
    assert sim.time == t_end
    return sim.results()


@pytest.fixture(scope="module")
def models():
    plant = tb.compile(tb.load(str(REPO / "models" / "robot6dof" / "cosim_plant.xml")))
    closed = tb.compile(tb.load(str(REPO / "models" / "robot6dof" / "cosim_closed_loop.xml")))
    assert plant.settings["t_end"] == closed.settings["t_end"]
    return plant, closed


@pytest.mark.parametrize("solver", ["ode4", "ode45"])
def test_e6_python_controller_matches_the_closed_loop(models, solver):
    plant, closed = models
    settings = dict(solver=solver, rtol=1e-8, atol=1e-10)
    reference = tb.Simulator(closed, **settings).run()
    assert reference.ok, reference.error
    cosim = cosimulate(plant, settings)
    assert cosim["q"].shape == reference["q"].shape == (501, 6)
    np.testing.assert_array_equal(cosim.time, reference.time)
    q_error = np.max(np.abs(cosim["q"] - reference["q"]))
    qd_error = np.max(np.abs(cosim["qd"] - reference["qd"]))
    print(f"E6 ({solver}): max |q difference| {q_error:.3g} rad, "
          f"max |qd difference| {qd_error:.3g} rad/s")
    assert q_error <= TOLERANCE
    assert qd_error <= TOLERANCE
    # A co-simulation row at t_k holds the command of [t_(k-1), t_k) (set after the row is
    # written), the closed loop's that of [t_k, t_(k+1)).
    assert np.max(np.abs(cosim["tau_ref"][1:] - reference["tau_ref"][:-1])) <= TOLERANCE
    # A real motion toward the set point.
    assert reference["q"][-1, 1] < -0.25


def test_e6_check_can_fail_without_the_controller(models):
    plant, closed = models
    reference = tb.Simulator(closed).run()
    free = cosimulate(plant, {}, controlled=False)
    assert np.max(np.abs(free["q"] - reference["q"])) > 0.1
