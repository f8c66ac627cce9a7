"""Arrays of vectors in memory: ``buf[i]`` is a vector, as in WGSL.

A storage buffer declared with a vector element (``Storage[vec3f]``, ``ReadOnly[vec4h]``) and a
workgroup ``array(vec4f, 64)`` are (n, N) numpy arrays. Indexed with one integer, they load
element ``i`` as WGSL does: a vector of the declared type (``buf[i].x``, ``buf[i] * 2.0 +
vec3f(...)``), not a numpy row. ``buf[i, j]`` and ``buf[i][j]`` are component ``j``; slices and
the other indices keep numpy's meaning. An array bound without a declared vector element (a bare
``Storage``, no annotation) keeps numpy's rows.

The loaded vector remembers the element it came from: an assignment to one of its components
(``buf[i].x = 1.0``, ``buf[i][0] = 1.0``) also stores that component into memory, as WGSL's
reference ``buf[i].x`` does, and through the memory's own ``__setitem__``: the race detector
sees a store, an out-of-bounds element drops it (robust access), a read-only buffer refuses it,
a fragment helper's has no effect. (A plain copy would drop the store silently.) Take a private
copy with ``vec3f(buf[i])``.

Each kind of memory object (the caller's array as a shader sees it with ``sanitize="off"``,
the watched views of an instrumented run, read-only buffers, a fragment's views, workgroup
variables) has a vector variant, :func:`vector_class` of its class: the same class with
:class:`VecElements` in front. Loading a vector reports the load of its N components to the run
where the class reports loads (and goes straight to the race detector's check when it is the
only watcher, as a scalar element does).
"""

from __future__ import annotations

from sys import _getframe
from typing import Any

import numpy as np

from .managed import _Managed
from .types import Vec

__all__ = ["VecElements", "VecStorage", "bound_vector", "unwatched", "vector_class",
           "vector_view"]

#: the classes of an index that is one integer (a Python bool is a mask to numpy: not here)
ONE_INT = frozenset({int, np.int64, np.int32, np.uint32, np.uint64, np.int16, np.uint16,
                     np.int8, np.uint8})


class VecElements:
    """Mixin for a 2-D array of ``vec_type`` vectors: an integer index loads a vector (see the
    module's docstring); every other index is the class's own. Put in front of a memory class
    by :func:`vector_class`."""

    __slots__ = ()
    vec_type: Any = None
    #: ``_vector(memory, index, components)``: the loaded vector (set by vector_class)
    _vector: Any = None
    #: the plain array of a view whose loads nothing watches (numpy's own, the fastest)
    _unwatched: Any = None

    def __getitem__(self, index: Any) -> Any:
        if index.__class__ in ONE_INT and self.ndim == 2:  # type: ignore[attr-defined]
            plain = self._unwatched
            if plain is not None:
                return self._vector(self, index, plain[index])
            fast = self._fast  # type: ignore[attr-defined]
            if fast is not None:  # the race detector alone watches: its check, per component
                i = int(index)
                if 0 <= i < fast.rows:
                    where, check, first = _getframe(1), fast.check, i * fast.cols
                    for flat in range(first, first + fast.cols):
                        check(fast, flat, False, where)
                    return self._vector(self, i, fast.plain[i])
            row = super().__getitem__(index)  # type: ignore[misc]
            if isinstance(row, np.ndarray):  # (else zeros past the end: robust access)
                if row._reports:  # type: ignore[attr-defined]
                    row._will_read()  # type: ignore[attr-defined]  # one load, N components
                row = row.view(np.ndarray)
            return self._vector(self, index, row)
        return super().__getitem__(index)  # type: ignore[misc]


def unwatched(view: Any, array: np.ndarray) -> Any:
    """``view`` (of ``array``), told that nothing watches its loads: ``view[i]`` reads
    ``array`` with numpy's indexing (an IndexError past the end, as ``sanitize="off"`` has)."""
    view._unwatched = array
    return view


_WRITE_BACK: dict[type, type] = {}


def _write_back_class(vec: type) -> type:
    """The subclass of ``vec`` whose component assignments also store the component into the
    array element it was loaded from (through the array's ``__setitem__``, so the race
    detector and the conversion checks see the store). ``cls._at(memory, index, components)``
    makes one (``components``: a plain array or a vector)."""
    cls = _WRITE_BACK.get(vec)
    if cls is not None:
        return cls
    names = "xyzw"[:vec.size]

    def new(cls: type, *args: Any) -> Any:  # type(v)(...): a value, of the vector type
        return vec(*args)

    def reduce(self: Any) -> tuple:  # copy.copy(v), pickling: a value too
        return vec._make, tuple(self)

    ns: dict[str, Any] = {"__slots__": ("_home",), "__module__": __name__, "__new__": new,
                          "_make": vec._make, "__reduce__": reduce,  # (type(v)._make(...))
                          "__doc__": f"A {vec.__name__} loaded from memory: assigning a "
                                     "component also stores it there."}
    slots = {c: vec.__dict__[c] for c in names}
    for j, (c, slot) in enumerate(slots.items()):
        def setter(self: Any, v: Any, j: int = j, slot: Any = slot) -> None:
            memory, index = self._home
            memory[index, j] = v
            if 0 <= index < memory.shape[0]:  # (else dropped by robust access, or numpy's
                # negative index with sanitize="off": the vector keeps the value it had)
                slot.__set__(self, np.ndarray.__getitem__(memory, (index, j)))  # as stored
        ns[c] = property(slot.__get__, setter)
    cls = _WRITE_BACK[vec] = type(vec.__name__, (vec,), ns)
    scope = {"_new": object.__new__, "_cls": cls, "_home": cls.__dict__["_home"].__set__,
             "_bool": bool, **{f"_set_{c}": slot.__set__ for c, slot in slots.items()}}
    convert = "_bool({})" if vec.kind == "b" else "{}"  # (numpy bools: Python's, as vec3b has)
    exec("def _at(memory, index, row):\n    o = _new(_cls)\n"  # (indexing a numpy row is
         + "".join(f"    _set_{c}(o, {convert.format(f'row[{j}]')})\n"  # faster than *row)
                   for j, c in enumerate(names))
         + "    _home(o, (memory, index))\n    return o\n", scope)
    cls._at = staticmethod(scope["_at"])  # type: ignore[attr-defined]
    return cls


def bound_vector(vec: Any, memory: np.ndarray, index: int, row: Any) -> Any:
    """A ``vec`` loaded from row ``index`` of the 2-D ``memory`` (its components ``row``)
    whose component assignments also store into that row."""
    return _write_back_class(vec)._at(memory, index, row)


_CLASSES: dict[tuple[type, Any], type] = {}


def vector_class(base: type, vec: Any) -> type:
    """``base`` (a memory class) for an array of ``vec`` vectors: :class:`VecElements` in front
    of it (once for the classes that have it already), ``vec_type`` set."""
    cls = _CLASSES.get((base, vec))
    if cls is None:
        bases = (base,) if issubclass(base, VecElements) else (VecElements, base)
        cls = _CLASSES[(base, vec)] = type(f"{base.__name__}[{vec.__name__}]", bases, {
            "vec_type": vec, "_vector": staticmethod(_write_back_class(vec)._at),
            "__module__": base.__module__, "__doc__": base.__doc__})
    return cls


def store_plain(memory: np.ndarray, index: Any, value: Any) -> None:
    """``memory[index] = value`` for an array of vectors whose class does not report stores:
    through a plain view, since numpy's own store into a row of a subclass reads the row
    through the subclass's ``__getitem__`` (a vector here, and numpy refuses it); a vector as
    a tuple of its components (numpy converts a vector through ``__array__``, several times
    slower)."""
    np.ndarray.__setitem__(memory.view(np.ndarray), index,
                           tuple(value) if isinstance(value, Vec) else value)


class VecStorage(VecElements, _Managed):
    """A storage buffer declared with a vector element, as the shader sees it in a run without
    instruments (``sanitize="off"``): a view of the caller's array (no copy; stores land
    there) whose integer index loads a vector. Loads and stores are numpy's (an index past the
    end raises IndexError, as for every buffer with ``sanitize="off"``)."""

    def __setitem__(self, index: Any, value: Any) -> None:
        store_plain(self, index, value)


def vector_view(array: np.ndarray, vec: Any) -> VecStorage:
    """``array`` (a caller's (n, N) array) as a storage buffer of ``vec`` vectors, in a run
    that watches nothing."""
    return unwatched(array.view(vector_class(VecStorage, vec)), array)
