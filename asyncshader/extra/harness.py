"""The fragment cross-check's harness: the shader, emitted as a plain function, called from a
fragment entry point that reads the per-pixel inputs from textures (``textureLoad`` at the
pixel, padded to whole quads as asyncshader pads them for helper invocations) and writes the
outputs to storage buffers, drawn by a full-screen triangle. Arbitrary per-pixel inputs cannot
be produced by interpolation; read from a texture, they are the same values on both sides, and
derivatives and quad operations still work on them (they act on values, wherever they come
from). Textures, not storage buffers: lavapipe returns 0 from storage-buffer loads in helper
invocations, which would break every derivative at an edge."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np

from ..emit import Emitted, emit
from ..emit.wtypes import Scalar, Struct, Vector
from ..errors import BindingError
from .device import validate
from .textures import handle_layout

_SCALAR = {"f": "f32", "i": "i32", "u": "u32"}
#: texture formats and sample types of the inputs, by scalar kind
TEXTURE = {"f": ("rgba32float", "unfilterable-float"), "i": ("rgba32sint", "sint"),
           "u": ("rgba32uint", "uint")}
_VS = """@vertex
fn ash_vertex(@builtin(vertex_index) i: u32) -> @builtin(position) vec4f {
    let p = vec2f(f32((i << 1u) & 2u), f32(i & 2u));
    return vec4f(p * 2.0 - 1.0, 0.0, 1.0);
}
"""


@dataclass
class Harness:
    emitted: Emitted
    inputs: dict[str, np.ndarray]          # padded input arrays by parameter name
    outputs: list[tuple[str, str, Any]]    # (report name, buffer name, WGSL type)


def _store_type(t: Any) -> tuple[str, int]:
    """The WGSL element type a buffer holds ``t`` as (vec3 padded to vec4), and its width."""
    if isinstance(t, Vector):
        n = 4 if t.size == 3 else t.size
        s = "u32" if t.scalar.name == "bool" else t.scalar.wgsl
        return f"vec{n}<{s}>", n
    return ("u32" if t.name == "bool" else t.wgsl), 1


def _pad(arr: np.ndarray, width: int, height: int) -> np.ndarray:
    """As asyncshader extends inputs for helper invocations past the edge."""
    qw, qh = -(-width // 2), -(-height // 2)
    for axis, extra in ((0, 2 * qh - height), (1, 2 * qw - width)):
        if extra:
            pad = [(0, 0)] * arr.ndim
            pad[axis] = (0, extra)
            mode = dict(mode="reflect", reflect_type="odd") if arr.dtype.kind == "f" and \
                arr.shape[axis] >= 2 else dict(mode="edge")
            arr = np.pad(arr, pad, **mode)
    return arr


def _pixels(source: Any, width: int, height: int) -> np.ndarray:
    """A per-pixel input as an array (height, width[, n]); a callable ``(x, y) -> value`` is
    evaluated at every pixel of the grid padded to whole quads (as for helpers)."""
    if isinstance(source, np.ndarray) or not callable(source):
        return np.asarray(source)
    qw, qh = -(-width // 2), -(-height // 2)
    rows = [[np.asarray(list(v) if hasattr(v, "__iter__") else v)
             for v in (source(x, y) for x in range(2 * qw))] for y in range(2 * qh)]
    return np.asarray(rows)


_BUILTINS = {"position": "vec4f", "front_facing": "bool", "sample_index": "u32",
             "sample_mask": "u32", "subgroup_invocation_id": "u32", "subgroup_size": "u32"}


def _builtin_params(code: Emitted) -> list[str]:
    used = [n for n in code.call_params if n in _BUILTINS and n != "position"]
    return [f"@builtin({n}) {n}: {_BUILTINS[n]}" for n in ["position", *used]]


def fragment_harness(shader: Any, width: int, height: int, bindings: dict[str, Any]
                     ) -> Harness:
    """The harness module for ``shader`` drawn over ``width`` x ``height`` pixels."""
    inner = emit(shader, as_function=True, **bindings)
    lines = [inner.source, _VS]
    inputs, outputs = {}, []
    args = []
    for k, name in enumerate(inner.call_params):
        t = dict(inner.inputs).get(name)
        if t is None:
            args.append(name)
            continue
        arr = _pixels(bindings[name], width, height)
        kind = (t.scalar if isinstance(t, Vector) else t).kind
        dtype = {"f": np.float32, "i": np.int32, "u": np.uint32}[kind]
        arr = arr.astype(dtype) if arr.shape[:2] != (height, width) else _pad(
            arr.astype(dtype), width, height)
        arr = arr.reshape(*arr.shape[:2], arr.shape[2] if arr.ndim == 3 else 1)
        arr = np.concatenate([arr, np.zeros((*arr.shape[:2], 4 - arr.shape[2]), dtype)], 2)
        inputs[name] = np.ascontiguousarray(arr)
        lines.append(f"@group(1) @binding({k}) var ash_in_{k}: texture_2d<{_SCALAR[kind]}>;")
        value = f"textureLoad(ash_in_{k}, vec2u(ash_x, ash_y), 0)"
        size = t.size if isinstance(t, Vector) else 1
        args.append(value + {1: ".x", 2: ".xy", 3: ".xyz", 4: ""}[size])
    out = inner.output
    fields = list(out.fields) if isinstance(out, Struct) else [("output", out)] if out else []
    writes = []
    for k, (fname, ft) in enumerate(fields):
        wgsl, n = _store_type(ft)
        buf = f"ash_out_{k}"
        lines.append(f"@group(2) @binding({k}) var<storage, read_write> {buf}: array<{wgsl}>;")
        value = "ash_r" if not isinstance(out, Struct) else f"ash_r.{fname}"
        if isinstance(ft, Vector) and ft.size == 3:
            value = f"vec4({value}, 0)"
        if (ft.scalar if isinstance(ft, Vector) else ft) == Scalar("bool"):
            value = f"select(0u, 1u, {value})" if not isinstance(ft, Vector) else \
                f"select(vec{n}<u32>(0u), vec{n}<u32>(1u), {value})"
        writes.append(f"        {buf}[ash_y * {width}u + ash_x] = {value};")
        outputs.append(("output" if not isinstance(out, Struct) else f"output.{fname}", buf, ft))
    call = f"{inner.entry}({', '.join(args)})"
    lines += ["@fragment",
              f"fn ash_fragment({', '.join(_builtin_params(inner))}) -> @location(0) vec4f {{",
              "    let ash_x = u32(position.x);", "    let ash_y = u32(position.y);",
              f"    let ash_r = {call};" if fields else f"    {call};",
              f"    if ash_x < {width}u && ash_y < {height}u {{", *writes, "    }",
              "    return vec4f(0.0);", "}"]
    source = "\n".join(lines) + "\n"
    emitted = Emitted(source, "ash_fragment", "fragment", None, inner.bindings, inner.inputs,
                      inner.output, inner.call_params)
    return Harness(emitted, inputs, outputs)


def read_pixels(dev: Any, harness: Harness, width: int, height: int,
                bindings: dict[str, Any], make_buffers: Any, constants: dict | None = None
                ) -> dict[str, np.ndarray]:
    """Draws the harness over ``width`` x ``height`` pixels; the outputs and storage buffers.
    ``constants``: the pipeline's, the values of the shader's overrides."""
    import wgpu

    usage = wgpu.BufferUsage
    code = harness.emitted
    module = validate(code.source, dev)
    grouped, storage = make_buffers(dev, code, bindings)
    if any(g != 0 for g, _ in grouped):
        raise BindingError("crosscheck_fragments binds the shader's resources in group 0 and "
                           "its own textures and outputs in groups 1 and 2: give every "
                           "binding of a fragment shader ash.at(0, k) to cross-check it")
    entries = [e for _, e in grouped]
    frag = wgpu.ShaderStage.FRAGMENT
    kinds = {"storage": "storage", "read": "read-only-storage", "uniform": "uniform"}
    layouts = [[handle_layout(b.binding, bindings[b.name], frag, getattr(b.type, "kind", None))
                 if b.space == "handle" else
                {"binding": b.binding, "visibility": frag, "buffer": {"type": kinds[b.space]}}
                for b in code.bindings], [], []]
    groups: list[list] = [entries, [], []]
    for k, name in enumerate(code.call_params):
        if name in harness.inputs:
            data = harness.inputs[name]
            fmt, sample = TEXTURE[data.dtype.kind]
            tex = dev.create_texture(size=(data.shape[1], data.shape[0], 1), format=fmt,
                                     usage=wgpu.TextureUsage.TEXTURE_BINDING |
                                     wgpu.TextureUsage.COPY_DST)
            dev.queue.write_texture({"texture": tex}, data.tobytes(),
                                    {"bytes_per_row": data.shape[1] * 16,
                                     "rows_per_image": data.shape[0]},
                                    (data.shape[1], data.shape[0], 1))
            layouts[1].append({"binding": k, "visibility": frag,
                               "texture": {"sample_type": sample, "view_dimension": "2d"}})
            groups[1].append({"binding": k, "resource": tex.create_view()})
    outs = {}
    for k, (report, _, t) in enumerate(harness.outputs):
        n = 4 if isinstance(t, Vector) and t.size == 3 else t.size if isinstance(t, Vector) \
            else 1
        buf = dev.create_buffer(size=max(16, width * height * n * 4),
                                usage=usage.STORAGE | usage.COPY_SRC)
        outs[report] = (buf, t, n)
        layouts[2].append({"binding": k, "visibility": frag, "buffer": {"type": "storage"}})
        groups[2].append({"binding": k, "resource": {"buffer": buf, "offset": 0,
                                                     "size": buf.size}})
    bind_layouts = [dev.create_bind_group_layout(entries=e) for e in layouts]
    pipeline = dev.create_render_pipeline(
        layout=dev.create_pipeline_layout(bind_group_layouts=bind_layouts),
        vertex={"module": module, "entry_point": "ash_vertex"},
        fragment={"module": module, "entry_point": "ash_fragment", "constants": constants or {},
                  "targets": [{"format": wgpu.TextureFormat.rgba8unorm}]},
        primitive={"topology": wgpu.PrimitiveTopology.triangle_list})
    target = dev.create_texture(size=(width, height, 1), format=wgpu.TextureFormat.rgba8unorm,
                                usage=wgpu.TextureUsage.RENDER_ATTACHMENT)
    encoder = dev.create_command_encoder()
    rpass = encoder.begin_render_pass(color_attachments=[{
        "view": target.create_view(), "load_op": wgpu.LoadOp.clear,
        "store_op": wgpu.StoreOp.store, "clear_value": (0, 0, 0, 0)}])
    rpass.set_pipeline(pipeline)
    for g, entries_ in enumerate(groups):
        rpass.set_bind_group(g, dev.create_bind_group(layout=bind_layouts[g], entries=entries_))
    rpass.draw(3)
    rpass.end()
    dev.queue.submit([encoder.finish()])
    result = {}
    for report, (buf, t, n) in outs.items():
        s = t.scalar if isinstance(t, Vector) else t
        dtype = {"f": np.float32, "i": np.int32, "u": np.uint32, "b": np.uint32}[s.kind]
        data = np.frombuffer(dev.queue.read_buffer(buf), dtype)[:width * height * n]
        data = data.reshape(height, width, n)[..., :t.size if isinstance(t, Vector) else 1]
        if not isinstance(t, Vector):
            data = data[..., 0]
        result[report] = data.astype(bool) if s.kind == "b" else data.copy()
    for name, read in storage.items():
        result[name] = read()
    return result
