"""Read-only storage buffers: WGSL's ``var<storage, read>``.

A numpy array bound as read-only storage (``ReadOnly[f32]``, or any read-only array) is
handed to the shader as a :class:`ReadOnlyStorage` view of the caller's array: the same memory,
never copied, whatever its size. Loads run at numpy speed. With the race detector on (the
default), a run sees :class:`CheckedReadOnlyStorage` views instead: an index outside the buffer
(a negative one included: WGSL has no negative indexing) is WGSL's robust access, a load that
returns zero, reported as an out-of-bounds finding (with ``sanitize="off"`` numpy's indexing
applies, as for every buffer). Any store through the view (``buf[i] = x``, ``buf += 1``,
``buf.fill(0)``, ``np.copyto(buf, ...)``, through a row or a slice) raises
:class:`~asyncshader.ShaderTypeError` naming the binding, as WGSL refuses a store to a
read-only reference. Nothing can write the buffer during the dispatch, so its loads never race
and the race detector does not record them.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from .._core.context import current_run
from ..errors import ShaderTypeError
from .managed import _Managed
from .vec_arrays import unwatched, vector_class
from .watched import _INT_INDEX, _zero_element, in_bounds

__all__ = ["CheckedReadOnlyStorage", "ReadOnlyStorage", "checked_read_only", "read_only_view"]

_GET = np.ndarray.__getitem__


class ReadOnlyStorage(_Managed):
    """A read-only storage buffer (``var<storage, read>``) as a shader sees it: a non-writeable
    view of the bound array whose loads are numpy's own (no Python call) and whose stores are
    refused. ``binding`` is the parameter's name, ``read_only_origin`` the bound view (what
    findings and messages name)."""

    binding: str = "<read-only buffer>"
    kernel: str = ""
    read_only_origin: Any = None

    def __array_finalize__(self, obj: Any) -> None:
        if isinstance(obj, ReadOnlyStorage):  # rows, slices, reshapes: the same binding
            self.binding, self.kernel = obj.binding, obj.kernel
            self.read_only_origin = obj.read_only_origin

    def __setitem__(self, index: Any, value: Any) -> None:
        raise _refused(self, f"{self.binding}[{_shown(index)}] = ...")

    def _will_write(self, flat: Any = None) -> bool:
        raise _refused(self, f"writing {self.binding} through a numpy method or function")

    def __array_ufunc__(self, ufunc: Any, method: str, *inputs: Any, out: Any = None,
                        **kwargs: Any) -> Any:
        targets = [*(out or ()), *(inputs[:1] if method == "at" else ())]
        for o in targets:
            if isinstance(o, ReadOnlyStorage):
                raise _refused(o, f"{o.binding} as the output of {ufunc.__name__} (an in-place "
                                  "operator such as +=, or out=)")
        return super().__array_ufunc__(ufunc, method, *inputs, out=out, **kwargs)


class CheckedReadOnlyStorage(ReadOnlyStorage):
    """A read-only storage buffer in a run with the race detector: every index is checked, and
    an out-of-bounds load (a negative index included: WGSL has none) is WGSL's robust access,
    zero, reported as an OutOfBounds finding. The loads are not recorded: nothing writes the
    buffer, so they cannot race."""

    _length = -1  # len(self) for a 1-D view (the fast path of an integer index), else -1
    _checks_indices = True  # (a negative index is reported as it is: wgsl/robust.py)

    def __array_finalize__(self, obj: Any) -> None:
        super().__array_finalize__(obj)
        self._length = self.shape[0] if self.ndim == 1 else -1

    def __getitem__(self, index: Any) -> Any:
        if index.__class__ in _INT_INDEX:
            if 0 <= index < self._length:
                return _GET(self, index)
            if self._length >= 0 or not in_bounds(self, index):
                return self._out_of_bounds(index)
            return _GET(self, index)
        if in_bounds(self, index):
            value = _GET(self, index)
            if isinstance(value, ReadOnlyStorage) and value.base is None:
                return value.view(np.ndarray)  # a fancy index's copy: the shader's own array
            return value
        return self._out_of_bounds(index)

    def _out_of_bounds(self, index: Any) -> Any:
        """WGSL robust access: an out-of-bounds load returns zero (and is reported)."""
        run = current_run()
        if run is not None:
            run.out_of_bounds(self.read_only_origin, index, "load", view=self)
        return _zero_element(self, index)

    def __iter__(self) -> Any:
        # numpy would iterate through __getitem__ until IndexError, which robust access never
        # raises: iterate over the valid indices instead
        if not self.ndim:
            raise TypeError("iteration over a 0-d array")
        return (self[i] for i in range(len(self)))


def _shown(index: Any) -> str:
    if isinstance(index, tuple):
        return ", ".join(map(_shown, index))
    return repr(index.item()) if isinstance(index, np.generic) else repr(index)


def _refused(view: ReadOnlyStorage, what: str) -> ShaderTypeError:
    return ShaderTypeError(
        f"store refused: {what}. The storage binding {view.binding!r} is declared read-only "
        f"(WGSL var<storage, read>: annotated ash.ReadOnly, or bound as a read-only numpy "
        f"array), and WGSL refuses a store through a read-only reference. Fix: declare "
        f"the parameter ash.Storage (var<storage, read_write>) and pass a writeable array, or "
        f"write into another, writeable buffer.")


def read_only_view(array: np.ndarray, binding: str, kernel: str,
                   vec: Any = None) -> ReadOnlyStorage:
    """``array`` as a read-only storage buffer named ``binding``: a view (no copy) that refuses
    stores; the caller's array keeps its own writeability. ``vec``: the vector type of its
    elements, if declared (``ReadOnly[vec4f]``: ``buf[i]`` loads one)."""
    view = array.view(ReadOnlyStorage if vec is None else vector_class(ReadOnlyStorage, vec))
    if vec is not None:  # (loads unchecked: numpy's, as this class's; a checked view is new)
        unwatched(view, array)
    view.flags.writeable = False
    view.binding, view.kernel, view.read_only_origin = binding, kernel, view
    return view


def checked_read_only(bindings: dict[str, Any], checked: bool) -> dict[str, Any]:
    """A run's bindings with its read-only buffers as its shaders see them: with the race
    detector on (``checked``), views that check every index (:class:`CheckedReadOnlyStorage`);
    otherwise as bound (numpy's indexing, made robust by :mod:`asyncshader.wgsl.robust`, as
    for every buffer with ``sanitize="off"``)."""
    if not checked:
        return dict(bindings)
    return {k: v.view(_checked_class(v)) if isinstance(v, ReadOnlyStorage)
            and not isinstance(v, CheckedReadOnlyStorage) else v for k, v in bindings.items()}


def _checked_class(view: ReadOnlyStorage) -> type:
    vec = getattr(view, "vec_type", None)  # (a buffer of vectors: ReadOnly[vec4f])
    return CheckedReadOnlyStorage if vec is None else vector_class(CheckedReadOnlyStorage, vec)

