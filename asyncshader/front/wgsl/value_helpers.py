"""What generated code calls for WGSL's composite values (:mod:`.codegen_values` emits the
calls): the load rule for a struct or array read from memory, stores into parts of a value,
and indexing an array value. Generated code is not rewritten, so these stand where
:mod:`asyncshader.wgsl.value_rewrite` would put :func:`~asyncshader.wgsl.values.put`.

Values are never changed in place (docs/design.md, "Composite values"): two names may hold
one object, and a store into a part of either makes that name a new object."""

from __future__ import annotations

from functools import partial
from sys import _getframe
from types import SimpleNamespace
from typing import Any

import numpy as np

from ...wgsl import layout, matrices
from ...wgsl.layout import RuntimeArrayType
from ...wgsl.struct_buffers import StructView
from ...wgsl.struct_refs import ArrayRef, _Ref
from ...wgsl.values import put

__all__ = ["VALUE_HELPERS", "VALUE_RUNTIME", "element", "store_part", "store_whole", "value_of"]


def value_of(x: Any, frame: Any = None) -> Any:
    """``x`` as a value (WGSL's load rule): a struct or array in memory (a reference) is loaded
    whole, its loads reported at the caller's line (``frame``: the shader's frame); an array
    in memory (a numpy array, a view of a struct buffer) becomes a list of its elements' values;
    a value is itself."""
    cls = x.__class__
    if issubclass(cls, (_Ref, ArrayRef)):
        return x.load(frame or _getframe(1))
    if (issubclass(cls, np.ndarray) and x.ndim) or cls is StructView:
        frame = frame or _getframe(1)  # (elements by index: a workgroup struct array's are
        # references, and its iterator does not stop)
        return [value_of(x[i], frame) for i in range(len(x))]
    return x


def store_whole(memory: Any, value: Any) -> None:
    """WGSL's ``m = e`` where ``m`` is a whole struct, array or matrix in memory: a store of
    each member (a struct reference) or element (an array, a matrix's columns), each seen by
    the race detector."""
    if isinstance(memory, _Ref):
        for m in memory._struct.__wgsl_layout__.members:
            if not isinstance(m.type, RuntimeArrayType):
                setattr(memory, m.name, getattr(value, m.name))
        return
    for i in range(len(memory)):
        memory[i] = value[i]


def store_part(obj: Any, *path_and_value: Any) -> Any:
    """``obj`` with the part that the path (member names and indices) names replaced by the
    last argument: WGSL's ``v.x = e``, ``s.a[i].y = e`` on a ``var``, as a new value (the
    path comes first: WGSL evaluates the store's target before its value). An index out of
    bounds drops the store, as WGSL's robust access does."""
    *path, value = path_and_value
    try:
        return put(obj, value, *path)
    except IndexError:
        return obj


def element(array: Any, index: Any) -> Any:
    """``array[index]`` of an array value (a list): an index out of bounds reads the nearest
    element (WGSL allows any element of the array; naga clamps the index so, and lavapipe
    agrees then)."""
    if 0 <= index < len(array):
        return array[int(index)]
    return array[0 if index < 0 else len(array) - 1]


#: what generated code reaches as ``ash.<name>`` for composite types: the matrix classes and
#: struct members' layouts
VALUE_RUNTIME = {name: value for name, value in vars(matrices).items()
                 if name.startswith("mat") and isinstance(value, type)}
VALUE_RUNTIME.update(align=layout.align, size=layout.size, runtime_array=layout.runtime_array)
#: the helpers by the names generated code calls them (partials, as load.py's: the kernel
#: scan looks for shader memory in functions' globals, and theirs hold none)
VALUE_HELPERS = {"__ash_value": partial(value_of), "__ash_store_part": partial(store_part),
                 "__ash_store_whole": partial(store_whole), "__ash_element": partial(element),
                 "__ash_setattr": partial(setattr), "__ash_namespace": SimpleNamespace}
