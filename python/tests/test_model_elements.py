"""The editing calls the Python module adds beyond graph::Model's methods (ports, defines,
includes, logs, plots, summaries, simulation settings): what each does, each error path, and
that a model made with them writes XML the C++ reader reads back equal."""

import os
import pathlib

import pytest

import twinblocks as tb


@pytest.fixture
def model():
    m = tb.Model("m")
    m.add_subsystem("", "sub")
    m.add_block("", "Constant", "c", value=1)
    return m


def test_ports(model):
    model.add_inport("sub", "u")
    model.add_outport("sub", "y")
    model.add_port("sub", "base", "frame")
    ports = model.diagram("sub").ports
    assert [(p.kind, p.name, p.domain) for p in ports] == [
        ("inport", "u", ""), ("outport", "y", ""), ("port", "base", "frame")]
    assert "domain='frame'" in repr(ports[2])


@pytest.mark.parametrize("add", [
    lambda m, d, n: m.add_inport(d, n),
    lambda m, d, n: m.add_outport(d, n),
    lambda m, d, n: m.add_port(d, n, "frame"),
])
def test_port_errors(model, add):
    with pytest.raises(tb.ModelError, match="no block 'nope' in the model"):
        add(model, "nope", "p")
    with pytest.raises(tb.ModelError, match="'c' is a block of type 'Constant', not a subsystem"):
        add(model, "c", "p")
    with pytest.raises(tb.ModelError, match="invalid port name 'p q'"):
        add(model, "sub", "p q")
    add(model, "sub", "p")
    with pytest.raises(tb.ModelError, match="subsystem 'sub' already has a port 'p'"):
        add(model, "sub", "p")


def test_the_top_level_takes_only_inports(model):
    with pytest.raises(tb.ModelError, match="cannot declare port 'p' at the top level: it takes "
                                            "only inports"):
        model.add_outport("", "p")
    with pytest.raises(tb.ModelError, match="cannot declare port 'p' at the top level"):
        model.add_port("", "p", "frame")
    model.add_inport("", "p")  # an external input (width 1)
    assert [(p.kind, p.name, p.width) for p in model.diagram().ports] == [("inport", "p", "")]
    with pytest.raises(tb.ModelError, match="the top level already has a port 'p'"):
        model.add_inport("", "p")


def test_physical_port_needs_a_domain(model):
    with pytest.raises(tb.ModelError, match="physical port 'b': domain ''; expected one of: "
                                            "frame, rotational, electrical"):
        model.add_port("sub", "b", "")
    with pytest.raises(tb.ModelError, match="physical port 'b': domain 'fram'"):
        model.add_port("sub", "b", "fram")
    assert "b" not in [p.name for p in model.diagram("sub").ports]  # refused: nothing added
    model.add_port("sub", "b", "rotational")
    assert model.diagram("sub").ports[-1].domain == "rotational"


def test_define_from_a_subsystem_body(model):
    model.add_inport("sub", "u")
    model.add_outport("sub", "y")
    model.add_block("sub", "Gain", "g", k="gain")
    model.connect("sub", ".u", "g.u")
    model.connect("sub", "g.y", ".y")
    model.add_define("Scale", ["gain"], model.diagram("sub"))
    model.remove_block("sub")
    model.add_block("", "Scale", "twice", gain=2)
    model.connect("", "c.y", "twice.u")
    model.add_log("twice.y", "y")
    (d,) = model.defines
    assert (d.name, d.params) == ("Scale", ["gain"])
    assert d.body.find("g").params == {"k": "gain"}
    assert model.find_define("Scale") == d
    results = tb.simulate(model, solver="ode1", t_end=0.1, step=0.1)
    assert results.ok and results["y"][-1, 0] == 2.0
    model.add_define("Empty", [])
    assert model.find_define("Empty").body == tb.Diagram()


def test_define_errors(model):
    model.add_define("D", ["a"])
    with pytest.raises(tb.ModelError, match="invalid define name 'D x'"):
        model.add_define("D x", [])
    with pytest.raises(tb.ModelError, match="the model already has a define 'D'"):
        model.add_define("D", [])
    with pytest.raises(tb.ModelError,
                       match="invalid parameter name '1a' in the params of define 'E'"):
        model.add_define("E", ["1a"])
    with pytest.raises(tb.ModelError,
                       match="parameter 'a' given twice in the params of define 'E'"):
        model.add_define("E", ["a", "b", "a"])
    with pytest.raises(tb.ModelError, match="parameter 'pi' in the params of define 'E' takes a "
                                            "reserved name"):
        model.add_define("E", ["pi"])
    assert [d.name for d in model.defines] == ["D"]


def test_include_reads_the_library_at_once(repo, tmp_path):
    m = tb.Model("uses_lib", file=str(tmp_path / "m.xml"))
    m.add_include(os.path.relpath(repo / "models" / "lib" / "grasp.xml", tmp_path))
    names = [d.name for d in m.library]
    assert names[:3] == ["JointClosure", "Phalanx", "Palm"]
    assert "ContactDetector" in names  # grasp.xml includes it in turn
    assert m.find_define("Phalanx") is not None
    assert m.includes == [os.path.relpath(repo / "models" / "lib" / "grasp.xml", tmp_path)]


def test_include_relative_to_the_working_directory_without_a_file(repo, monkeypatch):
    monkeypatch.chdir(repo / "models" / "lib")
    m = tb.Model()
    m.add_include("contact_detector.xml")
    assert [d.name for d in m.library] == ["ContactDetector"]


def test_include_errors(repo, tmp_path):
    m = tb.Model(file=str(repo / "models" / "gripper4" / "here.xml"))
    with pytest.raises(tb.ModelError, match="<include> has an empty file name"):
        m.add_include("")
    with pytest.raises(tb.ModelError, match="cannot open included file 'missing.xml' "
                                            r"\(resolved to '.*models/gripper4/missing.xml'\)"):
        m.add_include("missing.xml")
    m.add_include("../lib/contact_detector.xml")
    with pytest.raises(tb.ModelError, match="'../lib/contact_detector.xml' is already included"):
        m.add_include("../lib/contact_detector.xml")
    # grasp.xml includes contact_detector.xml: its ContactDetector is known already.
    with pytest.raises(tb.ModelError, match="define 'ContactDetector' of .* is already defined at"):
        m.add_include("../lib/grasp.xml")
    assert m.includes == ["../lib/contact_detector.xml"]
    bad = tmp_path / "bad.xml"
    bad.write_text("<model name='x' format='1'><block/></model>\n")
    with pytest.raises(tb.ModelError, match="bad.xml:1"):
        tb.Model(file=str(tmp_path / "m.xml")).add_include("bad.xml")


def test_logs(model):
    model.add_log("c.y")
    model.add_log("sub/inner/g.y", "g")
    assert model.logs == [("c.y", ""), ("sub/inner/g.y", "g")]
    with pytest.raises(tb.ModelError, match="invalid signal 'c'; expected 'block.port'"):
        model.add_log("c")
    with pytest.raises(tb.ModelError, match="invalid signal 'c.y\\[0\\]'"):
        model.add_log("c.y[0]")
    with pytest.raises(tb.ModelError, match="invalid column name 'a b'"):
        model.add_log("c.y", "a b")
    with pytest.raises(tb.ModelError, match="duplicate log name 'g'"):
        model.add_log("c.y", "g")


def test_plots(model):
    model.add_plot("c.svg", ["c.y", "c.y[0]"], title="T", ylabel="m", yscale="log")
    model.add_plot("d.svg", ["c.y"])
    assert model.plots == [
        {"file": "c.svg", "signals": ["c.y", "c.y[0]"], "title": "T", "xlabel": "time (s)",
         "ylabel": "m", "yscale": "log"},
        {"file": "d.svg", "signals": ["c.y"], "title": "", "xlabel": "time (s)", "ylabel": "",
         "yscale": "linear"}]
    with pytest.raises(tb.ModelError, match="<plot> has an empty file name"):
        model.add_plot("", ["c.y"])
    with pytest.raises(tb.ModelError, match="a second plot writes 'c.svg'"):
        model.add_plot("c.svg", ["c.y"])
    with pytest.raises(tb.ModelError, match="<plot> has no signal"):
        model.add_plot("e.svg", [])
    with pytest.raises(tb.ModelError, match="invalid plot signal 'c.y\\[x\\]'"):
        model.add_plot("e.svg", ["c.y[x]"])
    with pytest.raises(tb.ModelError, match='yscale="loglog" on <plot>'):
        model.add_plot("e.svg", ["c.y"], yscale="loglog")


def test_summaries(model):
    model.add_summary(["c.y", "c.y[0]"], "max_abs", "largest")
    assert model.summaries == [{"signals": ["c.y", "c.y[0]"], "op": "max_abs", "label": "largest"}]
    with pytest.raises(tb.ModelError, match="<summary> has no signal"):
        model.add_summary([], "max")
    with pytest.raises(tb.ModelError, match="invalid summary signal '.y'"):
        model.add_summary([".y"], "max")
    with pytest.raises(tb.ModelError, match='op="median" on <summary>; expected one of: max, min'):
        model.add_summary(["c.y"], "median")


def test_simulation_settings(model):
    model.set_simulation(solver="ode3", step=1e-5, t_end="0.5")
    model.set_simulation(t_end=2)
    assert model.simulation == {"solver": "ode3", "step": "1e-05", "t_end": "2"}
    with pytest.raises(tb.ModelError, match="invalid simulation setting name '2x'"):
        model.set_simulation(**{"2x": 1})
    with pytest.raises(TypeError, match="simulation setting 'step'"):
        model.set_simulation(step=None)


def test_a_model_made_with_every_element_reads_back_equal(model, tmp_path):
    model.set_variable("a", 2)
    model.add_inport("sub", "u")
    model.add_port("sub", "f", "frame")
    model.add_define("D", ["a"], model.diagram("sub"))
    model.add_log("c.y", "cy")
    model.add_plot("c.svg", ["c.y"], yscale="log")
    model.add_summary(["c.y"], "rms", "rms of c")
    model.set_simulation(solver="ode1", step=0.1)
    model.set_commented("sub")
    path = tmp_path / "all.xml"
    tb.save(model, path)
    assert tb.load(path) == model
    assert tb.load_string(tb.to_xml(model)) == model
