"""The editing calls added to graph::Model after the first binding (replace_block, find_blocks,
numeric set_param, get_param_value/get_param_vector, create_subsystem, expand_define), define
bodies edited in place ('define:NAME' paths), top-level inports, and errors carrying the file:line
of a block read from a file: what each does, and each error path."""

import numpy as np
import pytest

import twinblocks as tb


@pytest.fixture
def loop():
    """x' = -k x through a Gain (rate) and an Integrator (state), with a Constant left over."""
    m = tb.Model("loop")
    m.set_variable("kv", 2)
    m.add_block("", "Gain", "rate", k="-kv")
    m.add_block("", "Integrator", "state", x0=1)
    m.add_block("", "Constant", "c", value=[1, 2, 3])
    m.connect("", "state.y", "rate.u")
    m.connect("", "rate.y", "state.u")
    m.add_log("state.y", "x")
    m.set_simulation(solver="ode4", step=0.01, t_end=0.5)
    return m


def test_replace_block_keeps_name_place_and_lines(loop):
    loop.replace_block("rate", "Saturation", lower=-10, upper=10)
    b = loop.find_block("rate")
    assert (b.type, b.params) == ("Saturation", {"lower": "-10", "upper": "10"})
    assert [x.name for x in loop.diagram().blocks] == ["rate", "state", "c"]
    assert ("rate.y", "state.u") in loop.diagram().connections
    # Within its limits the Saturation passes x on: x' = x, x = exp(t).
    results = tb.simulate(loop)
    assert results.ok
    np.testing.assert_allclose(results["x"][-1, 0], np.exp(0.5), rtol=1e-6)


def test_replace_block_errors(loop):
    before = loop.copy()
    with pytest.raises(tb.ModelError, match="no block 'nope' in the model"):
        loop.replace_block("nope", "Gain")
    with pytest.raises(tb.ModelError, match=r"block 'rate' \(Gian\): unknown block type 'Gian'; "
                                            "did you mean 'Gain'"):
        loop.replace_block("rate", "Gian")
    with pytest.raises(tb.ModelError, match="unknown parameter 'kk'"):
        loop.replace_block("rate", "Gain", kk=1)
    with pytest.raises(tb.ModelError, match="cannot replace: the line 'state.y' -> 'rate.u' uses "
                                            "port 'u', which Constant does not have"):
        loop.replace_block("rate", "Constant", value=1)
    assert loop == before


def test_find_blocks_by_type_path_param_and_value(loop):
    sub = loop.add_subsystem("", "sub")
    loop.add_block(sub, "Gain", "g1", k=3)
    loop.add_block(sub, "Gain", "g2", k="kv")
    assert loop.find_blocks(type="Gain") == ["rate", "sub/g1", "sub/g2"]
    assert loop.find_blocks(path="sub/g?") == ["sub/g1", "sub/g2"]
    assert loop.find_blocks(path="**/g2") == ["sub/g2"]
    assert loop.find_blocks(type="") == ["rate", "state", "c", "sub", "sub/g1", "sub/g2"]
    assert loop.find_blocks(param="k") == ["rate", "sub/g1", "sub/g2"]
    assert loop.find_blocks(param="k", value="kv") == ["sub/g2"]
    assert loop.find_blocks(type="Gain", path="sub/*", value="ignored without param") == [
        "sub/g1", "sub/g2"]
    assert loop.find_blocks(type="Nope") == []
    with pytest.raises(tb.ModelError, match="block path pattern 'sub//g1'"):
        loop.find_blocks(path="sub//g1")
    with pytest.raises(TypeError):
        loop.find_blocks("Gain")  # keywords only


def test_set_param_numbers_read_back_bitwise(loop):
    x = 0.1 + 0.2
    loop.set_param("rate", "k", x)
    assert loop.get_param("rate", "k") == "0.30000000000000004"
    assert loop.get_param_value("rate", "k") == x
    values = [np.pi, -1e-300, 1 / 3]
    loop.set_param("c", "value", values)
    texts = ", ".join(tb.format_number(v) for v in values)
    assert loop.get_param("c", "value") == "[" + texts + "]"
    v = loop.get_param_vector("c", "value")
    assert isinstance(v, np.ndarray) and v.shape == (3,)
    assert list(v) == values  # bitwise
    loop.set_param("c", "value", np.array([0.5, 0.25]))
    assert loop.get_param("c", "value") == "[0.5, 0.25]"
    loop.set_param("c", "value", np.float64(7.5))
    assert loop.get_param_value("c", "value") == 7.5
    loop.set_param("c", "value", [[1, 0], [0, 1]])  # nested: a matrix, as text
    assert loop.get_param("c", "value") == "[[1, 0], [0, 1]]"
    with pytest.raises(TypeError):
        loop.set_param("c", "value", None)
    with pytest.raises(TypeError):
        loop.set_param("c", "value", [1, None])


def test_get_param_value_evaluates_with_variables_and_defaults(loop):
    assert loop.get_param_value("rate", "k") == -2.0
    loop.set_variable("kv", "3*2")
    assert loop.get_param_value("rate", "k") == -6.0
    assert loop.get_param_value("state", "lower") == -np.inf  # the catalog's default
    np.testing.assert_array_equal(loop.get_param_vector("c", "value"), [1, 2, 3])
    np.testing.assert_array_equal(loop.get_param_vector("rate", "k"), [-6.0])


def test_get_param_value_errors(loop):
    with pytest.raises(tb.ModelError, match="no block 'x' in the model"):
        loop.get_param_value("x", "k")
    loop.add_subsystem("", "sub")
    with pytest.raises(tb.ModelError, match="a subsystem has no parameters"):
        loop.get_param_value("sub", "k")
    with pytest.raises(tb.ModelError, match=r"block 'rate' \(Gain\): unknown parameter 'kk'"):
        loop.get_param_value("rate", "kk")
    with pytest.raises(tb.ModelError, match="parameter 'value' is 3x1, not a scalar"):
        loop.get_param_value("c", "value")
    loop.set_param("c", "value", [[1, 2], [3, 4]])
    with pytest.raises(tb.ModelError, match="is a 2x2 matrix, not a vector"):
        loop.get_param_vector("c", "value")
    loop.set_param("rate", "k", "-undefined_name")
    with pytest.raises(tb.ModelError, match="parameter 'k' = '-undefined_name': .*undefined_name"):
        loop.get_param_value("rate", "k")
    loop.add_block("", "Saturation", "sat")
    loop.add_block("", "MinMax", "mm", op="min")
    with pytest.raises(tb.ModelError, match="parameter 'op' is text, not a number"):
        loop.get_param_value("mm", "op")


def test_create_subsystem_keeps_behaviour(loop):
    before = tb.simulate(loop)
    path = loop.create_subsystem("", ["state"], "plant")
    assert path == "plant"
    assert [b.name for b in loop.diagram().blocks] == ["rate", "plant", "c"]
    # The two lines crossing the new boundary go through ports named after their inner ends.
    assert sorted((p.kind, p.name) for p in loop.diagram("plant").ports) == [
        ("inport", "state_u"), ("outport", "state_y")]
    assert loop.logs == [("plant/state.y", "x")]  # the log followed its block
    after = tb.simulate(loop)
    np.testing.assert_array_equal(after["x"], before["x"])


def test_create_subsystem_errors(loop):
    before = loop.copy()
    with pytest.raises(tb.ModelError, match="no blocks to move"):
        loop.create_subsystem("", [], "g")
    with pytest.raises(tb.ModelError, match="block 'rate' is named twice"):
        loop.create_subsystem("", ["rate", "rate"], "g")
    with pytest.raises(tb.ModelError, match="no block 'nope'"):
        loop.create_subsystem("", ["nope"], "g")
    with pytest.raises(tb.ModelError, match="invalid block name '1g'"):
        loop.create_subsystem("", ["rate"], "1g")
    with pytest.raises(tb.ModelError, match="a block named 'c' already exists"):
        loop.create_subsystem("", ["rate"], "c")
    with pytest.raises(tb.ModelError, match="no block 'nope' in the model"):
        loop.create_subsystem("nope", ["rate"], "g")
    assert loop == before


def test_define_body_edited_in_place_and_expanded(loop):
    body = loop.add_define("Leaky", ["gain"])
    assert body == "define:Leaky"
    loop.add_inport(body, "u")
    loop.add_outport(body, "y")
    loop.add_block(body, "Gain", "g", k="gain")
    loop.connect(body, ".u", "g.u")
    loop.connect(body, "g.y", ".y")
    loop.set_param("define:Leaky/g", "k", "gain*2")
    assert loop.find_define("Leaky").body.find("g").params == {"k": "gain*2"}
    loop.replace_block("rate", "Leaky", gain="-kv/2")
    before = tb.simulate(loop)
    loop.expand_define("rate")
    b = loop.find_block("rate")
    assert b.is_subsystem and b.body.find("g").params == {"k": "(-kv/2)*2"}
    after = tb.simulate(loop)
    np.testing.assert_array_equal(after["x"], before["x"])


def test_define_body_and_expand_errors(loop, repo):
    with pytest.raises(tb.ModelError, match="no define 'Nope' in the model"):
        loop.add_block("define:Nope", "Gain", "g")
    loop.file = str(repo / "models" / "gripper4" / "here.xml")
    loop.add_include("../lib/contact_detector.xml")
    with pytest.raises(tb.ModelError, match="define 'ContactDetector' is read from an include, "
                                            "and only the model's own defines are edited"):
        loop.add_block("define:ContactDetector", "Gain", "g")
    with pytest.raises(tb.ModelError, match="'Gain' is not a define"):
        loop.expand_define("rate")
    with pytest.raises(tb.ModelError, match="no block 'x' in the model"):
        loop.expand_define("x")
    loop.add_subsystem("", "sub")
    with pytest.raises(tb.ModelError, match="is a subsystem already"):
        loop.expand_define("sub")


def test_top_level_inport_is_an_external_input(loop):
    loop.add_inport("", "cmd", width=3)
    loop.add_block("", "Gain", "g", k=2)
    loop.connect("", ".cmd", "g.u")
    assert loop.diagram().ports[0].width == "3"
    assert tb.compile(loop).find_signal("g.y").width == 3
    with pytest.raises(tb.ModelError, match="declares no <inport> 'nope'"):
        loop.connect("", ".nope", "rate.u")
    with pytest.raises(tb.ModelError, match="at the top level: it takes only inports"):
        loop.add_outport("", "out")
    sub = loop.add_subsystem("", "sub")
    with pytest.raises(tb.ModelError, match="only a top-level inport states a width"):
        loop.add_inport(sub, "u", width=2)


def test_edit_errors_on_a_block_read_from_a_file_say_where(tmp_path):
    path = tmp_path / "read.xml"
    path.write_text('<model name="m" format="1">\n'
                    '  <block type="Gain" name="g" k="2"/>\n'
                    '</model>\n')
    m = tb.load(str(path))
    with pytest.raises(tb.ModelError) as info:
        m.set_param("g", "gain", 1)
    e = info.value
    assert (e.file, e.line, e.block_path, e.block_type) == (str(path), 2, "g", "Gain")
    assert str(e).startswith(f"{path}:2: block 'g' (Gain): unknown parameter 'gain'")
