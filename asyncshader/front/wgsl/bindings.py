"""Buffers as bytes, as a GPU sees them: any numpy array bound to a loaded WGSL module's
buffer (``uint8``, ``float32``, a structured dtype: C-contiguous) is viewed through the
binding's WGSL type and memory layout (WGSL § Memory Layout), without a copy, so that the
shader's stores land in the caller's memory and one array can be handed to lavapipe and to
asyncshader alike.

:func:`view_binding` makes the view, in the form the runtime binds for the generated
declaration (``array<f32>``: a 1-d float32 array; ``array<vec3f>``: an (n, 3) float32 view
whose rows are 16 bytes apart; ``array<Particle>``: a structured array of the struct class's
dtype; a uniform struct: a 0-d structured array). :func:`resolve_bindings` turns what a run
of an entry point is given (WGSL variable names and ``bindings={(group, binding): array}``)
into views by name, with errors naming the binding, its WGSL type, the size it needs and the
size given. The WebGPU device calls :func:`view_binding` on ``uint8`` views of its buffers.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import numpy as np

from ...errors import BindingError
from ...ir.layout import align_of, size_of, stride_of, struct_layout
from ...ir.types import Array, Atomic, Matrix, Scalar, Struct, Vector
from .handles import check_handle
from .reflect import EntryPoint, Resource

_HANDLE_KIND = {"sampler": "Sampler", "comparison_sampler": "Sampler"}

__all__ = ["describe_resource", "resolve_bindings", "view_binding"]

_DTYPES = {"f32": np.float32, "f16": np.float16, "i32": np.int32, "u32": np.uint32}


def describe_resource(r: Resource) -> str:
    """``@group(0) @binding(1) var<storage, read_write> out: array<f32>``."""
    space = f"<storage, {r.access}>" if r.kind == "storage" else f"<{r.kind}>" \
        if r.kind == "uniform" else ""  # (a texture or sampler: the handle space, unwritten)
    return (f"@group({r.group}) @binding({r.binding}) var{space} {r.name}: "
            f"{getattr(r.type, 'wgsl', r.type)}")


def _runtime_offset(r: Resource) -> int | None:
    """Where the runtime-sized array of ``r`` starts (None: its size is fixed)."""
    if r.stride is None:
        return None
    return 0 if isinstance(r.type, Array) else struct_layout(r.type).members[-1].offset


def _needs(r: Resource) -> str:
    offset = _runtime_offset(r)
    if offset is None:
        return f"{r.min_size} bytes"
    if offset == 0:
        return f"a multiple of {r.stride} bytes, at least {r.min_size}"
    return f"{offset} bytes plus a multiple of {r.stride}, at least {r.min_size}"


def _given(array: np.ndarray) -> str:
    return f"{array.nbytes} bytes (an array of shape {array.shape}, {array.dtype})"


def _element(t: Any, structs: Mapping[str, Any], r: Resource
             ) -> tuple[np.dtype, tuple[int, ...], tuple[int, ...]]:
    """The dtype, shape and strides (in bytes) of one value of type ``t`` laid out in
    memory (a struct: its class's structured dtype, shape ())."""
    if isinstance(t, Atomic):
        t = t.scalar
    if isinstance(t, Scalar) and t.name in _DTYPES:
        return np.dtype(_DTYPES[t.name]), (), ()
    if isinstance(t, Vector) and t.scalar.name in _DTYPES:
        dtype = np.dtype(_DTYPES[t.scalar.name])
        return dtype, (t.size,), (dtype.itemsize,)
    if isinstance(t, Matrix):  # (columns of R components, each column aligned as a vecR)
        dtype = np.dtype(_DTYPES[t.scalar.name])
        return dtype, (t.cols, t.rows), (align_of(Vector(t.rows, t.scalar)), dtype.itemsize)
    if isinstance(t, Array) and isinstance(t.length, int):
        dtype, shape, strides = _element(t.element, structs, r)
        return dtype, (t.length, *shape), (stride_of(t.element), *strides)
    if isinstance(t, Struct):
        cls = structs.get(t.name)
        dtype = getattr(cls, "dtype", None)
        if dtype is None or dtype.itemsize != size_of(t):
            raise BindingError(f"binding {r.name!r} ({describe_resource(r)}): no struct class "
                               f"for {t.name} with its WGSL size {size_of(t)} (pass the "
                               "module's structs to view_binding)")
        return dtype, (), ()
    raise BindingError(f"binding {r.name!r} ({describe_resource(r)}): the type "
                       f"{getattr(t, 'wgsl', t)} is not host-shareable: no buffer holds it")


def _bytes(r: Resource, array: Any) -> np.ndarray:
    """The caller's array as its bytes (a flat uint8 view of the same memory)."""
    if not isinstance(array, np.ndarray):
        raise BindingError(f"binding {r.name!r} ({describe_resource(r)}) needs a numpy array "
                           f"of {_needs(r)}, not {type(array).__name__}")
    if not array.flags.c_contiguous:
        raise BindingError(f"binding {r.name!r} ({describe_resource(r)}): the array (shape "
                           f"{array.shape}, {array.dtype}) is a strided view, not bytes in a "
                           f"row; a buffer is {_needs(r)} in a row. Fix: pass "
                           "np.ascontiguousarray(a) and read the results from it")
    flat = array.reshape(-1) if array.ndim != 1 else array
    return flat.view(np.uint8)


def _check_unpadded(r: Resource, array: np.ndarray, element: Any) -> None:
    """An array holding one element per row, without the padding WGSL's layout puts between
    them (an (n, 3) float32 array for ``array<vec3f>``, whose stride is 16), is refused: its
    bytes are not the buffer's, and viewing them so would silently mix the rows."""
    if isinstance(element, Struct):
        return
    dtype, shape, strides = _element(element, {}, r)
    if not shape or array.dtype != dtype or array.shape[1:] != shape:
        return
    packed = int(np.prod(shape)) * dtype.itemsize
    stride = stride_of(element)
    if packed != stride:
        # (the padded array: a vector's row, or each column of a matrix, padded)
        padded = (stride // dtype.itemsize,) if len(shape) == 1 else \
            (shape[0], strides[0] // dtype.itemsize)
        used = "a[:, " + ":, " * (len(shape) - 1) + f":{shape[-1]}]"
        raise BindingError(
            f"binding {r.name!r} ({describe_resource(r)}): the array of shape {array.shape} "
            f"holds {element.wgsl} values {packed} bytes apart, but in a buffer they are "
            f"{stride} bytes apart (WGSL's layout pads each one). Fix: pass the buffer's "
            f"bytes, e.g. a = np.zeros({(array.shape[0], *padded)}, np.{dtype}) and use "
            f"{used} for the values")


def view_binding(resource: Resource, array: np.ndarray,
                 structs: Mapping[str, Any] | None = None) -> np.ndarray:
    """``array``'s memory (any C-contiguous numpy array: its bytes are the buffer) viewed as
    the runtime binds ``resource`` (a :class:`~.reflect.Resource` of a module's reflection),
    without a copy: a runtime-sized ``array<E>`` as shape (n, \\*E's shape) with WGSL's
    element stride (n from the size), a fixed-size type as its shape (a struct: a 0-d array of
    its class's dtype), a scalar, vector or matrix in a storage buffer as an array of one.
    ``structs`` maps the module's struct names to their classes (``module.namespace``),
    needed where the type holds a struct. A size below the binding's least size, or one that
    does not end on an element of a runtime-sized array, is a BindingError naming the
    binding, its WGSL type, the size needed and the size given. Only the leading bytes of a
    larger buffer are seen, as WebGPU binds them."""
    structs = structs or {}
    t = resource.type
    if resource.min_size is None:
        raise BindingError(f"binding {resource.name!r} ({describe_resource(resource)}) is a "
                           f"{resource.kind}, not a buffer")
    if isinstance(array, np.ndarray) and isinstance(t, Array) and t.length is None:
        _check_unpadded(resource, array, t.element)
    data = _bytes(resource, array)
    n_bytes = data.size
    size = resource.min_size
    runtime_offset = _runtime_offset(resource)
    if runtime_offset is not None:  # a runtime-sized array, alone or ending a struct
        if n_bytes < resource.min_size or (n_bytes - runtime_offset) % resource.stride:
            raise BindingError(
                f"binding {resource.name!r} ({describe_resource(resource)}) needs "
                f"{_needs(resource)}; got {_given(array)}")
        size = n_bytes
    elif n_bytes < size:
        raise BindingError(f"binding {resource.name!r} ({describe_resource(resource)}) needs "
                           f"{size} bytes; got {_given(array)}")
    if runtime_offset is not None and isinstance(t, Struct):
        cls = structs.get(t.name)
        if not hasattr(cls, "dtype_for"):
            raise BindingError(f"binding {resource.name!r} ({describe_resource(resource)}): "
                               f"no struct class for {t.name} (pass the module's structs to "
                               "view_binding)")
        dtype = cls.dtype_for((n_bytes - runtime_offset) // resource.stride)
        return np.ndarray((), dtype, buffer=data, offset=0)
    if runtime_offset is not None:
        dtype, shape, strides = _element(t.element, structs, resource)
        n = n_bytes // resource.stride
        shape, strides = (n, *shape), (resource.stride, *strides)
    else:
        dtype, shape, strides = _element(t, structs, resource)
        if resource.kind == "storage" and isinstance(t, (Scalar, Vector, Matrix, Atomic)):
            shape, strides = (1, *shape), (size_of(t), *strides)  # (an array of one)
    return np.ndarray(shape, dtype, buffer=data[:size] if size != n_bytes else data,
                      offset=0, strides=strides)


def resolve_bindings(kernel: str, entry: EntryPoint, given: dict[str, Any],
                     structs: Mapping[str, Any]) -> dict[str, Any]:
    """What a run of the entry point ``entry`` binds by name, from ``given`` (a run's keyword
    bindings: resources by WGSL variable name, and ``bindings={(group, binding): value}``,
    each slot resolving to the variable the entry point uses there): each numpy array viewed
    through its binding's type (:func:`view_binding`), as is a ``bytes``, ``bytearray`` or
    ``memoryview`` (its bytes), other values (a uniform's Python value) as given. A missing
    binding, one the entry point does not use, or one given twice is a BindingError listing
    the entry point's bindings."""
    out = dict(given)
    slots = out.pop("bindings", None)
    resources = {r.name: r for r in entry.resources if r.min_size is not None}
    if slots is not None:
        if not isinstance(slots, Mapping):
            raise BindingError(f"{kernel}: bindings= takes a dict {{(group, binding): array}}, "
                               f"not {type(slots).__name__}\n{_listing(kernel, entry)}")
        for slot, value in slots.items():
            if not (isinstance(slot, tuple) and len(slot) == 2 and
                    all(isinstance(v, (int, np.integer)) for v in slot)):
                raise BindingError(f"{kernel}: bindings= is keyed by (group, binding), not "
                                   f"{slot!r}\n{_listing(kernel, entry)}")
            r = next((r for r in entry.resources if (r.group, r.binding) == tuple(slot)), None)
            if r is None:
                raise BindingError(f"{kernel}: bindings= gives @group({slot[0]}) "
                                   f"@binding({slot[1]}), which {entry.name} does not use"
                                   f"\n{_listing(kernel, entry)}")
            if r.name in out:
                raise BindingError(f"{kernel}: {describe_resource(r)} is given twice, by "
                                   f"name and by bindings=; give it once")
            out[r.name] = value
    for name in out:
        if name not in resources and not any(r.name == name for r in entry.resources):
            raise BindingError(f"{kernel}: {entry.name} uses no binding {name!r}\n"
                               f"{_listing(kernel, entry)}")
    for name, r in resources.items():
        if name not in out:
            raise BindingError(
                f"{kernel}: missing binding {name!r} ({describe_resource(r)}, "
                f"{_needs(r)}): pass {name}=<array> or bindings={{({r.group}, {r.binding}): "
                f"<array>}}\n{_listing(kernel, entry)}")
        if isinstance(out[name], (bytes, bytearray, memoryview)):  # (a bytearray: writable)
            out[name] = np.frombuffer(out[name], np.uint8)
        if isinstance(out[name], np.ndarray):
            try:
                out[name] = view_binding(r, out[name], structs)
            except BindingError as exc:
                raise BindingError(f"{kernel}: {exc}") from None
    for r in entry.resources:  # (textures and samplers: checked against their types)
        if r.min_size is None and r.name in out:
            out[r.name] = check_handle(kernel, r, out[r.name])
        elif r.min_size is None:
            raise BindingError(f"{kernel}: missing binding {r.name!r} ({describe_resource(r)})"
                               f": pass {r.name}=<ash.{_HANDLE_KIND.get(r.kind, 'Texture')}> "
                               f"or bindings={{({r.group}, {r.binding}): ...}}\n"
                               f"{_listing(kernel, entry)}")
    return out


def _listing(kernel: str, entry: EntryPoint) -> str:
    lines = [f"  {describe_resource(r)}"
             + (f"  ({_needs(r)})" if r.min_size is not None else "")
             for r in entry.resources]
    return (f"{kernel} binds:\n" + "\n".join(lines)) if lines else \
        f"{kernel} binds no resources"
