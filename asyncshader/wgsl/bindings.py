"""Resources bound to a dispatch by keyword: storage buffers and uniforms.

* A numpy array bound to a parameter annotated :class:`Storage` (or not annotated) is a
  ``var<storage, read_write>`` buffer: the shader reads and writes the caller's array in place.
  Element types are WGSL's: float32, float16 (``array<f16>``), int32 or uint32 (``Storage[u32]``
  also checks the dtype). ``Storage[vec3f]`` (``ReadOnly[vec4h]``, ...) is ``array<vec3f>``:
  an (n, 3) float32 array whose ``buf[i]`` is a ``vec3f`` (:mod:`asyncshader.wgsl.vec_arrays`);
  an array bound without a vector element keeps numpy's rows.
* A parameter annotated :class:`ReadOnly` (``ReadOnly[f32]``) is a ``var<storage, read>``
  buffer: the caller's array, writeable or not, seen through a read-only view (never copied)
  that refuses stores (:mod:`asyncshader.wgsl.readonly`).
* A texture or sampler parameter (``Texture2D[f32]``, ``StorageTexture2D["r32float"]``,
  ``Sampler``, ...) takes an ``ash.Texture``, a view of one or an ``ash.Sampler``
  (:mod:`asyncshader.wgsl.textures.annotations`). An unannotated array that is itself
  read-only (``arr.flags.writeable`` False: ``np.broadcast_to``, a read-only memory map) binds
  the same way: it is what the caller said the buffer is, and a copy into a uniform would cost
  its size and lose its identity.
* A parameter annotated :class:`Uniform`, a scalar, vector or matrix type is a ``var<uniform>``:
  plain values are converted to the annotated type; arrays become read-only copies.
"""

from __future__ import annotations

import difflib
import inspect
from dataclasses import dataclass
from typing import Any

import numpy as np

from ..errors import BindingError
from .layout import check_uniform, not_shareable
from .matrices import Matrix
from .readonly import ReadOnlyStorage, read_only_view
from .struct_buffers import as_struct_binding, write_value
from .structs import is_struct, struct_of
from .textures.annotations import bind_texture, is_texture_binding
from .types import ArrayType, AtomicType, Vec, _ScalarType, _type_name, f16, f32, i32, u32
from .vec_arrays import vector_view

_STORAGE_DTYPES = (np.dtype(np.float32), np.dtype(np.int32), np.dtype(np.uint32),
                   np.dtype(np.float16))


@dataclass(frozen=True)
class BindingPoint:
    """Where a resource sits in WGSL: ``@group(group) @binding(binding)`` (:func:`at`)."""

    group: int
    binding: int

    def __repr__(self) -> str:
        return f"at(group={self.group}, binding={self.binding})"


def at(group: int, binding: int) -> BindingPoint:
    """A resource's WGSL ``@group(group) @binding(binding)``, written in its annotation:
    ``inp: ash.Storage[f32, ash.at(group=1, binding=3)]``, ``k: ash.Uniform[u32, ash.at(0,
    2)]``, ``buf: ash.Storage[ash.at(1, 0)]`` (docs/to-gpu.md). A resource without one takes
    ``@group(0) @binding(k)``, ``k`` its parameter's position."""
    for what, v in (("group", group), ("binding", binding)):
        if not isinstance(v, int) or isinstance(v, bool) or v < 0:
            raise TypeError(f"ash.at(group=..., binding=...) takes non-negative ints; {what} "
                            f"is {v!r}")
    return BindingPoint(group, binding)


class _Marker(type):
    def __getitem__(cls, item: Any) -> Any:
        items = item if isinstance(item, tuple) else (item,)
        points = [i for i in items if isinstance(i, BindingPoint)]
        rest = [i for i in items if not isinstance(i, BindingPoint)]
        if len(points) > 1 or len(rest) > 1 or (points and not hasattr(cls, "point")):
            raise TypeError(f"{cls.__name__}[...] takes an element type"
                            + (" and one ash.at(group, binding)" if hasattr(cls, "point") else
                               " (a fragment input has a @location, not a binding point)")
                            + f", not {item!r}")
        attrs = {"element": _wgsl_element(cls, rest[0]) if rest else getattr(cls, "element",
                                                                          None)}
        why = not_shareable(attrs["element"]) if hasattr(cls, "point") else ""
        if why:  # (a storage buffer or uniform holds host-shareable types only)
            raise TypeError(f"{cls.__name__}[{_type_name(attrs['element'])}]: {why}; a struct "
                            "holding a bool lives in function, private or workgroup memory")
        if points:
            attrs["point"] = points[0]
        return type(cls.__name__, (cls,), attrs)

    def __repr__(cls) -> str:
        element = getattr(cls, "element", None)
        shown = [getattr(element, "__name__", repr(element))] if element is not None else []
        shown += [repr(cls.point)] if getattr(cls, "point", None) is not None else []
        return cls.__name__ + (f"[{', '.join(shown)}]" if shown else "")


#: numpy's scalar types that are WGSL's (``Storage[np.float32]`` means ``Storage[f32]``)
_NUMPY_SCALARS = {t.numpy_type: t for t in (f32, f16, i32, u32)}


def _wgsl_element(cls: type, element: Any) -> Any:
    """An annotation's element type: a numpy scalar type stands for its WGSL scalar; one WGSL
    has not (float64, int64 ...) is a TypeError with the fix."""
    if isinstance(element, type) and issubclass(element, np.generic):
        if element in _NUMPY_SCALARS:
            return _NUMPY_SCALARS[element]
        raise TypeError(f"{cls.__name__}[np.{element.__name__}]: WGSL has no {element.__name__} "
                        "(storage holds f32, f16, i32 and u32); annotate "
                        f"{cls.__name__}[ash.f32] (or i32, u32, f16) and pass an array of it")
    return element


class Storage(metaclass=_Marker):
    """Annotation for a storage buffer parameter (``var<storage, read_write>``): a numpy array of
    float32, float16, int32 or uint32, written in place. ``Storage[f32]`` also checks the element
    type; ``Storage[vec3f]`` declares an ``array<vec3f>``, an (n, 3) array whose ``buf[i]`` is a
    ``vec3f``. For WGSL's ``var<storage, read>`` annotate :class:`ReadOnly`."""

    element: Any = None
    point: BindingPoint | None = None
    access = "read_write"


class ReadOnly(Storage):
    """Annotation for a read-only storage buffer parameter (WGSL ``var<storage, read>``): a numpy
    array of float32, float16, int32 or uint32, writeable or not, that the shader sees without a
    copy and cannot write (a store is an error at its line). ``ReadOnly[f32]`` also checks the
    element type. An unannotated read-only array binds this way too."""

    access = "read"


class Input(metaclass=_Marker):
    """Annotation for a per-pixel fragment input (WGSL ``@location``): a numpy array shaped
    (height, width) or (height, width, n), or a callable ``(x, y) -> value``."""

    element: Any = None


class Uniform(metaclass=_Marker):
    """Annotation for a uniform parameter (``var<uniform>``): any value, read-only."""

    element: Any = None
    point: BindingPoint | None = None


def explicit_points(kernel: str, params: dict[str, inspect.Parameter]) -> dict[str, Any]:
    """The binding points the parameters' annotations give (``ash.at(...)``), by name; two
    parameters at one point are a TypeError naming both (WGSL refuses the module)."""
    found: dict[str, Any] = {}
    for name, p in params.items():
        point = getattr(p.annotation, "point", None)
        if point is None:
            continue
        other = next((n for n, q in found.items() if q == point), None)
        if other is not None:
            raise TypeError(f"{kernel}: {other!r} and {name!r} are both at @group({point.group})"
                            f" @binding({point.binding}); WGSL gives each resource its own. "
                            f"Fix: move one, e.g. ash.at({point.group}, {point.binding + 1})")
        found[name] = point
    return found


def signature_params(fn: Any) -> dict[str, inspect.Parameter]:
    """The shader's parameters with string annotations (``from __future__ import annotations``)
    evaluated; an annotation that cannot be evaluated counts as absent."""
    try:
        return dict(inspect.signature(fn, eval_str=True).parameters)
    except Exception:
        params = dict(inspect.signature(fn).parameters)
        for name, p in params.items():
            if isinstance(p.annotation, str):
                try:
                    ann = eval(p.annotation, fn.__globals__)
                except Exception:
                    ann = inspect.Parameter.empty
                params[name] = p.replace(annotation=ann)
        return params


def _is(annotation: Any, marker: type) -> bool:
    return isinstance(annotation, type) and issubclass(annotation, marker)


def bind_resources(kernel_name: str, params: dict[str, inspect.Parameter],
                   builtins: set[str], given: dict[str, Any],
                   extra_hint: str = "") -> dict[str, Any]:
    """Checks ``given`` against the kernel's parameters; returns the values to pass."""
    resources = {n: p for n, p in params.items() if n not in builtins}
    listing = _listing(kernel_name, params, builtins)
    unknown = [n for n in given if n not in resources]
    if unknown:
        n = unknown[0]
        close = difflib.get_close_matches(n, list(params), n=1)
        hint = f" Did you mean {close[0]!r}?" if close else ""
        if n in builtins:
            hint = f" {n!r} is a builtin: the dispatch provides it, do not bind it."
        raise BindingError(f"unknown binding {n!r} for {kernel_name}.{hint}\n{listing}")
    out: dict[str, Any] = {}
    for name, p in resources.items():
        if name not in given:
            if p.default is not inspect.Parameter.empty:
                continue
            raise BindingError(f"missing binding {name!r} for {kernel_name}: pass "
                               f"{name}=<numpy array or value> to the dispatch.{extra_hint}"
                               f"\n{listing}")
        out[name] = _convert(kernel_name, name, p.annotation, given[name])
    refuse_writable_aliasing(kernel_name, out)
    return out


def refuse_writable_aliasing(kernel_name: str, bindings: dict[str, Any]) -> None:
    """Raises BindingError when two storage buffers (writable arrays) of one dispatch share
    memory: ``x=arr[0:4], y=arr[2:6]``, or one array bound twice. WGSL forbids writable
    aliasing within a dispatch's bind groups, and the race detector, which tells memory objects
    apart by binding, would miss a race through the two names. Uniform arrays are read-only
    copies, and two read-only storage buffers may share memory (read-only aliasing is allowed);
    a read-only buffer over memory a writable one also binds is refused."""
    storage = [(name, v) for name, v in bindings.items()
               if isinstance(v, np.ndarray) and (v.flags.writeable or isinstance(
                   v, ReadOnlyStorage) or getattr(v, "read_only_binding", ""))]
    for i, (name_a, a) in enumerate(storage):
        for name_b, b in storage[i + 1:]:
            if not (a.flags.writeable or b.flags.writeable):
                continue  # two read-only buffers may alias (WGSL: only writable aliasing)
            if not np.may_share_memory(a, b):
                continue
            try:
                overlap = np.shares_memory(a, b, max_work=100_000)
            except np.exceptions.TooHardError:
                overlap = True  # cannot be told apart cheaply: refuse rather than guess
            if overlap:
                read_only = next((n for n, v in ((name_a, a), (name_b, b))
                                  if not v.flags.writeable), None)
                detail = (f"; {read_only!r} is read-only, but the other one writes that memory"
                          if read_only else "")
                raise BindingError(
                    f"{kernel_name}: storage bindings {name_a!r} and {name_b!r} share memory "
                    f"(views of one array that overlap, or one array bound twice{detail}). WGSL "
                    "forbids writable aliasing between the buffers of one dispatch, and a race "
                    "through the two names would go unseen. Fix: bind one array and index into "
                    f"it (one parameter, offsets as a uniform); or, if {name_b!r} is only read, "
                    f"declare it Uniform (a read-only copy) or pass {name_b}=<view>.copy().")


def _convert(kernel: str, name: str, ann: Any, value: Any) -> Any:
    if is_texture_binding(ann, value):
        return bind_texture(kernel, name, ann, value)
    if ann is inspect.Parameter.empty:
        ann = Storage if isinstance(value, np.ndarray) else Uniform
        if isinstance(value, np.ndarray) and not value.flags.writeable:
            ann = ReadOnly  # the caller's read-only array: var<storage, read>
    if _is(ann, Storage) and ann.access == "read":
        if isinstance(value, np.ndarray) and value.dtype.names is not None:  # structs.py
            return _struct_storage(kernel, name, ann.element, value, read_only=True)
        return _read_only_storage(kernel, name, ann, value)
    if _is(ann, Storage):
        if isinstance(value, np.ndarray) and value.dtype.names is not None:  # structs.py
            return _struct_storage(kernel, name, ann.element, value)
        _check_storage_array(kernel, name, ann, value)
        if isinstance(ann.element, AtomicType):
            return _atomic_storage(kernel, name, ann, value)
        if isinstance(ann.element, type) and issubclass(ann.element, Matrix):
            _check_matrix_buffer(kernel, name, ann.element, value)
        if not value.flags.writeable:
            raise BindingError(f"{kernel}: storage buffer {name!r} is declared Storage "
                               "(var<storage, read_write>) but the array is read-only; pass a "
                               "writeable array, or declare the parameter ash.ReadOnly "
                               "(var<storage, read>) if the shader only reads it")
        return value
    if _is(ann, Uniform) and ann.element is not None:
        ann = ann.element
    if is_struct(ann) or (isinstance(value, np.ndarray) and value.dtype.names is not None) \
            or is_struct(type(value)):
        return _struct_uniform(kernel, name, ann, value)
    if isinstance(ann, _ScalarType):
        try:
            return ann(value)
        except (TypeError, ValueError) as exc:
            raise BindingError(f"{kernel}: uniform {name!r} is {ann!r}; cannot convert "
                               f"{value!r}: {exc}") from None
    if isinstance(ann, type) and issubclass(ann, Matrix):
        try:
            return ann(value)  # (a copy: the shader cannot change the caller's matrix)
        except TypeError as exc:
            raise BindingError(f"{kernel}: uniform {name!r} is {ann.__name__}: {exc}") from None
    if isinstance(ann, type) and issubclass(ann, Vec):
        try:
            return ann(value) if not isinstance(value, ann) else value
        except TypeError as exc:
            raise BindingError(f"{kernel}: uniform {name!r} is {ann.__name__}: {exc}") from None
    if isinstance(value, np.ndarray):
        value = value.copy()
        value.flags.writeable = False
        if isinstance(ann, ArrayType) and isinstance(ann.element, type) and \
                issubclass(ann.element, Vec) and value.ndim == 2:
            return vector_view(value, ann.element)  # (u[i] is a vector, as in storage)
    return value


def _struct_storage(kernel: str, name: str, element: Any, value: np.ndarray,
                    read_only: bool = False) -> Any:
    """A struct buffer bound as ``var<storage, read_write>``: a StructArray view; with
    ``read_only`` (``ReadOnly[Particle]``: ``var<storage, read>``) a non-writeable view of the
    caller's array (no copy), whose stores are refused naming the binding."""
    cls = struct_of(value.dtype)
    if cls is None:
        raise BindingError(f"{kernel}: binding {name!r} is a structured array whose dtype is not "
                           "an @ash.struct's: make it with Particle.zeros(n) or "
                           "np.zeros(n, Particle.dtype)")
    if element is not None and element is not cls:
        raise BindingError(f"{kernel}: binding {name!r} is declared Storage[{element!r}] but "
                           f"holds {cls.__name__} structs")
    if not_shareable(cls):
        raise BindingError(f"{kernel}: binding {name!r}: {not_shareable(cls)}; a buffer holds "
                           "host-shareable types only")
    if not value.flags.writeable and not read_only:
        raise BindingError(f"{kernel}: storage buffer {name!r} is read-only; pass a writeable "
                           "array or declare the parameter ash.ReadOnly (var<storage, read>)")
    try:
        view = as_struct_binding(value)
        if read_only:
            view = view.view(type(view))
            view.flags.writeable = False
            view.read_only_binding = name
        view.block()  # (a strided view is refused here, before the dispatch)
    except TypeError as exc:
        raise BindingError(f"{kernel}: binding {name!r}: {exc}") from None
    return view


def _struct_uniform(kernel: str, name: str, ann: Any, value: Any) -> Any:
    """A struct bound as ``var<uniform>``: checked against the uniform address space's layout
    rules; the shader gets a read-only copy."""
    t = uniform_layout_type(None, value)
    cls = t.element if isinstance(t, ArrayType) else t
    if cls is None or (is_struct(ann) and ann is not cls):
        raise BindingError(f"{kernel}: uniform {name!r} is declared {_ann(ann)}; pass a "
                           f"{_ann(ann)} value or {_ann(ann)}.zeros()/zeros(n), not "
                           f"{type(value).__name__}")
    if not_shareable(t):
        raise BindingError(f"{kernel}: uniform {name!r}: {not_shareable(t)}; a uniform holds "
                           "host-shareable types only")
    try:
        check_uniform(t, f"{kernel}: uniform {name!r}")
    except TypeError as exc:
        raise BindingError(str(exc)) from None
    if isinstance(value, np.ndarray):
        copy = value.copy()
    else:  # a struct value: its bytes, so that the shader reads it as WGSL lays it out
        copy = cls.zeros()
        write_value(copy, value)
    copy.flags.writeable = False
    return as_struct_binding(copy).shader_arg()


def uniform_layout_type(cls: Any, value: Any) -> Any:
    """The type a struct bound as ``var<uniform>`` is laid out as (for :func:`check_uniform`):
    the struct class ``value`` holds (a structured array's, a struct value's), else ``cls``
    (an annotation's); an array of it where ``value`` is an array of structs. None where
    neither names an ``@ash.struct``."""
    if isinstance(value, np.ndarray) and value.dtype.names:
        cls = struct_of(value.dtype) or cls
    elif is_struct(type(value)):
        cls = type(value)
    if not is_struct(cls):
        return None
    return ArrayType(cls, len(value)) if isinstance(value, np.ndarray) and value.ndim else cls


def _check_storage_array(kernel: str, name: str, ann: Any, value: Any) -> None:
    """A storage binding's value: a numpy array of a WGSL storage element type (the annotated
    one, if any)."""
    if not isinstance(value, np.ndarray):
        raise BindingError(f"{kernel}: binding {name!r} is a storage buffer and needs a "
                           f"numpy array, got {type(value).__name__}")
    if value.dtype not in _STORAGE_DTYPES:
        fix = {"f": "np.float32", "i": "np.int32", "u": "np.uint32", "b": "np.uint32"}.get(
            value.dtype.kind, "np.float32")
        raise BindingError(
            f"{kernel}: binding {name!r} is a {value.dtype} array; WGSL storage buffers hold "
            f"f32, f16, i32 or u32. Fix: pass {name}=arr.astype({fix}).")
    element = ann.element
    element = getattr(element, "scalar", element)  # (Storage[vec3f]: an (n, 3) f32 array)
    if element is not None and value.dtype != element.dtype:
        raise BindingError(f"{kernel}: binding {name!r} is declared {ann!r} but the array is "
                           f"{value.dtype}")
    vec = _vector_element(ann)
    if vec is not None and (value.ndim != 2 or value.shape[1] != vec.size):
        raise BindingError(f"{kernel}: binding {name!r} is declared {ann!r}, so it needs an "
                           f"array of shape (n, {vec.size}) (a[i] is vector i, WGSL's "
                           f"array<{vec.__name__}>), not {value.shape}. Fix: pass "
                           f"{name}=arr.reshape(-1, {vec.size}), or declare the element type "
                           "the array holds.")


class AtomicVariable(np.ndarray):
    """A storage buffer declared one atomic (``Storage[atomic(u32)]``, WGSL's ``var<storage,
    read_write> c: atomic<u32>``): a 0-d view of the caller's array that only the atomic
    built-ins touch (``await atomic_add(ptr(c), 1)``), as WGSL allows nothing else on it."""

    def shader_arg(self, run: Any = None) -> AtomicVariable:
        """What the shader is given, watched or not: this view (its atomics report
        themselves)."""
        return self

    def __getitem__(self, index: Any) -> Any:
        raise TypeError("this storage buffer is one atomic<T>: read it with "
                        "`await ash.atomic_load(ash.ptr(c))`, as WGSL allows only the atomic "
                        "built-ins on atomic<T>")

    def __setitem__(self, index: Any, value: Any) -> None:
        raise TypeError("this storage buffer is one atomic<T>: write it with "
                        "`await ash.atomic_store(ash.ptr(c), v)`, as WGSL allows only the "
                        "atomic built-ins on atomic<T>")


def _atomic_storage(kernel: str, name: str, ann: Any, value: np.ndarray) -> AtomicVariable:
    """``Storage[atomic(u32)]``: ``var<storage, read_write> name: atomic<u32>``, one value (an
    array of shape () or (1,), seen as shape ())."""
    if value.size != 1 or value.ndim > 1:
        raise BindingError(f"{kernel}: binding {name!r} is declared {ann!r}, one atomic "
                           f"(WGSL's var<storage> {name}: {ann.element.scalar.wgsl}), so it "
                           f"needs an array of one element, not shape {value.shape}. Fix: pass "
                           f"np.zeros(1, np.{value.dtype}), or declare "
                           f"Storage[{ann.element.scalar.wgsl}] for an array atomics touch")
    if not value.flags.writeable:
        raise BindingError(f"{kernel}: binding {name!r} ({ann!r}) is a read-only array; "
                           "atomics write: pass a writeable array")
    return value.reshape(()).view(AtomicVariable)


def _vector_element(ann: Any) -> Any:
    """The vector type a storage annotation declares its elements to be (``Storage[vec3f]``,
    ``ReadOnly[vec4h]``), or None."""
    element = getattr(ann, "element", None)
    return element if isinstance(element, type) and issubclass(element, Vec) else None


def vector_elements(params: dict[str, inspect.Parameter]) -> dict[str, Any]:
    """The storage parameters declared with a vector element, by name, with their vector type:
    their (n, N) arrays load a vector for ``buf[i]`` (:mod:`asyncshader.wgsl.vec_arrays`).
    Arrays bound without one (a bare ``Storage``, no annotation) keep numpy's rows."""
    found = {}
    for name, p in params.items():
        vec = _vector_element(p.annotation) if _is(p.annotation, Storage) else None
        if vec is not None:
            found[name] = vec
    return found


def _read_only_storage(kernel: str, name: str, ann: Any, value: Any) -> ReadOnlyStorage:
    """A ``var<storage, read>`` binding: ``value`` (a numpy array of a storage element type)
    as a read-only view of the same memory, named for the shader's messages."""
    _check_storage_array(kernel, name, ann, value)
    vec = _vector_element(ann)
    if isinstance(value, ReadOnlyStorage) and value.binding == name \
            and getattr(value, "vec_type", None) is vec:
        return value
    return read_only_view(value, name, kernel, vec)


def _check_matrix_buffer(kernel: str, name: str, m: type[Matrix], value: np.ndarray) -> None:
    """A ``Storage[matCxR]`` buffer is an array of shape (n, C, R) (or (C, R) for one)."""
    if value.shape[-2:] == m.shape and value.ndim in (2, 3):
        return
    pad = ""
    if m.rows == 3 and value.shape[-2:] == (m.cols, 4):
        pad = (f" The array has WGSL's padded byte layout (each column of a 3-row matrix "
               f"takes 16 bytes); asyncshader's arrays hold the values only: pass "
               f"{name}=arr[..., :3].copy(), and pad again for a GPU.")
    raise BindingError(f"{kernel}: binding {name!r} is declared Storage[{m.__name__}], so it "
                       f"needs an array of shape (n, {m.cols}, {m.rows}) (a[i, c, r] is row r "
                       f"of column c of matrix i), not {value.shape}.{pad}")


def _listing(kernel: str, params: dict[str, inspect.Parameter], builtins: set[str]) -> str:
    res = [f"{n}: {_ann(p.annotation)}" for n, p in params.items() if n not in builtins]
    bis = [n for n in params if n in builtins]
    return (f"{kernel} takes resources ({', '.join(res) or 'none'}) and builtins "
            f"({', '.join(bis) or 'none'}).")


def _ann(a: Any) -> str:
    if a is inspect.Parameter.empty:
        return "any"
    return repr(a) if isinstance(a, type) and isinstance(a, _Marker) else getattr(
        a, "__name__", repr(a))
