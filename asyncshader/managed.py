"""Managed arrays: the numpy arrays asyncshader hands a shader (workgroup variables, storage
buffers as a run sees them) and the views made of them.

Arithmetic on a managed array gives plain values. numpy's methods and functions that read or
write without indexing (``buf.copy()``, ``buf.fill(0)``, ``np.dot``, ``np.copyto``,
``np.add.at``) go through two hooks, :meth:`_Managed._will_read` and
:meth:`_Managed._will_write`: the instrumented classes (:mod:`asyncshader.watched`) report the
access there, and a fragment helper's storage drops the write (WGSL: a helper's stores have no
effect). A view made without indexing (``buf.reshape(...)``, ``buf.T``, ``np.ravel(buf)``)
finds where its elements live from its address.
"""

from __future__ import annotations

from typing import Any

import numpy as np


class _Managed(np.ndarray):
    """An array asyncshader manages; arithmetic on it gives plain values, not managed memory."""

    _run: Any = None  # the instrumented run whose hooks see this array's accesses
    _origin: Any = None  # the array that accesses are reported against (None: this one)
    _map: Any = None  # for a view: the flat positions of its elements in _origin
    _fast: Any = None  # the race detector's MemoryState when it may be called directly

    def __array_wrap__(self, arr: Any, context: Any = None, return_scalar: bool = False) -> Any:
        if return_scalar:
            return arr[()]
        return np.asarray(arr)

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
            flat = _flat_positions(target, inputs[1], "at")
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
        arrays. They read the managed arrays they are given, unless they return a view of one
        (``np.reshape``: nothing is read yet, and the view stays watched); the writing ones
        (``np.copyto``, ``np.put``, ...) write their destination, or nothing for a helper."""
        plain_args = [_plain(a) for a in args]
        plain_kwargs = {k: _plain(v) for k, v in kwargs.items()}
        if func in _NO_ACCESS:
            return func(*plain_args, **plain_kwargs)
        dest = None
        writes = _WRITERS.get(func)
        if writes is not None:
            dest = kwargs.get(writes, args[0] if args else None)
            if isinstance(dest, _Managed):
                flat = _flat_positions(dest, plain_args[1], kwargs.get("mode", "raise")) \
                    if func is np.put and len(args) > 1 else None
                if not dest._will_write(flat):
                    return None
        result = func(*plain_args, **plain_kwargs)
        for x in _managed_in(args, kwargs):
            if x is dest:
                continue
            if isinstance(result, np.ndarray) and result.base is not None \
                    and np.may_share_memory(result, x.view(np.ndarray)):
                result = _view_like(result, x)
            else:
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
        self._will_read()
        return self.view(np.ndarray).astype(*args, **kwargs)

    def flatten(self, order: str = "C") -> np.ndarray:
        self._will_read()
        return self.view(np.ndarray).flatten(order)

    def item(self, *args: Any) -> Any:
        plain = self.view(np.ndarray)
        if not args:
            flat = None
        elif len(args) == 1 and not isinstance(args[0], tuple):
            flat = int(args[0]) % max(plain.size, 1)
        else:
            flat = int(np.ravel_multi_index(args[0] if len(args) == 1 else args, plain.shape))
        self._will_read(flat)
        return plain.item(*args)

    def take(self, indices: Any, axis: Any = None, out: Any = None,  # type: ignore[override]
             mode: str = "raise") -> Any:
        self._will_read(_flat_positions(self, indices, mode) if axis is None else None)
        return self.view(np.ndarray).take(indices, axis, out, mode)

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
        if self._will_write(_flat_positions(self, indices, mode)):
            self.view(np.ndarray).put(indices, values, mode)


def _plain(x: Any) -> Any:
    """``x`` with managed arrays (also inside a list or tuple) as plain views of themselves."""
    if isinstance(x, _Managed):
        return x.view(np.ndarray)
    if isinstance(x, (list, tuple)) and any(isinstance(i, _Managed) for i in x):
        return type(x)(_plain(i) for i in x)
    return x


def _managed_in(args: Any, kwargs: dict) -> list:
    found = []
    for x in (*args, *kwargs.values()):
        if isinstance(x, _Managed):
            found.append(x)
        elif isinstance(x, (list, tuple)):
            found.extend(i for i in x if isinstance(i, _Managed))
    return found


def _flat_positions(array: np.ndarray, indices: Any, mode: str = "raise") -> Any:
    """The flat positions in ``array`` that ``take``/``put``/``ufunc.at`` with ``indices``
    touch (``ufunc.at`` indexes like ``array[indices]``)."""
    positions = np.arange(array.size).reshape(array.shape)
    if mode == "at":
        return np.ravel(positions[indices])
    return np.ravel(np.take(positions.ravel(), indices, mode=mode))


def _view_like(view: np.ndarray, source: _Managed) -> Any:
    """A plain view of ``source``'s memory, made a watched view like ``source``."""
    managed = view.view(type(source))
    _adopt(managed, source)
    return managed


#: numpy functions that only look at shapes and types, or at where arrays live
_NO_ACCESS = frozenset({np.shape, np.ndim, np.size, np.may_share_memory, np.shares_memory,
                        np.result_type, np.iscomplexobj, np.isrealobj, np.min_scalar_type})
#: numpy functions that write into their first argument (the parameter's name)
_WRITERS = {np.copyto: "dst", np.put: "a", np.place: "arr", np.putmask: "a",
            np.fill_diagonal: "a", np.put_along_axis: "arr"}


_BY_ADDRESS = object()  # a view's ``_map`` until asked: its positions, from where it lives


def _adopt(view: Any, source: Any) -> None:
    """Makes ``view`` (an array sharing memory with watched ``source``) report its accesses
    against the same memory as ``source``; its positions there are worked out from addresses
    when first needed (they are, for views that did not come from indexing)."""
    view._run = source._run
    view._origin = source._origin if source._origin is not None else source
    view._map = _BY_ADDRESS


def _map_of(array: Any) -> Any:
    """A view's flat positions in the memory it reports against (None: not a view)."""
    mapping = getattr(array, "_map", None)
    if mapping is _BY_ADDRESS:
        origin = array._origin
        start = array.__array_interface__["data"][0] - origin.__array_interface__["data"][0]
        offsets = np.full(array.shape, start, np.int64)
        for axis, (n, stride) in enumerate(zip(array.shape, array.strides)):
            shape = [1] * array.ndim
            shape[axis] = n
            offsets += (np.arange(n, dtype=np.int64) * stride).reshape(shape)
        if origin.flags.c_contiguous:
            mapping = offsets // origin.itemsize
        else:  # the origin's own layout: find each offset among its elements' offsets
            own = sum(np.indices(origin.shape, np.int64)[k] * origin.strides[k]
                      for k in range(origin.ndim)).ravel()
            order = np.argsort(own)
            mapping = order[np.searchsorted(own[order], offsets)]
        array._map = mapping
    return mapping


def _positions(array: Any) -> np.ndarray:
    """The flat positions, in the array accesses are reported against, of ``array``'s
    elements."""
    mapping = _map_of(array)
    return np.arange(array.size).reshape(array.shape) if mapping is None else mapping
