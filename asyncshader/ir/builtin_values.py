"""WGSL's built-in values (§ Built-in values): each one's type, and the stages and directions
it may be bound in. The WGSL front-end checks entry-point interfaces against these tables;
the emitter types the built-ins a Python shader takes by parameter name from them."""

from __future__ import annotations

from .types import BOOL, F32, U32, Vector

_VEC3U, _VEC4F = Vector(3, U32), Vector(4, F32)
#: the built-in values and their types (§ Built-in values)
BUILTIN_VALUES = {
    "vertex_index": U32, "instance_index": U32, "position": _VEC4F, "front_facing": BOOL,
    "frag_depth": F32, "sample_index": U32, "sample_mask": U32, "primitive_index": U32,
    "local_invocation_id": _VEC3U, "local_invocation_index": U32,
    "global_invocation_id": _VEC3U, "workgroup_id": _VEC3U, "num_workgroups": _VEC3U,
    "subgroup_invocation_id": U32, "subgroup_size": U32, "subgroup_id": U32,
    "num_subgroups": U32, "global_invocation_index": U32, "workgroup_index": U32,
}

_IN, _OUT = "input", "output"
#: where each built-in value may be bound: (stage, direction) pairs (§ Built-in values)
BUILTIN_STAGES = {
    "vertex_index": {("vertex", _IN)}, "instance_index": {("vertex", _IN)},
    "position": {("vertex", _OUT), ("fragment", _IN)}, "clip_distances": {("vertex", _OUT)},
    "front_facing": {("fragment", _IN)}, "frag_depth": {("fragment", _OUT)},
    "sample_index": {("fragment", _IN)}, "primitive_index": {("fragment", _IN)},
    "sample_mask": {("fragment", _IN), ("fragment", _OUT)},
    "subgroup_invocation_id": {("compute", _IN), ("fragment", _IN)},
    "subgroup_size": {("compute", _IN), ("fragment", _IN)},
    **{name: {("compute", _IN)} for name in (
        "local_invocation_id", "local_invocation_index", "global_invocation_id",
        "workgroup_id", "num_workgroups", "subgroup_id", "num_subgroups",
        "global_invocation_index", "workgroup_index")},
}
