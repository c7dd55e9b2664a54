"""Compiling a Python model's methods to machine code with numba (docs/python.md, "Compiled
models"): clatter.python_model(obj, ..., compile=True).

The same class as the uncompiled route. Its state functions (mass_matrix, applied_forces, contact,
potential_energy and, where defined, kinetic_energy, applied_power, velocity_scale, rate_bound,
gap_scale) become C functions that the engine calls without the GIL. Inside them `self` is not
the object but a named tuple of its data:
  - numbers (float, int, bool) as they are;
  - lists and tuples of numbers, nested and rectangular, as tuples (self.points[c] works);
  - numpy arrays of numbers as float64 arrays of the same shape (read-only by convention);
  - its other methods, callable as self.helper(...) (compiled on first use).
Strings, other objects and attributes whose names start with "_" are left out: a method that
uses one does not compile, and the error names the method. force_scale(), mass_scale(), parameters, with_parameter and symmetry stay
Python, called at set-up and per parameter change, not per step.

The C functions, one per method, all return int32 0 on success, a code for a result of the
wrong size, or RAISED (9) if the method raised (the engine then calls the Python method, which
raises the exception to the caller), and write into `out` (row-major):
  mass_matrix(t, q*, p*, out*)                 out: nq * nq
  applied_forces(t, q*, qd*, p*, out*)         out: nq
  contact(c, t, q*, qd*, p*, out*)             out: g_N, J (2 nq), w (2), gamma (2), scale
  potential_energy(t, q*, p*, out*)            out: 1
  kinetic_energy / applied_power / velocity_scale(t, q*, qd*, p*, out*)   out: 1
  rate_bound(qd*, p*, out*)                    out: 1
  gap_scale(c, t, q*, p*, out*)                out: 1
with p the object's data packed as float64 (CompiledModel.pack): a parameter change re-packs it,
so sweeps over parameters compile once.
"""
import collections
import numbers

import numpy as np

# method -> its arguments after self
HOT = {
    "mass_matrix": ("t", "q"),
    "applied_forces": ("t", "q", "qd"),
    "contact": ("c", "t", "q", "qd"),
    "potential_energy": ("t", "q"),
    "kinetic_energy": ("t", "q", "qd"),
    "applied_power": ("t", "q", "qd"),
    "velocity_scale": ("t", "q", "qd"),
    "rate_bound": ("qd",),
    "gap_scale": ("c", "t", "q"),
}
REQUIRED = ("mass_matrix", "applied_forces", "contact", "potential_energy")
# the status of a method that raised: numba's C functions cannot pass an exception on, so the
# engine calls the method again uncompiled, where the same exception reaches the caller
RAISED = 9
# methods that stay Python (called with the object, not compiled, not offered to compiled code)
PYTHON_ONLY = {"parameters", "with_parameter", "symmetry", "force_scale", "mass_scale"}

_cache = {}  # (class, layout) -> CompiledModel: a class compiles once per data layout
_helper_jits = {}  # (data named tuple class, method name) -> the method compiled (on first use)
_helper_names = set()  # method names offered on named tuples (numba keeps one typer per name)


def _helper_typer(name):
    """The typer of self.name(...) on any compiled model's data: that model's method."""
    def typer(self, *args):
        get = _helper_jits.get((getattr(self, "instance_class", None), name))
        if get is None:
            return None
        fn = get()

        def impl(self, *args):
            return fn(self, *args)
        return impl
    return typer


def _numba():
    try:
        import numba  # noqa: F401
        from numba import carray, cfunc, njit, types
        from numba.extending import overload_method
    except ImportError as err:
        raise ImportError(
            "python_model(..., compile=True) needs numba (Debian: apt-get install python3-numba; "
            "pip: pip install numba); without it, compile=False runs the same model uncompiled"
        ) from err
    return carray, cfunc, njit, types, overload_method


def _leaf(value):
    """'f' (float), 'i' (int), 'b' (bool) for a number, else None."""
    if isinstance(value, (bool, np.bool_)):
        return "b"
    if isinstance(value, numbers.Integral):
        return "i"
    if isinstance(value, numbers.Real):
        return "f"
    return None


def _shape(value):
    """The shape of a rectangular nested list/tuple of numbers, else None."""
    if not isinstance(value, (list, tuple)) or len(value) == 0:
        return None
    if all(_leaf(v) is not None for v in value):
        return (len(value),)
    inner = [_shape(v) for v in value]
    if inner[0] is None or any(s != inner[0] for s in inner):
        return None
    return (len(value),) + inner[0]


def _field(value):
    """(kind, shape) of a datum compiled code can see, else None: kind 'f', 'i', 'b' (numbers),
    't' (a tuple of floats of the shape), 'a' (a float64 array of the shape)."""
    leaf = _leaf(value)
    if leaf is not None:
        return leaf, ()
    if isinstance(value, np.ndarray) and value.dtype.kind in "biuf" and value.size > 0:
        return "a", tuple(value.shape)
    shape = _shape(value)
    if shape is not None:
        return "t", shape
    return None


def layout(obj):
    """The data of obj that compiled methods see: a tuple of (name, kind, shape), sorted."""
    fields = []
    for name in sorted(dir(obj)):
        # named tuples have no fields starting with "_": private attributes stay Python's
        if name.startswith("_") or name in PYTHON_ONLY:
            continue
        try:
            value = getattr(obj, name)
        except AttributeError:
            continue
        if callable(value):
            continue
        spec = _field(value)
        if spec is not None:
            fields.append((name,) + spec)
    return tuple(fields)


def _flat(value):
    return np.asarray(value, dtype=float).ravel()


class CompiledModel:
    """The C functions of a model class (addresses by method name) and how to pack an object's
    data for them. Kept alive by every Model made from it."""

    def __init__(self, cls, fields, nq, arity, functions):
        self.cls, self.fields, self.nq, self.contact_arity = cls, fields, nq, arity
        self.functions = functions  # name -> numba cfunc (keeps the machine code alive)
        self.addresses = {name: f.address for name, f in functions.items()}

    def pack(self, obj):
        """obj's data as float64, in the layout the functions were compiled for (ValueError if
        obj's data changed kind or shape, e.g. a with_parameter that turned a number into a
        string)."""
        old = {f[0]: f[1:] for f in self.fields}
        new = {f[0]: f[1:] for f in layout(obj)}
        # a number may change between int, float and bool (a sweep sets floats), as long as an
        # integer's slot still gets a whole number
        number = {"f", "i", "b"}
        diff = sorted(n for n in set(old) | set(new)
                      if old.get(n) != new.get(n)
                      and not (n in old and n in new and old[n][0] in number
                               and new[n][0] in number))
        diff += sorted(n for n, (kind, _) in old.items()
                       if kind == "i" and n in new and float(getattr(obj, n)) != int(getattr(obj, n)))
        if diff:
            raise ValueError(
                f"compile: the data of {type(obj).__name__} changed from the layout it was "
                f"compiled for (attributes {', '.join(diff)}): a parameter change must keep every "
                "number a number (a whole number where it was an int) and every array's shape")
        parts = [_flat(getattr(obj, name)) for name, _, _ in self.fields]
        return np.concatenate(parts) if parts else np.zeros(0)


def _expression(kind, shape, k):
    """The generated expression rebuilding a field from p[k:...]."""
    if kind == "f":
        return f"p[{k}]"
    if kind == "i":
        return f"int(p[{k}])"
    if kind == "b":
        return f"(p[{k}] != 0.0)"
    n = int(np.prod(shape))
    if kind == "a":
        return f"p[{k}:{k + n}]" + ("" if len(shape) == 1 else f".reshape({shape})")

    def nested(shape, k):
        if len(shape) == 1:
            return "(" + "".join(f"p[{k + i}], " for i in range(shape[0])) + ")"
        step = int(np.prod(shape[1:]))
        return "(" + "".join(nested(shape[1:], k + i * step) + ", "
                             for i in range(shape[0])) + ")"
    return nested(shape, k)


def _leaves(ty, types):
    """How many numbers a value of numba type ty holds, if known at compile time (nested tuples
    of numbers), else None (arrays and lists: checked at run time)."""
    if isinstance(ty, (types.Number, types.Boolean)):
        return 1
    if isinstance(ty, types.BaseTuple):
        counts = [_leaves(t, types) for t in ty.types]
        return None if any(c is None for c in counts) else sum(counts)
    return None


def _store(expr, ty, offset, size, code, what, types):
    """Generated lines writing the value `expr` (numba type ty) as `size` numbers at
    out[offset:]: tuples element by element (no allocation), arrays and lists through their flat
    view, with `return code` if the size differs. ValueError if a tuple's size is wrong."""
    count = _leaves(ty, types)
    if count is not None:
        if count != size:
            raise ValueError(f"compile: {what} must be {size} numbers, its result holds {count}")
        lines, k = [], offset

        def walk(e, t):
            nonlocal k
            if isinstance(t, types.BaseTuple):
                for i, sub in enumerate(t.types):
                    walk(f"{e}[{i}]", sub)
            else:
                lines.append(f"    out[{k}] = {e}\n")
                k += 1
        walk(expr, ty)
        return "".join(lines)
    if not isinstance(ty, (types.Array, types.List, types.BaseTuple)):
        raise ValueError(f"compile: {what} must be {size} numbers (an array, a list or a tuple), "
                         f"numba types it as {ty}")
    make = "np.asarray" if isinstance(ty, types.Array) else "np.array"
    return (f"    a = {make}({expr})\n    if a.size != {size}:\n        return {code}\n"
            f"    k = {offset}\n    for x in a.flat:\n        out[k] = x\n        k += 1\n")


def _result_store(cls, method, rt, nq, types):
    """(the lines storing a method's result r, the size of out, the contact's arity)."""
    name = f"{cls.__name__}.{method}"
    if method == "mass_matrix":
        return _store("r", rt, 0, nq * nq, 1, f"{name}'s result (nq x nq)", types), nq * nq, 0
    if method == "applied_forces":
        return _store("r", rt, 0, nq, 1, f"{name}'s result (nq)", types), nq, 0
    if method != "contact":
        if not isinstance(rt, (types.Number, types.Boolean)):
            raise ValueError(f"compile: {name} must return a number, numba types it as {rt}")
        return "    out[0] = r\n", 1, 0
    if not isinstance(rt, types.BaseTuple) or len(rt.types) not in (4, 5):
        raise ValueError(f"compile: {name} must return (g_N, J, w, gamma[, scale]), numba types "
                         f"its result as {rt}")
    types_ = rt.types
    if not isinstance(types_[0], types.Number):
        raise ValueError(f"compile: {name}'s g_N must be a number, numba types it as {types_[0]}")
    lines = ["    out[0] = r[0]\n",
             _store("r[1]", types_[1], 1, 2 * nq, 1, f"{name}'s J (2 x nq)", types),
             _store("r[2]", types_[2], 1 + 2 * nq, 2, 2, f"{name}'s w", types),
             _store("r[3]", types_[3], 3 + 2 * nq, 2, 3, f"{name}'s gamma", types),
             f"    out[{5 + 2 * nq}] = " + ("r[4]\n" if len(types_) == 5 else "1.0\n")]
    return "".join(lines), 2 * nq + 6, len(types_)


def _explain(cls, method, err):
    text = str(err).strip().splitlines()
    short = "\n".join(line for line in text[:12] if line.strip())
    return ValueError(
        f"compile: {cls.__name__}.{method} cannot be compiled by numba. Compiled methods see "
        "self's numbers, tuples and arrays of numbers and its other methods, and may use math and "
        "numpy; strings, dicts and other objects are not available (docs/python.md, \"Compiled "
        f"models\"). compile=False runs the model uncompiled. numba says:\n{short}")


def compile_model(obj, nq):
    """The CompiledModel of obj's class for obj's data layout (compiled on first use, then
    cached). Raises ValueError naming a method numba cannot compile."""
    carray, cfunc, njit, types, overload_method = _numba()
    from numba.core.errors import NumbaError

    cls = type(obj)
    fields = layout(obj)
    key = (cls, fields, nq)
    if key in _cache:
        return _cache[key]
    missing = [m for m in REQUIRED if not callable(getattr(obj, m, None))]
    if missing:
        raise ValueError(f"compile: {cls.__name__} lacks {', '.join(missing)}")

    data = collections.namedtuple(f"{cls.__name__}Data", [f[0] for f in fields])
    jitted = {}

    def jit(name):
        if name not in jitted:
            jitted[name] = njit(error_model="numpy")(getattr(cls, name))
        return jitted[name]

    # the class's other methods, callable from compiled code as self.name(...)
    helpers = set()
    for klass in cls.__mro__[:-1]:
        for name, value in vars(klass).items():
            if (callable(value) and not isinstance(value, (staticmethod, classmethod, type))
                    and not name.startswith("__") and name not in PYTHON_ONLY):
                helpers.add(name)
    for name in sorted(helpers):
        _helper_jits[(data, name)] = lambda name=name: jit(name)
        if name not in _helper_names:  # numba keeps the first method of a name: one per name
            _helper_names.add(name)
            for base in (types.NamedTuple, types.NamedUniTuple):
                overload_method(base, name)(_helper_typer(name))

    p_sig = types.CPointer(types.float64)
    arg_types = {"t": types.float64, "c": types.int64, "q": p_sig, "qd": p_sig}
    offsets, k = [], 0
    for _, kind, shape in fields:
        offsets.append(k)
        k += int(np.prod(shape)) if shape else 1
    size = max(k, 1)
    self_expr = "Data(" + ", ".join(_expression(kind, shape, off) for (_, kind, shape), off
                                    in zip(fields, offsets)) + ")"
    make_scope = {"Data": data}
    exec(f"def make(p):\n    return {self_expr}\n", make_scope)  # noqa: S102 (field names)
    make = njit(inline="always")(make_scope["make"])
    vector = types.float64[::1]  # q, qd and p as the wrapper's carray sees them
    make.compile((vector,))
    self_type = make.nopython_signatures[0].return_type
    typed = {"t": types.float64, "c": types.int64, "q": vector, "qd": vector}

    arity = 4
    functions = {}
    for method, args in HOT.items():
        if not callable(getattr(obj, method, None)):
            continue
        fn = jit(method)
        argtys = (self_type,) + tuple(typed[a] for a in args)
        try:
            fn.compile(argtys)
        except NumbaError as err:
            raise _explain(cls, method, err) from None
        rt = next(sig.return_type for sig in fn.nopython_signatures if sig.args == argtys)
        store, n_out, contact_arity = _result_store(cls, method, rt, nq, types)
        arity = contact_arity or arity
        params = [a + "_" if a in ("q", "qd") else a for a in args]
        src = (f"def wrapper({', '.join(params)}, p_, out_):\n"
               + "".join(f"    {a} = carray({a}_, ({nq},))\n" for a in args if a in ("q", "qd"))
               + f"    p = carray(p_, ({size},))\n"
               + f"    out = carray(out_, ({n_out},))\n"
               + "    try:\n"
               + f"        r = fn(make(p), {', '.join(args)})\n"
               + f"    except Exception:  # noqa: BLE001 (numba catches no narrower)\n"
               + f"        return {RAISED}\n"
               + store + "    return 0\n")
        scope = {"carray": carray, "np": np, "fn": fn, "make": make}
        exec(src, scope)  # noqa: S102 (generated from the method's arguments)
        signature = types.int32(*[arg_types[a] for a in args], p_sig, p_sig)
        try:
            functions[method] = cfunc(signature, error_model="numpy")(scope["wrapper"])
        except NumbaError as err:
            raise _explain(cls, method, err) from None
    compiled = CompiledModel(cls, fields, nq, arity, functions)
    _cache[key] = compiled
    return compiled
