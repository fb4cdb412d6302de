"""max_wall_time as a keyword: a run that exceeds it ends like a failed one, its results so far
kept; invalid values are refused."""

import os
import time

import pytest

import twinblocks as tb


def slow_system():
    here = os.path.dirname(os.path.abspath(__file__))
    return tb.compile(tb.load(os.path.join(here, "..", "..", "tests", "data", "slow.xml")))


def test_a_long_run_stops_at_max_wall_time():
    sim = tb.Simulator(slow_system(), max_wall_time=0.2)
    assert sim.settings["max_wall_time"] == 0.2
    start = time.monotonic()
    results = sim.run()
    assert time.monotonic() - start < 2.0
    assert not results.ok
    assert "exceeded max_wall_time" in results.error
    assert len(results.time) > 1 and results.time[-1] < 1e4


@pytest.mark.parametrize("bad", [0.0, -1.0])
def test_max_wall_time_must_be_positive(bad):
    with pytest.raises(ValueError, match="max_wall_time must be a positive number"):
        tb.Simulator(slow_system(), max_wall_time=bad)


def test_max_wall_time_must_be_a_number():
    with pytest.raises(TypeError, match="setting 'max_wall_time': expected a number"):
        tb.Simulator(slow_system(), max_wall_time="soon")
