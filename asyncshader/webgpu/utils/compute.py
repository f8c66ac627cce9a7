"""``compute_with_buffers``: wgpu-py's one-call compute helper, on asyncshader's device."""

from __future__ import annotations

import ctypes
from typing import Any

from ..enums import BufferBindingType, BufferUsage, ShaderStage
from .device import get_default_device

#: the memoryview formats an output may be cast to, with their sizes
FORMAT_SIZES = {"b": 1, "B": 1, "h": 2, "H": 2, "i": 4, "I": 4, "e": 2, "f": 4}


def _output_info(key: Any, descr: Any) -> dict:
    """An output description (bytes, ``(shape..., format)``, ``"NxF"`` or a ctypes array
    type) as its length, size and how to cast the result."""
    if not isinstance(key, int):
        raise TypeError("keys of output_arrays must be int.")
    if isinstance(descr, str) and "x" in descr:
        descr = tuple(descr.split("x"))
    if isinstance(descr, int):
        return {"length": descr, "nbytes": descr, "format": "B", "shape": (descr,)}
    if isinstance(descr, tuple):
        if descr[-1] not in FORMAT_SIZES:
            raise ValueError(f"Invalid format for output array {key}: {descr[-1]}")
        shape = tuple(int(i) for i in descr[:-1])
        if not (shape and all(i > 0 for i in shape)):
            raise ValueError(f"Invalid shape for output array {key}: {shape}")
        nbytes = FORMAT_SIZES[descr[-1]]
        for i in shape:
            nbytes *= i
        return {"length": shape[0], "nbytes": nbytes, "format": descr[-1], "shape": shape}
    if isinstance(descr, type) and issubclass(descr, ctypes.Array):
        return {"length": descr._length_, "nbytes": ctypes.sizeof(descr), "ctypes": descr}
    raise TypeError(f"Invalid value for output array description: {descr}")


def compute_with_buffers(input_arrays: dict, output_arrays: dict, shader: str,
                         constants: dict | None = None, n: Any = None) -> dict:
    """Runs the WGSL compute ``shader``'s ``main`` with storage buffers at group 0: inputs
    ``{binding: array}`` (read-only unless also outputs), outputs ``{binding: size or (shape...,
    format)}``, over ``n`` workgroups (an int or (x, y, z); default the first output's length).
    Returns ``{binding: memoryview}`` of the outputs, as wgpu-py's does."""
    if not isinstance(input_arrays, dict):
        raise TypeError("input_arrays must be a dict.")
    for key, array in input_arrays.items():
        if not isinstance(key, int):
            raise TypeError("keys of input_arrays must be int.")
        memoryview(array)
    if not isinstance(output_arrays, dict) or not output_arrays:
        raise TypeError("output_arrays must be a nonempty dict.")
    infos = {key: _output_info(key, d) for key, d in output_arrays.items()}
    if n is None:
        counts = (next(iter(infos.values()))["length"], 1, 1)
    elif isinstance(n, int):
        counts = (int(n), 1, 1)
    elif isinstance(n, tuple) and len(n) == 3:
        counts = tuple(int(i) for i in n)
    else:
        raise TypeError("compute_with_buffers: n must be None, an int, or 3-int tuple.")
    if not all(i >= 1 for i in counts):
        raise ValueError("compute_with_buffers: n value(s) must be >= 1.")
    device = get_default_device()
    module = device.create_shader_module(code=shader)
    buffers = {}
    for key, array in input_arrays.items():
        usage = BufferUsage.STORAGE | (BufferUsage.COPY_SRC if key in infos else 0)
        buffers[key] = device.create_buffer_with_data(data=array, usage=usage)
    for key, info in infos.items():
        if key not in buffers:
            buffers[key] = device.create_buffer(
                size=info["nbytes"], usage=BufferUsage.STORAGE | BufferUsage.COPY_SRC)
    layout = device.create_bind_group_layout(entries=[
        {"binding": key, "visibility": ShaderStage.COMPUTE,
         "buffer": {"type": BufferBindingType.storage if key in infos
                    else BufferBindingType.read_only_storage}} for key in buffers])
    group = device.create_bind_group(layout=layout, entries=[
        {"binding": key, "resource": {"buffer": b, "offset": 0, "size": b.size}}
        for key, b in buffers.items()])
    compute = {"module": module, "entry_point": "main"}
    if constants:
        compute["constants"] = constants
    pipeline = device.create_compute_pipeline(
        layout=device.create_pipeline_layout(bind_group_layouts=[layout]), compute=compute)
    encoder = device.create_command_encoder()
    compute_pass = encoder.begin_compute_pass()
    compute_pass.set_pipeline(pipeline)
    compute_pass.set_bind_group(0, group)
    compute_pass.dispatch_workgroups(*counts)
    compute_pass.end()
    device.queue.submit([encoder.finish()])
    out = {}
    for key, info in infos.items():
        data = device.queue.read_buffer(buffers[key])
        out[key] = (info["ctypes"].from_buffer(data) if "ctypes" in info
                    else data.cast(info["format"], shape=info["shape"]))
    return out
