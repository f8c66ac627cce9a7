"""Struct buffers: the array a dispatch binds (:class:`StructArray`) and what a shader indexes
(:class:`StructView`: ``p[i]`` is a reference, see :mod:`asyncshader.wgsl.struct_refs`), robust
access past the end, and how the race detector names a struct buffer's granules."""

from __future__ import annotations

from sys import _getframe
from typing import Any

import numpy as np

from .layout import granule, leaves
from .struct_refs import _INT, Block, MemberIndex, ref_of, store
from .structs import struct_of

__all__ = ["StructArray", "StructView", "as_struct_binding", "describe_granule", "write_value"]


class StructArray(np.ndarray):
    """A struct buffer as a dispatch binds it: ``array<S, n>`` (shape (n,)) or one struct
    (shape ()). ``p[i]`` is a reference to element ``i``; string indices (``p["mass"]``) are
    numpy's field views, for the host."""

    _blk: Any = None
    _struct: Any = None
    read_only_binding = ""  # bound as var<storage, read> (ReadOnly[S]): the parameter's name

    def __array_finalize__(self, obj: Any) -> None:
        self._blk = None
        self._struct = struct_of(self.dtype) if self.dtype.names else None
        self.read_only_binding = getattr(obj, "read_only_binding", "")

    def _read_only(self) -> Any:
        """What a Block of this buffer refuses stores with: False (writeable), else the reason
        (a read-only storage buffer, named; otherwise a uniform)."""
        if self.flags.writeable:
            return False
        if self.read_only_binding:
            return (f"the storage binding {self.read_only_binding!r} is declared read-only "
                    "(WGSL var<storage, read>: annotated ash.ReadOnly), and WGSL refuses a "
                    "store through a read-only reference: declare it ash.Storage to write it")
        return True

    def block(self) -> Block:
        blk = self._blk
        if blk is None:
            if not self.flags.c_contiguous:
                raise TypeError("a struct buffer must be a contiguous array (not a strided "
                                "view): pass np.ascontiguousarray(a) and read the results "
                                "from that array")
            blk = self._blk = Block(self.view(np.ndarray), self._struct,
                                    read_only=self._read_only())
        return blk

    def describe(self, granule_index: int) -> MemberIndex:
        """The member a granule of this buffer belongs to: (element, path)."""
        return describe_granule(self._struct, self.ndim, granule_index)

    def shader_arg(self, run: Any = None) -> Any:
        """What the shader is given: a :class:`StructView` of this buffer (``p[i]``), or for
        one struct its reference; watched by ``run``'s instruments when given."""
        self.block()  # (checks the array)
        blk = Block(self.view(np.ndarray), self._struct, read_only=self._read_only())
        if run is not None:
            blk.watch(run, self, self.describe)
            blk.describe = self.describe
        if self.ndim == 0:
            return ref_of(self._struct)((blk, 0))
        return StructView(self, blk)

    def fragment_arg(self, run: Any) -> tuple[Any, Block]:
        """(what one fragment invocation is given, its block): each invocation has its own
        block (set ``block.inv`` once the invocation exists), sharing one watch per run."""
        cached = self.__dict__.get("_fragment_base")
        if cached is None or cached[0] is not run:
            base = Block(self.view(np.ndarray), self._struct, read_only=self._read_only())
            if run.access_hooks:
                base.watch(run, self, self.describe)
                base.describe = self.describe
            base.origin, base.fragments = self, run
            cached = self.__dict__["_fragment_base"] = (run, base)
        blk = cached[1].for_invocation()
        if self.ndim == 0:
            return ref_of(self._struct)((blk, 0)), blk
        return StructView(self, blk), blk

    def __getitem__(self, index: Any) -> Any:
        """``a[i]``: a reference to element i (host side: unwatched); other indices are
        numpy's (``a["mass"]`` is the field's view)."""
        if index.__class__ in _INT and self.ndim == 1 and self._struct is not None:
            return StructView(self, self.block())[index]
        return np.ndarray.__getitem__(self.view(np.ndarray), index)

    def __setitem__(self, index: Any, value: Any) -> None:
        if index.__class__ in _INT and self.ndim == 1 and self._struct is not None:
            StructView(self, self.block())[index] = value
            return
        np.ndarray.__setitem__(self.view(np.ndarray), index, value)


class StructView:
    """``array<S>`` as a shader sees it: ``p[i]`` is a reference to element ``i`` (robust
    access past the end when the run is watched), ``p[i] = value`` stores a whole struct,
    ``len(p)`` and ``array_length(p)`` its length."""

    __slots__ = ("_array", "_blk", "_n", "_ref", "_stride")

    def __init__(self, array: Any, blk: Block) -> None:
        self._array, self._blk = array, blk
        self._n, self._stride = (array.shape[0] if array.ndim else 1), array.dtype.itemsize
        self._ref = ref_of(array._struct)

    def __getitem__(self, index: Any) -> Any:
        if index.__class__ in _INT:
            i = int(index)
            if 0 <= i < self._n:
                return self._ref((self._blk, i * self._stride))
            return _out_of_bounds(self, i, None)
        raise TypeError(f"index a struct buffer with an integer (p[i]), not {index!r}")

    def __setitem__(self, index: Any, value: Any) -> None:
        if index.__class__ in _INT:
            i = int(index)
            if 0 <= i < self._n:
                store(self._blk, i * self._stride, self._array._struct, value, _getframe(1),
                      self._array._struct.__name__)
            else:
                _out_of_bounds(self, i, value)
            return
        raise TypeError(f"index a struct buffer with an integer (p[i]), not {index!r}")

    def __len__(self) -> int:
        return self._n

    def _ash_array_length(self) -> int:
        return self._n

    def __iter__(self) -> Any:
        return (self[i] for i in range(self._n))

    def __repr__(self) -> str:
        return f"<array<{self._array._struct.__name__}, {self._n}> in a shader>"


def _out_of_bounds(view: Any, i: int, value: Any) -> Any:
    """``p[i]`` past the end: IndexError when unwatched (as numpy's), else a reference to a
    zeroed scratch element whose every access is reported out of bounds (WGSL robust access:
    loads give zero, stores are dropped)."""
    blk, cls = view._blk, view._array._struct
    if blk.run is None:
        raise IndexError(f"index {i} is out of bounds for array<{cls.__name__}> of length "
                         f"{view._n}")
    scratch = Block(np.zeros(1, cls.dtype), cls)
    scratch.run, scratch.oob = blk.run, (blk.origin, i)
    if value is not None:
        store(scratch, 0, cls, value, _getframe(2), cls.__name__)
    return ref_of(cls)((scratch, 0))


def describe_granule(cls: Any, ndim: int, granule_index: int) -> MemberIndex:
    """Where granule ``granule_index`` of a buffer of ``cls`` structs (``ndim`` 1: an array,
    0: one struct) lies: (element, member path)."""
    byte = granule_index * granule(cls)
    element, within = divmod(byte, cls.dtype.itemsize)
    return MemberIndex((element if ndim else None, _path_at(cls, within)))


def _path_at(t: Any, offset: int) -> str:
    """The member path (``.velocity.y``) of the scalar at byte ``offset`` of a ``t``."""
    best = ""
    for path, off, dt in leaves(t):
        if off <= offset < off + dt.itemsize:
            return path
        if off <= offset:
            best = path
    return best


def as_struct_binding(value: np.ndarray) -> StructArray | None:
    """A struct buffer (an array of a struct's dtype) as a :class:`StructArray` view, or None
    for any other array."""
    cls = struct_of(value.dtype) if value.dtype.names else None
    if cls is None:
        return None
    if value.ndim > 1:
        raise TypeError(f"a struct buffer is 1-D (array<{cls.__name__}>) or 0-d (one "
                        f"{cls.__name__}), not shaped {value.shape}")
    return value.view(StructArray)


def write_value(array: np.ndarray, value: Any) -> None:
    """Stores struct value ``value`` into ``array``, one struct (shape ()), unwatched."""
    cls = struct_of(array.dtype)
    store(Block(array, cls), 0, cls, value, None, cls.__name__)
