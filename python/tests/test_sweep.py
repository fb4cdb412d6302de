"""twinblocks.sweep: batch runs over parameter values from Python, as `twinblocks sweep` runs
them: grid, zip and Monte Carlo plans, failed and invalid runs as rows, the same files as the
command line (summary.csv byte for byte), and every error path."""

import math
import os
import pathlib
import subprocess

import pytest

import twinblocks as tb


def growth():
    """x' = k x^2, x(0) = 1: x = 1 / (1 - k t) leaves every bound at t = 1/k (k > 1)."""
    m = tb.Model("growth")
    m.set_variable("k", 0.5)
    m.set_simulation(solver="ode45", t_end=1, rtol=1e-8, atol=1e-10, output_interval=0.01)
    m.add_block("", "Expression", "square", expr="u1^2")
    m.add_block("", "Gain", "rate", k="k")
    m.add_block("", "Integrator", "x", x0=1)
    m.add_block("", "Gain", "out", k=1)
    m.connect("", "x.y", "square.u1")
    m.connect("", "square.y", "rate.u")
    m.connect("", "rate.y", "x.u")
    m.connect("", "x.y", "out.u")
    m.add_log("out.y", "y")
    m.add_summary(["x.y"], "final", "x at the end")
    return m


def test_grid_runs_each_combination_in_order():
    rows = tb.sweep(growth(), set={"k": [0.25, 0.5], "out.k": "1,2"}, threads=2)
    assert [r["index"] for r in rows] == [0, 1, 2, 3]
    assert [r["values"] for r in rows] == [
        {"k": "0.25", "out.k": "1"}, {"k": "0.25", "out.k": "2"},
        {"k": "0.5", "out.k": "1"}, {"k": "0.5", "out.k": "2"}]
    for r in rows:
        assert (r["status"], r["t_reached"], r["error"]) == ("ok", 1.0, "")
        k = float(r["values"]["k"])
        assert r["summaries"]["final(x.y)"] == pytest.approx(1 / (1 - k), rel=1e-6)
        assert r["wall_seconds"] >= 0


def test_zip_and_outputs():
    rows = tb.sweep(growth(), set={"k": [0.25, 0.5], "out.k": [3, 4]}, zip=True,
                    outputs=["max(out.y)", "mean(x.y)"])
    assert [r["values"] for r in rows] == [{"k": "0.25", "out.k": "3"},
                                           {"k": "0.5", "out.k": "4"}]
    assert list(rows[1]["summaries"]) == ["final(x.y)", "max(out.y)", "mean(x.y)"]
    assert rows[1]["summaries"]["max(out.y)"] == pytest.approx(4 * 2.0, rel=1e-6)


def test_atol_auto_and_auto_scale_for_every_run():
    rows = tb.sweep(growth(), set={"k": [0.25, 0.5]}, atol="auto", rtol=1e-8)
    for r in rows:
        assert r["status"] == "ok"
        k = float(r["values"]["k"])
        assert r["summaries"]["final(x.y)"] == pytest.approx(1 / (1 - k), rel=1e-6)
    scaled = tb.sweep(growth(), set={"k": [0.5]}, auto_scale_atol=True)
    assert scaled[0]["status"] == "ok"
    with pytest.raises(ValueError, match="cannot be False with atol='auto'"):
        tb.sweep(growth(), set={"k": [0.5]}, atol="auto", auto_scale_atol=False)
    with pytest.raises(ValueError, match="expected a positive number or 'auto', got 'often'"):
        tb.sweep(growth(), set={"k": [0.5]}, atol="often")


def test_a_failed_and_an_invalid_run_are_rows():
    rows = tb.sweep(growth(), set={"k": ["0.5", "4", "bogus"]})
    assert [r["status"] for r in rows] == ["ok", "failed", "invalid"]
    assert rows[1]["t_reached"] == pytest.approx(0.25, rel=1e-3)
    assert "simulation failed at t = 0.25" in rows[1]["error"]
    assert "x (Integrator)" in rows[1]["error"]
    assert math.isnan(rows[2]["t_reached"]) and "bogus" in rows[2]["error"]
    assert rows[2]["summaries"] == {}


def test_monte_carlo_depends_on_the_seed_only():
    def values(seed, threads):
        rows = tb.sweep(growth(), set={"k": "uniform(0.1, 0.9)"}, samples=4, seed=seed,
                        threads=threads, t_end=0.1)
        return [r["values"]["k"] for r in rows]
    assert values(7, 1) == values(7, 2)
    assert values(7, 1) != values(8, 1)
    assert all(0.1 <= float(v) < 0.9 for v in values(7, 1))


def cli():
    path = os.environ.get("TWINBLOCKS_CLI")
    if not path:
        pytest.skip("TWINBLOCKS_CLI is not set (ctest sets it)")
    return path


def test_python_and_the_command_line_write_the_same_files(tmp_path):
    model = growth()
    model_file = tmp_path / "growth.xml"
    tb.save(model, str(model_file))
    py_dir, cli_dir = tmp_path / "py", tmp_path / "cli"
    rows = tb.sweep(tb.load(str(model_file)), set={"k": [0.5, 4, 0.25], "out.k": "1,2"},
                    outputs=["max(out.y)"], plots=["out.y"], out_dir=str(py_dir), threads=2)
    run = subprocess.run([cli(), "sweep", str(model_file), "--set", "k=0.5,4,0.25",
                          "--set", "out.k=1,2", "--max", "out.y", "--plot", "out.y", "-q",
                          "-o", str(cli_dir)], capture_output=True, text=True)
    assert run.returncode == 3, run.stderr  # a run failed: the sweep ran and says so
    assert (py_dir / "summary.csv").read_bytes() == (cli_dir / "summary.csv").read_bytes()
    for k in range(6):
        name = f"run_{k:04d}.csv"
        assert (py_dir / name).read_bytes() == (cli_dir / name).read_bytes()
    assert (py_dir / "plot_out.y.svg").read_bytes() == (cli_dir / "plot_out.y.svg").read_bytes()
    assert (py_dir / "timings.csv").exists()
    header = (py_dir / "summary.csv").read_text().splitlines()[0]
    assert header == "index,k,out.k,status,t_reached,error,final(x.y),max(out.y)"
    assert len(rows) == 6


def test_run_files_off_writes_the_table_only(tmp_path):
    tb.sweep(growth(), set={"k": [0.5]}, out_dir=str(tmp_path / "d"), run_files=False)
    assert sorted(p.name for p in (tmp_path / "d").iterdir()) == ["summary.csv", "timings.csv"]


def test_sweep_errors():
    m = growth()
    with pytest.raises(ValueError, match="no variable 'kk'; did you mean 'k'"):
        tb.sweep(m, set={"kk": [1]})
    with pytest.raises(tb.ModelError, match="unknown parameter 'gain'"):
        tb.sweep(m, set={"rate.gain": [1]})
    with pytest.raises(tb.ModelError, match="no block 'nothing'"):
        tb.sweep(m, set={"nothing.k": [1]})
    with pytest.raises(ValueError, match="at least one"):
        tb.sweep(m, set={})
    with pytest.raises(ValueError, match="an empty value"):
        tb.sweep(m, set={"k": "1,,2"})
    with pytest.raises(ValueError, match="no values"):
        tb.sweep(m, set={"k": []})
    with pytest.raises(ValueError):
        tb.sweep(m, set={"k": [1, 2], "out.k": [1, 2, 3]}, zip=True)
    with pytest.raises(ValueError, match="samples"):
        tb.sweep(m, set={"k": "uniform(0, 1)"})
    with pytest.raises(ValueError, match="1 or more threads"):
        tb.sweep(m, set={"k": [1]}, threads=0)
    with pytest.raises(ValueError, match="ode99"):
        tb.sweep(m, set={"k": [1]}, solver="ode99")
    with pytest.raises(ValueError, match="expected OP\\(SIGNAL\\)"):
        tb.sweep(m, set={"k": [1]}, outputs=["median(x.y)"])
    with pytest.raises(tb.ModelError, match="x.nope"):
        tb.sweep(m, set={"k": [1]}, outputs=["final(x.nope)"])
    with pytest.raises(ValueError, match="plots are written to out_dir"):
        tb.sweep(m, set={"k": [1]}, plots=["x.y"])
    with pytest.raises(ValueError, match="cannot write"):
        tb.sweep(m, set={"k": [1]}, out_dir="/proc/no_such_dir")
    with pytest.raises(TypeError, match="unknown sweep setting 'stop'"):
        tb.sweep(m, set={"k": [1]}, stop=1)
    with pytest.raises(TypeError, match="expected a number"):
        tb.sweep(m, set={"k": [1]}, t_end="1")
    with pytest.raises(TypeError, match="expected a list of values"):
        tb.sweep(m, set={"k": 1})
