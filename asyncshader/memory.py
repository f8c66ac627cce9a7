"""Memory: workgroup variables (``var<workgroup>``), pointers, and the per-workgroup context.

``tile = workgroup(array(f32, 64))`` declares module-scope workgroup memory. The object is a numpy
array (an ``ndarray`` subclass), so ``tile[i]`` and ``tile[i] = v`` run at numpy speed with f32
rounding and u32/i32 wrap-around on store. Each workgroup gets its own instance: before a
workgroup's invocations run, the scheduler makes its contents current (zero-filled the first time,
as WGSL requires), and when it switches to another live workgroup it saves them. A dispatch finds
the workgroup variables a kernel uses by name, like WGSL's "statically accessed" variables: the
kernel and the functions it calls must refer to them by their global name.

Scalars and vectors are 0-d and 1-d arrays; read and write them through ``.value``. Atomic
variables (``workgroup(atomic(u32))``) refuse plain access: use the ``atomic_*`` operations.
"""

from __future__ import annotations

import types
from sys import _getframe
from typing import Any

import numpy as np

from .types import ArrayType, AtomicType, Vec, _ScalarType, _type_name

__all__ = ["Ptr", "WorkgroupMemory", "WorkgroupVar", "find_workgroup_vars", "ptr", "workgroup"]


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

    def __array_ufunc__(self, ufunc: Any, method: str, *inputs: Any, out: Any = None,
                        **kwargs: Any) -> Any:
        """Arithmetic on managed memory computes on plain arrays and gives plain values; an
        in-place operation (``buf += 1``, ``out=``) writes through and keeps the name bound to
        the managed array."""
        args = [x.view(np.ndarray) if isinstance(x, _Managed) else x for x in inputs]
        if out is None:
            return getattr(ufunc, method)(*args, **kwargs)
        plain = tuple(o.view(np.ndarray) if isinstance(o, _Managed) else o for o in out)
        result = getattr(ufunc, method)(*args, out=plain, **kwargs)
        if len(out) == 1:
            return out[0] if isinstance(out[0], _Managed) else result
        return out


class WorkgroupVar(_Managed):
    """A ``var<workgroup>``: a numpy array whose contents belong to the running workgroup."""

    wgsl_type: Any = None
    var_name: str = "<workgroup variable>"

    @property
    def value(self) -> Any:
        """The variable's value (for scalar and vector variables): a copy, like a WGSL load."""
        if self._run is not None:
            self._run.memory_access(self, (), "load")
        return _read_whole(self)

    @value.setter
    def value(self, v: Any) -> None:
        np.ndarray.__setitem__(self, ..., v)
        if self._run is not None:
            self._run.memory_access(self, (), "store")

    def __repr__(self) -> str:
        return f"<workgroup {self.var_name}: {_type_name(self.wgsl_type)} = {np.asarray(self)!r}>"


class WorkgroupVecArray(WorkgroupVar):
    """``array<vecN<T>, M>``: indexing with an int returns a vector (a copy)."""

    vec_type: Any = None

    def __getitem__(self, index: Any) -> Any:
        row = np.ndarray.__getitem__(self, index)
        if self.vec_type is not None and self.ndim == 2 and isinstance(index, (int, np.integer)):
            return self.vec_type(*np.ndarray.tolist(row))
        return row

    def __setitem__(self, index: Any, value: Any) -> None:
        np.ndarray.__setitem__(self.view(np.ndarray), index, value)


class WorkgroupAtomic(WorkgroupVar):
    """``atomic<T>`` or ``array<atomic<T>, N>``: only the ``atomic_*`` operations may touch it."""

    def __getitem__(self, index: Any) -> Any:
        raise TypeError(f"{self.var_name} is atomic: read it with `await atomic_load(...)`, as "
                        "WGSL only allows atomic built-ins on atomic<T>")

    def __setitem__(self, index: Any, value: Any) -> None:
        raise TypeError(f"{self.var_name} is atomic: write it with `await atomic_store(...)`, "
                        "as WGSL only allows atomic built-ins on atomic<T>")

    @property
    def value(self) -> Any:
        raise TypeError(f"{self.var_name} is atomic: use `await atomic_load({self.var_name})`")

    @value.setter
    def value(self, v: Any) -> None:
        raise TypeError(f"{self.var_name} is atomic: use `await atomic_store({self.var_name}, v)`")


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

    def __getitem__(self, index: Any) -> Any:
        fast = self._fast  # type: ignore[attr-defined]
        if fast is not None:
            if index.__class__ in _INT_INDEX:
                i = int(index)
                if 0 <= i < fast.length:  # (0 for a 2-D array: a row is not an element)
                    value = fast.plain[i]
                    fast.check(fast, i, False, _getframe(1))
                    return value
            elif index.__class__ is tuple:
                i = _flat_of(fast, index)
                if i >= 0:
                    value = fast.plain[index]
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
            else:
                run.memory_access(memory, _reported(self, index), "load")
        return value

    def __array_ufunc__(self, ufunc: Any, method: str, *inputs: Any, out: Any = None,
                        **kwargs: Any) -> Any:
        # whole-array and whole-row arithmetic reads (and, with out=, writes) every element
        for x in inputs:
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
                    i = -1
            elif index.__class__ is tuple:
                i = _flat_of(fast, index)
            if i >= 0:
                if isinstance(value, _Traced):  # a watched scalar variable or row: a load
                    _report_whole(value, "load")
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
        # through a plain view: numpy's subclass path would call our __getitem__ (a false load)
        np.ndarray.__setitem__(self.view(np.ndarray), index, value)  # type: ignore[attr-defined]
        if run is not None:
            run.memory_access(memory, _reported(self, index), "store")


_INT_INDEX = frozenset({int, np.uint32, np.int32, np.int64, np.uint64})


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


def _report_whole(array: Any, kind: str) -> None:
    """Reports a load or store of every element of a watched array or view (numpy arithmetic,
    copies from a row: ``pos[j] * 2``, ``pos[i] = pos[j]`` for an ``array<vec4f>``)."""
    run = array._run
    if run is None:
        return
    origin = array._origin
    if origin is not None and array._map is None and not np.may_share_memory(array, origin):
        return  # a private copy (fragment storage copies keep their run): not memory
    run.memory_access(array if origin is None else origin,
                      FlatIndex(np.ravel(_positions(array))), kind)


def _positions(array: Any) -> np.ndarray:
    """The flat positions, in the array accesses are reported against, of ``array``'s
    elements."""
    mapping = getattr(array, "_map", None)
    return np.arange(array.size).reshape(array.shape) if mapping is None else mapping


def _reported(array: Any, index: Any) -> Any:
    """The index an access is reported with: as given, or (through a view) flat positions."""
    if getattr(array, "_map", None) is None:
        return index
    return FlatIndex(np.ravel(array._map[index]))


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

    def copy(self, order: str = "C") -> np.ndarray:  # type: ignore[override]
        return np.array(self.view(np.ndarray), order=order)


_TRACED = {cls: type(f"Traced{cls.__name__}", (_Traced, cls), {"__module__": __name__})
           for cls in (WorkgroupVar, WorkgroupVecArray)}
_UNTRACED = {traced: cls for cls, traced in _TRACED.items()}


def read_unreported(memory: Any, index: Any, inv: Any = None) -> Any:
    """``memory[index]`` without reporting the load to the instruments, for a load that no
    access can race with (``workgroup_uniform_load``'s sits between two barriers, while every
    invocation of the workgroup waits). Out-of-bounds indices still follow robust access, and
    are reported as ``inv``'s, at the line where it waits."""
    plain = _UNTRACED.get(type(memory))
    if plain is None:
        return memory[index]
    if memory._run is not None and not in_bounds(memory, index):
        memory._run.out_of_bounds(memory, index, "load", waiting=inv)
        return _zero_element(memory, index)
    return plain.__getitem__(memory, index)


def trace_vars(variables: list[WorkgroupVar], on: bool) -> None:
    """Switches workgroup variables to (or back from) their access-reporting classes. Only
    instrumented runs pay for Python-level indexing; atomic variables report through atomics."""
    for v in variables:
        table = _TRACED if on else _UNTRACED
        if type(v) in table:
            v.__class__ = table[type(v)]
        if not on:
            v._run = v._fast = None


class TracedStorage(_Traced, _Managed):
    """A storage buffer seen through an instrumented run: a view of the caller's array (writes
    land there) that reports plain loads and stores, naming the caller's array as atomics do."""


def traced_storage(array: np.ndarray, run: Any) -> TracedStorage:
    view = array.view(TracedStorage)
    view._origin = array
    view._run = run
    view._fast = run.fast_state(array)
    return view


def _read_whole(var: np.ndarray) -> Any:
    t = var.wgsl_type
    raw = np.ndarray.__getitem__(var, ())
    if isinstance(t, type) and issubclass(t, Vec):
        return t(*raw.tolist()) if t.kind == "b" else t._make(*[t.scalar(c) for c in raw])
    if isinstance(raw, np.ndarray):
        return np.array(raw)  # arrays: a copy, as a WGSL load of the whole array
    return bool(raw) if raw.dtype == np.bool_ else raw


def _layout(t: Any) -> tuple[tuple[int, ...], np.dtype, type, Any]:
    """(shape, dtype, ndarray subclass, vector type or None) for a WGSL type descriptor."""
    if isinstance(t, AtomicType):
        return (), t.scalar.dtype, WorkgroupAtomic, None
    if isinstance(t, _ScalarType) or t in (bool, int, float):
        scalar = {bool: "bool_", int: "i32", float: "f32"}.get(t)
        if scalar is not None:
            raise TypeError(f"workgroup({t.__name__}): use the WGSL type asyncshader.{scalar}")
        return (), t.dtype, WorkgroupVar, None
    if isinstance(t, type) and issubclass(t, Vec):
        return (t.size,), t.scalar.dtype, WorkgroupVar, None
    if isinstance(t, ArrayType):
        shape, dtype, cls, _ = _layout(t.element)
        if isinstance(t.element, type) and issubclass(t.element, Vec):
            return (t.length, *shape), dtype, WorkgroupVecArray, t.element
        if cls is not WorkgroupVar and cls is not WorkgroupAtomic:
            raise TypeError(f"workgroup arrays of {t.element!r} are not supported yet")
        return (t.length, *shape), dtype, cls, None
    raise TypeError(f"workgroup() takes a WGSL type (f32, vec4f, array(f32, 64), atomic(u32), "
                    f"...), not {t!r}")


def workgroup(wgsl_type: Any) -> WorkgroupVar:
    """Declares ``var<workgroup>`` memory of ``wgsl_type`` (at module scope).

    Each workgroup of a dispatch gets its own zero-initialised instance. Examples::

        tile = workgroup(array(f32, 64))        # var<workgroup> tile: array<f32, 64>;
        count = workgroup(atomic(u32))          # var<workgroup> count: atomic<u32>;
        flag = workgroup(u32)                   # flag.value = 1; x = flag.value
    """
    shape, dtype, cls, vec = _layout(wgsl_type)
    var = np.zeros(shape, dtype).view(cls)
    var.wgsl_type = wgsl_type
    if vec is not None:
        var.vec_type = vec
    return var


class Ptr:
    """A pointer to one element of a buffer or workgroup array (WGSL ``&buf[i]``)."""

    __slots__ = ("index", "memory")

    def __init__(self, memory: Any, index: Any = ()) -> None:
        self.memory = memory
        self.index = index

    def __repr__(self) -> str:
        return f"ptr({getattr(self.memory, 'var_name', 'buffer')}, {self.index!r})"


def ptr(memory: Any, index: Any = ()) -> Ptr:
    """WGSL ``&memory[index]`` (or ``&memory`` without an index), for atomics and
    ``workgroup_uniform_load``."""
    return Ptr(memory, index)


def resolve_ptr(p: Any) -> tuple[Any, Any]:
    """(memory, index) for a Ptr, a ``(memory, index)`` tuple, or a whole variable."""
    if isinstance(p, Ptr):
        memory, index = p.memory, p.index
    elif isinstance(p, tuple) and len(p) == 2:
        memory, index = p
    elif isinstance(p, np.ndarray):
        return p, ()
    else:
        memory = None
    if isinstance(memory, _Managed) and memory._origin is not None:
        origin = memory._origin
        if memory._map is not None:  # a sub-array view: the element's place in the origin
            flat = np.asarray(memory._map[index])
            if flat.ndim:
                return memory, index  # a pointer to a whole sub-array: use the view itself
            place = np.unravel_index(int(flat), origin.shape)
            return origin, int(place[0]) if len(place) == 1 else tuple(int(p) for p in place)
        return origin, index
    if memory is not None:
        return memory, index
    raise TypeError(f"expected a pointer: ptr(buffer, index), (buffer, index) or a workgroup "
                    f"variable, not {p!r}")


# ----------------------------------------------------------------------------- the per-workgroup
class WorkgroupMemory:
    """The memory context of one workgroup: its own contents of every workgroup variable."""

    __slots__ = ("closed", "run", "saved", "vars")

    def __init__(self, variables: list[WorkgroupVar], run: Any = None) -> None:
        self.vars = variables
        self.saved: list[np.ndarray] | None = None
        self.closed = False
        self.run = run

    def enter(self, previous: WorkgroupMemory | None) -> None:
        """Makes this workgroup's contents current (saving ``previous``'s)."""
        if previous is not None and not previous.closed and previous is not self:
            previous.save()
        # the variables are shared by every dispatch of kernels that use them, and concurrent
        # dispatches (anyio) take turns: make them this run's (watched or not) on every entry
        run = self.run
        watched = run is not None and bool(run.access_hooks)
        trace_vars(self.vars, watched)
        if watched:
            for v in self.vars:
                v._run = run
                v._fast = run.fast_state(v)
        if self.saved is None:
            for v in self.vars:
                np.ndarray.fill(v, 0)
        else:
            for v, s in zip(self.vars, self.saved):
                np.copyto(v, s, casting="no")
            self.saved = None

    def save(self) -> None:
        self.saved = [np.array(v, copy=True).view(np.ndarray) for v in self.vars]

    def exit(self) -> None:
        self.closed = True
        self.saved = None


def find_workgroup_vars(fn: Any) -> dict[str, WorkgroupVar]:
    """The workgroup variables ``fn`` (and the functions it calls) refer to by name."""
    return scan_kernel(fn)[0]


def scan_kernel(fn: Any) -> tuple[dict[str, WorkgroupVar], set]:
    """What ``fn`` and the functions it calls refer to by name: workgroup variables (by name),
    and asyncshader operations (trap functions), like WGSL's "statically accessed"."""
    found: dict[str, WorkgroupVar] = {}
    uses: set = set()
    seen: set[int] = set()

    def visit_code(code: types.CodeType, globs: dict) -> None:
        if id(code) in seen:
            return
        seen.add(id(code))
        for name in code.co_names:
            visit_value(name, globs.get(name), globs, code.co_names)
        for const in code.co_consts:
            if isinstance(const, types.CodeType):
                visit_code(const, globs)

    def visit_value(name: str, value: Any, globs: dict, names: tuple) -> None:
        if getattr(value, "__ash_trap__", False) is True:
            uses.add(value)
        elif isinstance(value, WorkgroupVar):
            if value.var_name == WorkgroupVar.var_name:
                value.var_name = name
            found.setdefault(name, value)
        elif isinstance(value, types.FunctionType):
            visit_function(value)
        elif isinstance(value, types.ModuleType):
            for attr in names:  # module.attr accesses: co_names holds the attribute names too
                sub = getattr(value, attr, None)
                if isinstance(sub, (WorkgroupVar, types.FunctionType)):
                    visit_value(attr, sub, vars(value), ())
        elif hasattr(value, "__wrapped_kernel__"):
            visit_function(value.__wrapped_kernel__)

    def visit_function(f: types.FunctionType) -> None:
        visit_code(f.__code__, f.__globals__)
        for name, cell in zip(f.__code__.co_freevars, f.__closure__ or ()):
            try:
                value = cell.cell_contents
            except ValueError:  # an empty cell
                continue
            if isinstance(value, types.FunctionType) and id(value.__code__) not in seen:
                visit_function(value)
            else:
                visit_value(name, value, f.__globals__, ())

    visit_function(getattr(fn, "__wrapped_kernel__", fn))
    return found, uses
