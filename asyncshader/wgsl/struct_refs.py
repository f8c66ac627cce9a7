"""Struct buffers as shaders see them: references, loads and stores.

In a shader, ``p[i]`` of a struct buffer is a *reference* (WGSL's ``ref<storage, Particle>``):
reading a member loads it, assigning one stores it, and every load and store is reported to the
race detector by the bytes it covers (``p[3].mass`` and ``p[3].velocity`` are different memory
locations): the detector sees a struct buffer as granules (4 bytes, 2 with f16 members). A
vector member loads as a vector value that knows where it came from, so the memory expression
``p[i].velocity.y += g * dt`` stores the component; nested structs and array members are
references, like ``p[i]``. A name holding one is a value as far as stores go: the shader's
source rewrite (:mod:`asyncshader.wgsl.values`) makes ``q = p[i]; q.mass = 2.0`` a new value.
"""

from __future__ import annotations

import difflib
from sys import _getframe
from typing import Any

import numpy as np

from .layout import RuntimeArrayType, granule, is_matrix, stride_of
from .structs import convert, is_struct, zero_of
from .types import ArrayType, AtomicType, Vec, _ScalarType, _to_i32, _to_u32, _type_name

__all__ = ["ArrayRef", "AtomicMember", "Block", "MemberIndex", "load", "ref_of", "store"]

_INT = frozenset({int, np.int32, np.uint32, np.int64, np.uint64})


def scalar_converter(t: Any) -> Any:
    """What converts a value to scalar type ``t`` as ``t(value)`` does, without the scalar
    class's own call (a metaclass call costs a microsecond; numpy's constructors, tens of ns)."""
    return {"f": np.float32, "e": np.float16, "I": _to_u32, "i": _to_i32}.get(t.dtype.char, t)


def ref_of(cls: Any) -> type:
    """The reference class of struct ``cls`` (made on first use)."""
    ref = cls.__dict__.get("_ref")
    if ref is None:
        ref = _ref_class(cls)
        cls._ref = ref
    return ref


# ------------------------------------------------------------------------------- the memory
class MemberIndex(tuple):
    """Where a race or out-of-bounds access on a struct buffer happened: ``(element, path)``,
    e.g. ``(3, ".velocity.y")``, rendered ``p[3].velocity.y``."""

    @property
    def suffix(self) -> str:
        element, path = self
        return path if element is None else f"[{element}]{path}"


class _Words(np.ndarray):
    """A struct buffer's memory as the race detector sees it: 1-D, one element per granule
    (4 bytes, 2 with f16 members). ``_ash_memory_of`` is the binding it names."""

    _ash_memory_of: Any = None
    _ash_describe: Any = None


class Block:
    """The bytes behind struct references: typed views of one buffer (or of a scratch element
    for an out-of-bounds reference), and the run whose instruments see the accesses."""

    __slots__ = (
        "describe",
        "fast",
        "fragments",
        "g",
        "gshift",
        "inv",
        "oob",
        "origin",
        "raw",
        "read_only",
        "run",
        "views",
        "words",
    )

    def __init__(self, array: np.ndarray, struct_cls: Any, read_only: bool = False) -> None:
        raw = array.reshape(-1).view(np.uint8)
        self.raw = raw
        self.g = granule(struct_cls)
        self.gshift = self.g.bit_length() - 1
        self.views: dict[str, np.ndarray] = {}
        for ch in "fiue?":  # (bool: a member of a struct outside buffers)
            dt = np.dtype({"f": "<f4", "i": "<i4", "u": "<u4", "e": "<f2", "?": "?"}[ch])
            if raw.size % dt.itemsize == 0:
                self.views[dt.char] = raw.view(dt)
        self.read_only = read_only
        self.run = self.fast = self.words = self.oob = self.origin = None
        self.describe: Any = None
        self.inv: Any = None  # a fragment's own block: the invocation (its helper stores drop)
        self.fragments: Any = None  # ... and the fragment run

    def for_invocation(self) -> Block:
        """A copy sharing this block's memory and watch, for one fragment invocation."""
        blk = object.__new__(Block)
        for name in Block.__slots__:
            setattr(blk, name, getattr(self, name))
        return blk

    @property
    def _inv(self) -> Any:
        return self.inv

    @_inv.setter
    def _inv(self, inv: Any) -> None:  # (set like a fragment storage view's, fragment_io.py)
        self.inv = inv

    def dropped(self) -> bool:
        """Whether a store by this block's fragment invocation is dropped (it is a helper, as
        WGSL requires: its stores have no effect); counted and noted."""
        inv = self.inv
        if inv is None or not inv.helper:
            return False
        self.fragments.suppressed_writes += 1
        self.fragments.helper_effect(inv, self.origin, "store")
        return True

    def watch(self, run: Any, origin: Any, describe: Any) -> None:
        """Reports this block's accesses to ``run``'s instruments, naming ``origin``."""
        words = self.raw.view(np.uint32 if self.g == 4 else np.uint16).view(_Words)
        words._ash_memory_of = origin
        words._ash_describe = describe
        self.words, self.run, self.origin = words, run, origin
        self.fast = run.fast_state(words)

    def touch(self, offset: int, nbytes: int, write: bool, frame: Any) -> None:
        """Reports an access to bytes [offset, offset + nbytes) (all granules they cover)."""
        if self.read_only and write:
            raise TypeError(self.read_only if isinstance(self.read_only, str) else
                            "this struct is a uniform (var<uniform>), which is read-only in "
                            "WGSL: bind it as Storage to write it")
        if self.oob is not None:
            self._out_of_bounds(write)
            return
        # (every granule the bytes touch: a bool member is 1 byte of its 4-byte slot)
        lo, hi = offset >> self.gshift, ((offset + nbytes - 1) >> self.gshift) + 1
        fast = self.fast
        if fast is not None:
            for loc in range(lo, hi):
                fast.check(fast, loc, write, frame)
        elif self.run is not None:
            from .watched import FlatIndex
            self.run.memory_access(self.words, FlatIndex(np.arange(lo, hi)),
                                   "store" if write else "load")

    def _out_of_bounds(self, write: bool) -> None:
        memory, index = self.oob
        self.run.out_of_bounds(memory, index, "store" if write else "load")
        if write:
            self.raw[:] = 0  # WGSL robust access: the store is dropped


def _scalar_at(blk: Block, offset: int, dtype: np.dtype) -> Any:
    return blk.views[dtype.char][offset // dtype.itemsize]


def _scalar_type(t: Any) -> Any:
    if isinstance(t, AtomicType):
        raise TypeError(f"a struct member of type {t!r} is read and written only by the atomic "
                        "built-ins (WGSL allows nothing else on atomic<T>, nor loading or "
                        "storing a whole struct that holds one): "
                        "`await ash.atomic_add(ash.ptr(p[i].count), 1)`, "
                        "`await ash.atomic_load(ash.ptr(p[i].count))`")
    return t


class AtomicMember:
    """An ``atomic<i32>``/``atomic<u32>`` member of a struct in memory (``p[i].count``): not a
    value, a place that ``ash.ptr(p[i].count)`` (WGSL ``&p[i].count``) hands to the atomic
    built-ins. Its atomics report the member's granules to the race detector, as plain
    accesses of the struct's other members are reported."""

    __slots__ = ("_b", "_o", "path", "type")

    def __init__(self, blk: Block, offset: int, t: Any, path: str) -> None:
        self._b, self._o, self.type, self.path = blk, offset, t, path

    def target(self, write: bool) -> tuple[np.ndarray, int, Any]:
        """(array, index, report): where the atomic operates (a 32-bit view of the struct's
        bytes), and what its instruments are told, (memory, index) or None when unwatched."""
        blk = self._b
        if blk.read_only:
            raise TypeError(f"an atomic on {self.path}, a member of a uniform (var<uniform>), "
                            "which is read-only in WGSL: bind the struct as ash.Storage")
        dt = self.type.scalar.dtype
        view = blk.views[dt.char]
        if blk.oob is not None:
            blk._out_of_bounds(write)
            return view, self._o // 4, None
        if blk.words is None:
            return view, self._o // 4, None
        from .watched import FlatIndex
        lo, hi = self._o >> blk.gshift, (self._o + 4) >> blk.gshift
        return view, self._o // 4, (blk.words, FlatIndex(np.arange(lo, hi)))

    def _refuse(self, *args: Any) -> Any:
        _scalar_type(self.type)

    __int__ = __index__ = __float__ = __bool__ = _refuse
    __add__ = __radd__ = __sub__ = __rsub__ = __mul__ = __rmul__ = _refuse
    __eq__ = __ne__ = __lt__ = __le__ = __gt__ = __ge__ = _refuse
    __hash__ = None  # type: ignore[assignment]

    def __repr__(self) -> str:
        return f"<atomic member {self.path}: {self.type!r} at byte {self._o}>"


def _value(v: Any) -> Any:
    """A loaded member as part of a whole struct's (or array's) value: an atomic cannot be."""
    if v.__class__ is AtomicMember:
        _scalar_type(v.type)
    return v


# ----------------------------------------------------------------------- loads and stores
def load(blk: Block, offset: int, t: Any, frame: Any, path: str = "") -> Any:
    """``t`` at ``offset``: scalars and matrices load (reported); a vector loads as a bound
    vector (its component stores write back); structs and arrays are references, and so is
    an atomic (:class:`AtomicMember`, for ``ash.ptr``)."""
    if isinstance(t, AtomicType):
        return AtomicMember(blk, offset, t, path)
    if isinstance(t, _ScalarType):
        dt = t.dtype
        blk.touch(offset, dt.itemsize, False, frame)
        return _scalar_at(blk, offset, dt)
    if isinstance(t, type) and issubclass(t, Vec):
        return _bound_vec(blk, offset, t, frame)
    if is_struct(t):
        return ref_of(t)((blk, offset))
    if isinstance(t, (ArrayType, RuntimeArrayType)):
        return ArrayRef(blk, offset, t, path)
    if is_matrix(t):
        return _bound_matrix(blk, offset, t, frame)
    raise TypeError(f"cannot load {t!r}")


_FLOATS = frozenset({float, np.float16, np.float32, np.float64})


def check_conversion(blk: Block, offset: int, t: Any, value: Any) -> None:
    """A float stored into an integer member, or a vector of another component type into a
    vector member: WGSL converts nothing implicitly, so the shader would not compile. Reported
    (or raised, for strict kernels) as for a flat buffer's element (sanitizers/conversions.py);
    the store then converts, as numpy would."""
    if isinstance(t, type) and issubclass(t, Vec):
        if not isinstance(value, Vec) or value.kind == t.kind:
            return
        dt = t.scalar.dtype
    elif dt_kind_int(t) and (value.__class__ in _FLOATS or isinstance(value, np.floating)):
        dt = t.dtype
    else:
        return
    describe = blk.describe or (lambda g: MemberIndex((None, "")))
    blk.run.implicit_conversion(blk.words, describe(offset >> blk.gshift), value,
                                np.zeros((), dt))


def dt_kind_int(t: Any) -> bool:
    return isinstance(t, _ScalarType) and t.dtype.kind in "iu"


def store(blk: Block, offset: int, t: Any, value: Any, frame: Any, where: str) -> None:
    """Stores ``value`` (converted to ``t`` as WGSL's constructor would) at ``offset``, every
    scalar reported; padding is left alone."""
    if blk.inv is not None and blk.dropped():
        return
    t = _scalar_type(t)
    if blk.run is not None and blk.oob is None:
        check_conversion(blk, offset, t, value)
    if isinstance(t, _ScalarType):
        dt = t.dtype
        v = scalar_converter(t)(value)
        blk.touch(offset, dt.itemsize, True, frame)
        if blk.oob is None:
            blk.views[dt.char][offset // dt.itemsize] = v
        return
    if isinstance(value, (_Ref, ArrayRef)):
        value = value.load()  # a copy from memory: load first (WGSL evaluates the right side)
    if isinstance(t, type) and issubclass(t, Vec):
        v = convert(t, value, where)
        size = t.scalar.dtype.itemsize
        blk.touch(offset, t.size * size, True, frame)
        if blk.oob is None:
            view = blk.views[t.scalar.dtype.char]
            start = offset // size
            view[start:start + t.size] = list(v)
        return
    if is_struct(t):
        v = convert(t, value, where)
        for m in t.__wgsl_layout__.members:
            if not isinstance(m.type, RuntimeArrayType):
                store(blk, offset + m.offset, m.type, getattr(v, m.name), frame,
                      f"{where}.{m.name}")
        return
    if isinstance(t, ArrayType):
        v = convert(t, value, where)
        stride = stride_of(t.element)
        for i, e in enumerate(v):
            store(blk, offset + i * stride, t.element, e, frame, f"{where}[{i}]")
        return
    if is_matrix(t):
        m = np.asarray(convert(t, value, where))
        col = _column_of(t)
        for c in range(t.cols):
            store(blk, offset + c * stride_of(col), col, col(*m[c]), frame, f"{where}[{c}]")
        return
    raise TypeError(f"{where}: cannot store into {t!r}")


def _column_of(m: Any) -> Any:
    from .layout import _vec_of
    return _vec_of(m)


# --------------------------------------------------------------------------- bound vectors
_BOUND: dict[type, type] = {}


def _bound_class(vec: type) -> type:
    """The subclass of ``vec`` whose component assignments also store into memory."""
    cls = _BOUND.get(vec)
    if cls is not None:
        return cls
    slots = {c: vec.__dict__[c] for c in "xyzw"[:vec.size]}  # the base class's slot descriptors
    ns: dict[str, Any] = {"__slots__": ("_at",), "__module__": __name__,
                          "__doc__": f"A {vec.__name__} loaded from memory: assigning a "
                                     "component also stores it there."}
    convert_scalar = scalar_converter(vec.scalar)
    for j, (c, slot) in enumerate(slots.items()):
        def setter(self: Any, v: Any, j: int = j, slot: Any = slot) -> None:
            at = getattr(self, "_at", None)
            if at is None:  # made by type(v)(...) or type(v)._make(...): a plain value
                slot.__set__(self, v)
                return
            blk, offset = at
            if blk.inv is not None and blk.dropped():
                return
            dt = vec.scalar.dtype
            stored = convert_scalar(v)
            # WGSL: a store to one component may access the whole vector's memory
            blk.touch(offset, vec.size * dt.itemsize, True, _getframe(1))
            if blk.oob is None:
                blk.views[dt.char][offset // dt.itemsize + j] = stored
            slot.__set__(self, stored)
        ns[c] = property(slot.__get__, setter)
    cls = _BOUND[vec] = type(f"bound_{vec.__name__}", (vec,), ns)
    cls._slots = slots  # type: ignore[attr-defined]
    return cls


def _bound_vec(blk: Block, offset: int, vec: type, frame: Any) -> Any:
    dt = vec.scalar.dtype
    blk.touch(offset, vec.size * dt.itemsize, False, frame)
    cls = _bound_class(vec)
    o = object.__new__(cls)
    start = offset // dt.itemsize
    values = blk.views[dt.char][start:start + vec.size]
    for slot, v in zip(cls._slots.values(), values):  # type: ignore[attr-defined]
        slot.__set__(o, v)  # (numpy scalars of the vector's type, as vector arithmetic makes)
    o._at = (blk, offset)
    return o


# -------------------------------------------------------------------------- bound matrices
_BOUND_MATRICES: dict[type, type] = {}


def _bound_matrix_class(mat: type) -> type:
    """The subclass of matrix class ``mat`` whose column assignments (``m[c] = v``) also
    store into memory; its columns are bound vectors, so ``m[c].y = s`` stores too."""
    cls = _BOUND_MATRICES.get(mat)
    if cls is not None:
        return cls
    col = _column_of(mat)
    stride = stride_of(col)

    def __setitem__(self: Any, i: Any, v: Any) -> None:
        mat.__setitem__(self, i, v)  # (the matrix checks the index and converts the column)
        at = getattr(self, "_at", None)
        if at is None:  # a plain value made from this class
            return
        blk, offset = at
        c = int(i)
        store(blk, offset + c * stride, col, mat.__getitem__(self, c), _getframe(1),
              f"{mat.__name__}[{c}]")

    ns: dict[str, Any] = {"__setitem__": __setitem__, "__module__": __name__,
                          "__doc__": f"A {mat.__name__} loaded from memory: assigning a column "
                                     "or a column's component also stores it there."}
    if "__slots__" in mat.__dict__ or any("__slots__" in b.__dict__ for b in mat.__mro__[1:-1]):
        ns["__slots__"] = ("_at",)
    cls = _BOUND_MATRICES[mat] = type(f"bound_{mat.__name__}", (mat,), ns)
    return cls


def _bound_matrix(blk: Block, offset: int, mat: type, frame: Any) -> Any:
    col = _column_of(mat)
    stride = stride_of(col)
    cls = _bound_matrix_class(mat)
    columns = [_bound_vec(blk, offset + c * stride, col, frame) for c in range(mat.cols)]
    make = getattr(cls, "_of", None)  # (the matrix classes: from column vectors, no copy)
    m = make(columns) if make is not None else cls(np.array([list(c) for c in columns],
                                                            col.scalar.dtype))
    m._at = (blk, offset)
    return m


# ------------------------------------------------------------------------------ references
class _Ref(tuple):
    """A reference to a struct in memory (WGSL ``ref<AS, S>``): member reads load, member
    assignments store. ``.load()`` is the whole struct as a value. (A pair (block, byte
    offset): a tuple, so that making one runs no Python code.)"""

    __slots__ = ()
    _struct: Any = None

    def __eq__(self, other: Any) -> bool:
        raise TypeError(f"WGSL has no == on structs ({self._struct.__name__}): compare "
                        "members")

    __ne__ = __eq__
    __hash__ = tuple.__hash__

    @property
    def _b(self) -> Block:
        return self[0]

    @property
    def _o(self) -> int:
        return self[1]

    def load(self, frame: Any = None) -> Any:
        """The struct's value (every member loaded), WGSL's ``let v = p[i];`` (``frame``: the
        shader's frame the loads are reported at, the caller's when None)."""
        cls = self._struct
        frame = frame or _getframe(1)
        values = {}
        for m in cls.__wgsl_layout__.members:
            if isinstance(m.type, RuntimeArrayType):
                continue
            v = load(self._b, self._o + m.offset, m.type, frame, m.name)
            values[m.name] = v.load(frame) if isinstance(v, (_Ref, ArrayRef)) else _value(v)
        return cls(**values)

    def __getattr__(self, name: str) -> Any:
        members = [m.name for m in self._struct.__wgsl_layout__.members]
        close = difflib.get_close_matches(name, members, n=1)
        raise AttributeError(f"struct {self._struct.__name__} has no member {name!r}"
                             + (f": did you mean {close[0]!r}?" if close else
                                f" (members: {', '.join(members)})"))

    def __repr__(self) -> str:
        return f"<reference to {self._struct.__name__} at byte {self._o}>"


def _ref_class(cls: Any) -> type:
    """The reference class of struct ``cls``: one property per member. It has the struct's
    name, which is what Python's own errors about it show: a store into a name that is no
    member (the class has no ``__setattr__``, which would cost every member store a call)
    says ``'Particle' object has no attribute 'mas'``."""
    ns: dict[str, Any] = {"__slots__": (), "_struct": cls, "__module__": __name__,
                          "__qualname__": cls.__qualname__}
    for m in cls.__wgsl_layout__.members:
        ns[m.name] = _member_property(cls, m)
    return type(cls.__name__, (_Ref,), ns)


def _member_property(cls: Any, m: Any) -> property:
    moff, t, name = m.offset, m.type, m.name
    where = f"{cls.__name__}.{name}"
    if isinstance(t, AtomicType):
        def place(self: _Ref) -> AtomicMember:
            return AtomicMember(self[0], self[1] + moff, t, where)

        def refuse(self: _Ref, value: Any) -> None:
            _scalar_type(t)
        return property(place, refuse, doc=f"member {name}: {t!r}, for ash.ptr(...) and the "
                        "atomic built-ins")
    if isinstance(t, _ScalarType):  # the common case, kept short
        dt = t.dtype
        char, size, conv = dt.char, dt.itemsize, scalar_converter(t)
        integer = dt.kind in "iu"

        def get(self: _Ref) -> Any:
            blk, o = self
            o += moff
            fast = blk.fast
            if fast is not None and size == blk.g:
                fast.check(fast, o >> blk.gshift, False, _getframe(1))
            elif blk.run is not None or blk.read_only:
                blk.touch(o, size, False, _getframe(1))
            return blk.views[char][o // size]

        def set_(self: _Ref, value: Any) -> None:
            blk, o = self
            if blk.inv is not None and blk.dropped():
                return
            if blk.read_only:
                blk.touch(o, size, True, None)  # (raises: a uniform)
            o += moff
            if integer and blk.run is not None and blk.oob is None:
                check_conversion(blk, o, t, value)
            v = conv(value)
            if blk.oob is None:
                blk.views[char][o // size] = v
            if blk.run is not None or blk.read_only:
                blk.touch(o, size, True, _getframe(1))
    else:
        def get(self: _Ref) -> Any:
            return load(self._b, self._o + moff, t, _getframe(1), name)

        def set_(self: _Ref, value: Any) -> None:
            if isinstance(t, RuntimeArrayType):
                raise TypeError(f"{where} is a runtime-sized array: assign its elements")
            store(self._b, self._o + moff, t, value, _getframe(1), where)
    return property(get, set_, doc=f"member {name}: {_type_name(t)} at offset {moff}")


#: each array member type's element stride (by identity: the struct's layout holds the type)
_STRIDES: dict[Any, int] = {}


class ArrayRef:
    """A reference to an array member (``p[i].history``): indexing loads and stores
    elements; ``len()`` is its length (for a runtime-sized array, what the buffer holds)."""

    __slots__ = ("_b", "_o", "length", "path", "stride", "type")

    def __init__(self, blk: Block, offset: int, t: Any, path: str) -> None:
        self._b, self._o, self.type, self.path = blk, offset, t, path
        stride = _STRIDES.get(t)
        if stride is None:  # (made once per array type: a member read makes a reference)
            stride = _STRIDES[t] = stride_of(t.element)
        self.stride = stride
        if isinstance(t, ArrayType):
            self.length = t.length
        else:
            self.length = max(0, (blk.raw.size - offset) // self.stride)

    def __len__(self) -> int:
        return self.length

    def _ash_array_length(self) -> np.uint32:
        return np.uint32(self.length)

    def _place(self, index: Any, write: bool) -> int:
        if index.__class__ in _INT and 0 <= int(index) < self.length:
            return self._o + int(index) * self.stride
        if not isinstance(index, (int, np.integer)):
            raise TypeError(f"{self.path}[{index!r}]: index an array member with an integer")
        blk = self._b
        if blk.run is None:
            return -1  # (unwatched: robust access, nothing to report)
        element = blk.describe(self._o >> blk.gshift)[0] if blk.describe else None
        place = MemberIndex((element, f".{self.path}[{int(index)}]"))
        place.length = self.length
        blk.run.out_of_bounds(blk.origin, place, "store" if write else "load")
        return -1

    def __getitem__(self, index: Any) -> Any:
        offset = self._place(index, False)
        if offset < 0:
            return zero_of(self.type.element)  # WGSL robust access
        return load(self._b, offset, self.type.element, _getframe(1),
                    f"{self.path}[{int(index)}]")

    def __setitem__(self, index: Any, value: Any) -> None:
        offset = self._place(index, True)
        if offset >= 0:
            store(self._b, offset, self.type.element, value, _getframe(1),
                  f"{self.path}[{int(index)}]")

    def __iter__(self) -> Any:
        return (self[i] for i in range(self.length))

    def load(self, frame: Any = None) -> list:
        """The whole array as a value (a list of element values; ``frame`` as for a struct
        reference's ``load``)."""
        frame = frame or _getframe(1)
        out = []
        for i in range(self.length):
            v = load(self._b, self._o + i * self.stride, self.type.element, frame)
            out.append(v.load(frame) if isinstance(v, (_Ref, ArrayRef)) else _value(v))
        return out

    def __array__(self, dtype: Any = None, copy: Any = None) -> np.ndarray:
        return np.array([np.asarray(v) for v in self.load()], dtype=dtype)

    def __repr__(self) -> str:
        return f"<reference to {self.type!r} {self.path}>"
