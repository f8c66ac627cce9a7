"""WGSL value types: the scalars ``f32``, ``f16``, ``i32``, ``u32``, ``bool`` and ``vecN<T>``.

Scalars are numpy scalars, so their arithmetic is exactly WGSL's: ``f32`` operations round to
nearest f32, ``u32``/``i32`` wrap around modulo 2**32 (inside a dispatch the overflow warnings numpy
would print are silenced; outside one numpy still warns). Calling a scalar type converts like a WGSL
value constructor: ``u32(-1) == 4294967295``, ``i32(0xFFFFFFFF) == -1``, ``u32(2.9) == 2``.

``f16`` (WGSL's ``enable f16;``) is a ``numpy.float16``: numpy computes a binary16 ``+ - * /``
in float32 and rounds once to binary16, which gives the correctly rounded binary16 result
(float32 has more than 2 * 11 + 2 significand bits), and a Python number with an f16 stays f16
(WGSL: an abstract number converts to f16).

Vectors (``vec2f`` ... ``vec4u``, ``vec2h`` ... ``vec4h``, ``vec3b``) hold such scalars in
``.x .y .z .w`` (aliases ``.r .g .b .a``), support swizzles (``v.zyx``), component-wise
arithmetic with vectors of the same type and with scalars, and component-wise comparisons that
return a bool vector (use :func:`all` or :func:`any`). ``==`` and ``!=`` compare whole vectors
and return a Python ``bool``, so that vectors work in ``assert`` statements; WGSL's
component-wise equality is :meth:`Vec.eq`.
"""

from __future__ import annotations

import builtins
from typing import Any, ClassVar

import numpy as np

from .swizzle_properties import swizzle_properties

__all__ = [  # (grouped: scalars and helpers, then vectors by size)
    "ArrayType", "AtomicType", "Vec", "all", "any", "array", "atomic", "bool_", "f16", "f32",
    "i32", "select", "u32",
    "vec2", "vec2b", "vec2f", "vec2h", "vec2i", "vec2u",
    "vec3", "vec3b", "vec3f", "vec3h", "vec3i", "vec3u",
    "vec4", "vec4b", "vec4f", "vec4h", "vec4i", "vec4u",
]

_MASK = 0xFFFFFFFF


# ----------------------------------------------------------------------------------------- scalars
class _ScalarType(type):
    """Metaclass of the scalar types: calling converts, ``isinstance`` accepts the numpy scalar."""

    numpy_type: type

    def __instancecheck__(cls, obj: object) -> bool:
        return isinstance(obj, cls.numpy_type)

    def __repr__(cls) -> str:
        return cls.__name__


#: WGSL §15.7.6: a float converts to an integer type by truncating, then clamping to the
#: target's range *as far as the source float type can represent it*: an f32 (or f16) never
#: exceeds 2147483520 (i32) or 4294967040 (u32), the largest f32 below 2**31 and 2**32; an
#: abstract float (a Python float) clamps to the true limits. NaN gives 0 (WGSL: indeterminate).
_I32_MAX_FROM = {np.float32: 2147483520.0, np.float16: 2147483520.0}
_U32_MAX_FROM = {np.float32: 4294967040.0, np.float16: 4294967040.0}


def _to_u32(x: Any) -> np.uint32:
    if isinstance(x, (int, np.integer)):
        return np.uint32(int(x) & _MASK)
    if isinstance(x, (float, np.floating)):  # WGSL: truncate toward zero, then clamp to the range
        high = _U32_MAX_FROM.get(type(x), 4294967295.0)
        return np.uint32(int(min(max(float(x), 0.0), high))) if x == x else np.uint32(0)
    if isinstance(x, np.ndarray) and x.ndim == 0:  # (a 0-d array: its value, not its truth)
        return _to_u32(x[()])
    return np.uint32(1 if x else 0)


def _to_i32(x: Any) -> np.int32:
    if isinstance(x, (int, np.integer)):
        return np.int32(((int(x) + 0x80000000) & _MASK) - 0x80000000)
    if isinstance(x, (float, np.floating)):
        high = _I32_MAX_FROM.get(type(x), 2147483647.0)
        return np.int32(int(min(max(float(x), -2147483648.0), high))) if x == x \
            else np.int32(0)
    if isinstance(x, np.ndarray) and x.ndim == 0:  # (a 0-d array: its value, not its truth)
        return _to_i32(x[()])
    return np.int32(1 if x else 0)


class f32(metaclass=_ScalarType):
    """WGSL ``f32``: ``f32(x)`` rounds ``x`` to the nearest 32-bit float (a ``numpy.float32``)."""

    numpy_type = np.float32
    dtype = np.dtype(np.float32)
    wgsl = "f32"

    def __new__(cls, x: Any = 0.0) -> np.float32:  # type: ignore[misc]
        return np.float32(x)


#: a double rounds to a finite f16 strictly inside ±65520 (65504 plus half an f16 ULP there)
_F16_ROUNDS_FINITE = 65520.0
_H_INF = np.float16("inf")


def _to_f16(x: Any) -> np.float16:
    """``x`` rounded to the nearest binary16 (ties to even), as WGSL's ``f16(x)`` converts.
    Past the f16 range (|x| >= 65520 after rounding) the result is ±inf: WGSL calls such a
    conversion at runtime an indeterminate value (an error in a const-expression)."""
    if x.__class__ is np.float16:
        return x
    try:
        r = float(x)
    except OverflowError:   # an int past the double range
        return _H_INF if x > 0 else -_H_INF
    if -_F16_ROUNDS_FINITE < r < _F16_ROUNDS_FINITE or r != r:
        return np.float16(r)   # numpy rounds a double to binary16 directly (one rounding)
    return _H_INF if r > 0 else -_H_INF


class f16(metaclass=_ScalarType):
    """WGSL ``f16`` (``enable f16;``): ``f16(x)`` rounds ``x`` to the nearest binary16 value
    (a ``numpy.float16``); a value past ±65504 (that rounds to ±65520 or beyond) gives ±inf,
    where WGSL's result is indeterminate."""

    numpy_type = np.float16
    dtype = np.dtype(np.float16)
    wgsl = "f16"

    def __new__(cls, x: Any = 0.0) -> np.float16:  # type: ignore[misc]
        return _to_f16(x)


class u32(metaclass=_ScalarType):
    """WGSL ``u32``: ``u32(x)`` converts like WGSL (integers wrap modulo 2**32, floats truncate and
    clamp) and returns a ``numpy.uint32``, whose arithmetic wraps around."""

    numpy_type = np.uint32
    dtype = np.dtype(np.uint32)
    wgsl = "u32"

    def __new__(cls, x: Any = 0) -> np.uint32:  # type: ignore[misc]
        return _to_u32(x)


class i32(metaclass=_ScalarType):
    """WGSL ``i32``: two's-complement 32-bit integer (a ``numpy.int32``); conversion wraps."""

    numpy_type = np.int32
    dtype = np.dtype(np.int32)
    wgsl = "i32"

    def __new__(cls, x: Any = 0) -> np.int32:  # type: ignore[misc]
        return _to_i32(x)


class bool_(metaclass=_ScalarType):
    """WGSL ``bool`` (a Python ``bool``); use it where asyncshader wants a type, e.g.
    ``workgroup(bool_)``."""

    numpy_type = builtins.bool
    dtype = np.dtype(np.bool_)
    wgsl = "bool"

    def __new__(cls, x: Any = False) -> bool:  # type: ignore[misc]
        return builtins.bool(x)


_SCALAR_BY_KIND = {"f": f32, "i": i32, "u": u32, "b": bool_, "h": f16}
_KIND_OF = {np.float32: "f", np.float16: "h", np.int32: "i", np.uint32: "u", np.bool_: "b"}
_CONVERT = {"f": np.float32, "i": _to_i32, "u": _to_u32, "b": builtins.bool, "h": _to_f16}
#: the float kinds: f32 and f16
_FLOAT_KINDS = "fh"


def _idiv(a: Any, b: Any) -> Any:
    """WGSL integer division: truncates toward zero; ``x / 0`` is ``x``; ``i32 min / -1`` is min."""
    if b == 0:
        return a
    q = abs(int(a)) // abs(int(b))
    q = q if (a < 0) == (b < 0) else -q
    return type(a)(q) if isinstance(a, np.uint32) else _to_i32(q)


def _irem(a: Any, b: Any) -> Any:
    """WGSL integer remainder: sign of the dividend; ``x % 0`` is 0."""
    if b == 0:
        return type(a)(0)
    r = abs(int(a)) % abs(int(b))
    return type(a)(-r if a < 0 else r)


# ----------------------------------------------------------------------------------------- vectors
class Vec:
    """Base class of the WGSL vector types (``vec2f``, ``vec3u``, ...)."""

    __slots__ = ()
    size: ClassVar[int]
    kind: ClassVar[str]
    scalar: ClassVar[type]
    _names: ClassVar[str]
    _sized: ClassVar[tuple]  # (the vector classes of the same kind by size, for swizzles)

    # Swizzles and rgba aliases are properties made with the classes (.swizzle_properties), not a
    # __getattr__: a class with __getattr__ reads every attribute through the slower hook
    # (``v.x`` about twice as slow). A name that is neither raises Python's AttributeError,
    # which a shader's error message words as :meth:`_attribute_error` (_core/diagnostics).

    def _attribute_error(self, name: str) -> str:
        """What is wrong with ``v.<name>`` when ``name`` is no component or swizzle of ``v``."""
        return (f"{type(self).__name__} has no component or swizzle {name!r} "
                f"(components: {', '.join(self._names)}; aliases r g b a)")

    def __repr__(self) -> str:
        return f"{_VECS[(self.size, self.kind)].__name__}({', '.join(repr(_py(c)) for c in self)})"

    def __array__(self, dtype: Any = None, copy: Any = None) -> np.ndarray:
        return np.array(list(self), dtype=dtype or self.scalar.dtype)

    #: numpy defers to the vector's own operators (``np.float32(2) * v`` is ``v.__rmul__``),
    #: so that a numpy scalar on the left gives a vector, not a numpy array
    __array_ufunc__ = None

    def __bool__(self) -> bool:
        raise TypeError(
            f"the truth value of a {type(self).__name__} is ambiguous: WGSL compares vectors "
            "component-wise; use asyncshader.all(v) or asyncshader.any(v)")


def _py(c: Any) -> Any:
    return c.item() if isinstance(c, np.generic) else c


def _swizzle_index(name: str, size: int) -> tuple[int, ...] | None:
    for letters in ("xyzw", "rgba"):
        if builtins.all(ch in letters[:size] for ch in name):
            return tuple(letters.index(ch) for ch in name)
    return None


def _flatten(args: tuple, n: int, cls: type) -> list:
    flat: list = []
    for a in args:
        if isinstance(a, (Vec, tuple, list, np.ndarray)):
            flat.extend(a)
        else:
            flat.append(a)
    if len(flat) == 1:
        flat = flat * n
    elif not flat:
        flat = [0] * n
    if len(flat) != n:
        raise TypeError(f"{cls.__name__}() takes {n} components (or one scalar to splat), "
                        f"got {len(flat)}")
    return flat


_VECS: dict[tuple[int, str], type] = {}
#: argument types a vector constructor converts one to one (anything else goes through _flatten)
_SCALARISH = frozenset({int, float, bool, np.float32, np.float64, np.int32, np.uint32, np.int64,
                        np.uint64, np.bool_, np.int16, np.uint16, np.int8, np.uint8, np.float16})

#: the file name of the code made here at import (the vector classes' methods): inside the
#: package's folder, so a memory access from it (``buf[i][c] = v``) is placed at the shader's
#: line, as one from this module is; no file, so a traceback shows no unrelated source line
GENERATED = __file__ + " (generated)"

_TEMPLATE = """
def __init__(self, *a):
    if len(a) != {n} or not _SCALARISH.issuperset(map(type, a)):
        a = _flatten(a, {n}, type(self))
    {init}

@classmethod
def _make(cls, {args}):
    o = _new(cls)
    {store}
    return o

def __iter__(self):
    return iter(({comps},))

def __len__(self):
    return {n}

def __getitem__(self, i):
    return ({comps},)[i]

def __setitem__(self, i, v):
    setattr(self, {names!r}[i], _conv(v))

def __eq__(self, o):
    return isinstance(o, Vec) and o.size == {n} and {eqs}

def __ne__(self, o):
    return not self.__eq__(o)

def eq(self, o):
    "WGSL ``==`` on vectors: component-wise, returns a bool vector."
    o = _operand(self, o)
    return _B._make({eq_cw})

def ne(self, o):
    "WGSL ``!=`` on vectors: component-wise, returns a bool vector."
    o = _operand(self, o)
    return _B._make({ne_cw})

def __neg__(self):
    return _R._make({neg})

def __pos__(self):
    return self

def __abs__(self):
    return _R._make({abs_})
"""

_BINOPS = {"add": "+", "sub": "-", "mul": "*", "floordiv": "//", "pow": "**"}
_BITOPS = {"and": "&", "or": "|", "xor": "^"}
_CMPS = {"lt": "<", "le": "<=", "gt": ">", "ge": ">="}


#: operand types a vector's operators leave to the other operand (NotImplemented): the
#: matrices (``v * m``), which :mod:`asyncshader.wgsl.matrices` adds
DEFER: set[type] = set()


def _operand(self: Vec, o: Any) -> Any:
    """Checks a vector operand's type; returns it, or a broadcast scalar of the vector's type
    (NotImplemented for a type in :data:`DEFER`)."""
    if isinstance(o, Vec):
        if o.size != self.size or o.kind != self.kind:
            raise TypeError(f"cannot combine {type(self).__name__} with {type(o).__name__}: "
                            f"convert one side first, e.g. {type(self).__name__}(other)")
        return o
    if o.__class__ in DEFER:
        return NotImplemented
    return _Splat(_scalar_operand(self, o))


def _scalar_operand(self: Vec, o: Any) -> Any:
    """A scalar operand converted to the vector's component type, as WGSL's abstract literals
    convert; a float with an integer vector is refused (WGSL has no implicit conversion)."""
    kind = self.kind
    if kind == "f":
        return np.float32(o)
    if kind == "h":
        return _f16_operand(self, o)
    if isinstance(o, (float, np.floating)) and kind in "iu":
        raise TypeError(f"cannot combine {type(self).__name__} with a float ({o!r}): WGSL "
                        f"does not convert implicitly; use vec{self.size}f(v) or "
                        f"{_SCALAR_BY_KIND[kind].wgsl}(x)")
    return _CONVERT[kind](o)


def _f16_operand(self: Vec, o: Any) -> np.float16:
    """A scalar with an f16 vector: an f16, or a Python number (abstract: it becomes f16 and
    must fit); a concrete f32, i32 or u32 is refused (WGSL converts nothing implicitly)."""
    cls = o.__class__
    if cls is np.float16:
        return o
    if cls in (int, float, np.float64) or cls is builtins.bool:
        h = _to_f16(o)
        if not np.isfinite(h) and np.isfinite(float(o)):
            raise TypeError(f"cannot combine {type(self).__name__} with {o!r}: the literal does "
                            "not fit in f16 (its finite range is ±65504)")
        return h
    name = getattr(o, "dtype", None)
    raise TypeError(f"cannot combine {type(self).__name__} with "
                    f"{name if name is not None else cls.__name__} {o!r}: WGSL does not "
                    f"convert implicitly; convert it, e.g. f16(x) * v, or "
                    f"vec{self.size}f(v) to compute in f32")


def _shift_count(self: Vec, o: Any) -> Any:
    """A shift count for an integer vector: an integer vector of the same size (WGSL: a
    ``vecN<u32>``), or a scalar (splat)."""
    if isinstance(o, Vec):
        if o.size != self.size or o.kind not in "iu":
            raise TypeError(f"cannot shift {type(self).__name__} by {type(o).__name__}: the "
                            f"count is a vec{self.size}u (WGSL)")
        return o
    return _Splat(_scalar_operand(self, o))


class _Splat:
    """A scalar seen as a vector of any size (for broadcasting)."""

    __slots__ = ("w", "x", "y", "z")

    def __init__(self, s: Any) -> None:
        self.x = self.y = self.z = self.w = s


def _gen_vec(n: int, kind: str) -> dict[str, Any]:
    names = "xyzw"[:n]
    conv = _CONVERT[kind]
    comps = ", ".join(f"self.{c}" for c in names)
    src = _TEMPLATE.format(
        n=n, names=names, comps=comps, args=", ".join(names),
        init="; ".join(f"self.{c} = _conv(a[{i}])" for i, c in enumerate(names)),
        store="; ".join(f"o.{c} = {c}" for c in names),
        eqs=" and ".join(f"self.{c} == o.{c}" for c in names),
        eq_cw=", ".join(f"self.{c} == o.{c}" for c in names),
        ne_cw=", ".join(f"self.{c} != o.{c}" for c in names),
        neg=", ".join(f"-self.{c}" for c in names) if kind != "b" else
        ", ".join(f"not self.{c}" for c in names),
        abs_=", ".join(f"abs(self.{c})" for c in names),
    )
    ops = dict(_BINOPS)
    if kind in "iu":
        ops.update(_BITOPS)
        ops.update({"lshift": "<<", "rshift": ">>"})
    elif kind == "b":
        ops = dict(_BITOPS)
    def method(name: str, prep: str, expr: Any, make: str = "_R") -> str:
        body = ", ".join(expr(c) for c in names)
        return f"\ndef {name}(self, o):\n    o = {prep}\n    return {make}._make({body})\n"

    # (a matrix operand: NotImplemented, so that Python asks the matrix: v * m is its __rmul__)
    same = "_operand(self, o)\n    if o is NotImplemented:\n        return o"
    rscalar = "_Splat(_scalar(self, o))"
    for name, sym in ops.items():
        shift = name in ("lshift", "rshift")
        if shift:  # WGSL: the count is a vecN<u32> (any integer vector here), modulo 32;
            # the shift runs on Python ints so that i32 keeps its type (numpy: i32 << u32 is
            # int64) and the bits shifted out are dropped
            src += method(f"__{name}__", "_count(self, o)",
                          lambda c, sym=sym: f"_conv(int(self.{c}) {sym} (int(o.{c}) & 31))")
        else:
            src += method(f"__{name}__", same, lambda c, sym=sym: f"self.{c} {sym} o.{c}")
        src += method(f"__r{name}__", rscalar, lambda c, sym=sym: f"o.{c} {sym} self.{c}")
    for name, sym in _CMPS.items():
        src += method(f"__{name}__", same, lambda c, sym=sym: f"self.{c} {sym} o.{c}", "_B")
    if kind in "iu":  # WGSL integer / and % truncate (and never trap)
        for name, fn in (("truediv", "_idiv"), ("mod", "_irem")):
            src += method(f"__{name}__", same, lambda c, fn=fn: f"{fn}(self.{c}, o.{c})")
            src += method(f"__r{name}__", rscalar, lambda c, fn=fn: f"{fn}(o.{c}, self.{c})")
        src += "\ndef __invert__(self):\n    return _R._make(" + ", ".join(
            f"~self.{c}" for c in names) + ")\n"
    elif kind in _FLOAT_KINDS:  # WGSL float %: e1 - e2 * trunc(e1 / e2), which is C fmod
        src += method("__truediv__", same, lambda c: f"self.{c} / o.{c}")
        src += method("__rtruediv__", rscalar, lambda c: f"o.{c} / self.{c}")
        src += method("__mod__", same, lambda c: f"_fmod(self.{c}, o.{c})")
    ns: dict[str, Any] = {
        "_flatten": _flatten, "_conv": conv, "_new": object.__new__, "_operand": _operand,
        "_Splat": _Splat, "Vec": Vec, "_idiv": _idiv, "_irem": _irem, "_fmod": np.fmod,
        "_scalar": _scalar_operand, "_count": _shift_count,
        "_SCALARISH": _SCALARISH,
    }
    helpers = set(ns)
    exec(compile(src, GENERATED, "exec"), ns)
    methods = {k: v for k, v in ns.items() if k not in helpers and k != "__builtins__"}
    suffix = kind
    cls = type(f"vec{n}{suffix}", (Vec,), {
        "__slots__": tuple(names), "size": n, "kind": kind, "scalar": _SCALAR_BY_KIND[kind],
        "_names": names, "__module__": __name__, "__hash__": None,
        "__doc__": f"WGSL ``vec{n}<{_SCALAR_BY_KIND[kind].wgsl}>``.", **methods,
        **_SWIZZLES_BY_SIZE[n]})
    ns["_R"] = cls
    _VECS[(n, kind)] = cls
    return ns


_SWIZZLES_BY_SIZE = {n: swizzle_properties(n) for n in (2, 3, 4)}
_namespaces = {(n, k): _gen_vec(n, k) for n in (2, 3, 4) for k in "fiubh"}
for (_n, _k), _ns in _namespaces.items():  # comparisons return the bool vector of the same size
    _ns["_B"] = _VECS[(_n, "b")]
    _VECS[(_n, _k)]._sized = (None, None, *(_VECS[(m, _k)] for m in (2, 3, 4)))
del _namespaces

vec2f, vec3f, vec4f = _VECS[(2, "f")], _VECS[(3, "f")], _VECS[(4, "f")]
vec2i, vec3i, vec4i = _VECS[(2, "i")], _VECS[(3, "i")], _VECS[(4, "i")]
vec2u, vec3u, vec4u = _VECS[(2, "u")], _VECS[(3, "u")], _VECS[(4, "u")]
vec2b, vec3b, vec4b = _VECS[(2, "b")], _VECS[(3, "b")], _VECS[(4, "b")]

vec2h, vec3h, vec4h = _VECS[(2, "h")], _VECS[(3, "h")], _VECS[(4, "h")]


def wgsl_class(x: Any) -> type:
    """The class WGSL types the value ``x`` by: its own, except for a vector bound to memory
    (a subclass of a vector type whose component assignments store into the element it was
    loaded from: ``buf[i]`` of a buffer of vectors, a struct's vector member), whose class is
    its vector type."""
    return _VECS[(x.size, x.kind)] if isinstance(x, Vec) else x.__class__


class ByClass(dict):
    """A table keyed by the class of a value (a built-in's kernels, a matrix's products), read
    as ``table[x.__class__]``: a class it lacks is None, except a vector bound to memory (a
    subclass of its vector type, see :func:`wgsl_class`), which finds its vector type's entry
    and is then kept under its own class. A hit costs a dict lookup and nothing more."""

    __slots__ = ()

    def __missing__(self, cls: type) -> Any:
        if isinstance(cls, type) and issubclass(cls, Vec):
            entry = dict.get(self, _VECS.get((cls.size, cls.kind)))
            if entry is not None:
                self[cls] = entry
                return entry
        return None


class _VecTemplate:
    """``vec3[f32]`` is ``vec3f``, as WGSL's ``vec3<f32>`` (``vec3[f16]`` is ``vec3h``), and
    ``vec3(1.0, 2.0, 3.0)`` infers its component type as WGSL's ``vec3(...)`` does: a typed
    argument's, else f32 for a Python float among them, else i32 (else bool)."""

    def __init__(self, n: int) -> None:
        self.n = n

    def __call__(self, *args: Any) -> Vec:
        kinds = [a.kind if isinstance(a, Vec) else _KIND_OF.get(type(a)) for a in args]
        kind = next((k for k in kinds if k is not None), None) or (
            "f" if builtins.any(isinstance(a, float) for a in args) else
            "b" if args and builtins.all(isinstance(a, bool) for a in args) else "i")
        return _VECS[(self.n, kind)](*args)

    def __getitem__(self, scalar: Any) -> type:
        for kind, s in _SCALAR_BY_KIND.items():
            if scalar is s or scalar is s.numpy_type or (scalar is builtins.bool and kind == "b"):
                return _VECS[(self.n, kind)]
        raise TypeError(f"vec{self.n}[...] takes f32, f16, i32, u32 or bool, not {scalar!r}")

    def __repr__(self) -> str:
        return f"vec{self.n}"


vec2, vec3, vec4 = _VecTemplate(2), _VecTemplate(3), _VecTemplate(4)


def all(v: Any) -> bool:
    """WGSL ``all(e)``: true when every component of a bool vector is true."""
    return builtins.all(v) if isinstance(v, Vec) else builtins.bool(v)


def any(v: Any) -> bool:
    """WGSL ``any(e)``: true when some component of a bool vector is true."""
    return builtins.any(v) if isinstance(v, Vec) else builtins.bool(v)


def select(f: Any, t: Any, cond: Any) -> Any:
    """WGSL ``select(f, t, cond)``: ``t`` where ``cond`` is true, else ``f`` (component-wise for a
    bool vector condition)."""
    if isinstance(cond, Vec):
        like = t if isinstance(t, Vec) else f
        if not isinstance(like, Vec) or like.size != cond.size:
            raise TypeError(f"select() with a {type(cond).__name__} condition needs vectors of "
                            f"{cond.size} components")
        ts = t if isinstance(t, Vec) else _Splat(t)
        fs = f if isinstance(f, Vec) else _Splat(f)
        return _VECS[(like.size, like.kind)]._make(
            *[getattr(ts if c else fs, n) for c, n in zip(cond, "xyzw")])
    return t if cond else f


# ------------------------------------------------------------------------ memory type descriptors
class ArrayType:
    """WGSL ``array<E, N>``, of workgroup memory, struct members and function-scope arrays."""

    def __init__(self, element: Any, length: int) -> None:
        if not isinstance(length, int) or length <= 0:
            raise TypeError(f"array length must be a positive int, got {length!r}")
        self.element = element
        self.length = length

    def __call__(self, *values: Any) -> Any:
        """WGSL's ``array<E, N>(...)`` value; zero with no values (``var a: array<E, N>;``)."""
        return ArrayType._value(self, values)  # (asyncshader.wgsl.values: it converts)

    def __repr__(self) -> str:
        return f"array({_type_name(self.element)}, {self.length})"


class AtomicType:
    """WGSL ``atomic<T>`` with T ``u32`` or ``i32``."""

    def __init__(self, scalar: Any) -> None:
        if scalar not in (u32, i32):
            raise TypeError(f"atomic() takes u32 or i32 (as WGSL's atomic<T>), not {scalar!r}")
        self.scalar = scalar

    def __repr__(self) -> str:
        return f"atomic({self.scalar.wgsl})"


def array(element: Any, length: int) -> ArrayType:
    """WGSL ``array<element, length>``, e.g. ``array(f32, 64)`` or ``array(atomic(u32), 2)``."""
    return ArrayType(element, length)


def atomic(scalar: Any) -> AtomicType:
    """WGSL ``atomic<u32>`` / ``atomic<i32>``: only the ``atomic_*`` operations may touch it."""
    return AtomicType(scalar)


def _type_name(t: Any) -> str:
    return getattr(t, "wgsl", None) or getattr(t, "__name__", None) or repr(t)
