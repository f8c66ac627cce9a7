"""Memory: workgroup variables (``var<workgroup>``), pointers, and the per-workgroup context.

``tile = workgroup(array(f32, 64))`` declares module-scope workgroup memory. The object is a numpy
array (an ``ndarray`` subclass), so ``tile[i]`` and ``tile[i] = v`` run at numpy speed with f32
rounding and u32/i32 wrap-around on store. Each workgroup gets its own instance: before a
workgroup's invocations run, the scheduler makes its contents current (zero-filled the first time,
as WGSL requires), and when it switches to another live workgroup it saves them. A dispatch finds
the workgroup variables a kernel uses by name, like WGSL's "statically accessed" variables: the
kernel and the functions it calls must refer to them by their global name.

Scalars and vectors are 0-d and 1-d arrays; read and write them through ``.value`` (a store
into a part of it, ``w.value.x = 1.0``, stores into the variable, as WGSL's ``w.x = 1.0``). A
matrix ``matCxR`` is a (C, R) array: ``.value`` is the matrix (``m.value[c] = v`` and
``m.value[c].y = s`` store), ``var[c]`` column ``c`` in place; an
array of them is (n, C, R), loaded with ``mat4x4f(tile[i])``. Atomic
variables (``workgroup(atomic(u32))``) refuse plain access: use the ``atomic_*`` operations.
"""

from __future__ import annotations

import dis
import itertools
import linecache
import threading
import types
from sys import _getframe
from typing import Any

import numpy as np

from .._core.sources import user_code
from ..errors import ShaderCreationError
from .managed import _converts, _Managed, _map_of
from .matrices import Matrix
from .module_bindings import MODULE_BINDINGS_TURN, ModuleBinding, declared, module_binding
from .struct_buffers import StructView, describe_granule
from .struct_refs import ArrayRef, AtomicMember, Block, _Ref, ref_of, store
from .structs import is_struct, struct_of
from .types import ArrayType, AtomicType, Vec, _ScalarType, _type_name
from .vec_arrays import ONE_INT, VecElements, bound_vector, store_plain, vector_class
from .watched import _Traced, _zero_element, in_bounds

__all__ = ["FunctionVar", "MemoryTurn", "Ptr", "WorkgroupMemory", "WorkgroupVar",
           "find_workgroup_vars", "ptr", "workgroup"]


class WorkgroupVar(_Managed):
    """A ``var<workgroup>``: a numpy array whose contents belong to the running workgroup."""

    wgsl_type: Any = None
    var_name: str = "<workgroup variable>"

    @property
    def value(self) -> Any:
        """The variable's value (for scalar and vector variables): a copy, like a WGSL load;
        a vector's component assignments store into the variable (``w.value.x = 1.0`` is
        WGSL's ``w.x = 1.0``), as a vector loaded from an array's element does."""
        if self._run is not None:
            self._run.memory_access(self, (), "load")
        value = _read_whole(self)
        if isinstance(value, Vec):  # (a view of one row: stores report the variable's index)
            return bound_vector(self.wgsl_type, self.reshape(1, value.size), 0, value)
        if isinstance(value, Matrix):
            return _bound_matrix(self, value)
        return value

    @value.setter
    def value(self, v: Any) -> None:
        if self._run is not None and _converts(self.dtype, v):
            self._run.implicit_conversion(self, (), v, self)  # (WGSL converts nothing)
        np.ndarray.__setitem__(self, ..., v)
        if self._run is not None:
            self._run.memory_access(self, (), "store")

    def __repr__(self) -> str:
        return f"<workgroup {self.var_name}: {_type_name(self.wgsl_type)} = {np.asarray(self)!r}>"


class WorkgroupVecArray(VecElements, WorkgroupVar):
    """``array<vecN<T>, M>``: indexing with an int loads a vector whose component assignments
    also store into the array (``tile[i].x = 1.0`` writes ``tile``, as WGSL's reference does;
    a plain copy would drop the write silently). Take a private copy with ``vec4f(tile[i])``.
    One class per vector type (:func:`~asyncshader.wgsl.vec_arrays.vector_class`)."""

    def __setitem__(self, index: Any, value: Any) -> None:
        store_plain(self, index, value)


class WorkgroupStruct(WorkgroupVar):
    """``var<workgroup>`` of a struct (``workgroup(Particle)``: ``v.value`` is a reference,
    ``v.value.count += 1``) or of an array of structs (``workgroup(array(Particle, 64))``:
    ``tile[i].mass``), members reported to the race detector like a struct buffer's."""

    _struct: Any = None

    def _view(self) -> Any:
        view = self.__dict__.get("_shader_view")
        if view is None:
            view = self.__dict__["_shader_view"] = StructView(
                self, Block(self.view(np.ndarray), self._struct))
        return view

    @property  # type: ignore[override]
    def _run(self) -> Any:
        return self.__dict__.get("_watched_by")

    @_run.setter
    def _run(self, run: Any) -> None:  # WorkgroupMemory.enter / trace_vars (un)watch it
        self.__dict__["_watched_by"] = run
        blk = self._view()._blk
        if run is None:
            blk.run = blk.fast = None
        elif blk.run is not run:
            blk.watch(run, self, lambda g: describe_granule(self._struct, self.ndim, g))
            blk.describe = blk.words._ash_describe

    def __getitem__(self, index: Any) -> Any:
        if self.ndim == 0:
            raise TypeError(f"{self.var_name} is one struct: read its members through "
                            f"{self.var_name}.value (a reference)")
        return self._view()[index]

    def __setitem__(self, index: Any, value: Any) -> None:
        if self.ndim == 0:
            raise TypeError(f"{self.var_name} is one struct: assign {self.var_name}.value")
        self._view()[index] = value

    @property
    def value(self) -> Any:
        """One struct: a reference to it (member reads load, assignments store)."""
        if self.ndim:
            raise TypeError(f"{self.var_name} is an array of structs: index it")
        return ref_of(self._struct)((self._view()._blk, 0))

    @value.setter
    def value(self, v: Any) -> None:
        if self.ndim:
            raise TypeError(f"{self.var_name} is an array of structs: index it")
        store(self._view()._blk, 0, self._struct, v, _getframe(1), self.var_name)

    def unreported_value(self) -> Any:
        """One struct's value, loaded without telling the race detector (the load of
        ``workgroupUniformLoad``, between its two barriers, cannot race)."""
        return ref_of(self._struct)((Block(self.view(np.ndarray), self._struct), 0)).load()


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


_TRACED: dict[type, type] = {
    WorkgroupVar: type("TracedWorkgroupVar", (_Traced, WorkgroupVar), {"__module__": __name__})}
_UNTRACED = {traced: cls for cls, traced in _TRACED.items()}


def _vec_array_class(vec: type) -> type:
    """The class of a workgroup array of ``vec`` vectors (and, in :data:`_TRACED`, of it
    watched: the watched class's loads of a vector report its components)."""
    cls = vector_class(WorkgroupVecArray, vec)
    if cls not in _TRACED:
        traced = vector_class(_TRACED[WorkgroupVar], vec)
        _TRACED[cls], _UNTRACED[traced] = traced, cls
    return cls


def read_unreported(memory: Any, index: Any, inv: Any = None) -> Any:
    """``memory[index]`` without reporting the load to the instruments, for a load that no
    access can race with (``workgroup_uniform_load``'s sits between two barriers, while every
    invocation of the workgroup waits). Out-of-bounds indices still follow robust access, and
    are reported as ``inv``'s, at the line where it waits."""
    watched = type(memory) in _UNTRACED
    if watched and memory._run is not None and not in_bounds(memory, index):
        memory._run.out_of_bounds(memory, index, "load", waiting=inv)
        return _zero_element(memory, index)
    if isinstance(memory, VecElements) and index.__class__ in ONE_INT and memory.ndim == 2:
        return memory.vec_type(*memory.view(np.ndarray)[index])  # a value, not a reference
    return np.ndarray.__getitem__(memory, index) if watched else memory[index]


def trace_vars(variables: list[WorkgroupVar], on: bool) -> None:
    """Switches workgroup variables to (or back from) their access-reporting classes. Only
    instrumented runs pay for Python-level indexing; atomic variables report through atomics."""
    for v in variables:
        table = _TRACED if on else _UNTRACED
        if type(v) in table:
            v.__class__ = table[type(v)]
        if not on:
            v._run = v._fast = None


_BOUND_MATRICES: dict[type, type] = {}


def _bound_matrix(var: np.ndarray, value: Any) -> Any:
    """The matrix ``value`` loaded from the (C, R) variable ``var``, whose column assignments
    (``m.value[c] = v``) and component assignments (``m.value[c].x = s``) store into ``var``,
    as WGSL's ``m[c] = v`` does."""
    t = var.wgsl_type
    cls = _BOUND_MATRICES.get(t)
    if cls is None:
        def __setitem__(self: Any, i: Any, v: Any) -> None:
            t.__setitem__(self, i, v)  # (checks the index, converts the column)
            home = getattr(self, "_var", None)
            if home is not None:  # (else a matrix made from this class: a plain value)
                c = int(i)
                home[c] = tuple(self._c[c])
                self._c[c] = bound_vector(t.column, home, c, self._c[c])

        cls = _BOUND_MATRICES[t] = type(t.__name__, (t,), {
            "__slots__": ("_var",), "__setitem__": __setitem__, "__module__": __name__,
            "__doc__": f"A {t.__name__} loaded from a workgroup variable: assigning a column "
                       "or a column's component stores it there."})
    m = cls._of([bound_vector(t.column, var, c, col) for c, col in enumerate(value._c)])
    m._var = var
    return m


def _read_whole(var: np.ndarray) -> Any:
    t = var.wgsl_type
    raw = var.view(np.ndarray)[()]
    if isinstance(t, type) and issubclass(t, Vec):
        return t(*raw.tolist()) if t.kind == "b" else t._make(*[t.scalar(c) for c in raw])
    if isinstance(t, type) and issubclass(t, Matrix):
        return t(raw)
    if isinstance(raw, np.ndarray):
        return np.array(raw)  # arrays: a copy, as a WGSL load of the whole array
    return bool(raw) if raw.dtype == np.bool_ else raw


def _layout(t: Any) -> tuple[tuple[int, ...], np.dtype, type, Any]:
    """(shape, dtype, ndarray subclass, vector type or None) for a WGSL type descriptor."""
    if isinstance(t, AtomicType):
        return (), t.scalar.dtype, WorkgroupAtomic, None
    if is_struct(t):
        return (), t.dtype, WorkgroupStruct, None
    if isinstance(t, ArrayType) and is_struct(t.element):
        return (t.length,), t.element.dtype, WorkgroupStruct, None
    if isinstance(t, _ScalarType) or t in (bool, int, float):
        scalar = {bool: "bool_", int: "i32", float: "f32"}.get(t)
        if scalar is not None:
            raise TypeError(f"workgroup({t.__name__}): use the WGSL type asyncshader.{scalar}")
        return (), t.dtype, WorkgroupVar, None
    if isinstance(t, type) and issubclass(t, Vec):
        return (t.size,), t.scalar.dtype, WorkgroupVar, None
    if isinstance(t, type) and issubclass(t, Matrix):  # (C, R): var[c] is column c, a vector
        return t.shape, t.dtype, _vec_array_class(t.column), t.column
    if isinstance(t, ArrayType):
        shape, dtype, cls, vec = _layout(t.element)
        if isinstance(t.element, type) and issubclass(t.element, Vec):
            return (t.length, *shape), dtype, _vec_array_class(t.element), t.element
        if isinstance(t.element, type) and issubclass(t.element, Matrix):
            return (t.length, *shape), dtype, WorkgroupVar, None  # (tiles[i][c]: a row)
        if vec is not None and isinstance(t.element, ArrayType):  # (rows of vectors)
            return (t.length, *shape), dtype, cls, vec
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
    shape, dtype, cls, _ = _layout(wgsl_type)
    var = np.zeros(shape, dtype).view(cls)
    var.wgsl_type = wgsl_type
    if cls is WorkgroupStruct:
        var._struct = struct_of(dtype)
    return var


class FunctionVar:
    """A function-scope variable whose address the function takes (``ash.ptr(x)``, WGSL's
    ``&x``, a ``ptr<function, T>``): the rewrite of the shader's source
    (:mod:`asyncshader.wgsl.function_ptrs`) keeps ``x`` in one of these, so that a helper
    writing through the pointer changes the caller's ``x``."""

    __slots__ = ("value",)

    def __init__(self, value: Any = None) -> None:
        self.value = value

    def __repr__(self) -> str:
        return f"<function variable = {self.value!r}>"


class Ptr:
    """A pointer: to one element of a buffer or workgroup array (WGSL ``&buf[i]``), to a
    workgroup variable or an atomic struct member, or to a function-scope variable of the
    caller (``ptr<function, T>``), whose ``.value`` is WGSL's ``*p``."""

    __slots__ = ("index", "memory")

    def __init__(self, memory: Any, index: Any = ()) -> None:
        self.memory = memory
        self.index = index

    @property
    def value(self) -> Any:
        """WGSL ``*p`` of a ``ptr<function, T>``: the variable's value."""
        return _function_var(self).value

    @value.setter
    def value(self, v: Any) -> None:
        _function_var(self).value = v

    def __repr__(self) -> str:
        if self.memory.__class__ is FunctionVar:
            return f"ptr(<function variable = {self.memory.value!r}>)"
        return f"ptr({getattr(self.memory, 'var_name', 'buffer')}, {self.index!r})"


def _function_var(p: Ptr) -> FunctionVar:
    if p.memory.__class__ is FunctionVar:
        return p.memory
    raise TypeError(f"{p!r}.value: .value reads and writes through a pointer to a "
                    "function-scope variable (ash.ptr(x) of a local x, WGSL's ptr<function, "
                    "T>); this pointer is to memory or to a value (a parameter: WGSL takes no "
                    "address of one, copy it into a local first): index memory itself, or "
                    "pass it to an atomic or workgroup_uniform_load")


#: what a local may name that is memory, not a value: a pointer to such a local is to it
_MEMORY = (np.ndarray, StructView, ArrayRef, AtomicMember, _Ref)


def ptr(memory: Any, index: Any = ()) -> Ptr:
    """WGSL ``&memory[index]`` (or ``&memory`` without an index), for atomics and
    ``workgroup_uniform_load``; ``ptr(x)`` of a local variable ``x`` is ``&x``, a
    ``ptr<function, T>`` that a helper reads and writes as ``p.value`` (WGSL ``*p``)."""
    if memory.__class__ is FunctionVar and isinstance(memory.value, _MEMORY):
        memory = memory.value  # (a local naming a buffer or variable: point at that memory)
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
        mapping = _map_of(memory)
        if mapping is not None:  # a sub-array view: the element's place in the origin
            flat = np.asarray(mapping[index])
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
                np.copyto(v.view(np.ndarray), s, casting="no")
            self.saved = None
        slots = getattr(run, "module_slots", None)  # (module-scope bindings: the run's values)
        if slots is not None:
            slots.install()

    def save(self) -> None:
        self.saved = [np.array(v, copy=True).view(np.ndarray) for v in self.vars]
        slots = getattr(self.run, "module_slots", None)  # (the host may run: declarations)
        if slots is not None:
            slots.restore()

    def exit(self) -> None:
        self.closed = True
        self.saved = None
        slots = getattr(self.run, "module_slots", None)
        if slots is not None:
            slots.restore()


class MemoryTurn:
    """A run's turn at its workgroup variables: a context manager that holds a lock of each
    variable (in the order the variables were made, so that two runs sharing some never wait
    for each other crosswise). The arrays are module-level objects shared by every dispatch of
    every kernel that uses them, and a run's contents are in them while it runs, so runs in
    other threads (a ``ThreadPoolExecutor``, a Dask worker's threads) take turns: a
    synchronous run holds the turn from its first step to its last, an awaited one between
    its checkpoints (where it saves the contents). The locks are reentrant: a thread that
    holds the turn may enter it again."""

    __slots__ = ("locks",)

    def __init__(self, variables: list[WorkgroupVar], module_bindings: bool = False) -> None:
        held = dict(_lock_of(v) for v in variables)  # (one lock per variable, however named)
        if module_bindings:  # (the module globals a run swaps: one lock, always taken first)
            held[-1] = MODULE_BINDINGS_TURN
        self.locks = [held[k] for k in sorted(held)]

    def __enter__(self) -> None:
        for lock in self.locks:
            lock.acquire()

    def __exit__(self, *exc: Any) -> None:
        for lock in reversed(self.locks):
            lock.release()


_SERIALS = itertools.count()
_MAKING = threading.Lock()  # (two threads meeting a variable first make one lock for it)


def _lock_of(var: WorkgroupVar) -> tuple[int, threading.RLock]:
    """The variable's (serial number, lock), made on first use."""
    made = var.__dict__.get("_ash_turn")
    if made is None:
        with _MAKING:
            made = var.__dict__.get("_ash_turn")
            if made is None:
                made = var.__dict__["_ash_turn"] = (next(_SERIALS), threading.RLock())
    return made


def find_workgroup_vars(fn: Any) -> dict[str, WorkgroupVar]:
    """The workgroup variables ``fn`` (and the functions it calls) refer to by name."""
    return scan_kernel(fn)[0]


def scan_kernel(fn: Any, bindings: dict | None = None) -> tuple[dict[str, WorkgroupVar], set]:
    """What ``fn`` and the functions it calls refer to by name: workgroup variables (by name),
    and asyncshader operations (trap functions), like WGSL's "statically accessed". Given
    ``bindings``, also fills it with the module-scope bindings they use, by name, each with
    the places that refer to it (``(namespace, key)`` pairs and closure cells: what a run
    swaps, :mod:`asyncshader.wgsl.module_bindings`).

    WGSL forbids recursion: a function of the user's that refers to itself, directly or through
    other functions of the user's, raises :class:`~asyncshader.ShaderCreationError` naming each
    function of the cycle and the line where it calls the next (library code is not judged)."""
    found: dict[str, WorkgroupVar] = {}
    uses: set = set()
    seen: set[int] = set()  # code objects visited
    seen_functions: set[int] = set()  # function objects (one code, many closures) visited
    path: list[tuple[types.CodeType, str]] = []  # the functions being visited, by the name used

    def visit_code(code: types.CodeType, globs: dict) -> None:
        if id(code) in seen:
            return
        seen.add(id(code))
        for name in code.co_names:
            visit_value(name, globs.get(name), globs, code.co_names, (globs, name))
        for const in code.co_consts:
            if isinstance(const, types.CodeType):
                if const.co_name in const.co_freevars and _user_code(const):
                    # a nested def that refers to itself through its enclosing scope
                    raise _recursion([(const, const.co_name)], const.co_name)
                visit_code(const, globs)

    def visit_value(name: str, value: Any, globs: dict, names: tuple, place: Any = None
                    ) -> None:
        if place is not None:
            value = declared(place, value)  # (a running run's value: the declaration)
        if getattr(value, "__ash_trap__", False) is True:
            uses.add(value)
        elif isinstance(value, ModuleBinding):
            if bindings is not None and place is not None:
                module_binding(bindings, name, value, place)
        elif isinstance(value, WorkgroupVar):
            if value.var_name == WorkgroupVar.var_name:
                value.var_name = name
            found.setdefault(name, value)
        elif isinstance(value, types.FunctionType):
            visit_function(value, name)
        elif isinstance(value, types.ModuleType):
            for attr in names:  # module.attr accesses: co_names holds the attribute names too
                sub = declared((vars(value), attr), getattr(value, attr, None))
                if isinstance(sub, (WorkgroupVar, types.FunctionType, ModuleBinding)):
                    visit_value(attr, sub, vars(value), (), (vars(value), attr))
        elif hasattr(value, "__wrapped_kernel__"):  # a kernel object: not a call of its code
            visit_function(value.__wrapped_kernel__, name, call=False)

    def visit_function(f: types.FunctionType, name: str, call: bool = True) -> None:
        code = f.__code__
        on_path = [c for c, _ in path]
        if code in on_path:
            cycle = path[on_path.index(code):]
            if call and all(_user_code(c) for c, _ in cycle):
                raise _recursion(cycle, name)
            return
        if id(f) in seen_functions:
            return
        seen_functions.add(id(f))
        path.append((code, name))
        try:
            visit_code(code, f.__globals__)
            for var, cell in zip(code.co_freevars, f.__closure__ or ()):
                try:
                    value = cell.cell_contents
                except ValueError:  # an empty cell
                    continue
                visit_value(var, value, f.__globals__, (), cell)
        finally:
            path.pop()

    fn = getattr(fn, "__wrapped_kernel__", fn)
    visit_function(fn, fn.__name__)
    return found, uses


def _user_code(code: types.CodeType) -> bool:
    """Whether ``code`` is the user's (not the standard library's, an installed package's,
    asyncshader's own or generated or frozen code): only the user's functions are shader code
    that WGSL rules apply to."""
    return user_code(code.co_filename)


def _recursion(cycle: list[tuple[types.CodeType, str]], back: str) -> ShaderCreationError:
    """The error for functions that call one another in a cycle: ``cycle`` lists each with
    the name it was reached by, ``back`` is the name by which the last refers to the first."""
    links = []
    for i, (code, _) in enumerate(cycle):
        callee = cycle[i + 1][1] if i + 1 < len(cycle) else back
        file, line = code.co_filename, _line_of(code, callee)
        text = linecache.getline(file, line).strip()
        links.append(f"{code.co_name}() at {file}:{line} calls "
                     + ("itself" if callee == code.co_name and len(cycle) == 1 else f"{callee}()")
                     + (f" (`{text}`)" if text else ""))
    first = cycle[0][0]
    return ShaderCreationError(
        f"{'; '.join(links)}: WGSL forbids recursion (a function may not call itself, directly "
        f"or through other functions), so {first.co_name}() cannot be shader code. Rewrite it "
        "as a loop (with a fixed-size array as the stack if it needs one).")


def _line_of(code: types.CodeType, name: str) -> int:
    """The first line where ``code`` (or code nested in it) loads ``name``; its ``def`` line if
    none is found."""
    for inst in dis.get_instructions(code):
        if inst.opname.startswith("LOAD_") and inst.argval == name and inst.positions.lineno:
            return inst.positions.lineno
    for const in code.co_consts:
        if isinstance(const, types.CodeType):
            line = _line_of(const, name)
            if line != const.co_firstlineno:
                return line
    return code.co_firstlineno
