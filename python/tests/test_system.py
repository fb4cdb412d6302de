"""compile and the System's queries: blocks, signal directory, logged signals, settings."""

import pytest

import twinblocks as tb
from conftest import with_unknown_block


def test_compile_and_queries(decay):
    s = tb.compile(decay)
    assert s.num_blocks == 2
    assert sorted(s.block_paths) == ["rate", "state"]
    assert dict(zip(s.block_paths, s.block_types)) == {"rate": "Gain", "state": "Integrator"}
    assert s.has_block("state") and not s.has_block("nope")
    assert s.num_continuous_states == 1
    assert s.num_discrete_states == 0 and s.num_zero_crossings == 0
    assert s.num_signals >= 2
    assert s.rates == []
    assert [(x.name, x.source, x.width) for x in s.logged_signals] == [("x", "state.y", 1)]
    assert {x.source for x in s.signal_directory} >= {"rate.y", "state.y"}
    assert s.find_signal("rate.y").width == 1
    assert s.find_signal("rate.nope") is None
    assert s.settings["solver"] == "ode45" and s.settings["t_end"] == 1.0
    assert s.settings["rtol"] == 1e-10 and s.settings["step"] is None
    assert "2 blocks" in repr(s) and "Signal" in repr(s.logged_signals[0])


def test_rates_of_a_discrete_model():
    m = tb.Model()
    m.add_block("", "Constant", "c", value=1)
    m.add_block("", "UnitDelay", "d", Ts=0.1)
    m.connect("", "c.y", "d.u")
    assert tb.compile(m).rates == [0.1]


def test_extra_logs(decay):
    s = tb.compile(decay, extra_logs=["rate.y"])
    assert [x.source for x in s.logged_signals] == ["state.y", "rate.y"]


def test_compile_errors_name_the_block(decay):
    with pytest.raises(tb.ModelError) as info:
        tb.compile(with_unknown_block(decay))
    assert info.value.block_path == "n"
    assert (info.value.file, info.value.line) == ("bad.xml", 14)
    assert "NoSuchBlock" in str(info.value)
    bad = decay.copy()
    bad.set_param("rate", "k", "-undefined_variable")
    with pytest.raises(tb.ModelError, match="undefined_variable"):
        tb.compile(bad)
    with pytest.raises(tb.ModelError, match="rate.nope"):
        tb.compile(decay, extra_logs=["rate.nope"])


def test_algebraic_loop_names_the_cycle():
    m = tb.Model()
    m.add_block("", "Gain", "a", k=1)
    m.add_block("", "Gain", "b", k=1)
    m.connect("", "a.y", "b.u")
    m.connect("", "b.y", "a.u")
    with pytest.raises(tb.ModelError, match="algebraic loop"):
        tb.compile(m)


def test_a_log_of_no_signal_fails_at_compile(decay):
    bad = decay.copy()
    bad.add_log("rate.nope")
    with pytest.raises(tb.ModelError, match="cannot log 'rate.nope': no such signal"):
        tb.compile(bad)
