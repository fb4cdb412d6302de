"""load, load_string, save, to_xml: the C++ reader and writer, and their errors."""

import pytest

import twinblocks as tb

TEXT = """<?xml version="1.0" encoding="UTF-8"?>
<model name="small" format="1">
  <var name="k" value="3"/>
  <block type="Constant" name="c" value="k"/>
  <block type="Gain" name="g" k="2"/>
  <connect from="c.y" to="g.u"/>
  <log signal="g.y" as="y"/>
</model>
"""


def test_load_string_and_back():
    m = tb.load_string(TEXT)
    assert m.name == "small"
    assert m.variables == {"k": "3"}
    assert [b.name for b in m.diagram().blocks] == ["c", "g"]
    assert m.diagram().connections == [("c.y", "g.u")]
    assert m.logs == [("g.y", "y")]
    assert tb.load_string(tb.to_xml(m)) == m


def test_load_file_and_save(repo, tmp_path):
    m = tb.load(repo / "examples" / "mass_spring_damper.xml")
    assert m.file.endswith("examples/mass_spring_damper.xml")
    out = tmp_path / "msd.xml"
    tb.save(m, out)
    assert tb.load(str(out)) == m
    assert out.read_text() == tb.to_xml(m)


def test_load_reads_includes(repo):
    m = tb.load(repo / "models" / "gripper4" / "g2_power.xml")
    assert m.includes == ["gripper4_hand.xml"]
    assert m.defines == []
    assert {"Gripper4", "Phalanx", "Palm", "JointClosure", "ContactDetector"} <= {
        d.name for d in m.library}


def test_load_errors_give_file_and_line(tmp_path):
    with pytest.raises(tb.ModelError, match="cannot open model file") as info:
        tb.load(tmp_path / "missing.xml")
    assert info.value.file.endswith("missing.xml")
    with pytest.raises(tb.ModelError) as info:
        tb.load_string("<model name='x' format='1'>\n  <block type='Gain'/>\n</model>", "bad.xml")
    assert str(info.value).startswith("bad.xml:2:")
    assert (info.value.file, info.value.line) == ("bad.xml", 2)
    with pytest.raises(tb.ModelError, match="<string>:1"):
        tb.load_string("<model")
    with pytest.raises(tb.ModelError, match="cannot open included file 'nope.xml'"):
        tb.load_string("<model name='x' format='1'><include file='nope.xml'/></model>")


def test_save_error(tmp_path):
    with pytest.raises(RuntimeError):
        tb.save(tb.Model(), tmp_path / "no" / "such" / "dir" / "m.xml")


def test_import_urdf_runs_and_warns_of_left_out_meshes(repo):
    urdf = repo / "tests" / "data" / "urdf" / "ur5.urdf"
    with pytest.warns(UserWarning, match="visual mesh .* not found"):
        m = tb.import_urdf(urdf, t_end=0.2)
    assert m.name == "ur5"
    assert len(m.find_blocks(type="RevoluteJoint")) == 6
    results = tb.simulate(m)
    q = results["shoulder_lift_joint.q"]
    assert q.shape[0] > 2
    # Released at q = 0, the upper arm falls: the shoulder lift joint turns.
    assert abs(q[-1]) > 1e-3


def test_import_urdf_torque_inport_and_errors(repo):
    data = repo / "tests" / "data" / "urdf"
    with pytest.warns(UserWarning):
        m = tb.import_urdf(data / "panda.urdf", actuation="torque")
    assert [p.name for p in m.diagram().ports if p.kind == "inport"] == ["tau"]
    with pytest.raises(tb.ModelError, match=r"missing_parent.urdf:7: .*parent link 'bsae'"):
        tb.import_urdf(data / "bad" / "missing_parent.urdf")
    with pytest.raises(ValueError, match="unknown actuation 'force'"):
        tb.import_urdf(data / "ur5.urdf", actuation="force")
