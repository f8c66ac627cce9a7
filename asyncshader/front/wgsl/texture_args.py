"""The parameters of WGSL's texture built-ins after the texture (§ Texture Built-in Functions):
which overload a call's argument count selects for its texture's kind, and the type of each
argument there: an ``array_index`` (arrayed textures), a ``level`` or ``sample_index`` (i32
or u32; a float ``level`` for ``textureSampleLevel`` of a non-depth texture), ``bias`` and
``depth_ref`` (f32), ``ddx``/``ddy`` (the coordinates' shape) and an ``offset`` (``vec2<i32>``
or ``vec3<i32>``, a const-expression in -8..7 per component: the checker evaluates it,
:func:`offset_error`). The texture, sampler, coordinates and stored value are checked in
:mod:`.builtin_types`."""

from __future__ import annotations

from typing import Any

from ...ir.types import AINT, F32, I32, U32, Opaque, Scalar, Vector
from .conversions import converts, describe, leaf


def coordinate_dimension(t: Opaque) -> int:
    """How many components a coordinate of texture type ``t`` has (a cube's: a direction)."""
    if t.name.endswith("_1d"):
        return 1
    if t.name.endswith(("_3d", "cube", "cube_array")):
        return 3
    return 2


def roles(name: str, t: Opaque) -> tuple[list[str], list[str]]:
    """The parameters of ``name`` for texture ``t`` after the texture: the required ones and
    the optional trailing ones."""
    arrayed = t.name.endswith("_array")
    array = ["array_index"] if arrayed else []
    if name.startswith(("textureSample", "textureGather")):
        if name == "textureSampleBaseClampToEdge":
            return ["sampler", "coords"], []
        extra = {"textureSampleBias": ["bias"], "textureSampleGrad": ["ddx", "ddy"],
                 "textureSampleLevel": ["level"]}.get(name, [])
        if "Compare" in name:
            extra = ["depth_ref"]
        offset = [] if t.name.endswith(("cube", "cube_array", "_1d")) else ["offset"]
        return ["sampler", "coords", *array, *extra], offset
    if name == "textureLoad":
        if "multisampled" in t.name:
            last = ["sample_index"]
        elif t.name.startswith("texture_storage") or t.name == "texture_external":
            last = []
        else:
            last = ["level"]
        return ["coords", *array, *last], []
    if name == "textureStore":
        return ["coords", *array, "value"], []
    if name == "textureDimensions":
        plain = not (t.name.startswith("texture_storage") or "multisampled" in t.name
                     or t.name == "texture_external")
        return [], ["level"] if plain else []
    return [], []


def argument_roles(name: str, t: Opaque, count: int) -> list[str] | None:
    """The role of each of ``count`` arguments after the texture (None: no overload takes
    that many)."""
    required, optional = roles(name, t)
    if count == len(required):
        return required
    if optional and count == len(required) + len(optional):
        return required + optional
    return None


def check_arguments(name: str, t: Opaque, rest: list[Any]) -> None:
    """The arguments after the texture have the count and types of one of ``name``'s
    overloads for ``t``; raises ValueError with what it takes."""
    found = argument_roles(name, t, len(rest))
    if found is None:
        required, optional = roles(name, t)
        listing = ", ".join(["t", *required] + [f"{o} (optional)" for o in optional])
        raise ValueError(f"{name} of {describe(t)} takes ({listing}), not {len(rest) + 1} "
                         "arguments")
    n = coordinate_dimension(t)
    for role, got in zip(found, rest):
        want = _INTEGER if role in ("array_index", "sample_index") or (
            role == "level" and (name != "textureSampleLevel" or "depth" in t.name)) else \
            F32 if role in ("level", "bias", "depth_ref") else None
        if want is _INTEGER:
            if not (isinstance(got, Scalar) and leaf(got) in _INTEGER_LEAVES):
                raise ValueError(f"{name}: the {role} is an i32 or u32, not {describe(got)}")
        elif want is not None:
            if not converts(got, want):
                raise ValueError(f"{name}: the {role} is an f32, not {describe(got)}")
        elif role in ("ddx", "ddy"):
            shape = Vector(n, F32) if n > 1 else F32
            if not converts(got, shape):
                raise ValueError(f"{name}: {role} is {describe(shape)}, not {describe(got)}")
        elif role == "offset":
            shape = Vector(n, I32)
            if not converts(got, shape):
                raise ValueError(f"{name} of {describe(t)}: the offset is "
                                 f"{describe(shape)}, not {describe(got)}")


def offset_error(value: Any) -> str | None:
    """What is wrong with an offset's const value (None: nothing): each component in -8..7."""
    components = value if isinstance(value, (tuple, list)) else (value,)
    bad = [int(c) for c in components if not -8 <= int(c) <= 7]
    if bad:
        return (f"each component of a texture offset is in -8..7 (a const-expression), not "
                f"{bad[0]}. Fix: an offset of at most 8 texels back and 7 forward; move "
                "farther by adding to the coordinates instead (coords + vec2f(offset) / "
                "vec2f(textureDimensions(t)))")
    return None


_INTEGER = object()
_INTEGER_LEAVES = (I32, U32, AINT)
