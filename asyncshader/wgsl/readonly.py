"""Read-only storage buffers: WGSL's ``var<storage, read>``.

A numpy array bound as read-only storage (``ReadOnly[f32]``, or any read-only array) is
handed to the shader as a :class:`ReadOnlyStorage` view of the caller's array: the same memory,
never copied, whatever its size. Loads run at numpy speed; an index outside the buffer (a
negative one included: WGSL has no negative indexing) is WGSL's robust access, a load that
returns zero, reported by the race detector as an out-of-bounds finding. Any store through the
view (``buf[i] = x``, ``buf += 1``, ``buf.fill(0)``, ``np.copyto(buf, ...)``, through a row or
a slice) raises :class:`~asyncshader.ShaderTypeError` naming the binding, as WGSL refuses a
store to a read-only reference. Nothing can write the buffer during the dispatch, so its loads
never race and the race detector does not record them.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from .._core.context import current_run
from ..errors import ShaderTypeError
from .managed import _Managed
from .watched import _INT_INDEX, _zero_element, in_bounds

__all__ = ["ReadOnlyStorage", "is_read_only_storage", "read_only_view"]


class ReadOnlyStorage(_Managed):
    """A read-only storage buffer (``var<storage, read>``) as a shader sees it: a non-writeable
    view of the bound array. ``binding`` is the parameter's name, ``origin`` the whole buffer
    (the view that was bound) for messages and findings."""

    binding: str = "<read-only buffer>"
    kernel: str = ""
    read_only_origin: Any = None

    def __array_finalize__(self, obj: Any) -> None:
        if isinstance(obj, ReadOnlyStorage):  # rows, slices, reshapes: the same binding
            self.binding, self.kernel = obj.binding, obj.kernel
            self.read_only_origin = obj.read_only_origin

    def __getitem__(self, index: Any) -> Any:
        if index.__class__ in _INT_INDEX and self.ndim == 1:
            if 0 <= index < self.shape[0]:
                return np.ndarray.__getitem__(self, index)
        elif in_bounds(self, index):
            value = np.ndarray.__getitem__(self, index)
            if isinstance(value, ReadOnlyStorage) and value.base is None:
                return value.view(np.ndarray)  # a fancy index's copy: the shader's own array
            return value
        run = current_run()   # WGSL robust access: an out-of-bounds load may return zero
        if run is not None:
            run.out_of_bounds(self.read_only_origin, index, "load", view=self)
        return _zero_element(self, index)

    def __iter__(self) -> Any:
        # numpy would iterate through __getitem__ until IndexError, which robust access never
        # raises: iterate over the valid indices instead
        if not self.ndim:
            raise TypeError("iteration over a 0-d array")
        return (self[i] for i in range(len(self)))

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


def read_only_view(array: np.ndarray, binding: str, kernel: str) -> ReadOnlyStorage:
    """``array`` as a read-only storage buffer named ``binding``: a view (no copy) that refuses
    stores; the caller's array keeps its own writeability."""
    view = array.view(ReadOnlyStorage)
    view.flags.writeable = False
    view.binding, view.kernel, view.read_only_origin = binding, kernel, view
    return view


def is_read_only_storage(value: Any) -> bool:
    """Whether ``value`` is a bound read-only storage buffer (or a view of one)."""
    return isinstance(value, ReadOnlyStorage)

