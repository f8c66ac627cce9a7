"""Managed arrays: the numpy arrays asyncshader hands a shader (workgroup variables, storage
buffers as a run sees them) and the views made of them.

Arithmetic on a managed array gives plain values. numpy's methods and functions that read or
write without indexing (``buf.copy()``, ``buf.fill(0)``, ``np.dot``, ``np.copyto``,
``np.clip(..., out=buf)``, ``np.add.at``) go through two hooks, :meth:`_Managed._will_read`
and :meth:`_Managed._will_write`: the instrumented classes (:mod:`asyncshader.watched`) report
the access there, with the positions of the elements touched, and a fragment helper's storage
drops the write (WGSL: a helper's stores have no effect). A view made without indexing
(``buf.reshape(...)``, ``buf.T``, ``np.ravel(buf)``, ``np.split(buf, 2)``) stays managed and
finds where its elements live from its address.
"""

from __future__ import annotations

import functools
import inspect
from typing import Any

import numpy as np
from numpy.lib.stride_tricks import as_strided

from .types import Vec


class _Managed(np.ndarray):
    """An array asyncshader manages; arithmetic on it gives plain values, not managed memory."""

    _run: Any = None  # the instrumented run whose hooks see this array's accesses
    _origin: Any = None  # the array that accesses are reported against (None: this one)
    _map: Any = None  # for a view: the flat positions of its elements in _origin
    _fast: Any = None  # the race detector's MemoryState when it may be called directly
    _reports = False  # whether the hooks report positions (the watched classes)
    _span = 1  # buffer elements per element (a view with wider elements than its memory's)

    def __array_wrap__(self, arr: Any, context: Any = None, return_scalar: bool = False) -> Any:
        if return_scalar:
            return arr[()]
        return np.asarray(arr)

    def __repr__(self) -> str:  # numpy's printing indexes past the ends: not the shader's
        return repr(self.view(np.ndarray))

    def __str__(self) -> str:
        return str(self.view(np.ndarray))

    # -------------------------------------------------------- hooks for reads and writes that
    # do not go through indexing (numpy methods and functions); ``flat``: the flat positions,
    # in this array, of the elements touched (None: all of them)
    def _will_read(self, flat: Any = None) -> None:
        """A read of this array's elements is about to happen (reported when watched)."""

    def _will_write(self, flat: Any = None) -> bool:
        """A write is about to happen: False if it must be dropped (a fragment helper's)."""
        return True

    def __array_ufunc__(self, ufunc: Any, method: str, *inputs: Any, out: Any = None,
                        **kwargs: Any) -> Any:
        """Arithmetic on managed memory computes on plain arrays and gives plain values; an
        in-place operation (``buf += 1``, ``out=``, ``np.add.at(buf, i, 1)``) writes through
        and keeps the name bound to the managed array."""
        args = [x.view(np.ndarray) if isinstance(x, _Managed) else x for x in inputs]
        if method == "at" and isinstance(inputs[0], _Managed):  # in place, at indices
            target = inputs[0]
            flat = _indexed(target, inputs[1]) if target._reports else None
            target._will_read(flat)
            if target._will_write(flat):
                ufunc.at(*args, **kwargs)
            return None
        if out is None:
            return getattr(ufunc, method)(*args, **kwargs)
        plain = tuple(o.view(np.ndarray) if isinstance(o, _Managed) else o for o in out)
        result = getattr(ufunc, method)(*args, out=plain, **kwargs)
        if len(out) == 1:
            return out[0] if isinstance(out[0], _Managed) else result
        return out

    def __array_function__(self, func: Any, types: Any, args: Any, kwargs: Any) -> Any:
        """numpy functions (``np.dot``, ``np.copyto``, ``np.concatenate``, ...) run on plain
        arrays. They read the managed arrays they are given, unless they return views of them
        (``np.reshape``, ``np.split``: nothing is read yet, and the views stay managed); they
        write into ``out=`` and into the destination of the writing functions (``np.copyto``,
        ``np.put``, ...), at the elements they write; a fragment helper writes nothing."""
        memo: dict[int, np.ndarray] = {}  # each managed array's one plain view in this call
        plain_args = [_plain(a, memo) for a in args]
        plain_kwargs = {k: _plain(v, memo) for k, v in kwargs.items()}
        if func in _NO_ACCESS:
            return func(*plain_args, **plain_kwargs)
        inputs, dests = _roles(func, args, kwargs)
        outs = [d for name, d in dests if name == "out"]
        for name, dest in dests:
            flat = _written(func, name, dest, args, kwargs) if dest._reports else None
            if not dest._will_write(flat):  # a helper's call: no effect; numpy returns `out`
                return (outs[0] if len(outs) == 1 else tuple(outs)) if outs else None
        result = func(*plain_args, **plain_kwargs)
        for out in outs:  # numpy returns `out` itself: give back the managed one
            if result is memo.get(id(out)):
                result = out
            elif isinstance(result, tuple):
                result = tuple(out if r is memo.get(id(out)) else r for r in result)
        result, viewed = _as_views(result, inputs)
        for x in inputs:
            if func in _READS_AND_VIEWS or not any(x is v for v in viewed):
                x._will_read()
        return result

    # numpy's methods that read or write without indexing (they bypass __getitem__)
    def copy(self, order: str = "C") -> np.ndarray:  # type: ignore[override]
        """A private copy (a plain array): reads every element."""
        self._will_read()
        return np.ndarray.copy(self.view(np.ndarray), order)

    def __copy__(self) -> np.ndarray:
        return self.copy()

    def __deepcopy__(self, memo: Any) -> np.ndarray:
        return self.copy()

    def tolist(self) -> Any:
        self._will_read()
        return self.view(np.ndarray).tolist()

    def tobytes(self, order: str = "C") -> bytes:
        self._will_read()
        return self.view(np.ndarray).tobytes(order)

    def astype(self, *args: Any, **kwargs: Any) -> Any:  # type: ignore[override]
        plain = self.view(np.ndarray)
        result = plain.astype(*args, **kwargs)
        if result is plain:  # copy=False and nothing to convert: numpy returns the array
            return self
        self._will_read()
        return result

    def flatten(self, order: str = "C") -> np.ndarray:
        self._will_read()
        return self.view(np.ndarray).flatten(order)

    def item(self, *args: Any) -> Any:
        plain = self.view(np.ndarray)
        value = plain.item(*args)  # numpy's errors first: an index it refuses reads nothing
        if self._reports:
            if not args:  # the only element
                flat = None
            elif len(args) == 1 and not isinstance(args[0], tuple):  # a flat index
                flat = _taken(plain.size, args[0], "raise")
            else:  # one index per axis
                flat = _indexed(plain, args[0] if len(args) == 1 else args)
            self._will_read(flat)
        return value

    def dot(self, b: Any, out: Any = None) -> Any:  # type: ignore[override]
        return np.dot(self, b, out)

    def argmax(self, *args: Any, **kwargs: Any) -> Any:  # type: ignore[override]
        self._will_read()
        return self.view(np.ndarray).argmax(*args, **kwargs)

    def argmin(self, *args: Any, **kwargs: Any) -> Any:  # type: ignore[override]
        self._will_read()
        return self.view(np.ndarray).argmin(*args, **kwargs)

    def argsort(self, *args: Any, **kwargs: Any) -> Any:  # type: ignore[override]
        self._will_read()
        return self.view(np.ndarray).argsort(*args, **kwargs)

    def nonzero(self) -> Any:
        self._will_read()
        return self.view(np.ndarray).nonzero()

    def fill(self, value: Any) -> None:
        """Writes every element (nothing for a fragment helper)."""
        _check_store(self, ..., value)
        if self._will_write():
            self.view(np.ndarray).fill(value)

    def sort(self, *args: Any, **kwargs: Any) -> None:
        self._will_read()
        if self._will_write():
            self.view(np.ndarray).sort(*args, **kwargs)

    def partition(self, *args: Any, **kwargs: Any) -> None:
        self._will_read()
        if self._will_write():
            self.view(np.ndarray).partition(*args, **kwargs)

    def put(self, indices: Any, values: Any, mode: str = "raise") -> None:
        flat = _taken(self.size, indices, mode) if self._reports else None  # may raise first
        _check_store(self, indices, values)
        if self._will_write(flat):
            self.view(np.ndarray).put(indices, values, mode)

    @property
    def flat(self) -> _Flat:  # type: ignore[override]
        """``a.flat``, with its reads and writes seen like indexing's."""
        return _Flat(self)

    @flat.setter
    def flat(self, value: Any) -> None:  # ``a.flat = v``: every element, v repeated
        _Flat(self)[...] = value

    def take(self, indices: Any, axis: Any = None, out: Any = None,  # type: ignore[override]
             mode: str = "raise") -> Any:
        if isinstance(out, _Managed) and not out._will_write():
            return out  # a helper's: no effect
        result = self.view(np.ndarray).take(indices, axis, _plain(out), mode)
        self._will_read(_taken(self.size, indices, mode)
                        if self._reports and axis is None else None)
        return out if out is not None else result

    def setfield(self, val: Any, dtype: Any, offset: int = 0) -> None:
        if self._will_write():
            self.view(np.ndarray).setfield(val, dtype, offset)

    def byteswap(self, inplace: bool = False) -> Any:  # type: ignore[override]
        self._will_read()
        if not inplace:
            return self.view(np.ndarray).byteswap()
        if self._will_write():
            self.view(np.ndarray).byteswap(inplace=True)
        return self


class _Flat:
    """``a.flat`` of a managed array: numpy's flat iterator, with element reads and writes
    going through the hooks like indexing's."""

    __slots__ = ("array", "it")

    def __init__(self, array: _Managed) -> None:
        self.array = array
        self.it = array.view(np.ndarray).flat

    def __getitem__(self, index: Any) -> Any:
        a = self.array
        value = self.it[index]
        if a._reports:
            a._will_read(_flat_index(a.size, index))
        return value

    def __setitem__(self, index: Any, value: Any) -> None:
        a = self.array
        _check_store(a, index, value)
        if a._will_write(_flat_index(a.size, index) if a._reports else None):
            self.it[index] = value

    def __iter__(self) -> _Flat:
        return self

    def __next__(self) -> Any:
        index = self.it.index
        value = next(self.it)
        if self.array._reports:
            self.array._will_read(np.array([index]))
        return value

    def __len__(self) -> int:
        return int(self.array.size)

    def __array__(self, dtype: Any = None, copy: Any = None) -> np.ndarray:
        self.array._will_read()
        return np.asarray(self.it.copy(), dtype)

    def copy(self) -> np.ndarray:
        self.array._will_read()
        return self.it.copy()

    def __eq__(self, other: Any) -> Any:  # type: ignore[override]
        return self.__array__() == other

    def __ne__(self, other: Any) -> Any:  # type: ignore[override]
        return self.__array__() != other

    __hash__ = None  # type: ignore[assignment]

    def __getattr__(self, name: str) -> Any:  # base, coords, index: no element is touched
        return getattr(self.it, name)


_FLOATS = frozenset({float, np.float16, np.float32, np.float64})


#: numpy's 64-bit integers: a shader's values become one when numpy widens an expression that
#: WGSL refuses (``u32 + i32`` is an int64; WGSL has no 64-bit integers), or sums with numpy
_WIDENED = frozenset({np.int64, np.uint64})
_RANGES = {"i": (-(2**31), 2**31 - 1), "u": (0, 2**32 - 1)}


#: the memory types a store may convert into (dtype.char): i32, u32 (a float truncates), f16
#: (an f32 rounds): the watched arrays' fast path tests this before calling _converts
CONVERTING_CHARS = frozenset(np.dtype(t).char for t in (np.int32, np.uint32, np.float16))
_F16 = np.dtype(np.float16)


def _converts(dtype: np.dtype, value: Any) -> bool:
    """Whether storing ``value`` into memory of ``dtype`` changes it in a conversion WGSL never
    makes implicitly: a float into integer memory (truncated), a concrete f32 (or a numpy
    float64) into f16 memory (rounded; a Python float is WGSL's abstract float, which converts
    to f16), or a 64-bit integer numpy widened that does not fit the integer memory (wrapped;
    one that fits is stored exactly)."""
    kind = dtype.kind
    if value.__class__ in _WIDENED:
        low, high = _RANGES.get(kind, (value, value))
        return not low <= value <= high
    if dtype == _F16:
        return _is_f32(value)
    return kind in "iu" and _is_float(value)


def _is_f32(value: Any) -> bool:
    """Whether a value stored into f16 memory is a concrete wider float: an f32 or float64
    numpy scalar, an f32 vector, an array of them (or a list or tuple of them)."""
    if value.__class__ in (np.float32, np.float64):
        return True
    if isinstance(value, np.ndarray):
        return value.dtype.kind == "f" and value.dtype.itemsize > 2
    if isinstance(value, Vec):
        return value.kind == "f"
    if isinstance(value, (list, tuple)):
        return any(_is_f32(v) for v in value)
    return False


def _is_float(value: Any) -> bool:
    """Whether a stored value is a float (scalar, vector, array, or a list or tuple of them)."""
    if value.__class__ in _FLOATS or isinstance(value, np.floating):
        return True
    if isinstance(value, np.ndarray):
        return value.dtype.kind == "f"
    if isinstance(value, Vec):
        return value.kind == "f"
    if isinstance(value, (list, tuple)):
        return any(_is_float(v) for v in value)
    return False


def _check_store(array: _Managed, index: Any, value: Any) -> None:
    """A numpy method that stores element by element (``fill``, ``put``, ``a.flat[i] = v``):
    a float into integer memory is reported as a store through indexing is (WGSL converts
    nothing implicitly; numpy would truncate)."""
    run = array._run
    if run is not None and array._reports and _converts(array.dtype, value):
        origin = array._origin
        run.implicit_conversion(array if origin is None else origin, index, value, None)


def _plain(x: Any, memo: dict | None = None) -> Any:
    """``x`` with managed arrays (also inside lists and tuples) as plain views of themselves
    (one view per array in ``memo``)."""
    if isinstance(x, _Managed):
        if memo is None:
            return x.view(np.ndarray)
        view = memo.get(id(x))
        if view is None:
            view = memo[id(x)] = x.view(np.ndarray)
        return view
    if isinstance(x, (list, tuple)):
        return type(x)(_plain(i, memo) for i in x) if _has_managed(x) else x
    return x


def _has_managed(x: Any) -> bool:
    return any(isinstance(i, _Managed) or (isinstance(i, (list, tuple)) and _has_managed(i))
               for i in x)


def _managed_in(x: Any, found: list) -> list:
    """The managed arrays in ``x`` (also inside lists and tuples), appended to ``found``."""
    if isinstance(x, _Managed):
        found.append(x)
    elif isinstance(x, (list, tuple)):
        for i in x:
            _managed_in(i, found)
    return found


@functools.cache
def _signature(func: Any) -> inspect.Signature | None:
    try:
        return inspect.signature(func)
    except (TypeError, ValueError):
        return None


def _roles(func: Any, args: Any, kwargs: dict) -> tuple[list, list]:
    """The managed arrays a numpy function reads, and the ones it writes, as
    ``(parameter name, array)``: its ``out`` and, for the writing functions, their
    destination."""
    writes = _WRITERS.get(func, (None,))[0]
    sig = _signature(func)
    try:
        named = dict(sig.bind(*args, **kwargs).arguments) if sig is not None else None
    except TypeError:
        named = None
    if named is None:  # no signature: keywords say what they are, positionals are read
        named = {**{f"#{i}": a for i, a in enumerate(args)}, **kwargs}
    if isinstance(named.get("kwargs"), dict):  # a **kwargs parameter: its keywords
        named.update(named.pop("kwargs"))
    inputs: list = []
    dests: list = []
    if func in _IN_PLACE_UNLESS_COPY and named.get("copy", True) is False:
        dests.extend(("", d) for d in _managed_in(named.get("x"), []))  # and read
    for name, value in named.items():
        if name == "out" or name == writes:
            dests.extend((name, d) for d in _managed_in(value, []))
        else:
            _managed_in(value, inputs)
    return inputs, dests


def _written(func: Any, name: str, dest: _Managed, args: Any, kwargs: dict) -> Any:
    """The flat positions of ``dest`` that ``func(*args, **kwargs)`` writes (None: all): the
    writing functions run once more on a boolean marker in place of ``dest``, writing True."""
    if name == "out" or func not in _WRITERS:
        return None
    _, value_name = _WRITERS[func]
    bound = _signature(func).bind(*args, **kwargs)  # type: ignore[union-attr]
    marker = np.zeros(dest.shape, bool)
    bound.arguments[name] = marker
    bound.arguments[value_name] = [True] if func is np.place else True
    func(*[_plain(a) for a in bound.args], **{k: _plain(v) for k, v in bound.kwargs.items()})
    return np.flatnonzero(marker)


def _as_views(result: Any, inputs: list) -> tuple[Any, list]:
    """``result`` with every array in it that is a view of a managed input made a managed
    view like that input (``np.reshape``, ``np.split``), and the inputs it views."""
    viewed: list = []

    def wrap(r: Any) -> Any:
        if isinstance(r, np.ndarray) and not isinstance(r, _Managed) and r.base is not None:
            for x in inputs:
                if np.may_share_memory(r, x.view(np.ndarray)):
                    viewed.append(x)
                    return _view_like(r, x)
        return r

    if isinstance(result, (list, tuple)):
        wrapped = [wrap(r) for r in result]
        return (wrapped if isinstance(result, list) else tuple(wrapped)), viewed
    return wrap(result), viewed


def _taken(size: int, indices: Any, mode: str) -> np.ndarray:
    """The flat positions ``take``/``put``/``item`` with ``indices`` touch, as numpy's
    ``mode`` says (``"raise"`` raises IndexError for one out of range, like numpy)."""
    idx = np.ravel(np.asarray(indices, dtype=np.intp))
    if mode == "raise":
        if idx.size and (idx.min() < -size or idx.max() >= size):
            raise IndexError(f"index {int(idx.max() if idx.max() >= size else idx.min())} is "
                             f"out of bounds for size {size}")
        return idx % size if size else idx
    if mode == "wrap":
        return idx % size
    return np.clip(idx, 0, size - 1)


def _flat_index(size: int, index: Any) -> Any:
    """The flat positions ``a.flat[index]`` covers (None: all of them)."""
    if isinstance(index, slice):
        return np.arange(*index.indices(size))
    if index is Ellipsis or isinstance(index, tuple):
        return None
    if getattr(index, "dtype", None) == np.bool_:  # a mask
        return np.flatnonzero(index)
    return _taken(size, index, "raise")


def _indexed(array: np.ndarray, index: Any) -> Any:
    """The flat positions ``array[index]`` covers, as ``ufunc.at`` and ``item`` index (None:
    all of them, for an index into an array too big to number its elements)."""
    if array.ndim == 1 and not isinstance(index, (tuple, slice)) and index is not Ellipsis:
        return _taken(array.size, index, "raise")
    if array.size > _COUNTING_KEPT:
        return None
    return np.ravel(_counting(array.size).reshape(array.shape)[index])


def _view_like(view: np.ndarray, source: _Managed) -> Any:
    """A plain view of ``source``'s memory, made a managed view like ``source``."""
    managed = view.view(type(source))
    if hasattr(source, "_inv"):  # a fragment's storage: the view is the same invocation's
        managed._inv = source._inv
    if source._run is not None or hasattr(source, "_inv"):
        _adopt(managed, source)
    return managed


#: numpy functions that only look at shapes and types, or at where arrays live
_NO_ACCESS = frozenset({
    np.shape, np.ndim, np.size, np.may_share_memory, np.shares_memory, np.result_type,
    np.iscomplexobj, np.isrealobj, np.min_scalar_type, np.can_cast, np.zeros_like,
    np.empty_like, np.ones_like, np.full_like, np.broadcast_shapes, np.diag_indices_from,
    np.tril_indices_from, np.triu_indices_from})
#: numpy functions that write their argument ``x`` in place when given ``copy=False``
_IN_PLACE_UNLESS_COPY = frozenset({np.nan_to_num})
#: numpy functions that return a view of an argument but read its values to choose it
_READS_AND_VIEWS = frozenset({np.trim_zeros, np.asarray_chkfinite, np.real_if_close})
#: numpy functions that write into an argument: (its name, the name of the values written)
_WRITERS = {np.copyto: ("dst", "src"), np.put: ("a", "v"), np.place: ("arr", "vals"),
            np.putmask: ("a", "values"), np.fill_diagonal: ("a", "val"),
            np.put_along_axis: ("arr", "values")}

_COUNTING = np.arange(0, dtype=np.intp)


_COUNTING_KEPT = 1 << 23  # the largest counting array kept between calls (64 MB)


def _counting(n: int) -> np.ndarray:
    """0, 1, ..., n - 1: a read-only view of one shared array, grown when needed (up to
    ``_COUNTING_KEPT`` elements; a larger one is made for the call and dropped)."""
    global _COUNTING
    if _COUNTING.size < n:
        counting = np.arange(min(max(n, 2 * _COUNTING.size), max(n, _COUNTING_KEPT)),
                             dtype=np.intp)
        counting.flags.writeable = False
        if n > _COUNTING_KEPT:
            return counting
        _COUNTING = counting
    return _COUNTING[:n]


_BY_ADDRESS = object()  # a view's ``_map`` until asked: its positions, from where it lives


def _adopt(view: Any, source: Any) -> None:
    """Makes ``view`` (an array sharing memory with watched ``source``) report its accesses
    against the same memory as ``source``; its positions there are worked out from addresses
    when first needed (they are, for views that did not come from indexing)."""
    view._run = source._run
    view._origin = source._origin if source._origin is not None else source
    view._map = _BY_ADDRESS


def _map_of(array: Any) -> Any:
    """A view's flat positions in the memory it reports against (None: not a view). A view
    with elements of another size than the memory's maps each element to the one its first
    byte lies in."""
    mapping = getattr(array, "_map", None)
    if mapping is _BY_ADDRESS:
        origin = array._origin
        start = array.__array_interface__["data"][0] - origin.__array_interface__["data"][0]
        item = origin.itemsize
        if array.itemsize > item and array.itemsize % item == 0:
            array._span = array.itemsize // item  # each element covers several of memory's
        if origin.flags.c_contiguous and start % item == 0 \
                and all(s % item == 0 for s in array.strides):
            counting = _counting(origin.size)  # strides in elements, over 0, 1, 2, ...
            mapping = as_strided(counting[start // item:], array.shape,
                                 [s // item * counting.itemsize for s in array.strides],
                                 writeable=False)
        else:  # bytes, or a strided memory: the element each first byte lies in
            offsets = np.full(array.shape, start, np.intp)
            for axis, (n, stride) in enumerate(zip(array.shape, array.strides)):
                shape = [1] * array.ndim
                shape[axis] = n
                offsets += (np.arange(n, dtype=np.intp) * stride).reshape(shape)
            if origin.flags.c_contiguous:
                mapping = offsets // item
            else:
                own = sum(np.indices(origin.shape, np.intp)[k] * origin.strides[k]
                          for k in range(origin.ndim)).ravel()
                order = np.argsort(own)
                mapping = order[np.searchsorted(own[order], offsets, side="right") - 1]
        array._map = mapping
    return mapping


def _spread(array: Any, positions: np.ndarray) -> np.ndarray:
    """``positions`` of elements of ``array``, with every position its elements cover (a view
    with elements wider than its memory's, such as ``buf.view(np.float64)`` of float32)."""
    span = getattr(array, "_span", 1)
    if span == 1:
        return positions
    return np.ravel(np.asarray(positions)[..., None] + np.arange(span))


def _positions(array: Any) -> np.ndarray:
    """The flat positions, in the array accesses are reported against, of ``array``'s
    elements."""
    mapping = _map_of(array)
    return _counting(array.size).reshape(array.shape) if mapping is None else mapping
