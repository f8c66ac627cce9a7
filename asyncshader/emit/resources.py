"""The entry point's parameters as WGSL sees them: builtins (``@builtin(...)``), resources
(``@group(0) @binding(k)``, ``k`` the parameter's position: storage, read-only storage or
uniform) and fragment inputs (``@location(k)``), each with its WGSL type from the annotation,
else from the value bound to it (an array's dtype and shape, a uniform's value, a per-pixel
callable's value at pixel (0, 0)), else an :class:`Unknown` that the shader's uses decide."""

from __future__ import annotations

import inspect
from dataclasses import dataclass
from typing import Any

import numpy as np

from ..ir.builtin_values import BUILTIN_VALUES
from ..wgsl.bindings import Input, Storage, Uniform, uniform_layout_type
from ..wgsl.layout import check_uniform
from .buffers import element_of
from .functions import wgsl_identifier
from .textures import handle_type
from .values import E, Memory
from .wtypes import (
    I32,
    Array,
    Atomic,
    Scalar,
    Struct,
    Unknown,
    Vector,
    WGSLEmitError,
    from_dtype,
    from_python,
    type_of_value,
)

__all__ = ["COMPUTE_BUILTINS", "FRAGMENT_BUILTINS", "Resource", "parameters"]

#: the built-ins a Python shader may take by parameter name, with their WGSL types
COMPUTE_BUILTINS = {name: BUILTIN_VALUES[name] for name in (
    "global_invocation_id", "local_invocation_id", "workgroup_id", "num_workgroups",
    "local_invocation_index", "subgroup_invocation_id", "subgroup_size", "subgroup_id",
    "num_subgroups")}
FRAGMENT_BUILTINS = {name: BUILTIN_VALUES[name] for name in (
    "position", "front_facing", "sample_index", "sample_mask", "subgroup_invocation_id",
    "subgroup_size")}


@dataclass
class Resource:
    name: str       # in WGSL
    index: int
    kind: str
    memory: Memory
    python: str     # the parameter's name
    group: int = 0  # (index: the @binding number)


def parameters(module: Any) -> tuple[dict[str, E], list[Resource]]:
    """The entry point's builtins and fragment inputs (as values, by parameter name) and its
    resources; sets ``module.inputs``."""
    builtins = COMPUTE_BUILTINS if module.stage == "compute" else FRAGMENT_BUILTINS
    params: dict[str, E] = {}
    resources = []
    module.inputs = []
    for index, (name, p) in enumerate(module.shader.params.items()):
        if name in builtins:
            params[name] = E(name, builtins[name])
            continue
        if name in module.shader.builtins:
            raise WGSLEmitError(f"{module.fn.__qualname__}: the builtin {name} has no WGSL "
                                "spelling yet (WGSL's linear_indexing extension); compute "
                                "it from workgroup_id and num_workgroups")
        given = module.given.get(name, inspect.Parameter.empty)
        kind, t = _resource(module, name, p.annotation, given)
        if kind == "input":
            t = t if t is not None else Unknown(f"the fragment input {name!r}")
            params[name] = E(wgsl_identifier(name), t)
            module.inputs.append((name, t))
            continue
        memory = Memory(wgsl_identifier(name), kind, t)
        memory.rows = _numpy_rows(t, p.annotation)
        point = getattr(p.annotation, "point", None)
        group, binding = (point.group, point.binding) if point is not None else (0, index)
        resources.append(Resource(wgsl_identifier(name), binding, kind, memory, name, group))
    for name, (decl, _) in sorted(module.module_decls.items(),  # (module scope: in point order)
                                  key=lambda item: (item[1][0].point.group,
                                                    item[1][0].point.binding)):
        kind, t = _resource(module, name, decl.annotation,
                            module.given.get(name, inspect.Parameter.empty))
        memory = Memory(wgsl_identifier(name), kind, t)
        memory.rows = _numpy_rows(t, decl.annotation)
        resources.append(Resource(wgsl_identifier(name), decl.point.binding, kind, memory, name,
                                  decl.point.group))
    _check_points(module, resources)
    return params, resources


def _numpy_rows(t: Any, annotation: Any) -> bool:
    """A buffer of vectors bound without a declared vector element: numpy rows on the CPU."""
    return isinstance(t, Array) and isinstance(t.element, Vector) and \
        getattr(annotation, "element", None) is None


def _check_points(module: Any, resources: list[Resource]) -> None:
    """Two resources at one ``@group @binding`` (one given by ``ash.at``, the other by its
    position) are an error naming both: WGSL refuses the module."""
    seen: dict[tuple[int, int], str] = {}
    for r in resources:
        other = seen.setdefault((r.group, r.index), r.python)
        if other != r.python:
            raise WGSLEmitError(
                f"{module.fn.__qualname__}: {other!r} and {r.python!r} are both at "
                f"@group({r.group}) @binding({r.index}) (a resource without ash.at(...) takes "
                "group 0 and its parameter's position). Fix: give each its own "
                "ash.at(group, binding)")


def _resource(module: Any, name: str, ann: Any, given: Any) -> tuple[str, Any]:
    """(address space or "input", WGSL type or an Unknown) of a resource parameter."""
    handle = handle_type(name, ann, given)
    if handle is not None:
        return "handle", handle  # (a texture or a sampler: emit/textures.py)
    empty = inspect.Parameter.empty
    marker = ann if isinstance(ann, type) and issubclass(ann, (Storage, Uniform, Input)) \
        else None
    element = from_python(getattr(marker, "element", None)) if marker else None
    if (marker is not None and issubclass(marker, Input)) or (
            module.stage == "fragment" and marker is None and (
            (given is empty and from_python(ann) is None)
            or (isinstance(given, np.ndarray) and given.ndim in (2, 3)))):
        if element is None and _pixel_function(given):
            element = _concrete(type_of_value(_pixel(name, given)))
        if element is None and isinstance(given, np.ndarray):
            s = from_dtype(given.dtype if given.dtype != np.float64 else np.float32)
            element = Vector(given.shape[2], s) if given.ndim == 3 and given.shape[2] > 1 \
                else s
        return "input", element
    is_storage = (marker is not None and issubclass(marker, Storage)) or (
        marker is None and ann is empty and isinstance(given, np.ndarray))
    if is_storage:
        if element is None and _pixel_function(given):
            element = _concrete(type_of_value(_pixel(name, given)))
        if element is None and isinstance(given, np.ndarray):
            element = element_of(given)
        kind = "read" if getattr(marker, "access", "") == "read" or (
            isinstance(given, np.ndarray) and not given.flags.writeable) else "storage"
        if isinstance(element, Atomic):
            return kind, element  # (one atomic: var<storage, read_write> c: atomic<u32>)
        if isinstance(element, Struct) and (_runtime_sized(element) or (
                isinstance(given, np.ndarray) and given.ndim == 0)):
            return kind, element  # (one struct, bound alone)
        return kind, Array(element or Unknown(f"the element type of buffer {name!r}"), None)
    t = element if marker is not None else from_python(ann)
    if t is None and isinstance(given, int) and not isinstance(given, (bool, np.bool_)):
        u = Unknown(f"the uniform {name!r}")  # (a Python int: its uses decide, else i32)
        module.defaults[u] = I32
        return "uniform", u
    if t is None and given is not empty:
        if isinstance(given, np.ndarray):
            return "read", Array(element_of(given), None)
        t = type_of_value(given)
        t = t.concrete() if t is not None and t.abstract else t
    if isinstance(t, Struct):
        _check_uniform_struct(module, name, getattr(marker, "element", None), given)
    return "uniform", t or Unknown(f"the binding {name!r}")  # (a guess: nothing said)


def _check_uniform_struct(module: Any, name: str, cls: Any, given: Any) -> None:
    """A struct (or an array of structs) bound as ``var<uniform>`` must meet the uniform address
    space's layout rules: the runtime refuses such a binding (asyncshader/wgsl/layout.py), and
    the emitter, with the same words, rather than write WGSL that naga refuses."""
    t = uniform_layout_type(cls, given)
    if t is None:
        return
    try:
        check_uniform(t, f"{module.fn.__qualname__}: uniform {name!r}")
    except TypeError as exc:
        raise WGSLEmitError(str(exc)) from None


def _pixel_function(given: Any) -> bool:
    """A fragment input given as a callable ``(x, y) -> value``."""
    return callable(given) and given is not inspect.Parameter.empty and not isinstance(
        given, (np.ndarray, type))


def _pixel(name: str, given: Any) -> Any:
    """The value a per-pixel callable gives at pixel (0, 0) (its type is the input's)."""
    try:
        return given(0, 0)
    except Exception as exc:
        raise WGSLEmitError(f"the fragment input {name!r} is a callable that raised "
                            f"{type(exc).__name__} ({exc}) for pixel (0, 0), where to_wgsl "
                            f"asks it for its type. Fix: pass an array, or annotate "
                            f"{name}: ash.Input[f32] (or the vector type)") from None


def _runtime_sized(s: Struct) -> bool:
    """The struct ends in a runtime-sized array (WGSL binds it alone, not in an array)."""
    return bool(s.fields) and isinstance(s.fields[-1][1], Array) and s.fields[-1][1].length \
        is None


def _concrete(t: Any) -> Any:
    return t.concrete() if isinstance(t, (Scalar, Vector)) and t.abstract else t
