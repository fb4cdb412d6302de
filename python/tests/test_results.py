"""Results: numpy arrays keyed by logged name, source path or column; time, CSV."""

import csv

import numpy as np
import pytest

import twinblocks as tb


@pytest.fixture
def results():
    m = tb.Model()
    m.add_block("", "Clock", "clock")
    m.add_block("", "Constant", "v", value=[1, 2, 3])
    m.add_log("clock.t", "t")
    m.add_log("v.y")
    return tb.simulate(m, solver="ode1", step=0.25, t_end=1.0)


def test_lookups(results):
    assert results.keys() == ["t", "v.y"]
    assert len(results) == 5
    np.testing.assert_array_equal(results.time, [0, 0.25, 0.5, 0.75, 1.0])
    t = results["t"]
    assert t.shape == (5, 1) and t.dtype == np.float64
    np.testing.assert_array_equal(t[:, 0], results.time)
    np.testing.assert_array_equal(results["clock.t"], t)  # by source too
    v = results["v.y"]
    assert v.shape == (5, 3)
    np.testing.assert_array_equal(v, np.tile([1.0, 2.0, 3.0], (5, 1)))
    np.testing.assert_array_equal(results["v.y[2]"], np.full((5, 1), 3.0))
    assert results.columns == ["t", "v.y[0]", "v.y[1]", "v.y[2]"]
    assert "t" in results and "clock.t" in results and "v.y[1]" in results
    assert "nope" not in results
    table = results.to_array()
    assert table.shape == (5, 5)
    np.testing.assert_array_equal(table[:, 0], results.time)
    np.testing.assert_array_equal(table[:, 2:], v)


def test_arrays_are_copies(results):
    a = results["t"]
    a[:] = -1
    assert results["t"][1, 0] == 0.25


def test_unknown_signal_raises_key_error_with_a_suggestion(results):
    with pytest.raises(KeyError, match="no logged signal 'v.z'.*did you mean 'v.y'"):
        results["v.z"]


def test_write_csv(results, tmp_path):
    path = tmp_path / "r.csv"
    results.write_csv(str(path))
    rows = list(csv.reader(path.open()))
    assert rows[0] == ["time", "t", "v.y[0]", "v.y[1]", "v.y[2]"]
    assert rows[2] == ["0.25", "0.25", "1", "2", "3"]
    with pytest.raises(RuntimeError, match="cannot write results"):
        results.write_csv(str(tmp_path / "no" / "r.csv"))


def test_results_outlive_the_simulator():
    m = tb.Model()
    m.add_block("", "Clock", "clock")
    m.add_log("clock.t")
    sim = tb.Simulator(tb.compile(m), solver="ode1", step=0.5, t_end=1.0)
    results = sim.run()
    del sim
    np.testing.assert_array_equal(results["clock.t"][:, 0], [0, 0.5, 1.0])
