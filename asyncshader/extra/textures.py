"""asyncshader's textures and samplers on a WebGPU device (wgpu): upload a :class:`Texture`
with its mip chain (the same bytes as its host arrays), make its views and samplers, read a
storage texture back into the host arrays, and run a WGSL compute shader or draw a full-screen
fragment shader over those resources. The texture cross-check tests run the same shader here
and in asyncshader and compare (docs/textures.md states the tolerance)."""

from __future__ import annotations

from typing import Any

import numpy as np

from ..wgsl.textures.formats import STORAGE_FORMATS
from ..wgsl.textures.resources import Sampler, Texture, TextureView, as_view
from .device import device, validate

_PACKED = ("rgb10a2unorm", "rgb10a2uint", "rg11b10ufloat")
_VS = """@vertex
fn ash_vertex(@builtin(vertex_index) i: u32) -> @builtin(position) vec4f {
    let p = vec2f(f32((i << 1u) & 2u), f32(i & 2u));
    return vec4f(p * 2.0 - 1.0, 0.0, 1.0);
}
"""


def _align(n: int) -> int:
    return -(-n // 256) * 256


def gpu_texture(dev: Any, texture: Texture) -> Any:
    """A wgpu texture holding ``texture``'s levels (written with ``queue.write_texture``)."""
    import wgpu

    fmt = texture.format
    if fmt.name in _PACKED:
        raise NotImplementedError(f"uploading the packed format {fmt.name!r} to a GPU")
    usage = wgpu.TextureUsage
    flags = usage.TEXTURE_BINDING | usage.COPY_DST | usage.COPY_SRC
    if fmt.name in STORAGE_FORMATS[:16]:  # (WebGPU's core storage formats; others need features)
        flags |= usage.STORAGE_BINDING
    w, h, d = texture.size(0)
    gpu = dev.create_texture(size=(w, h, d), format=fmt.name, usage=flags,
                             dimension=texture.dimension,
                             mip_level_count=texture.mip_level_count)
    for k in range(texture.mip_level_count):
        block = np.ascontiguousarray(texture.block(k))
        lw, lh, ld = texture.size(k)
        dev.queue.write_texture({"texture": gpu, "mip_level": k}, block.tobytes(),
                                {"bytes_per_row": lw * block.shape[3] * block.itemsize,
                                 "rows_per_image": lh},
                                (lw, lh, ld))
    return gpu


def gpu_view(gpu: Any, view: TextureView) -> Any:
    """The wgpu view of ``gpu`` that ``view`` describes."""
    return gpu.create_view(dimension=view.dimension, base_mip_level=view.base_mip_level,
                           mip_level_count=view.mip_level_count,
                           base_array_layer=view.base_array_layer,
                           array_layer_count=view.array_layer_count)


def gpu_sampler(dev: Any, sampler: Sampler) -> Any:
    """The wgpu sampler of ``sampler``'s descriptor."""
    return dev.create_sampler(**sampler.descriptor())


def read_back(dev: Any, gpu: Any, texture: Texture, level: int = 0) -> None:
    """Copies level ``level`` of the wgpu texture into ``texture``'s host array."""
    texture.block(level)[...] = read_level(dev, gpu, texture, level)
    texture.changed()


def read_level(dev: Any, gpu: Any, texture: Texture, level: int = 0) -> np.ndarray:
    """Level ``level`` of the wgpu texture as a new array shaped and typed as ``texture``'s
    level block (layers or depth, height, width, C): the host values of its bytes."""
    import wgpu

    block = texture.block(level)
    w, h, d = texture.size(level)
    row = w * block.shape[3] * block.itemsize
    buf = dev.create_buffer(size=_align(row) * h * d,
                            usage=wgpu.BufferUsage.COPY_DST | wgpu.BufferUsage.MAP_READ)
    enc = dev.create_command_encoder()
    enc.copy_texture_to_buffer({"texture": gpu, "mip_level": level},
                               {"buffer": buf, "bytes_per_row": _align(row),
                                "rows_per_image": h}, (w, h, d))
    dev.queue.submit([enc.finish()])
    buf.map_sync(wgpu.MapMode.READ)
    raw = np.frombuffer(buf.read_mapped(), np.uint8).reshape(d, h, _align(row))[..., :row]
    buf.unmap()
    return np.ascontiguousarray(raw).view(block.dtype).reshape(block.shape).copy()


def host_copy(value: Any) -> Any:
    """A texture, or a view of one, over copies of its host arrays (what a run may write
    without changing the caller's); any other value as it is."""
    if not isinstance(value, (Texture, TextureView)):
        return value
    t = as_view(value).texture
    copy = Texture([a.copy() for a in t.levels], t.format.name, t.dimension, t.sample_count)
    if isinstance(value, Texture):
        return copy
    return copy.view(value.dimension, value.base_mip_level, value.mip_level_count,
                     value.base_array_layer, value.array_layer_count)


def written_level(value: Texture | TextureView) -> np.ndarray:
    """The level a storage texture binding writes: its view's base level, as the texture's
    (layers or depth, height, width, C) block."""
    view = as_view(value)
    return view.texture.block(view.base_mip_level)


def storage_texture_entry(dev: Any, binding: int, value: Any) -> tuple[dict[str, Any], Any]:
    """The bind group entry of a storage texture (uploaded) bound at ``binding``, and a
    function that reads back the level it writes (:func:`written_level`'s shape)."""
    entries, back = _entries(dev, {binding: value})
    _, _, gpu, view = back[0]
    return entries[0], lambda: read_level(dev, gpu, view.texture, view.base_mip_level)


def handle_entry(dev: Any, binding: int, value: Any) -> dict[str, Any]:
    """The bind group entry of a texture (uploaded) or sampler bound at ``binding``."""
    return _entries(dev, {binding: value})[0][0]


#: WGSL's storage texture access modes as WebGPU's StorageTextureAccess
_ACCESS = {"write": "write-only", "read": "read-only", "read_write": "read-write"}


def handle_layout(binding: int, value: Any, visibility: Any, kind: Any = None
                  ) -> dict[str, Any]:
    """The bind group layout entry of a sampled texture, a storage texture (``kind``: the
    binding's annotation, a storage texture's with its format and access) or a sampler (for
    explicit layouts: the fragment cross-check's)."""
    if getattr(kind, "storage", False):
        return {"binding": binding, "visibility": visibility, "storage_texture": {
            "access": _ACCESS[kind.access], "format": kind.format or as_view(value).format.name,
            "view_dimension": as_view(value).dimension}}
    if isinstance(value, Sampler):
        kind = "comparison" if value.is_comparison else "filtering"
        return {"binding": binding, "visibility": visibility, "sampler": {"type": kind}}
    view = as_view(value)
    fmt = view.format
    sample = "depth" if fmt.is_depth else {"u32": "uint", "i32": "sint"}.get(
        fmt.sample_type, "unfilterable-float" if fmt.kind == "float" and fmt.bits[0] == 32
        else "float")
    return {"binding": binding, "visibility": visibility,
            "texture": {"sample_type": sample, "view_dimension": view.dimension}}


def _entries(dev: Any, resources: dict[int, Any]) -> tuple[list, list]:
    """Bind group entries for ``resources`` (binding -> numpy array (a storage buffer), bytes (a
    uniform buffer), Texture, TextureView or Sampler), and what to read back: (binding, kind,
    gpu object, host)."""
    import wgpu

    entries, back = [], []
    for b, r in sorted(resources.items()):
        if isinstance(r, Sampler):
            entries.append({"binding": b, "resource": gpu_sampler(dev, r)})
        elif isinstance(r, (Texture, TextureView)):
            view = as_view(r)
            gpu = gpu_texture(dev, view.texture)
            entries.append({"binding": b, "resource": gpu_view(gpu, view)})
            back.append((b, "texture", gpu, view))
        elif isinstance(r, bytes):  # (a uniform buffer's bytes)
            buf = dev.create_buffer_with_data(data=r, usage=wgpu.BufferUsage.UNIFORM)
            entries.append({"binding": b, "resource": {"buffer": buf, "offset": 0,
                                                       "size": buf.size}})
        else:
            arr = np.ascontiguousarray(r)
            buf = dev.create_buffer_with_data(data=arr.tobytes(), usage=(
                wgpu.BufferUsage.STORAGE | wgpu.BufferUsage.COPY_SRC))
            entries.append({"binding": b, "resource": {"buffer": buf, "offset": 0,
                                                       "size": buf.size}})
            back.append((b, "buffer", buf, r))
    return entries, back


def _read(dev: Any, back: list) -> None:
    for _, kind, gpu, host in back:
        if kind == "buffer":
            host[...] = np.frombuffer(dev.queue.read_buffer(gpu), host.dtype).reshape(
                host.shape)
        elif host.format.name in STORAGE_FORMATS:
            for k in range(host.mip_level_count):
                read_back(dev, gpu, host.texture, host.base_mip_level + k)


def run_compute(source: str, resources: dict[int, Any], workgroups: int = 1,
                entry: str = "main") -> None:
    """Runs the WGSL compute shader ``source`` on the device with ``resources`` bound in group
    0 (binding -> resource); storage buffers and storage-format textures are read back into
    their host arrays."""
    dev = device()
    module = validate(source, dev)
    pipeline = dev.create_compute_pipeline(layout="auto",
                                           compute={"module": module, "entry_point": entry})
    entries, back = _entries(dev, resources)
    enc = dev.create_command_encoder()
    cpass = enc.begin_compute_pass()
    cpass.set_pipeline(pipeline)
    cpass.set_bind_group(0, dev.create_bind_group(layout=pipeline.get_bind_group_layout(0),
                                                  entries=entries))
    cpass.dispatch_workgroups(workgroups, 1, 1)
    cpass.end()
    dev.queue.submit([enc.finish()])
    _read(dev, back)


def draw(source: str, width: int, height: int, resources: dict[int, Any],
         entry: str = "main") -> np.ndarray:
    """Draws a full-screen triangle with the WGSL fragment shader ``entry`` of ``source``
    (returning ``@location(0) vec4f``) over ``width`` x ``height`` pixels; the pixels as a
    (height, width, 4) float32 array."""
    import wgpu

    dev = device()
    module = validate(_VS + source, dev)
    pipeline = dev.create_render_pipeline(
        layout="auto", vertex={"module": module, "entry_point": "ash_vertex"},
        fragment={"module": module, "entry_point": entry,
                  "targets": [{"format": wgpu.TextureFormat.rgba32float}]},
        primitive={"topology": wgpu.PrimitiveTopology.triangle_list})
    target = Texture([np.zeros((height, width, 4), np.float32)], "rgba32float")
    gpu_target = dev.create_texture(size=(width, height, 1), format="rgba32float",
                                    usage=wgpu.TextureUsage.RENDER_ATTACHMENT |
                                    wgpu.TextureUsage.COPY_SRC)
    entries, _ = _entries(dev, resources)
    enc = dev.create_command_encoder()
    rpass = enc.begin_render_pass(color_attachments=[{
        "view": gpu_target.create_view(), "load_op": wgpu.LoadOp.clear,
        "store_op": wgpu.StoreOp.store, "clear_value": (0, 0, 0, 0)}])
    rpass.set_pipeline(pipeline)
    rpass.set_bind_group(0, dev.create_bind_group(layout=pipeline.get_bind_group_layout(0),
                                                  entries=entries))
    rpass.draw(3)
    rpass.end()
    dev.queue.submit([enc.finish()])
    read_back(dev, gpu_target, target)
    return target.levels[0]


def bind_groups(dev: Any, pipeline: Any, groups: dict[int, dict[int, Any]]) -> tuple[list, list]:
    """The bind groups of ``groups`` (group -> binding -> resource, as :func:`run_compute`
    takes group 0's) for ``pipeline``'s layout, as (group, wgpu bind group) pairs, and what
    to read back after the pass (:func:`read_resources`)."""
    made, back = [], []
    for g, resources in sorted(groups.items()):
        entries, more = _entries(dev, resources)
        made.append((g, dev.create_bind_group(layout=pipeline.get_bind_group_layout(g),
                                              entries=entries)))
        back += more
    return made, back


def read_resources(dev: Any, back: list) -> None:
    """Reads storage buffers and storage-format textures a pass wrote back into their host
    arrays (``back`` from :func:`bind_groups`)."""
    _read(dev, back)
