"""Overload resolution for the built-in functions, and what they share.

WGSL picks a built-in's overload from its arguments' types (§Overload Resolution): every
argument is a concrete ``f32``, ``f16``, ``i32``, ``u32`` or a ``vecN`` of one of them, or an
abstract literal, which converts to the concrete type of the other arguments. In asyncshader a
Python ``int`` is WGSL's AbstractInt and a Python ``float`` its AbstractFloat. WGSL never converts
between concrete types and never splats a scalar into a vector argument, so ``max(f32, i32)``
and ``clamp(vec3f, 0.0, 1.0)`` are a :class:`TypeError` that names the function, the argument
types and the conversion to write.

A :class:`Signature` lists the roles of the parameters: ``"T"`` is the function's generic type
(every ``T`` argument has the same type), ``"S"`` the scalar element type of ``T`` (``mix``'s
third argument, ``refract``'s ``eta``), ``"I"`` an ``i32`` of ``T``'s shape (``ldexp``'s
exponent). :func:`resolve` returns ``T`` and the arguments converted; :func:`builtin` makes
the public function: arguments of an overload's exact types find their kernel by one dict
lookup, others are resolved once per combination of types (:class:`Resolver`).

Also here: :func:`to_f32`, the rounding of a float64 result to ``f32`` (``to_f16`` and the f16
overloads made from the f32 kernels are in ``_f16``); and
:class:`WGSLIndeterminateWarning` with :func:`indeterminate`, how a built-in reports an
argument for which WGSL does not define the result.
"""

from __future__ import annotations

import builtins
import inspect
import math
import warnings
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from itertools import repeat
from operator import attrgetter
from typing import Any

import numpy as np

from ..._core.sources import user_stacklevel
from ..types import _VECS, Vec
from ._f16 import _F16_ROUNDS_FINITE, f16_kernel, to_f16

__all__ = ["Signature", "WGSLIndeterminateWarning", "WType", "builtin", "indeterminate",
           "resolve", "to_f16", "to_f32"]


@dataclass(frozen=True, eq=False)
class WType:
    """One WGSL argument type: ``kind`` is ``"f"``, ``"h"`` (f16), ``"i"``, ``"u"``, ``"b"``
    (concrete),
    ``"A"`` (AbstractInt) or ``"F"`` (AbstractFloat); ``size`` 0 for a scalar."""

    kind: str
    size: int
    wgsl: str   # as WGSL writes it: f32, vec3<f32>, AbstractInt
    name: str   # as asyncshader writes it: f32, vec3f, int
    cls: Any = None   # the vector class (``_make``), or the numpy scalar type
    comps: Any = None   # a vector's components as a tuple (an attrgetter: fast)

    @property
    def abstract(self) -> bool:
        return self.kind in "AF"

    def scalar(self) -> WType:
        return _SCALARS[self.kind]

    def with_kind(self, kind: str) -> WType:
        """The type of the same shape with ``kind`` components (``vec3f`` -> ``vec3i``)."""
        return _SCALARS[kind] if not self.size else VEC_TYPES[(self.size, kind)]


_KIND_WGSL = {"f": "f32", "i": "i32", "u": "u32", "b": "bool", "h": "f16"}
_SCALARS = {
    "f": WType("f", 0, "f32", "f32", np.float32),
    "i": WType("i", 0, "i32", "i32", np.int32),
    "u": WType("u", 0, "u32", "u32", np.uint32),
    "b": WType("b", 0, "bool", "bool", builtins.bool),
    "h": WType("h", 0, "f16", "f16", np.float16),
}
F32, I32, U32, F16 = _SCALARS["f"], _SCALARS["i"], _SCALARS["u"], _SCALARS["h"]
ABSTRACT_INT = WType("A", 0, "AbstractInt", "int")
ABSTRACT_FLOAT = WType("F", 0, "AbstractFloat", "float")
VEC_TYPES: dict[tuple[int, str], WType] = {
    key: WType(key[1], key[0], f"vec{key[0]}<{_KIND_WGSL[key[1]]}>", cls.__name__, cls,
               attrgetter(*"xyzw"[:key[0]]))
    for key, cls in _VECS.items()}

#: the type of an argument by its Python type (exact type: the fast lookup)
TYPES: dict[type, WType] = {
    np.float32: F32, np.float16: F16, np.int32: I32, np.uint32: U32, builtins.bool: _SCALARS["b"],
    np.bool_: _SCALARS["b"], int: ABSTRACT_INT, float: ABSTRACT_FLOAT,
    np.float64: ABSTRACT_FLOAT,
    **{t.cls: t for t in VEC_TYPES.values()},
}



def describe(x: Any) -> WType:
    """The WGSL type of the value ``x`` (a TypeError for a value WGSL has no type for)."""
    t = TYPES.get(type(x))
    if t is not None:
        return t
    if isinstance(x, Vec):
        return VEC_TYPES[(x.size, x.kind)]
    for numpy_type, wtype in ((np.float32, F32), (np.int32, I32), (np.uint32, U32),
                              (np.float16, F16)):
        if isinstance(x, numpy_type):
            return wtype
    if isinstance(x, builtins.bool | np.bool_):
        return _SCALARS["b"]
    if isinstance(x, int):
        return ABSTRACT_INT
    if isinstance(x, float):
        return ABSTRACT_FLOAT
    return WType("?", 0, type(x).__name__, type(x).__name__)


@dataclass(frozen=True)
class Signature:
    """A built-in's overloads: ``roles`` of its parameters (``"T"``, ``"S"``, ``"I"``, or
    ``"T|S"`` for ``mix``'s last one), the scalar kinds ``T`` may have (``"fh"`` f32 and f16,
    ``"fhi"``, ``"fhiu"``, ``"f"`` f32 only) and its shapes (``"sv"`` scalar or vector, ``"v"``
    vector only, ``"3"`` vec3)."""

    wgsl: str
    name: str
    roles: tuple[str, ...]
    kinds: str = "fh"
    shapes: str = "sv"

    def overloads(self) -> str:
        """The overloads in words, for messages and docstrings."""
        params = ", ".join({"T": "T", "S": "S", "I": "I", "T|S": "T or S"}[r]
                           for r in self.roles)
        kinds = ", ".join(_KIND_WGSL[k] for k in self.kinds)
        shape = {"sv": f"T is S or vecN<S>, S one of {kinds}",
                 "v": f"T is vecN<S>, S one of {kinds}",
                 "3": f"T is vec3<S>, S one of {kinds}"}[self.shapes]
        extra = ""
        if "I" in self.roles:
            extra = "; I is i32, or vecN<i32> when T is a vector"
        if "S" in self.roles or "T|S" in self.roles:
            extra += "; S is T's component type"
        return f"{self.wgsl}({params}) with {shape}{extra}"


def _call_text(sig: Signature, types: Sequence[WType]) -> str:
    return f"{sig.name}({', '.join(t.name for t in types)})"


def _fail(sig: Signature, types: Sequence[WType], why: str) -> TypeError:
    return TypeError(f"{_call_text(sig, types)}: WGSL has no such overload of "
                     f"{sig.wgsl}: {why}. (WGSL's overloads: {sig.overloads()}.)")


#: the matrix types' names (a matrix given to a built-in of scalars and vectors)
_MATRIX_NAMES = frozenset(f"mat{c}x{r}{k}" for c in (2, 3, 4) for r in (2, 3, 4) for k in "fh")


def _pick_type(sig: Signature, types: list[WType]) -> WType:
    """T: the type of the concrete ``T`` arguments (all the same), else the concretization."""
    for t in types:
        if t.kind not in "fhiubAF" and t.name in _MATRIX_NAMES:
            raise _fail(sig, types, f"it takes no matrices (of WGSL's built-ins only transpose "
                                    f"and determinant do); apply it to each column, m[i], of "
                                    f"the {t.name}")
        if t.kind not in "fhiubAF":
            raise _fail(sig, types, f"a {t.name} is not a WGSL value; convert it to f32, i32, "
                                    "u32 or a vector first")
    found = None
    for role, t in zip(sig.roles, types):
        if role != "T" or t.abstract:
            continue
        if found is not None and found is not t:
            raise _fail(sig, types, f"its arguments must all have one type, and WGSL does not "
                                    f"convert between {found.wgsl} and {t.wgsl}: convert one "
                                    f"of them, e.g. {found.name}(x)")
        found = t
    if found is None:   # mix(0.0, 1.0, t) with a concrete t: T is t's type
        found = next((t if role == "T|S" else t.scalar() for role, t in zip(sig.roles, types)
                      if role in ("S", "T|S") and not t.abstract), None)
    if found is None:   # every argument abstract: concretize as WGSL does
        floats = set(sig.kinds) <= _FLOAT_KINDS or builtins.any(t.kind == "F" for t in types)
        found = F32 if floats else I32
    if found.kind not in sig.kinds:
        allowed = " or ".join(_KIND_WGSL[k] for k in sig.kinds)
        fix = (f"convert it, e.g. {sig.name}(f32(x))" if found.kind in "iuh" and "f" in sig.kinds
               else "convert it first")
        raise _fail(sig, types, f"it takes {allowed} values, not {found.wgsl}; {fix}")
    if sig.shapes != "sv" and not found.size:
        raise _fail(sig, types, f"it takes {'a vec3' if sig.shapes == '3' else 'vectors'}, "
                                f"not a scalar {found.wgsl}")
    if sig.shapes == "3" and found.size != 3:
        raise _fail(sig, types, f"it takes vec3 arguments, not {found.wgsl}")
    return found


def convert_abstract(value: Any, t: WType, target: WType, sig: Signature,
                     types: Sequence[WType]) -> Any:
    """An abstract literal as the concrete scalar ``target``, as WGSL converts it."""
    if target.kind == "h":
        if math.isfinite(value) and not builtins.abs(value) < _F16_ROUNDS_FINITE:
            raise _fail(sig, types, f"{value!r} does not fit in an f16 (its range is ±65504)")
        return to_f16(float(value))
    if target.kind == "f":
        if t.kind == "A" and builtins.abs(value) >= _F32_ROUNDS_FINITE:
            raise _fail(sig, types, f"{value} does not fit in an f32")
        if t.kind == "F" and math.isfinite(value) and builtins.abs(value) >= _F32_ROUNDS_FINITE:
            raise _fail(sig, types, f"{value!r} is outside the f32 range")
        return to_f32(float(value))
    if t.kind == "F":
        raise _fail(sig, types, f"WGSL does not convert the float {value!r} to "
                                f"{target.wgsl} implicitly; write {target.name}({value!r}) "
                                f"if you mean it, or make the other arguments f32")
    low, high = (0, 0xFFFFFFFF) if target.kind == "u" else (-2 ** 31, 2 ** 31 - 1)
    if not low <= value <= high:
        raise _fail(sig, types, f"the integer {value} does not fit in {target.wgsl}")
    return target.cls(value)


def _plan(sig: Signature, types: list[WType], args: Sequence[Any]) -> list[WType | None]:
    """What each argument becomes: None (passed as it is) or the scalar type an abstract
    argument converts to. TypeError for a combination WGSL rejects."""
    target = _pick_type(sig, types)
    wants: list[WType | None] = []
    for role, t, a in zip(sig.roles, types, args):
        want = target
        if role == "S" or (role == "T|S" and t.size == 0 and target.size):
            want = target.scalar()
        elif role == "I":
            want = target.with_kind("i")
        if t is want:
            wants.append(None)
        elif t.abstract and not want.size:
            if t.kind == "F" and want.kind not in _FLOAT_KINDS:
                raise _fail(sig, types, f"WGSL does not convert the float {a!r} to "
                                        f"{want.wgsl} implicitly; write {want.name}({a!r}) "
                                        f"if you mean it, or make the other arguments f32")
            wants.append(want)
        elif t.abstract:
            raise _fail(sig, types, f"WGSL does not turn the scalar {a!r} into a "
                                    f"{want.wgsl} argument; write {want.name}({a!r})")
        elif role == "I":
            raise _fail(sig, types, f"the exponent must be {want.wgsl}, not {t.wgsl}; write "
                                    f"{want.name}(e)")
        else:
            shown = want.name if role != "T|S" else f"{want.name} (or {want.scalar().name})"
            raise _fail(sig, types, f"argument {len(wants) + 1} is {t.wgsl} where {shown} "
                                    f"is needed; convert it, e.g. {want.name}(x)")
    return [target, *wants]


class _Refused(Exception):
    """A literal's value does not fit the type (resolve() then raises the full TypeError)."""


#: literals already converted to f32 (a shader's literals are few): value -> f32; zeros are not
#: kept (0.0 and -0.0 are equal keys: they have constants of their own), nor NaN (never equal
#: to itself)
_F32_OF: dict[Any, np.float32] = {}


_ZERO, _NEG_ZERO = np.float32(0.0), np.float32(-0.0)


def _literal_to_f32(v: Any) -> np.float32:
    known = _F32_OF.get(v)
    if known is not None:
        return known
    if v == 0 and v.__class__ in (int, float):
        return _NEG_ZERO if math.copysign(1.0, v) < 0 else _ZERO
    converted = _convert_to_f32(v)
    if v and len(_F32_OF) < 4096:
        _F32_OF[v] = converted
    return converted


def _convert_to_f32(v: Any) -> np.float32:
    try:
        r = float(v)
    except OverflowError:   # an int past the double range
        raise _Refused from None
    if -_F32_ROUNDS_FINITE < r < _F32_ROUNDS_FINITE:
        return _ONE * r
    if math.isfinite(r):
        raise _Refused
    return to_f32(r)


def _int_converter(target: WType) -> Callable[[Any], Any]:
    low, high = (0, 0xFFFFFFFF) if target.kind == "u" else (-2 ** 31, 2 ** 31 - 1)
    make = target.cls

    def convert(v: int) -> Any:
        if low <= v <= high:
            return make(v)
        raise _Refused
    return convert


def _literal_to_f16(v: Any) -> np.float16:
    try:
        r = float(v)
    except OverflowError:
        raise _Refused from None
    if math.isfinite(r) and not -_F16_ROUNDS_FINITE < r < _F16_ROUNDS_FINITE:
        raise _Refused
    return to_f16(r)


_CONVERTERS = {"f": _literal_to_f32, "i": _int_converter(I32), "u": _int_converter(U32),
               "h": _literal_to_f16}


class Resolver:
    """:func:`resolve` with the type-level decisions cached by the arguments' exact types:
    ``clamp(x, 0.0, 1.0)`` decides once that 0.0 and 1.0 become f32. Returns ``(T, a converter
    per argument or None, splat positions or None)``."""

    def __init__(self, sig: Signature) -> None:
        self.sig = sig
        self.plans: dict[tuple, tuple] = {}

    def plan(self, key: tuple, args: Sequence[Any]) -> tuple:
        """``(T, [(position, converter) ...], splat)`` for arguments of the types ``key``."""
        cached = self.plans.get(key)
        if cached is None:
            types = [describe(a) for a in args]
            target, *wants = _plan(self.sig, types, args)   # TypeError: nothing cached
            todo = tuple((i, _CONVERTERS[w.kind]) for i, w in enumerate(wants) if w is not None)
            splat = (tuple(w is not None or not t.size for w, t in zip(wants, types))
                     if target.size else None)
            cached = self.plans[key] = (target, todo, splat)
        return cached

    def convert(self, todo: tuple, args: Sequence[Any]) -> list[Any]:
        out = list(args)
        try:
            for i, convert in todo:
                out[i] = convert(out[i])
        except _Refused:
            return resolve(self.sig, args)[1]   # raises the TypeError that names the value
        return out


def resolve(sig: Signature, args: Sequence[Any]) -> tuple[WType, list[Any]]:
    """The overload ``args`` select: ``(T, converted arguments)``; TypeError if none."""
    types = [describe(a) for a in args]
    target, *wants = _plan(sig, types, args)
    return target, [a if w is None else convert_abstract(a, t, w, sig, types)
                    for a, w, t in zip(args, wants, types)]


# ------------------------------------------------------------------------- f32 results
_ONE = np.float32(1.0)
#: the doubles that round to a finite f32 lie strictly inside ±(2**128 - 2**103)
_F32_ROUNDS_FINITE = 2.0 ** 128 - 2.0 ** 103
_NAN32, _INF32 = np.float32("nan"), np.float32("inf")


def to_f32(r: float) -> np.float32:
    """The double ``r`` rounded to the nearest f32 (ties to even); ±inf past the f32 range."""
    if -_F32_ROUNDS_FINITE < r < _F32_ROUNDS_FINITE:
        return _ONE * r   # numpy rounds the Python float to f32 (NEP 50), times 1 is exact
    if r != r:
        return _NAN32
    return _INF32 if r > 0 else -_INF32


# ------------------------------------------------------------------------- f16 results
_FLOAT_KINDS = frozenset("fh")


# ------------------------------------------------------------------ indeterminate values
class WGSLIndeterminateWarning(UserWarning):
    """A built-in was called with arguments for which WGSL does not define its result: outside
    the function's domain (``sqrt(-1.0)``, ``log(0.0)``, ``acos(2.0)``), an f32 overflow
    (``exp(100.0)``), or where WGSL implementations differ (float ``clamp`` with
    ``low > high``). On a GPU the result is an *indeterminate value*: any value of the type,
    possibly different on each run. asyncshader returns the value each function documents and
    warns once per call site (Python's usual warning rules: ``-W error`` makes it an error,
    ``warnings.simplefilter("always")`` shows every one). ``rule`` names the function and the
    condition; ``arguments`` holds the first arguments that met it at that call site."""

    def __init__(self, message: str, rule: str = "", arguments: tuple = ()) -> None:
        super().__init__(message)
        self.rule = rule
        self.arguments = arguments


def indeterminate(rule: str, message: str, arguments: tuple, value: Any) -> Any:
    """Warns (at the user's line) that ``rule`` was met, and returns ``value``.

    The message does not contain the argument values, so that Python shows it once per call
    site (its registry keys on the text): a shader run by 256 invocations warns once."""
    warnings.warn(WGSLIndeterminateWarning(f"{rule}: {message}", rule, arguments),
                  stacklevel=user_stacklevel())
    return value


# ------------------------------------------------------------------- making a built-in
_LAST = (False, False, True)   # mix(vecN, vecN, S), refract: the common splat


def _concrete_types(sig: Signature) -> list[WType]:
    out = []
    for kind in sig.kinds:
        if sig.shapes == "sv":
            out.append(_SCALARS[kind])
        out += [t for (n, k), t in VEC_TYPES.items()
                if k == kind and (sig.shapes != "3" or n == 3)]
    return out


def _fast_table(sig: Signature, kernels: dict[str, Callable[..., Any]]) -> dict[tuple, tuple]:
    """Exact argument types of every overload -> (T, kernel, positions to splat)."""
    table: dict[tuple, tuple] = {}
    for t in _concrete_types(sig):
        variants: list[tuple[tuple, tuple]] = [((), ())]
        for role in sig.roles:
            options = {"T": [(t.cls, False)], "S": [(t.scalar().cls, True)],
                       "I": [(t.with_kind("i").cls, False)],
                       "T|S": [(t.cls, False)] + ([(t.scalar().cls, True)] if t.size else [])
                       }[role]
            variants = [((*key, c), (*splat, s)) for key, splat in variants
                        for c, s in options]
        for key, splat in variants:
            if splat == _LAST:
                splat = _LAST
            table[key] = (t, kernels[t.kind], splat if t.size and builtins.any(splat) else None)
    return table


def _apply(t: WType, kernel: Callable[..., Any], splat: tuple | None, args: Sequence[Any],
           componentwise: bool) -> Any:
    if not componentwise or not t.size:
        return kernel(*args)
    if splat is None:
        return t.cls._make(*map(kernel, *map(t.comps, args)))
    return t.cls._make(*map(kernel, *[repeat(a) if s else t.comps(a)
                                      for a, s in zip(args, splat)]))


def builtin(sig: Signature, kernels: dict[str, Callable[..., Any]], doc: str,
            params: Sequence[str], componentwise: bool = True) -> Callable[..., Any]:
    """The public function for ``sig``: arguments of an overload's exact types take a fast
    path (a dict lookup), others go through :func:`resolve`. ``kernels`` maps T's scalar kind
    to the function of the components (``componentwise``) or of the whole arguments."""
    if "h" in sig.kinds and "h" not in kernels:
        kernels = {**kernels, "h": f16_kernel(kernels["f"], sig.wgsl, indeterminate,
                                              scalar=componentwise)}
    table = _fast_table(sig, kernels)
    resolver = Resolver(sig)

    plans = resolver.plans

    def slow(args: Sequence[Any], key: tuple | None = None) -> Any:
        plan = plans.get(key) if key is not None else None
        t, todo, splat = plan or resolver.plan(key or tuple(map(type, args)), args)
        if todo and key is not None and not t.size and len(args) <= 3:
            # a scalar call with literals (clamp(x, 0.0, 1.0)): from now on the fast table
            # takes these argument types too, with the literals converted inline
            table[key] = (t, _with_literals(kernels[t.kind], todo, len(args),
                                            lambda *a: kernels[t.kind](*resolver.convert(
                                                todo, a))), None)
        if todo:   # abstract literals: convert their values (the types are decided)
            args = resolver.convert(todo, args)
        if not t.size or not componentwise:
            return kernels[t.kind](*args)
        return _apply(t, kernels[t.kind], splat, args, True)

    n = len(params)
    fn = _whole_args(n, table, slow) if not componentwise else _by_component(n, table, slow)
    fn.__name__ = fn.__qualname__ = sig.name
    fn.__doc__ = doc
    fn.__module__ = "asyncshader"
    fn.__signature__ = inspect.Signature(   # type: ignore[attr-defined]
        [inspect.Parameter(p, inspect.Parameter.POSITIONAL_ONLY) for p in params])
    fn.overloads = sig.overloads()  # type: ignore[attr-defined]
    fn.wgsl = sig.wgsl  # type: ignore[attr-defined]
    return fn


def _with_literals(kernel: Callable[..., Any], todo: tuple, n: int,
                   refused: Callable[..., Any]) -> Callable[..., Any]:
    """``kernel`` for scalar arguments of which those at ``todo``'s positions are abstract
    literals, converted inline (generated: a known f32 literal is one dict lookup, with no call);
    a call with a literal that does not fit goes to ``refused``, which raises the TypeError
    naming it."""
    names = "abc"[:n]
    ns: dict[str, Any] = {"_kernel": kernel, "_refused": refused, "_Refused": _Refused,
                          "_known": _F32_OF.get}
    args = list(names)
    for i, convert in todo:
        ns[f"_c{i}"] = convert
        args[i] = (f"(_known({names[i]}) or _c{i}({names[i]}))"
                   if convert is _literal_to_f32 else f"_c{i}({names[i]})")
    params = ", ".join(names)
    source = (f"def k({params}):\n"
              f"    try:\n        return _kernel({', '.join(args)})\n"
              f"    except _Refused:\n        return _refused({params})\n")
    exec(compile(source, __file__, "exec"), ns)  # (named as this file: warnings skip it)
    return ns["k"]


def _whole_args(n: int, table: dict, slow: Callable[..., Any]) -> Callable[..., Any]:
    """The function of a built-in whose kernel takes the whole arguments (dot, frexp ...)."""
    kernel_of = {key if n > 1 else key[0]: k for key, (_, k, _) in table.items()}
    if n == 1:
        def fn(e: Any, /) -> Any:
            k = kernel_of.get(type(e))
            return slow((e,)) if k is None else k(e)
    elif n == 2:
        def fn(e1: Any, e2: Any, /) -> Any:
            key = (type(e1), type(e2))
            k = kernel_of.get(key)
            return slow((e1, e2), key) if k is None else k(e1, e2)
    else:
        def fn(e1: Any, e2: Any, e3: Any, /) -> Any:
            key = (type(e1), type(e2), type(e3))
            k = kernel_of.get(key)
            return slow((e1, e2, e3), key) if k is None else k(e1, e2, e3)
    return fn


def _by_component(n: int, table: dict, slow: Callable[..., Any]) -> Callable[..., Any]:
    """The function of a component-wise built-in: the kernel maps the components."""
    if n == 1 and (F32.cls,) in table:   # f32 scalars, the common case: test for them first
        scalar = F32.cls
        kernel = table[(scalar,)][1]
        by_type = {key[0]: hit for key, hit in table.items()}

        def fn(e: Any, /) -> Any:
            if type(e) is scalar:
                return kernel(e)
            hit = by_type.get(type(e))
            if hit is None:
                return slow((e,))
            t, k, _ = hit
            return t.cls._make(*map(k, t.comps(e))) if t.size else k(e)
    elif n == 1:
        by_type = {key[0]: hit for key, hit in table.items()}

        def fn(e: Any, /) -> Any:
            hit = by_type.get(type(e))
            if hit is None:
                return slow((e,))
            t, k, _ = hit
            return t.cls._make(*map(k, t.comps(e))) if t.size else k(e)
    elif n == 2:
        def fn(e1: Any, e2: Any, /) -> Any:
            key = (type(e1), type(e2))
            hit = table.get(key)
            if hit is None:
                return slow((e1, e2), key)
            t, k, splat = hit
            if not t.size:
                return k(e1, e2)
            if splat is None:
                return t.cls._make(*map(k, t.comps(e1), t.comps(e2)))
            return _apply(t, k, splat, (e1, e2), True)
    else:
        def fn(e1: Any, e2: Any, e3: Any, /) -> Any:
            key = (type(e1), type(e2), type(e3))
            hit = table.get(key)
            if hit is None:
                return slow((e1, e2, e3), key)
            t, k, splat = hit
            if not t.size:
                return k(e1, e2, e3)
            if splat is None:
                return t.cls._make(*map(k, t.comps(e1), t.comps(e2), t.comps(e3)))
            if splat is _LAST:
                return t.cls._make(*map(k, t.comps(e1), t.comps(e2), repeat(e3)))
            return _apply(t, k, splat, (e1, e2, e3), True)
    return fn


def doc(sig: Signature, params: Sequence[str], what: str, accuracy: str, notes: str = "",
        returns: str = "T") -> str:
    """A built-in's docstring: the WGSL function it mirrors, its overloads, accuracy, notes."""
    text = (f"WGSL ``{sig.wgsl}({', '.join(params)})``: {what}\n\n"
            f"Overloads: {sig.overloads()}; returns {returns}.\n\n"
            f"Accuracy: {accuracy}")
    return text + (f"\n\n{notes}" if notes else "")


def out_of_domain(rule: str, message: str, arguments: tuple, value: Any) -> Any:
    """``value`` for arguments outside a built-in's domain; warns when they are all finite (a
    NaN or infinite argument is already an indeterminate value from an earlier step: the
    built-in passes it on quietly, as IEEE-754 arithmetic does)."""
    if builtins.all(math.isfinite(a) for a in arguments):
        return indeterminate(rule, message, arguments, value)
    return value
