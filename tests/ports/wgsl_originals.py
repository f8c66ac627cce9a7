"""Runs an original public WGSL shader (tests/data/ports/, listed in tests/data/README.md) on a
WebGPU device with wgpu directly: the oracle a port is compared with. Bindings are given by
their WGSL names; the module's own declarations give each one's group, binding and address
space, so a port's test passes what the original declares and nothing is re-typed here."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import numpy as np

DATA = Path(__file__).resolve().parent.parent / "data" / "ports"
_DECL = re.compile(r"@(group|binding)\((\d+)\)\s*@(group|binding)\((\d+)\)\s*"
                   r"var<(\w+)(?:,\s*(\w+))?>\s*(\w+)")


def source(name: str) -> str:
    """The original's text, as copied (tests/data/ports/NAME)."""
    return (DATA / name).read_text(encoding="utf-8")


def declarations(wgsl: str) -> dict[str, tuple[int, int, str, str]]:
    """Each module-scope binding: name -> (group, binding, address space, access)."""
    out = {}
    for m in _DECL.finditer(wgsl):
        numbers = {m.group(1): int(m.group(2)), m.group(3): int(m.group(4))}
        space, access, name = m.group(5), m.group(6) or "read", m.group(7)
        out[name] = (numbers["group"], numbers["binding"], space, access)
    return out


def run(device: Any, wgsl: str, entry: str, workgroups: tuple[int, ...] | int,
        constants: dict[str, float] | None = None, **bindings: Any) -> dict[str, np.ndarray]:
    """Dispatches ``entry`` of the WGSL module ``wgsl`` (an original's text: :func:`source`)
    over ``workgroups`` with ``bindings``
    (numpy arrays for storage buffers, bytes or arrays for uniforms, laid out as the original
    declares them); returns every ``read_write`` storage buffer as read back, with the dtype
    and shape of the array given for it."""
    import wgpu

    decls = declarations(wgsl)
    assert set(bindings) <= set(decls), (set(bindings), set(decls))
    usage = wgpu.BufferUsage
    groups: dict[int, list] = {}
    outputs = {}
    for var, value in bindings.items():
        group, binding, space, access = decls[var]
        data = value if isinstance(value, bytes) else np.ascontiguousarray(value).tobytes()
        data += bytes(-len(data) % 16)
        flags = usage.UNIFORM if space == "uniform" else usage.STORAGE | usage.COPY_SRC
        buf = device.create_buffer_with_data(data=data, usage=flags)
        groups.setdefault(group, []).append(
            {"binding": binding, "resource": {"buffer": buf, "offset": 0, "size": buf.size}})
        if space == "storage" and access == "read_write":
            outputs[var] = (buf, value)
    compute = {"module": device.create_shader_module(code=wgsl), "entry_point": entry}
    if constants:
        compute["constants"] = constants
    pipeline = device.create_compute_pipeline(layout="auto", compute=compute)
    encoder = device.create_command_encoder()
    cpass = encoder.begin_compute_pass()
    cpass.set_pipeline(pipeline)
    for group, entries in sorted(groups.items()):
        layout = pipeline.get_bind_group_layout(group)
        cpass.set_bind_group(group, device.create_bind_group(layout=layout, entries=entries))
    size = (workgroups,) if isinstance(workgroups, int) else tuple(workgroups)
    cpass.dispatch_workgroups(*size, *(1,) * (3 - len(size)))
    cpass.end()
    device.queue.submit([encoder.finish()])
    result = {}
    for var, (buf, like) in outputs.items():
        raw = np.frombuffer(device.queue.read_buffer(buf), like.dtype)
        result[var] = raw[:like.size].reshape(like.shape).copy()
    return result
