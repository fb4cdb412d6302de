"""E2: the four-fingered gripper built in Python from its DH description
(examples/gripper4_from_dh.py, block by block with the editing API), saved, loaded by the C++
reader and simulated, is the hand-written models/gripper4/ model and runs bitwise like it.

The one difference, explained in the example's header: the written gripper4_hand.xml includes
the grasp library by a path relative to the folder it is written to, where the hand-written
one says "../lib/grasp.xml"; both name the same file, and the Gripper4 define is equal."""

import os
import subprocess

import numpy as np
import pytest

import twinblocks as tb
from conftest import REPO, load_example

T_END = 0.17  # s: past the first contacts (0.153 s)


@pytest.fixture(scope="module")
def written(tmp_path_factory):
    out = tmp_path_factory.mktemp("gripper4") / "py"
    example = load_example("gripper4_from_dh")
    lib, g2 = example.write_models(out)
    return out, lib, g2, example


def hand_written(name):
    return tb.load(REPO / "models" / "gripper4" / name)


def test_written_g2_equals_the_hand_written_model(written):
    out, _, built, _ = written
    read_back = tb.load(out / "g2_power.xml")
    assert read_back == built  # save + C++ reader: nothing lost
    assert read_back == hand_written("g2_power.xml")
    # Their libraries (read through the includes) hold the same defines, in the same order.
    assert read_back.library == hand_written("g2_power.xml").library


def test_written_hand_equals_the_hand_written_define_and_differs_only_in_the_include(written):
    out, built, _, _ = written
    read_back = tb.load(out / "gripper4_hand.xml")
    original = hand_written("gripper4_hand.xml")
    assert read_back == built
    assert read_back.defines == original.defines
    assert [d.name for d in read_back.defines] == ["Gripper4"]
    assert read_back.defines[0].params == ["rate", "filter_tc", "stiffness", "damping",
                                           "transition_width", "mu_s", "mu_d", "v_crit",
                                           "threshold", "Ts"]
    assert original.includes == ["../lib/grasp.xml"]
    (include,) = read_back.includes
    assert include != "../lib/grasp.xml"
    assert os.path.samefile(out / include, REPO / "models" / "lib" / "grasp.xml")
    # Nothing else differs.
    same_include = read_back.copy()
    assert same_include.name == original.name and same_include.variables == original.variables
    assert same_include.diagram() == original.diagram() and same_include.logs == original.logs


def test_the_built_hand_follows_the_dh_description(written):
    _, lib, _, example = written
    body = lib.defines[0].body
    assert [b.name for b in body.blocks] == ["palm", "finger1", "finger2", "finger3", "finger4",
                                             "contacts", "angles", "tips", "touches"]
    f1 = body.find("finger1").body
    assert f1.find("mount").params["translation"] == "[0.045, 0.025, 0]"
    assert f1.find("mount").params["matrix"] == "[[0, -1, 0], [0, 0, -1], [1, 0, 0]]"
    assert [f1.find(f"phalanx{j}").params["a"] for j in (1, 2, 3)] == ["0.04", "0.03", "0.025"]
    assert body.find("finger2").body.find("mount").params["matrix"] == \
        "[[0, 1, 0], [0, 0, 1], [1, 0, 0]]"


def run(model):
    system = tb.compile(model)
    return system, tb.Simulator(system, t_end=T_END).run()


def test_simulated_bitwise_like_the_hand_written_model(written):
    out, _, built, example = written
    hand_system, hand = run(hand_written("g2_power.xml"))
    read_system, read = run(tb.load(out / "g2_power.xml"))
    built_system, built_results = run(built)
    assert hand.ok and read.ok and built_results.ok
    assert read_system.block_paths == hand_system.block_paths
    assert built_system.block_paths == hand_system.block_paths
    assert read.keys() == hand.keys()
    assert len(hand) == round(T_END / 1e-4) + 1  # the model's output_interval
    for other in (read, built_results):
        assert np.array_equal(other.time, hand.time)
        for name in hand.keys():
            assert np.array_equal(other[name], hand[name]), name
    # The first contacts: the proximal phalanges of fingers 2 and 4 at 0.153 s, nothing else yet.
    times = example.contact_set_times(read)
    assert set(n for n, t in times.items() if t is not None) == {"F2P1", "F4P1"}
    assert 0.152 < times["F2P1"] < 0.154 and times["F4P1"] == times["F2P1"]


def test_the_cxx_example_writes_the_same_files(written, tmp_path):
    program = os.environ.get("TWINBLOCKS_GRIPPER4_EXAMPLE")
    if not program:
        pytest.skip("TWINBLOCKS_GRIPPER4_EXAMPLE not set (ctest sets it)")
    py_out = written[0]
    cc_out = py_out.parent / "cc"  # the same depth: the same relative include
    done = subprocess.run([program, "--out", str(cc_out), "--t-end", "0.001"],
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    assert "equal to models/gripper4/g2_power.xml" in done.stdout
    for name in ("gripper4_hand.xml", "g2_power.xml"):
        assert (cc_out / name).read_text() == (py_out / name).read_text(), name


def test_the_example_script_runs(written, tmp_path, capsys):
    example = written[3]
    assert example.main(["--out", str(tmp_path), "--t-end", "0.16"]) == 0
    printed = capsys.readouterr().out
    assert "equal to models/gripper4/g2_power.xml" in printed
    assert "F2P1  0.15" in printed and "F1P1  never" in printed
