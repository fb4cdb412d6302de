"""Ctrl-C during a run: it stops after the step in progress and KeyboardInterrupt is raised,
the rows so far kept in the Simulator, as the command line keeps them (exit status 130)."""

import os
import signal
import threading
import time

import pytest

import twinblocks as tb


def long_decay():
    """dx/dt = -x over 1e6 s in fixed steps of 1e-4 s: minutes of wall time if not stopped."""
    m = tb.Model("long")
    m.add_block("", "Gain", "rate", k=-1)
    m.add_block("", "Integrator", "state", x0=1)
    m.connect("", "state.y", "rate.u")
    m.connect("", "rate.y", "state.u")
    m.add_log("state.y", "x")
    m.set_simulation(solver="ode4", step=1e-4, t_end=1e6, output_interval=1)
    return m


@pytest.mark.parametrize("how", ["run", "advance_to"])
def test_ctrl_c_stops_the_run_and_keeps_the_rows(how):
    sim = tb.Simulator(tb.compile(long_decay()))
    timer = threading.Timer(0.5, lambda: os.kill(os.getpid(), signal.SIGINT))
    start = time.monotonic()
    timer.start()
    try:
        with pytest.raises(KeyboardInterrupt):
            if how == "run":
                sim.run()
            else:
                sim.advance_to(1e6)
    finally:
        timer.cancel()
    wall = time.monotonic() - start
    # Asked every 0.1 s: it stops within a fraction of a second of the signal.
    assert wall < 5.0
    results = sim.results()
    assert 0.0 < sim.time < 1e6
    assert results.time[-1] <= sim.time
    assert len(results.time) >= 2
    # The rows are the run's (x = exp(-t), one per simulated second).
    t = results.time
    assert abs(results["x"][1, 0] - 2.718281828459045 ** -t[1]) < 1e-9
    # The simulator can go on from where it stopped.
    outcome = sim.advance_to(sim.time + 1.0)
    assert outcome.ok, outcome.error


def test_ctrl_c_stops_a_sweep_and_writes_the_table_of_what_ran(tmp_path):
    # Three runs of a minute or more each: stopped 0.5 s into the first, which ends there
    # (failed, interrupted); the other two never start. The table is still written.
    timer = threading.Timer(0.5, lambda: os.kill(os.getpid(), signal.SIGINT))
    start = time.monotonic()
    timer.start()
    try:
        with pytest.raises(KeyboardInterrupt):
            tb.sweep(long_decay(), set={"rate.k": [-1, -2, -3]}, out_dir=str(tmp_path))
    finally:
        timer.cancel()
    assert time.monotonic() - start < 5.0
    table = (tmp_path / "summary.csv").read_text().splitlines()
    assert len(table) == 4
    assert table[1].startswith("0,-1,failed,") and "interrupted at t = " in table[1]
    assert table[2].startswith("1,-2,not run,,")
    assert table[3].startswith("2,-3,not run,,")
