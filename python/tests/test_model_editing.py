"""Model's editing calls (graph::Model's, bound with snake_case names): what each does, and
each error path raising twinblocks.ModelError (a ValueError) with the C++ one-line message."""

import copy

import numpy as np
import pytest

import twinblocks as tb


@pytest.fixture
def model():
    m = tb.Model("m")
    sub = m.add_subsystem("", "sub")
    m.add_inport(sub, "u")
    m.add_outport(sub, "y")
    m.add_block(sub, "Gain", "g", k=2)
    m.connect(sub, ".u", "g.u")
    m.connect(sub, "g.y", ".y")
    m.add_block("", "Constant", "c", value=1)
    m.connect("", "c.y", "sub.u")
    return m


def test_model_error_is_a_value_error_with_parts():
    assert issubclass(tb.ModelError, ValueError)
    with pytest.raises(tb.ModelError) as info:
        tb.Model().add_block("", "Gain", "1x")
    e = info.value
    assert str(e) == "invalid block name '1x': names are letters, digits and '_', not starting with a digit"
    assert e.detail == str(e)
    assert (e.file, e.line, e.block_path, e.block_type) == ("", 0, "", "")
    assert "\n" not in str(e)


def test_new_model():
    m = tb.Model("plant", file="/tmp/plant.xml")
    assert (m.name, m.file, m.format) == ("plant", "/tmp/plant.xml", 1)
    assert tb.Model().name == "model"
    m.name = "renamed"
    assert m.name == "renamed"
    assert m.diagram() == tb.Diagram()
    assert "plant" not in repr(m) and "renamed" in repr(m)


def test_add_block_keeps_params_as_text_in_order(model):
    path = model.add_block("sub", "RigidTransform", "mount", translation=[0.045, 0.025, 0.0],
                           rotation="matrix", matrix=np.eye(3), angle="2*a", axis=(0, 0, 3))
    assert path == "sub/mount"
    b = model.find_block("sub/mount")
    assert b.type == "RigidTransform" and b.name == "mount" and not b.is_subsystem
    # Kept as written, in the order given: 'a' is no variable yet (compile evaluates it).
    assert list(b.params.items()) == [
        ("translation", "[0.045, 0.025, 0]"), ("rotation", "matrix"),
        ("matrix", "[[1, 0, 0], [0, 1, 0], [0, 0, 1]]"), ("angle", "2*a"), ("axis", "[0, 0, 3]")]
    assert b.body is None
    model.add_block("", "Mux", "mux", inputs=3)  # an int, in decimal
    assert model.get_param("mux", "inputs") == "3"


def test_add_block_errors(model):
    with pytest.raises(tb.ModelError, match="no block 'nope' in the model"):
        model.add_block("nope", "Gain", "g")
    with pytest.raises(tb.ModelError, match="'c' is a block of type 'Constant', not a subsystem"):
        model.add_block("c", "Gain", "g")
    with pytest.raises(tb.ModelError, match="invalid block name 'a b'"):
        model.add_block("", "Gain", "a b")
    with pytest.raises(tb.ModelError, match="a block named 'g' already exists in subsystem 'sub'"):
        model.add_block("sub", "Gain", "g")
    with pytest.raises(tb.ModelError, match="a block needs a type"):
        model.add_block("", "", "t")
    with pytest.raises(tb.ModelError, match="'commented' is not a parameter"):
        model.add_block("", "Gain", "g2", commented="on")
    with pytest.raises(tb.ModelError, match="invalid parameter name '2k'"):
        model.add_block("", "Gain", "g2", **{"2k": 1})
    with pytest.raises(TypeError, match="block 'g2' parameter 'k'"):
        model.add_block("", "Gain", "g2", k=True)
    with pytest.raises(TypeError):
        model.add_block("", "Gain", "g2", k={"a": 1})
    with pytest.raises(TypeError):
        model.add_block("", "Gain", "g2", k=None)
    # A failed call adds nothing.
    assert model.find_block("g2") is None


def test_add_subsystem(model):
    assert model.add_subsystem("sub", "inner") == "sub/inner"
    s = model.find_block("sub/inner")
    assert s.is_subsystem and s.type == "" and s.body == tb.Diagram()
    model.add_block("sub/inner", "Gain", "deep")
    assert model.find_block("sub/inner/deep").type == "Gain"
    with pytest.raises(tb.ModelError, match="no block 'x' in the model"):
        model.add_subsystem("x", "s")
    with pytest.raises(tb.ModelError, match="invalid block name ''"):
        model.add_subsystem("", "")
    with pytest.raises(tb.ModelError, match="already exists in the top level"):
        model.add_subsystem("", "c")


def test_remove_block_takes_its_lines(model):
    model.remove_block("sub/g")
    assert model.diagram("sub").connections == []
    model.remove_block("c")
    assert model.find_block("c") is None
    assert model.diagram().connections == []
    with pytest.raises(tb.ModelError, match="no block 'c' in the model"):
        model.remove_block("c")
    with pytest.raises(tb.ModelError, match="no block 'nope' in the model"):
        model.remove_block("nope/x")


def test_rename_block_rewrites_lines_and_logs(model):
    model.add_log("sub/g.y", "gy")
    model.rename_block("sub", "plant")
    assert model.find_block("sub") is None
    assert model.diagram().connections == [("c.y", "plant.u")]
    assert model.logs == [("plant/g.y", "gy")]
    model.rename_block("plant/g", "gain")
    assert model.diagram("plant").connections == [(".u", "gain.u"), ("gain.y", ".y")]
    model.rename_block("c", "c")  # the same name: nothing to do
    with pytest.raises(tb.ModelError, match="no block 'sub' in the model"):
        model.rename_block("sub", "x")
    with pytest.raises(tb.ModelError, match="invalid block name '9'"):
        model.rename_block("c", "9")
    with pytest.raises(tb.ModelError, match="a block named 'plant' already exists"):
        model.rename_block("c", "plant")


def test_set_and_get_param(model):
    model.set_param("sub/g", "k", 0.5)
    model.set_param("c", "value", [1, 2])
    assert model.get_param("sub/g", "k") == "0.5"
    assert model.get_param("c", "value") == "[1, 2]"
    # A parameter not written yet is added after the others.
    model.add_block("", "Saturation", "sat")
    assert model.get_param("sat", "upper") is None  # unwritten: the catalog's default
    model.set_param("sat", "upper", "2*pi")
    model.set_param("sat", "lower", -1)
    assert model.find_block("sat").params == {"upper": "2*pi", "lower": "-1"}
    with pytest.raises(tb.ModelError,
                       match=r"block 'sub/g' \(Gain\): unknown parameter 'extra'; "
                             "valid parameters: k"):
        model.set_param("sub/g", "extra", "2*pi")
    assert model.find_block("sub/g").params == {"k": "0.5"}  # unchanged
    with pytest.raises(tb.ModelError, match="no block 'x' in the model"):
        model.set_param("x", "k", 1)
    with pytest.raises(tb.ModelError, match="block 'sub': a subsystem has no parameters"):
        model.set_param("sub", "k", 1)
    with pytest.raises(tb.ModelError, match="'name' is not a parameter"):
        model.set_param("c", "name", "d")
    with pytest.raises(tb.ModelError, match="invalid parameter name 'a-b'"):
        model.set_param("c", "a-b", 1)
    with pytest.raises(TypeError, match="block 'c' parameter 'value'"):
        model.set_param("c", "value", object())
    with pytest.raises(tb.ModelError, match="no block 'x' in the model"):
        model.get_param("x", "k")
    with pytest.raises(tb.ModelError, match="no block 'nope' in the model"):
        model.get_param("nope/x", "k")


def test_block_path_errors_name_the_block():
    m = tb.Model()
    m.add_subsystem("", "s")
    with pytest.raises(tb.ModelError) as info:
        m.set_param("s", "k", 1)
    assert info.value.block_path == "s"
    assert str(info.value).startswith("block 's'")


def test_set_commented(model):
    model.set_commented("c")
    assert model.find_block("c").commented
    model.set_commented("c", False)
    assert not model.find_block("c").commented
    with pytest.raises(tb.ModelError, match="no block 'x' in the model"):
        model.set_commented("x", True)


def test_connect_and_disconnect(model):
    model.add_block("", "Terminator", "t")
    model.connect("", "sub.y", "t.u")
    assert ("sub.y", "t.u") in model.diagram().connections
    with pytest.raises(tb.ModelError, match="a line from 'sub.y' to 't.u' already exists in the top level"):
        model.connect("", "sub.y", "t.u")
    with pytest.raises(tb.ModelError, match="invalid port reference 'sub'"):
        model.connect("", "sub", "t.u")
    with pytest.raises(tb.ModelError, match="invalid port reference 't.'"):
        model.connect("", "sub.y", "t.")
    with pytest.raises(tb.ModelError, match="'.y' names a top-level <inport>, but the model "
                                            "declares no <inport> 'y'"):
        model.connect("", ".y", "t.u")
    with pytest.raises(tb.ModelError, match="no block 'x' in the model"):
        model.connect("x", "a.y", "b.u")
    assert model.disconnect("", "sub.y", "t.u") is True
    assert model.disconnect("", "sub.y", "t.u") is False
    with pytest.raises(tb.ModelError, match="no block 'x' in the model"):
        model.disconnect("x", "a.y", "b.u")


def test_set_variable(model):
    model.set_variable("a", 2)
    model.set_variable("b", "a*3")
    model.set_variable("a", 1.5)
    assert model.variables == {"a": "1.5", "b": "a*3"}
    with pytest.raises(tb.ModelError, match="invalid variable name '1a'"):
        model.set_variable("1a", 1)
    with pytest.raises(tb.ModelError, match="variable 'pi' takes the name of a built-in"):
        model.set_variable("pi", 3)
    with pytest.raises(TypeError, match="variable 'c'"):
        model.set_variable("c", None)


def test_snapshots_and_lookups(model):
    d = model.diagram("sub")
    assert [p.name for p in d.ports] == ["u", "y"]
    assert [p.kind for p in d.ports] == ["inport", "outport"]
    assert [b.name for b in d.blocks] == ["g"]
    assert d.find("g").params == {"k": "2"}
    assert d.find("nope") is None
    assert "1 blocks" in repr(d) and "Gain" in repr(d.find("g"))
    # A snapshot is a copy: editing the model does not change it.
    model.set_param("sub/g", "k", 3)
    assert d.find("g").params == {"k": "2"}
    with pytest.raises(tb.ModelError, match="no block 'nope' in the model"):
        model.diagram("nope")
    with pytest.raises(tb.ModelError, match="'c' is a block of type 'Constant', not a subsystem"):
        model.diagram("c")
    assert model.find_block("") is None
    assert model.find_block("nope/g") is None
    assert model.find_define("Nope") is None


def test_copy_and_equality(model):
    other = model.copy()
    assert other == model and other is not model
    other.set_param("sub/g", "k", 5)
    assert other != model
    assert copy.copy(model) == model and copy.deepcopy(model) == model
    # Equal models say the same thing: the file they came from is not compared.
    third = model.copy()
    third.file = "/elsewhere.xml"
    assert third == model


def test_format_number():
    assert tb.format_number(0.045) == "0.045"
    assert tb.format_number(1000.0) == "1000"
    assert tb.format_number(1e6) == "1e+06"
    assert tb.format_number(0.1 + 0.2) == "0.30000000000000004"
    assert float(tb.format_number(np.pi)) == np.pi


def test_param_values_from_numpy():
    m = tb.Model()
    m.add_block("", "Constant", "c", value=np.array([[1.0, 2.5], [0.0, -1.0]]))
    m.add_block("", "Mux", "m", inputs=np.int64(4))
    m.add_block("", "Sine", "s", amplitude=np.float64(0.25), phase=(1, 2))
    assert m.find_block("c").params == {"value": "[[1, 2.5], [0, -1]]"}
    assert m.find_block("m").params == {"inputs": "4"}
    assert m.find_block("s").params == {"amplitude": "0.25", "phase": "[1, 2]"}