"""Block types written in Python (docs/user-blocks.md, "Python blocks").

    import twinblocks as tb

    @tb.register_block
    class PyMassSpringDamper(tb.UserBlock):
        '''m x'' + c x' + k x = F.'''
        inputs = [tb.Input("F", doc="force, N", feedthrough=False)]
        outputs = [tb.Output("x", doc="position, m"), tb.Output("v", doc="velocity, m/s")]
        params = [tb.Param("m", 1.0, "mass, kg"), tb.Param("c", 0.0, "damping, N s/m"),
                  tb.Param("k", 1.0, "stiffness, N/m"), tb.Param("x0", 0.0, "m"),
                  tb.Param("v0", 0.0, "m/s")]

        def __init__(self, m, c, k, x0, v0):
            super().__init__()
            self.m, self.c, self.k = m, c, k
            self.declare_continuous_states(2, initial=[x0, v0])

        def calc_outputs(self, t, x, xd, u):
            return x[0], x[1]

        def calc_derivatives(self, t, x, xd, u):
            return [x[1], (u[0][0] - self.c * x[1] - self.k * x[0]) / self.m]

    model.add_block("", "PyMassSpringDamper", "plant", m=2, k=8)

A registered class is a block type like a catalog one: models built in Python or loaded
from XML name it by its type, and every solver runs it. The simulator calls the hooks with
the GIL held; what a run changes must live in the declared states, never in attributes of
`self` (one instance serves every simulation of a compiled model, and saved states restore
only what the simulator holds).
"""

import numbers

from . import _twinblocks

__all__ = ["Input", "Output", "Param", "UserBlock", "register_block"]

_KINDS = ("scalar", "vector", "matrix", "word", "string")


class Output:
    """An output port of a Python block type.

    Args:
        name: the port's name in lines ("plant.x").
        width: its number of elements (1 or more); __init__ may change it with
            set_port_width.
        doc: one line for the docs (meaning, unit).
    """

    def __init__(self, name, width=1, doc=""):
        self.name = str(name)
        self.width = int(width)
        self.doc = str(doc)

    def __repr__(self):
        return f"{type(self).__name__}({self.name!r}, width={self.width})"


class Input(Output):
    """An input port of a Python block type: as Output, and

    Args:
        feedthrough: True when calc_outputs reads this input (Simulink's direct
            feedthrough). A block whose outputs depend only on its states says False, so that
            it may close a feedback loop without an algebraic loop.
    """

    def __init__(self, name, width=1, doc="", feedthrough=True):
        super().__init__(name, width, doc)
        self.feedthrough = bool(feedthrough)


class Param:
    """A parameter of a Python block type.

    Args:
        name: its name in models (an identifier).
        default: the value when the model does not give it: a number, a list of numbers, or
            text as a model file writes it ("2*pi"); None: the model must give it.
        doc: one line, with the unit.
        kind: how the text is read and what __init__ receives: "scalar" (a float), "vector"
            (a 1-D numpy array), "matrix" (a 2-D numpy array), "word" (a str, one of `words`)
            or "string" (a str).
        words: the allowed words of a "word" parameter.
    """

    def __init__(self, name, default=None, doc="", kind="scalar", words=()):
        if kind not in _KINDS:
            raise ValueError(f"Param {name!r}: kind {kind!r}; expected one of {', '.join(_KINDS)}")
        self.name = str(name)
        self.default = default
        self.doc = str(doc)
        self.kind = kind
        self.words = [str(w) for w in words]

    def default_text(self):
        """The default as a model file would write it ("" when there is none)."""
        d = self.default
        if d is None:
            return ""
        if isinstance(d, str):
            return d
        if isinstance(d, numbers.Real) and not isinstance(d, bool):
            return _twinblocks.format_number(float(d))
        return "[" + ", ".join(_twinblocks.format_number(float(v)) for v in d) + "]"

    def __repr__(self):
        return f"Param({self.name!r}, {self.default!r})"


class UserBlock:
    """Base class of block types written in Python.

    A subclass lists its ports (`inputs`: list of Input, `outputs`: list of Output) and
    parameters (`params`:
    list of Param) as class attributes; its docstring is the type's documentation. Its
    __init__ takes the parameters as keyword arguments (evaluated: float, numpy array or str),
    calls super().__init__(), and declares states, zero crossings and the sample time. It
    then defines the hooks it needs; each gets the time t (s), the continuous states x and the
    discrete states xd (numpy arrays, copies), and the inputs u (a tuple of numpy arrays, one
    per input port, in order). The arrays are valid during the call: the block fills the same
    ones for its next call, so copy what you keep.

        calc_outputs(t, x, xd, u): the outputs: one value (a number or a sequence of the
            port's width) for a block with one output, else a sequence of them, one per
            output port. Needed when the block has outputs.
        calc_derivatives(t, x, xd, u): dx/dt, a sequence of len(x) numbers. Needed with
            continuous states.
        update(t, x, xd, u): the new discrete states (or None: unchanged); at the sample hits
            of a discrete block, at every major step of a continuous one.
        reset(t, x, xd, u): new continuous states, or None; at every major step (after
            update). A reset restarts the solver: return None when nothing changes.
        calc_zero_crossings(t, x, xd, u): the zero-crossing functions, one number each: the
            solver ends a step where one changes sign, and the major step there runs update
            and reset. Needed with zero crossings.

    An exception in a hook stops the run; the run's error names the block, the hook and the
    time.
    """

    inputs = ()
    outputs = ()
    params = ()
    category = "User blocks"
    reference = ""

    def __init__(self):
        self._tb_state()

    # ---- Declarations (in __init__) ----

    def declare_continuous_states(self, n, initial=None):
        """n continuous states, starting at `initial` (n numbers; zeros by default)."""
        s = self._tb_state()
        s["nx"] = int(n)
        s["x0"] = _initial(initial, int(n), "initial continuous states")

    def declare_discrete_states(self, n, initial=None):
        """n discrete states, starting at `initial` (n numbers; zeros by default)."""
        s = self._tb_state()
        s["nxd"] = int(n)
        s["xd0"] = _initial(initial, int(n), "initial discrete states")

    def declare_zero_crossings(self, n):
        """n zero-crossing functions (calc_zero_crossings)."""
        self._tb_state()["nzc"] = int(n)

    def declare_sample_time(self, period, offset=0.0):
        """Makes the block discrete: it runs at t = offset + k * period (s)."""
        s = self._tb_state()
        s["period"] = float(period)
        s["offset"] = float(offset)

    def set_port_width(self, name, width):
        """Changes the width of the port `name` from what the class's Input or Output says."""
        s = self._tb_state()
        for ports in (s["inputs"], s["outputs"]):
            for i, p in enumerate(ports):
                if p[0] == name:
                    ports[i] = (p[0], int(width)) + tuple(p[2:])
                    return
        raise ValueError(f"{type(self).__name__} has no port {name!r}")

    # ---- Read by twinblocks ----

    def _tb_state(self):
        s = self.__dict__.get("_tb_declared")
        if s is None:
            cls = type(self)
            s = {
                "inputs": [(p.name, p.width, p.feedthrough) for p in cls.inputs],
                "outputs": [(p.name, p.width) for p in cls.outputs],
                "nx": 0,
                "x0": [],
                "nxd": 0,
                "xd0": [],
                "nzc": 0,
                "period": 0.0,
                "offset": 0.0,
            }
            self.__dict__["_tb_declared"] = s
        return s


def _initial(values, n, what):
    if values is None:
        return [0.0] * n
    values = [float(v) for v in values]
    if len(values) != n:
        raise ValueError(f"{what}: {len(values)} values for {n} states")
    return values


def register_block(cls=None, *, name=None):
    """Registers a UserBlock subclass as a block type, named `name` or `cls.type_name` or the
    class's name; returns the class (a decorator: `@tb.register_block`). Models then name it
    by its type alone, in Python and in XML read by this process. Registering a name again
    replaces the type for what is compiled from then on.

    Raises:
        ValueError: a name, port or parameter is not an identifier or is used twice, or the
            name is a catalog type's.
        TypeError: cls is not a UserBlock subclass.
    """
    if cls is None:
        return lambda c: register_block(c, name=name)
    if not (isinstance(cls, type) and issubclass(cls, UserBlock)):
        raise TypeError(f"register_block: {cls!r} is not a subclass of twinblocks.UserBlock")
    type_name = name or getattr(cls, "type_name", None) or cls.__name__
    doc = " ".join((cls.__doc__ or "").split())
    summary = doc.split(". ")[0].rstrip(".") + "." if doc else ""
    params = [
        (p.name, p.kind, p.default_text(), p.doc, p.words, p.default is None) for p in cls.params
    ]
    _twinblocks._register_block_type(
        cls,
        type_name,
        cls.category,
        summary,
        doc,
        cls.reference,
        params,
        [(p.name, p.doc) for p in cls.inputs],
        [(p.name, p.doc) for p in cls.outputs],
    )
    return cls
