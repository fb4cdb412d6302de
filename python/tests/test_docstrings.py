"""Every public class, function and method says what it does: help() is the reference."""

import inspect

import twinblocks as tb


def public_callables():
    for name in tb.__all__:
        obj = getattr(tb, name)
        yield name, obj
        if inspect.isclass(obj):
            for attr, member in vars(obj).items():
                if not attr.startswith("_"):
                    yield f"{name}.{attr}", member


def doc_text(obj):
    doc = getattr(obj, "__doc__", None) or ""
    # pybind11 puts the signature first; the documentation is what follows it.
    return "\n".join(line for line in doc.splitlines() if "(self:" not in line).strip()


def test_everything_public_has_a_docstring():
    missing = [name for name, obj in public_callables()
               if not name.startswith("ModelError.") and len(doc_text(obj)) < 10]
    assert missing == []


def test_editing_calls_document_their_errors():
    for name in ["add_block", "add_subsystem", "remove_block", "rename_block", "set_param",
                 "get_param", "set_commented", "connect", "disconnect", "set_variable",
                 "add_inport", "add_outport", "add_port", "add_define", "add_include", "add_log",
                 "add_plot", "add_summary", "set_simulation", "diagram"]:
        assert "Raises:" in getattr(tb.Model, name).__doc__, name
        assert "ModelError" in getattr(tb.Model, name).__doc__, name
    assert "Args:" in tb.Model.add_block.__doc__


def test_new_calls_document_their_errors():
    for name in ["replace_block", "find_blocks", "get_param_value", "get_param_vector",
                 "create_subsystem", "expand_define"]:
        assert "Raises:" in getattr(tb.Model, name).__doc__, name
        assert "ModelError" in getattr(tb.Model, name).__doc__, name
    for name in ["set_parameter", "set_variable"]:
        assert "ModelError" in getattr(tb.System, name).__doc__, name
    for name in ["advance_to", "find_input", "set_input", "find_signal", "read", "save_state",
                 "restore_state"]:
        assert "Raises:" in getattr(tb.Simulator, name).__doc__, name
    for part in ["Args:", "Returns:", "Raises:", "out_dir", "summary.csv"]:
        assert part in tb.sweep.__doc__, part
