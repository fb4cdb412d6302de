"""Generators for run_cases.py: inputs too large or too deep to write into a TOML file.

A case asks for one with `generate."FILE" = { fn = "NAME", args = [...] }`; each returns the
file's text (`sparse_file`, which run_cases.py makes itself with truncate, takes no disk).
Models are small and valid but for the one thing under test, which is on line 4 unless said.
"""


def model(body, solver="ode45"):
    """A small model around `body`, whose elements start on line 4."""
    return ('<?xml version="1.0" encoding="UTF-8"?>\n<model name="m" format="1">\n'
            f'  <simulation solver="{solver}" t_end="1"/>\n{body}</model>\n')


def gain_of(k, name="g"):
    """A Gain on line 4, fed by a Constant."""
    return model(f'  <block type="Gain" name="{name}" k="{k}"/>\n'
                 f'  <block type="Constant" name="c" value="1"/>\n'
                 f'  <connect from="c.y" to="{name}.u"/>\n')


def nested_urdf(depth):
    """A URDF whose link holds `depth` nested elements: a recursive parser overflows its stack."""
    return ('<?xml version="1.0"?>\n<robot name="r">\n  <link name="base">\n    ' +
            "<a>" * depth + "</a>" * depth + "\n  </link>\n</robot>\n")


def nested_defines(levels, fanout):
    """Defines each placing the previous one `fanout` times: fanout^levels blocks from a file of
    a few kB (the XML "billion laughs"); the top instance is on line levels + 5."""
    lines = ['  <define name="D0" params=""><block type="Constant" name="c" value="1"/></define>']
    for level in range(1, levels + 1):
        inner = "".join(f'<block type="D{level - 1}" name="b{i}"/>' for i in range(fanout))
        lines.append(f'  <define name="D{level}" params="">{inner}</define>')
    return model("\n".join(lines) + f'\n  <block type="D{levels}" name="top"/>\n')


def nested_subsystems(depth):
    """Subsystems nested `depth` deep on line 4, the innermost holding one Constant."""
    return model("  " + "".join(f'<subsystem name="s{i}">' for i in range(depth)) +
                 '<block type="Constant" name="c" value="1"/>' + "</subsystem>" * depth + "\n")


def long_expression(n):
    """A Gain whose k is an n-character expression ending in an unknown name."""
    return gain_of("1+" * max((n - 12) // 2, 1) + "no_such_name")


def long_block_name(n):
    """A Gain named with n characters whose k does not evaluate."""
    return gain_of("no_such_name", name="b" * n)


def nested_brackets(depth, open_, close):
    """A Gain whose k is one number inside `depth` nested brackets."""
    return gain_of(open_ * depth + "2" + close * depth)


def big_vector(n):
    """A Constant whose value is an n-element vector literal."""
    return model('  <block type="Constant" name="c" value="' + "0 " * n + '"/>\n')


def big_transfer_function(order, solver):
    """A TransferFunction of the given order (a literal den) driven by a Step, under `solver`."""
    return model('  <block type="TransferFunction" name="tf" num="1" den="' + "1 " * (order + 1) +
                 '"/>\n  <block type="Step" name="s"/>\n  <connect from="s.y" to="tf.u"/>\n',
                 solver)


def deep_xml(depth):
    """`depth` nested unknown elements on line 3, inside <model>."""
    return ('<?xml version="1.0"?>\n<model name="m" format="1">\n' + "<a>" * depth +
            "</a>" * depth + "\n</model>\n")


def repeated(prefix, unit, count, suffix):
    """prefix + unit * count + suffix: a long line, cell or name around a small template."""
    return prefix + unit * count + suffix


def csv_rows(rows, columns=2):
    """Results as `run` writes them: time, x, x1, x2 ..."""
    header = ",".join(["time", "x"] + [f"x{i}" for i in range(1, columns - 1)])
    return header + "\n" + "".join(f"{i * 0.01!r}" + ",1" * (columns - 1) + "\n"
                                   for i in range(rows))


GENERATORS = {f.__name__: f for f in (nested_urdf, nested_defines, nested_subsystems,
                                      long_expression, long_block_name, nested_brackets,
                                      big_vector, big_transfer_function, deep_xml, repeated,
                                      csv_rows)}
