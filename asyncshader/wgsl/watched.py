"""Watched memory: arrays whose loads and stores are reported to an instrumented run (the race
detector, access instruments), and WGSL's robust access for out-of-bounds indices.

Plain indexing is the hot path: when the race detector is the only watcher, an in-bounds
``buf[i]`` or ``img[y, x]`` goes straight to its check. Everything else (rows, slices, views,
numpy's API through the hooks of :mod:`asyncshader.managed`) is reported by flat positions in
the memory the access belongs to.
"""

from __future__ import annotations

from sys import _getframe
from typing import Any

import numpy as np

from .managed import (
    _FLOATS,
    _WIDENED,
    CONVERTING_CHARS,
    _adopt,
    _converts,
    _Managed,
    _map_of,
    _positions,
    _spread,
)
from .types import Vec
from .vec_arrays import store_plain, vector_class


class FlatIndex:
    """Elements of a memory object by their flat positions: what an access through a sub-array
    view (``x[i]`` of a 2-D buffer, then ``[j]``) is reported as."""

    __slots__ = ("flat",)

    def __init__(self, flat: np.ndarray) -> None:
        self.flat = flat

    def __repr__(self) -> str:
        return f"flat{self.flat.tolist()}"


class _Traced:
    """Mixin for the instrumented classes: plain loads and stores are reported to the run.
    Sub-array views keep reporting, against the array they are a view of. When the race
    detector is the only instrument watching, an in-bounds integer index of a 1-D array, or
    ``[row, column]`` of a 2-D one, goes straight to its check (the common cases, and the ones
    worth making fast)."""

    __slots__ = ()
    _reports = True
    _checks_indices = True  # (a negative index is reported as it is: wgsl/robust.py)

    def __getitem__(self, index: Any) -> Any:
        fast = self._fast  # type: ignore[attr-defined]
        if fast is not None:
            if index.__class__ in _INT_INDEX:
                i = int(index)
                if 0 <= i < fast.length:  # (0 for a 2-D array: a row is not an element)
                    value = fast.plain[i]
                    fast.check(fast, i, False, _getframe(1))
                    return value
            elif index.__class__ is tuple and len(index) == 2:  # _flat_of, inlined
                y, x = index
                if y.__class__ in _INT_INDEX and x.__class__ in _INT_INDEX:
                    y, x = int(y), int(x)
                    if 0 <= y < fast.rows and 0 <= x < fast.cols:
                        i = y * fast.cols + x
                        value = fast.plain[y, x]
                        fast.check(fast, i, False, _getframe(1))
                        return value
        run = self._run  # type: ignore[attr-defined]
        origin = self._origin  # type: ignore[attr-defined]
        memory = self if origin is None else origin
        if run is not None and not in_bounds(self, index):
            run.out_of_bounds(memory, index, "load", view=self)
            return _zero_element(self, index)  # WGSL robust access: a load may return zero
        value = super().__getitem__(index)  # type: ignore[misc]
        if run is not None:
            if isinstance(value, np.ndarray) and np.may_share_memory(value, memory):
                # a view reads nothing yet: the accesses through it are reported
                value._run, value._origin = run, memory
                value._map = _positions(self)[index]
                value._span = self._span  # type: ignore[attr-defined]
            else:
                run.memory_access(memory, _reported(self, index), "load")
        return value

    def __array_finalize__(self, obj: Any) -> None:
        super().__array_finalize__(obj)  # type: ignore[misc]
        if obj is not None and self.base is not None and getattr(obj, "_run", None) is not None \
                and np.may_share_memory(self.view(np.ndarray), obj.view(np.ndarray)):
            _adopt(self, obj)  # a view (buf.reshape(...), buf.T, np.ravel(buf)): still watched

    def _will_read(self, flat: Any = None) -> None:
        _report_whole(self, "load", flat)

    def _will_write(self, flat: Any = None) -> bool:
        if not super()._will_write(flat):  # type: ignore[misc]
            return False
        _report_whole(self, "store", flat)
        return True

    def __array_ufunc__(self, ufunc: Any, method: str, *inputs: Any, out: Any = None,
                        **kwargs: Any) -> Any:
        # whole-array and whole-row arithmetic reads (and, with out=, writes) every element;
        # ufunc.at reads and writes its first input at the indices (reported as it runs)
        for x in inputs[1:] if method == "at" else inputs:
            if isinstance(x, _Traced):
                _report_whole(x, "load")
        for o in out or ():
            if isinstance(o, _Traced) and not getattr(getattr(o, "_inv", None), "helper", False):
                _report_whole(o, "store")
        if out is not None:
            kwargs["out"] = out
        return super().__array_ufunc__(ufunc, method, *inputs, **kwargs)  # type: ignore[misc]

    def __iter__(self) -> Any:
        # numpy would iterate through __getitem__ until IndexError, which robust access never
        # raises: iterate over the valid indices instead (each element a reported load)
        if not self.ndim:  # type: ignore[attr-defined]
            raise TypeError("iteration over a 0-d array")
        return (self[i] for i in range(len(self)))  # type: ignore[arg-type]

    def __setitem__(self, index: Any, value: Any) -> None:
        fast = self._fast  # type: ignore[attr-defined]
        if fast is not None:
            i = -1
            if index.__class__ in _INT_INDEX:
                i = int(index)
                if not 0 <= i < fast.length:
                    if 0 <= i < fast.rows and isinstance(value, Vec) and value.size == fast.cols:
                        _store_vector(self, fast, index, value, _getframe(1))  # a whole row
                        return
                    i = -1
            elif index.__class__ is tuple:
                i = _flat_of(fast, index)
            if i >= 0:
                if isinstance(value, _Traced):  # a watched scalar variable or row: a load
                    _report_whole(value, "load")
                elif ((value.__class__ in _FLOATS and fast.plain.dtype.char in CONVERTING_CHARS
                       and _converts(fast.plain.dtype, value))
                      or (value.__class__ in _WIDENED and _converts(fast.plain.dtype, value))):
                    self._run.implicit_conversion(  # type: ignore[attr-defined]
                        self if self._origin is None else self._origin,  # type: ignore[attr-defined]
                        index, value, self)
                fast.plain[index] = value
                fast.check(fast, i, True, _getframe(1), None, None, value)
                return
        run = self._run  # type: ignore[attr-defined]
        origin = self._origin  # type: ignore[attr-defined]
        memory = self if origin is None else origin
        if run is not None and not in_bounds(self, index):
            run.out_of_bounds(memory, index, "store", view=self)
            return  # WGSL robust access: a store may be dropped
        if isinstance(value, _Traced):  # copying a watched row or view: its elements are read
            _report_whole(value, "load")
        if run is not None and _converts(self.dtype, value):  # type: ignore[attr-defined]
            run.implicit_conversion(memory, index, value, self)  # (WGSL converts nothing)
        store_plain(self, index, value)  # (numpy's own store would call our __getitem__)
        if run is not None:
            run.memory_access(memory, _reported(self, index), "store")


_INT_INDEX = frozenset({int, np.uint32, np.int32, np.int64, np.uint64})


def _store_vector(array: Any, fast: Any, index: Any, value: Any, where: Any) -> None:
    """``array[index] = value``: a vector stored whole into row ``index`` (in bounds) of watched
    2-D memory whose race detector is called directly: a checked store per component."""
    dtype = fast.plain.dtype
    if dtype.char in CONVERTING_CHARS and _converts(dtype, value):
        array._run.implicit_conversion(
            array if array._origin is None else array._origin, index, value, array)
    components = tuple(value)  # (numpy converts a vector through __array__, several times slower)
    i = int(index)
    fast.plain[i] = components
    check, first = fast.check, i * fast.cols
    for j, c in enumerate(components):
        check(fast, first + j, True, where, None, None, c)


def _flat_of(fast: Any, index: tuple) -> int:
    """The flat position of an in-bounds ``[row, column]`` index of a watched 2-D array, or -1
    (anything else takes the general path)."""
    if len(index) != 2 or not fast.cols:
        return -1
    y, x = index
    if y.__class__ not in _INT_INDEX or x.__class__ not in _INT_INDEX:
        return -1
    y, x = int(y), int(x)
    if 0 <= y < fast.rows and 0 <= x < fast.cols:
        return y * fast.cols + x
    return -1


def _report_whole(array: Any, kind: str, flat: Any = None) -> None:
    """Reports a load or store of every element of a watched array or view (numpy arithmetic,
    copies from a row: ``pos[j] * 2``, ``pos[i] = pos[j]`` for an ``array<vec4f>``), or of
    the elements at flat positions ``flat`` of it."""
    run = array._run
    if run is None:
        return
    origin = array._origin
    if origin is not None and array._map is None and not np.may_share_memory(array, origin):
        return  # a private copy (fragment storage copies keep their run): not memory
    if flat is None:
        positions = np.ravel(_positions(array))
    else:
        mapping = _map_of(array)
        positions = np.atleast_1d(flat if mapping is None else
                                  mapping[np.unravel_index(flat, array.shape)])
    run.memory_access(array if origin is None else origin, FlatIndex(_spread(array, positions)),
                      kind)


def _reported(array: Any, index: Any) -> Any:
    """The index an access is reported with: as given, or (through a view) flat positions."""
    mapping = _map_of(array)
    if mapping is None:
        return index
    return FlatIndex(_spread(array, np.ravel(mapping[index])))


def in_bounds(memory: Any, index: Any) -> bool:
    """False for an integer index (or tuple of them) outside the array, negative ones included:
    WGSL has no negative indexing, so Python's ``a[-1]`` is out of bounds here."""
    if isinstance(index, (int, np.integer)):
        return 0 <= index < (memory.shape[0] if memory.ndim else 0)
    if isinstance(index, tuple) and all(isinstance(i, (int, np.integer)) for i in index):
        return len(index) <= memory.ndim and all(
            0 <= i < n for i, n in zip(index, memory.shape))
    return True


def _zero_element(memory: Any, index: Any = 0) -> Any:
    """What a load of ``memory[index]`` out of bounds gives (WGSL robust access): zero of the
    element's type, shaped as the in-bounds result would be (a vector for a row of a vector
    array)."""
    depth = len(index) if isinstance(index, tuple) else 1
    row = np.zeros(memory.shape[depth:], memory.dtype)
    if row.ndim == 0:
        return row[()]
    vec = getattr(memory, "vec_type", None)
    if vec is not None and row.ndim == 1:
        return vec(*row.tolist())
    return row.view(OutOfBoundsRow)


class OutOfBoundsRow(_Managed):
    """What a load of a whole row past the end of a buffer gives (WGSL robust access, the load
    already reported): zeros, whatever is then indexed in it; stores into it go nowhere.
    Arithmetic and copies give plain arrays."""

    def __getitem__(self, index: Any) -> Any:
        plain = self.view(np.ndarray)
        try:
            value = np.ndarray.__getitem__(plain, index)
        except IndexError:
            return _zero_element(plain, index)
        return value.view(OutOfBoundsRow) if isinstance(value, np.ndarray) and value.ndim \
            else value

    def __setitem__(self, index: Any, value: Any) -> None:
        return


class TracedStorage(_Traced, _Managed):
    """A storage buffer seen through an instrumented run: a view of the caller's array (writes
    land there) that reports plain loads and stores, naming the caller's array as atomics do."""


def traced_storage(array: np.ndarray, run: Any, vec: Any = None) -> Any:
    """``array`` (a storage binding) as the shader of instrumented ``run`` sees it; ``vec``:
    the vector type of its elements, if declared (``Storage[vec3f]``: ``buf[i]`` loads one)."""
    shader_arg = getattr(array, "shader_arg", None)  # a struct buffer (structs.py)
    if shader_arg is not None:
        return shader_arg(run)
    view = array.view(TracedStorage if vec is None else vector_class(TracedStorage, vec))
    view._origin = array
    view._run = run
    view._fast = run.fast_state(array)
    return view
