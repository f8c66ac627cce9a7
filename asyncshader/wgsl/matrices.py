"""WGSL matrices: ``mat2x2f`` ... ``mat4x4f`` (``matCxR<f32>``: C columns of R rows), and
``mat2x2h`` ... ``mat4x4h`` (``matCxR<f16>``, columns ``vecRh``).

A matrix is C column vectors: ``m[i]`` is column ``i`` (a ``vecR``), ``m[i][j]`` row ``j`` of
it, and the scalar constructor fills column by column (column-major), as WGSL does::

    m = mat2x3f(1.0, 2.0, 3.0, 4.0, 5.0, 6.0)   # == mat2x3f(vec3f(1, 2, 3), vec3f(4, 5, 6))
    m[1]                                        # vec3f(4.0, 5.0, 6.0)
    np.asarray(m)                               # shape (2, 3): a[c, r] is row r of column c

The operators are WGSL's (§Arithmetic Expressions): ``m + m``, ``m - m`` (component-wise),
``m * s`` and ``s * m``, ``m * v`` (``matCxR * vecC -> vecR``), ``v * m`` (``vecR * matCxR ->
vecC``) and ``m1 * m2`` (``matKxR * matCxK -> matCxR``, the linear-algebra product). ``@``
means the same as ``*`` between matrices and vectors (numpy's spelling of the product), and
refuses scalars, as numpy does. Anything else WGSL does not define (``m / s``, ``m + s``,
``-m``, ``m < m``, a product of mismatched sizes, an ``i32`` or another matrix's scalar) is a
:class:`~asyncshader.ShaderTypeError` naming both types and the fix.

Every result is rounded to the scalar type (f32, or f16 for the ``h`` matrices): ``+ - *`` by
a scalar round each component (numpy's f32 or f16 arithmetic); the products compute each
component's sum of products in float64 from the exact products (a product of two f32 is exact
in float64) and round once: at least as accurate as WGSL's sum in any order, which WGSL allows
(its matrix products inherit ``dot``'s accuracy). f16 and f32 never mix: ``mat4x4h * vec4f``
is an error, convert with ``mat4x4f(m)`` or ``vec4h(v)``.

``==`` and ``!=`` give a Python ``bool`` (all components equal), as they do for vectors, so
that matrices work in ``assert`` statements; WGSL itself has no ``==`` on matrices (and no
component-wise one either, so there is no ``eq`` method).

``m[i]`` is the column itself, as WGSL's ``m[i]`` of a variable is a reference: ``m[1].x = 2.0``
and ``m[1][0] = 2.0`` change ``m``. In a shader, matrices are values as vectors are
(:mod:`asyncshader.wgsl.values`): after ``n = m`` or ``c = m[1]``, a store into ``n`` or ``c``
leaves ``m`` unchanged; in host code a name bound to a column is the column object.

Each class carries ``cols``, ``rows``, ``scalar`` (``f32`` or ``f16``), ``column`` (the column type,
``vecR``), ``wgsl`` (``"mat4x3<f32>"``), ``dtype`` (the numpy element type), ``shape``
(``(cols, rows)``) and ``align``/``size`` (WGSL's AlignOf and SizeOf in bytes).
"""

from __future__ import annotations

import builtins
from collections.abc import Callable
from typing import Any, ClassVar

import numpy as np

from ..errors import ShaderTypeError
from .types import _VECS, DEFER, GENERATED, ByClass, Vec

__all__ = ["MATRICES", "MATRICES_H", "Matrix", "mat2x2f", "mat2x2h", "mat2x3f", "mat2x3h",
           "mat2x4f", "mat2x4h", "mat3x2f", "mat3x2h", "mat3x3f", "mat3x3h", "mat3x4f",
           "mat3x4h", "mat4x2f", "mat4x2h", "mat4x3f", "mat4x3h", "mat4x4f", "mat4x4h"]

_NAMES = "xyzw"
#: Python numbers (WGSL's abstract literals) and numpy's float64 (a host value) convert to the
#: matrix's scalar type; the WGSL scalars of other types do not (WGSL converts nothing)
_HOST_NUMBERS = (int, float, np.float64)


def _type_name(x: Any) -> str:
    if isinstance(x, (Matrix, Vec)):
        return type(x).__name__
    t = type(x)
    if t is int or t is float:
        return f"a Python {t.__name__} ({x!r})"
    if isinstance(x, np.ndarray):
        return f"an array of shape {x.shape}"
    return {np.float32: "f32", np.int32: "i32", np.uint32: "u32", np.float16: "f16",
            np.bool_: "bool", builtins.bool: "bool"}.get(t, t.__name__)


class Matrix:
    """Base class of the WGSL matrix types ``mat2x2f`` ... ``mat4x4f``, ``mat2x2h`` ...
    ``mat4x4h``."""

    __slots__ = ("_c",)
    cols: ClassVar[int]
    rows: ClassVar[int]
    scalar: ClassVar[Any]
    column: ClassVar[type]
    kind: ClassVar[str]
    wgsl: ClassVar[str]
    dtype: ClassVar[np.dtype]
    shape: ClassVar[tuple[int, int]]
    align: ClassVar[int]
    size: ClassVar[int]
    # the kernels of this shape: m * (by the right operand's class), v * m (by v's class)
    _mul: ClassVar[dict[type, Callable]]
    _rmul: ClassVar[dict[type, Callable]]
    _round: ClassVar[Callable[[float], Any]]
    _add: Callable[[Matrix], Matrix]  # (the generated kernels, bound as methods)
    _sub: Callable[[Matrix], Matrix]

    #: numpy defers to the matrix's own operators (``np.float32(2) * m`` is ``m.__rmul__``)
    __array_ufunc__ = None
    __hash__ = None  # type: ignore[assignment]  # (mutable, like vectors)

    def __init__(self, *args: Any) -> None:
        self._c = _columns(type(self), args)

    @classmethod
    def _of(cls, columns: list) -> Matrix:
        m = object.__new__(cls)
        m._c = columns
        return m

    # ---------------------------------------------------------------------------- access
    def __getitem__(self, i: Any) -> Vec:
        if i.__class__ is int and 0 <= i < self.cols:
            return self._c[i]
        return self._c[_column_index(self, i)]

    def __setitem__(self, i: Any, v: Any) -> None:
        self._c[_column_index(self, i)] = _column(type(self), v, "m[i] = v")

    def __len__(self) -> int:
        return self.cols

    def __iter__(self) -> Any:
        return iter(self._c)

    def __copy__(self) -> Matrix:
        """A copy with its own columns (the default copy would share them)."""
        return self._of([c._make(*c) for c in self._c])

    def __deepcopy__(self, memo: Any) -> Matrix:
        return self.__copy__()

    def __array__(self, dtype: Any = None, copy: Any = None) -> np.ndarray:
        return np.array([list(c) for c in self._c], dtype=dtype or self.dtype)

    def __repr__(self) -> str:
        return f"{type(self).__name__}({', '.join(repr(c) for c in self._c)})"

    def __eq__(self, o: object) -> bool:
        return type(o) is type(self) and builtins.all(
            a == b for a, b in zip(self._c, o._c))  # type: ignore[attr-defined]

    def __ne__(self, o: object) -> bool:
        return not self.__eq__(o)

    def __bool__(self) -> bool:
        raise TypeError(f"the truth value of a {type(self).__name__} is not defined: WGSL has "
                        "no matrix comparisons; compare columns, e.g. all(m[0].eq(n[0]))")

    # ------------------------------------------------------------------------- operators
    def __add__(self, o: Any) -> Matrix:
        if o.__class__ is not self.__class__:
            raise _refuse(self, "+", o)
        return self._add(o)

    def __sub__(self, o: Any) -> Matrix:
        if o.__class__ is not self.__class__:
            raise _refuse(self, "-", o)
        return self._sub(o)

    def __mul__(self, o: Any) -> Any:
        kernel = self._mul[o.__class__]
        if kernel is not None:
            return kernel(self, o)
        s = _scalar(self, o, "*")
        return self._of([c * s for c in self._c])

    def __rmul__(self, o: Any) -> Any:
        kernel = self._rmul[o.__class__]
        if kernel is not None:
            return kernel(o, self)
        s = _scalar(self, o, "*", left=True)
        return self._of([s * c for c in self._c])

    def __matmul__(self, o: Any) -> Any:
        kernel = self._mul[o.__class__]
        if kernel is None:
            raise _refuse(self, "@", o)
        return kernel(self, o)

    def __rmatmul__(self, o: Any) -> Any:
        kernel = self._rmul[o.__class__]
        if kernel is None:
            raise _refuse(o, "@", self)
        return kernel(o, self)

    def __radd__(self, o: Any) -> Any:
        raise _refuse(o, "+", self)

    def __rsub__(self, o: Any) -> Any:
        raise _refuse(o, "-", self)

    def __neg__(self) -> Any:
        raise ShaderTypeError(f"`-{type(self).__name__}` is not a WGSL expression: WGSL has no "
                              "negation of matrices. Write m * -1.0.")

    def transpose(self) -> Matrix:
        """WGSL ``transpose(m)``: the matrix whose column ``i`` is row ``i`` of ``m``."""
        return _transpose(self)


def _refused(sym: str) -> Callable:
    def refuse(self: Any, o: Any = None) -> Any:
        raise _refuse(self, sym, o)
    return refuse


def _refused_right(sym: str) -> Callable:
    def refuse(self: Any, o: Any) -> Any:
        raise _refuse(o, sym, self)
    return refuse


for _name, _sym in (("truediv", "/"), ("floordiv", "//"), ("mod", "%"), ("pow", "**"),
                    ("lshift", "<<"), ("rshift", ">>"), ("and", "&"), ("or", "|"),
                    ("xor", "^")):
    setattr(Matrix, f"__{_name}__", _refused(_sym))
    setattr(Matrix, f"__r{_name}__", _refused_right(_sym))
for _name, _sym in (("lt", "<"), ("le", "<="), ("gt", ">"), ("ge", ">=")):
    setattr(Matrix, f"__{_name}__", _refused(_sym))


# ------------------------------------------------------------------------------ errors
def _refuse(a: Any, sym: str, b: Any) -> ShaderTypeError:
    """The error for ``a sym b`` with a matrix operand that WGSL does not define."""
    left, right = _type_name(a), _type_name(b)
    m = a if isinstance(a, Matrix) else b
    if sym in "+-" and isinstance(a, Matrix) and isinstance(b, Matrix):
        why = (f"both matrices must have one shape and scalar type; convert one with "
               f"{type(a).__name__}(other) if only the scalar differs")
    elif sym in "+-":
        why = (f"WGSL adds and subtracts matrices of one type only (no scalar or vector "
               f"operand); to add s to every component write m + {type(m).__name__}"
               f"({', '.join(['s'] * m.cols * m.rows) if m.cols * m.rows <= 4 else 's, ...'})")
    elif sym in ("*", "@"):
        why = _product_hint(a, b, sym)
    elif sym in ("/", "//", "%"):
        why = ("WGSL has no matrix division or remainder; multiply by the reciprocal, "
               "m * (1.0 / s)" if sym == "/" and not isinstance(b, Matrix) else
               "WGSL has no matrix division or remainder")
    elif sym in ("<", "<=", ">", ">="):
        why = "WGSL has no matrix comparisons; compare columns, e.g. m[0] < n[0]"
    else:
        why = "WGSL defines only + - * on matrices"
    return ShaderTypeError(f"`{left} {sym} {right}` is not a WGSL expression: {why}.")


def _product_hint(a: Any, b: Any, sym: str) -> str:
    if isinstance(a, Matrix):
        m, other, right = a, b, True
    else:
        m, other, right = b, a, False
    by_cols, by_rows = _VECS[(m.cols, m.kind)].__name__, m.column.__name__
    vec_in = _VECS[(m.cols, m.kind)] if right else m.column
    vec_name = vec_in.__name__
    if isinstance(other, np.ndarray):
        return (f"a numpy array is memory, not a WGSL value: load it first, as "
                f"{vec_name}(row) for a vector or {type(m).__name__}(buf[k]) for a matrix")
    if sym == "@" and not isinstance(other, (Matrix, Vec)):
        return ("`@` is the matrix product (as in numpy) and takes a matrix or a vector; "
                "scale a matrix with `*`")
    if isinstance(other, Vec):
        if other.kind != m.kind:
            return (f"the vector's components must be {m.scalar.wgsl}; convert it with "
                    f"{_VECS.get((other.size, m.kind), vec_in).__name__}(v)")
        if right:
            return (f"{type(m).__name__} * v takes a {vec_name} (one component per column) "
                    f"and gives a {by_rows}; v * {type(m).__name__} takes a "
                    f"{by_rows} (one per row)")
        return (f"v * {type(m).__name__} takes a {vec_name} (one component per row) and "
                f"gives a {by_cols}; {type(m).__name__} * v takes a {by_cols}")
    if isinstance(other, Matrix):
        if other.kind != m.kind:
            return (f"both matrices must have one scalar type; convert one with "
                    f"{_MATS[(other.cols, other.rows, m.kind)].__name__}(other)")
        left, right_m = (a, b)
        return (f"the product matKxR * matCxK needs the left matrix's columns to match the "
                f"right one's rows; {type(left).__name__} has {left.cols} columns and "
                f"{type(right_m).__name__} has {right_m.rows} rows (transpose(m) swaps them)")
    return (f"a matrix is multiplied by a {m.scalar.wgsl}, a vector or a matrix; convert the "
            f"scalar with {m.scalar.wgsl}(x)")


def _scalar(m: Matrix, s: Any, sym: str, left: bool = False) -> Any:
    """``s`` as the matrix's scalar type: a Python number or a float64 converts (it must fit);
    another WGSL type is refused."""
    t = s.__class__
    if t is m.scalar.numpy_type:
        return s
    if t in _HOST_NUMBERS and t is not bool:
        if not abs(s) <= _FMAX[m.kind] and s == s:
            raise ShaderTypeError(f"`{_type_name(m)} {sym} {s!r}`: the literal does not fit in "
                                  f"{m.scalar.wgsl}.")
        return m.scalar.numpy_type(s)
    raise (_refuse(s, sym, m) if left else _refuse(m, sym, s))


def _column_index(m: Matrix, i: Any) -> int:
    if isinstance(i, (int, np.integer)) and not isinstance(i, (bool, np.bool_)):
        if 0 <= i < m.cols:
            return int(i)
        raise IndexError(f"column {int(i)} of a {type(m).__name__}: it has columns 0 to "
                         f"{m.cols - 1} (WGSL: an out-of-range index of a matrix value is "
                         "indeterminate; a negative index is an error)")
    raise TypeError(f"a {type(m).__name__} is indexed by a column number (an int, i32 or u32), "
                    f"not {_type_name(i)}; m[c][r] is row r of column c")


# ------------------------------------------------------------------------ constructors
def _columns(cls: type[Matrix], args: tuple) -> list:
    """The column vectors for ``cls(*args)`` (the forms WGSL's constructors take)."""
    n = len(args)
    col = cls.column
    if n == cls.cols and builtins.all(isinstance(a, Vec) for a in args):
        return [_column(cls, a, f"{cls.__name__}(columns)") for a in args]
    if n == cls.cols * cls.rows:
        vals = [_element(cls, a) for a in args]
        r = cls.rows
        return [col._make(*vals[i * r:(i + 1) * r]) for i in range(cls.cols)]
    if n == 0:
        zero = cls.scalar.numpy_type(0)
        return [col._make(*[zero] * cls.rows) for _ in range(cls.cols)]
    if n == 1:
        a = args[0]
        if isinstance(a, Matrix):
            if (a.cols, a.rows) != (cls.cols, cls.rows):
                raise ShaderTypeError(
                    f"{cls.__name__}({type(a).__name__}): WGSL converts a matrix only to the "
                    f"same shape ({cls.cols} columns, {cls.rows} rows); for the other shape "
                    "build it from columns, e.g. with swizzles")
            conv = cls.scalar  # (WGSL's conversion: f16 past its range is ±inf)
            return [col._make(*[conv(x) for x in c]) for c in a._c]
        if isinstance(a, (np.ndarray, list, tuple)):
            return _from_array(cls, a)
    raise ShaderTypeError(
        f"{cls.__name__}({', '.join(_type_name(a) for a in args)}): WGSL builds a "
        f"{cls.wgsl} from {cls.cols} {col.__name__} columns, from {cls.cols * cls.rows} "
        f"scalars in column-major order, from another {cls.cols}x{cls.rows} matrix, or "
        f"(asyncshader) from an array of shape ({cls.cols}, {cls.rows}); "
        f"{cls.__name__}() is the zero matrix")


def _from_array(cls: type[Matrix], a: Any) -> list:
    """Columns from an array of shape (C, R) (a[c, r] is row r of column c), e.g. a matrix
    of a storage buffer, ``cls(buf[i])``: its elements are read (and reported) once."""
    values = a.tolist() if isinstance(a, np.ndarray) else a
    arr = np.asarray(values)
    if arr.shape != (cls.cols, cls.rows) or arr.dtype.kind not in "fiu":
        what = f"shape {arr.shape}" if arr.dtype.kind in "fiu" else f"dtype {arr.dtype}"
        pad = (f" (a WGSL buffer pads each column of a {cls.rows}-row matrix to 4: drop the "
               f"padding row with a[:, :3])" if cls.rows == 3 and arr.shape == (cls.cols, 4)
               else "")
        raise ShaderTypeError(f"{cls.__name__}(array of {what}): the array must hold numbers "
                              f"in shape ({cls.cols}, {cls.rows}), one row per column{pad}")
    with np.errstate(over="ignore"):  # (past the range: ±inf, as the scalar conversion)
        flat = arr.astype(cls.dtype)
    col = cls.column
    return [col._make(*row) for row in flat]


def _element(cls: type[Matrix], a: Any) -> Any:
    t = a.__class__
    if t is cls.scalar.numpy_type:
        return a
    if t in _HOST_NUMBERS and t is not bool:
        if not abs(a) <= _FMAX[cls.kind] and a == a:
            raise ShaderTypeError(f"{cls.__name__}(...) with {a!r}: the literal does not fit "
                                  f"in {cls.scalar.wgsl}; write {cls.scalar.wgsl}(x) for "
                                  "±inf, or use a smaller value")
        return cls.scalar.numpy_type(a)
    raise ShaderTypeError(
        f"{cls.__name__}(...) with {_type_name(a)}: the elements of a {cls.wgsl} are "
        f"{cls.scalar.wgsl} (or Python numbers); WGSL converts nothing implicitly, so write "
        f"{cls.scalar.wgsl}(x)" + (f", or pass {cls.cols} {cls.column.__name__} columns"
                                   if isinstance(a, Vec) else ""))


def _column(cls: type[Matrix], v: Any, what: str) -> Vec:
    """``v`` as a column of ``cls`` (a copy: WGSL assigns values)."""
    col = cls.column
    if isinstance(v, col):  # (a vector loaded from memory is a subclass)
        return col._make(*v)
    if isinstance(v, Vec):
        fix = (f"convert it with {col.__name__}(v)" if v.size == cls.rows else
               f"a {cls.__name__} column has {cls.rows} components")
        raise ShaderTypeError(f"{what} with a {type(v).__name__}: the columns of a "
                              f"{cls.wgsl} are {col.__name__}; {fix}")
    if isinstance(v, np.ndarray) and v.shape == (cls.rows,) and v.dtype.kind in "fiu":
        return col(*v.tolist())
    raise ShaderTypeError(f"{what} with {_type_name(v)}: the columns of a {cls.wgsl} are "
                          f"{col.__name__}")


# ------------------------------------------------------------------------- the kernels
def _rounds_finite(numpy_type: type) -> float:
    """The bound below which (in magnitude) a double rounds to a finite ``numpy_type``: the
    largest finite value plus half an ULP of it (a tie there rounds to even: infinity)."""
    info = np.finfo(numpy_type)
    return float(info.max) * (1 + 2.0 ** -(info.nmant + 1))


def _rounder(numpy_type: type) -> Callable[[float], Any]:
    """Rounds a Python float to ``numpy_type`` (nearest, ties to even; ±inf past the range)."""
    one = numpy_type(1)
    big = _rounds_finite(numpy_type)
    inf, nan = numpy_type(np.inf), numpy_type(np.nan)

    def rnd(r: float) -> Any:
        if -big < r < big:
            return one * r
        if r != r:
            return nan
        return inf if r > 0 else -inf
    return rnd


def _rounded(make: str, sums: list[str]) -> str:
    """The body that rounds the float64 ``sums`` to the scalar type and makes ``make`` of them:
    inline when every one is inside the finite range (the common case), else by ``_r``."""
    names = [f"s{i}" for i in range(len(sums))]
    body = "".join(f"    {n} = {e}\n" for n, e in zip(names, sums))
    inside = " and ".join(f"-_B < {n} < _B" for n in names)
    return (body + f"    if {inside}:\n        return {make}._make("
            + ", ".join(f"_one * {n}" for n in names) + ")\n"
            + f"    return {make}._make(" + ", ".join(f"_r({n})" for n in names) + ")\n")


def _kernel_source(cols: int, rows: int) -> str:
    """``m * v``, ``v * m``, ``m + m`` and ``m - m`` for matCxR, written out.

    ``m * v``: component i = sum over c of m[c][i] * v[c]; ``v * m``: component c =
    dot(v, m[c]); both in float64 from exact products, rounded once. ``+`` and ``-`` are
    numpy's f32 operations on the components."""
    cs = ", ".join(f"c{c}" for c in range(cols))
    head = f"    {cs}, = m._c\n"
    mv_vs = "".join(f"    v{c} = float(v.{_NAMES[c]})\n" for c in range(cols))
    mv = [" + ".join(f"float(c{c}.{_NAMES[i]}) * v{c}" for c in range(cols))
          for i in range(rows)]
    vm_vs = "".join(f"    v{i} = float(v.{_NAMES[i]})\n" for i in range(rows))
    vm = [" + ".join(f"float(c{c}.{_NAMES[i]}) * v{i}" for i in range(rows))
          for c in range(cols)]
    src = (f"def mv(m, v):\n{head}{mv_vs}{_rounded('_R', mv)}\n"
           f"def vm(v, m):\n{head}{vm_vs}{_rounded('_C', vm)}\n")
    ds = ", ".join(f"d{c}" for c in range(cols))
    for name, sym in (("add", "+"), ("sub", "-")):
        columns = ", ".join(
            "_R._make(" + ", ".join(f"c{c}.{_NAMES[i]} {sym} d{c}.{_NAMES[i]}"
                                    for i in range(rows)) + ")" for c in range(cols))
        src += (f"def {name}(m, o):\n{head}    {ds}, = o._c\n"
                f"    return _M._of([{columns}])\n\n")
    return src


def _kernels(cls: type[Matrix]) -> dict[str, Callable]:
    np_type = cls.dtype.type
    ns: dict[str, Any] = {"_r": cls._round, "_R": cls.column, "_M": cls,
                          "_C": _VECS[(cls.cols, cls.kind)], "_one": np_type(1),
                          "_B": _rounds_finite(np_type)}
    exec(compile(_kernel_source(cls.cols, cls.rows), GENERATED, "exec"), ns)
    return {k: ns[k] for k in ("mv", "vm", "add", "sub")}


def _mm(mv: Callable, result: type[Matrix]) -> Callable:
    """``m1 * m2``: column c of the product is m1 * m2[c]."""
    def mm(a: Matrix, b: Matrix) -> Matrix:
        return result._of([mv(a, c) for c in b._c])
    return mm


def _transpose(m: Matrix) -> Matrix:
    t = _MATS[(m.rows, m.cols, m.kind)]
    return t._of([t.column._make(*[c[i] for c in m._c]) for i in range(m.rows)])


# ------------------------------------------------------------------------- the classes
#: matrices by (cols, rows, kind)
_MATS: dict[tuple[int, int, str], type[Matrix]] = {}
_SUFFIX = {"f": "f", "h": "h"}
_FMAX: dict[str, float] = {}


def define(kind: str) -> list[type[Matrix]]:
    """Makes the nine matrix classes of one float kind (``"f"`` for f32, ``"h"`` for f16)
    and links their products; returns them."""
    made = []
    column2 = _VECS[(2, kind)]
    scalar = column2.scalar
    np_type = scalar.numpy_type
    _FMAX[kind] = float(np.finfo(np_type).max)
    rnd = _rounder(np_type)
    for c in (2, 3, 4):
        for r in (2, 3, 4):
            column = _VECS[(r, kind)]
            align = (2 if r == 2 else 4) * np.dtype(np_type).itemsize
            size = c * -(-(r * np.dtype(np_type).itemsize) // align) * align
            name = f"mat{c}x{r}{_SUFFIX[kind]}"
            cls = type(name, (Matrix,), {
                "__slots__": (), "__module__": __name__, "cols": c, "rows": r,
                "scalar": scalar, "column": column, "kind": kind,
                "wgsl": f"mat{c}x{r}<{scalar.wgsl}>", "dtype": np.dtype(np_type),
                "shape": (c, r), "align": align, "size": size, "_round": staticmethod(rnd),
                "__doc__": f"WGSL ``mat{c}x{r}<{scalar.wgsl}>``: {c} columns of "
                           f"``{column.__name__}`` ({c * r} {scalar.wgsl} in column-major "
                           "order).",
            })
            _MATS[(c, r, kind)] = cls
            made.append(cls)
    for cls in made:
        kernels = _kernels(cls)
        mv = kernels["mv"]
        cls._mul = ByClass({_VECS[(cls.cols, kind)]: mv})
        cls._rmul = ByClass({cls.column: kernels["vm"]})
        cls._add, cls._sub = kernels["add"], kernels["sub"]
        for other in made:  # self (KxR) * other (CxK) -> CxR
            if other.rows == cls.cols:
                cls._mul[other] = _mm(mv, _MATS[(other.cols, cls.rows, kind)])
    DEFER.update(made)  # v * m: a vector leaves it to the matrix
    return made


MATRICES: list[type[Matrix]] = define("f")
(mat2x2f, mat2x3f, mat2x4f, mat3x2f, mat3x3f, mat3x4f, mat4x2f, mat4x3f,
 mat4x4f) = MATRICES
#: the f16 matrices (WGSL's ``enable f16;``): ``matCxR<f16>``, columns ``vecRh``
MATRICES_H: list[type[Matrix]] = define("h")
(mat2x2h, mat2x3h, mat2x4h, mat3x2h, mat3x3h, mat3x4h, mat4x2h, mat4x3h,
 mat4x4h) = MATRICES_H
