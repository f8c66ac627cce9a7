"""GPUDevice and GPUQueue: objects are made with WebGPU's checks; a submit runs its command
buffers at once, in order (so every map and read afterwards sees their results)."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import numpy as np

from .base import GPUObjectBase, as_bytes
from .buffer import GPUBuffer, check_usage
from .commands import GPUCommandBuffer, GPUCommandEncoder, buffers_of, execute
from .dispatch import AsyncShaderOptions
from .enums import BufferUsage, flag_value
from .errors import invalid
from .pipeline import (
    GPUBindGroup,
    GPUBindGroupLayout,
    GPUComputePipeline,
    GPUPipelineLayout,
    GPUShaderModule,
)
from .promise import GPUPromise


class GPUQueue(GPUObjectBase):
    """The device's queue: ``submit``, ``write_buffer``, ``read_buffer``."""

    def __init__(self, label: str, device: Any) -> None:
        super().__init__(label, device)
        self._submits = 0

    def submit(self, command_buffers: list[GPUCommandBuffer]) -> None:
        """Runs the command buffers, in order; each dispatch on asyncshader's runtime with the
        device's options (``device.asyncshader``). A shader error, or under ``strict`` a
        finding, raises here, naming the dispatch."""
        where = "wgpuQueueSubmit"
        for cb in command_buffers:
            if cb._submitted:
                raise invalid(where, "This command buffer has already been submitted.")
            for buffer in buffers_of(cb):
                self._usable(buffer, where)
        self._submits += 1
        for k, cb in enumerate(command_buffers):
            cb._submitted = True
            execute(self._device, cb, f"submit {self._submits}" + (
                f", command buffer {k}" if len(command_buffers) > 1 else ""))

    @staticmethod
    def _usable(buffer: GPUBuffer, where: str) -> None:
        if buffer._destroyed:
            raise invalid(where, f"{buffer._name()} has been destroyed")
        if buffer._mapped[2]:
            raise invalid(where, f"{buffer._name()} is still mapped")

    def write_buffer(self, buffer: GPUBuffer, buffer_offset: int, data: Any,
                     data_offset: int = 0, size: int | None = None) -> None:
        """Writes ``data`` (bytes from ``data_offset``, ``size`` of them; default all) into
        ``buffer`` at ``buffer_offset``."""
        raw = as_bytes(data)
        nbytes = raw.nbytes
        length = nbytes - data_offset if not size else int(size)
        if not 0 <= buffer_offset < buffer.size:
            raise ValueError("Invalid buffer_offset")
        if not 0 <= data_offset < nbytes:
            raise ValueError("Invalid data_offset")
        if not (0 <= length <= nbytes - data_offset) or length > buffer.size - buffer_offset:
            raise ValueError("Invalid data_length")
        where = "wgpuQueueWriteBuffer"
        buffer._require(BufferUsage.COPY_DST, where)
        if buffer_offset % 4:
            raise invalid(where, f"Buffer offset {buffer_offset} is not aligned to block size "
                          "or `COPY_BUFFER_ALIGNMENT`")
        if length % 4:
            raise invalid(where, f"Copy size {length} does not respect `COPY_BUFFER_ALIGNMENT`")
        self._usable(buffer, where)
        buffer._data[buffer_offset:buffer_offset + length] = np.frombuffer(
            raw, np.uint8, length, data_offset)

    def read_buffer(self, buffer: GPUBuffer, buffer_offset: int = 0,
                    size: int | None = None) -> memoryview:
        """A copy of ``size`` bytes (default: the rest) of ``buffer`` from ``buffer_offset``
        (the buffer needs ``COPY_SRC``)."""
        length = buffer.size - buffer_offset if not size else int(size)
        if not 0 <= buffer_offset < buffer.size:
            raise ValueError("Invalid buffer_offset")
        if length > buffer.size - buffer_offset:
            raise ValueError("Invalid data_length")
        buffer._require(BufferUsage.COPY_SRC, "wgpuCommandEncoderFinish")
        self._usable(buffer, "wgpuQueueSubmit")
        return memoryview(bytearray(buffer._data[buffer_offset:buffer_offset + length]))

    def on_submitted_work_done_sync(self) -> None:
        """Returns at once: a submit has finished its work when it returns."""

    def on_submitted_work_done_async(self) -> GPUPromise:
        """:meth:`on_submitted_work_done_sync` as a promise (settled at once)."""
        return GPUPromise("on_submitted_work_done")


class GPUDevice(GPUObjectBase):
    """A WebGPU device whose dispatches run on asyncshader. ``device.asyncshader`` holds the
    options of its dispatches and what they found (:class:`AsyncShaderOptions`)."""

    def __init__(self, label: str, adapter: Any, features: frozenset, limits: dict,
                 options: AsyncShaderOptions) -> None:
        super().__init__(label, self)
        self._adapter, self._features, self._limits = adapter, features, limits
        self._queue = GPUQueue("", self)
        #: asyncshader's options and records for this device's dispatches
        self.asyncshader = options

    @property
    def features(self) -> set:
        """The features granted (WebGPU names)."""
        return set(self._features)

    @property
    def limits(self) -> dict:
        """The limits granted, by wgpu-py's kebab-case names."""
        return self._limits

    @property
    def queue(self) -> GPUQueue:
        """The device's queue."""
        return self._queue

    @property
    def adapter(self) -> Any:
        return self._adapter

    @property
    def adapter_info(self) -> Any:
        return self._adapter.info

    @contextmanager
    def options(self, **options: Any) -> Iterator[GPUDevice]:
        """Runs the block's dispatches with other asyncshader options (``schedule=``,
        ``sanitize=``, ``subgroup_size=``, ``watchdog=``, ``strict=``), restored after it."""
        opts = self.asyncshader
        known = ("schedule", "sanitize", "subgroup_size", "watchdog", "strict")
        for key in options:
            if key not in known:
                raise TypeError(f"device.options({key}=...): the options are "
                                f"{', '.join(known)}")
        before = {k: getattr(opts, k) for k in options}
        for key, value in options.items():
            setattr(opts, key, list(value) if isinstance(value, tuple) else value)
        try:
            yield self
        finally:
            for key, value in before.items():
                setattr(opts, key, value)

    def create_buffer(self, *, label: str = "", size: int, usage: int | str,
                      mapped_at_creation: bool = False) -> GPUBuffer:
        """A buffer of ``size`` zero bytes."""
        usage = flag_value(BufferUsage, usage)
        check_usage(usage, int(size), mapped_at_creation, self._limits)
        return GPUBuffer(label, self, int(size), usage, mapped_at_creation)

    def create_buffer_with_data(self, *, label: str = "", data: Any,
                                usage: int | str) -> GPUBuffer:
        """A buffer holding ``data``'s bytes (its size rounded up to 4)."""
        raw = as_bytes(data)
        usage = flag_value(BufferUsage, usage)
        size = (raw.nbytes + 3) & ~3
        check_usage(usage, size, True, self._limits)
        buffer = GPUBuffer(label, self, size, usage, False)
        buffer._data[:raw.nbytes] = np.frombuffer(raw, np.uint8)
        return buffer

    def create_shader_module(self, *, label: str = "", code: str, **unused: Any
                             ) -> GPUShaderModule:
        """A WGSL module (``code``), checked and generated by ``ash.load_wgsl``; invalid WGSL
        is a GPUValidationError with the compiler's diagnostic."""
        return GPUShaderModule(label, self, code)

    def create_bind_group_layout(self, *, label: str = "", entries: list
                                 ) -> GPUBindGroupLayout:
        return GPUBindGroupLayout(label, self, list(entries))

    def create_pipeline_layout(self, *, label: str = "", bind_group_layouts: list
                               ) -> GPUPipelineLayout:
        return GPUPipelineLayout(label, self, list(bind_group_layouts))

    def create_bind_group(self, *, label: str = "", layout: GPUBindGroupLayout,
                          entries: list) -> GPUBindGroup:
        return GPUBindGroup(label, self, layout, list(entries))

    def create_compute_pipeline(self, *, label: str = "", layout: Any,
                                compute: dict) -> GPUComputePipeline:
        """A compute pipeline: ``compute={"module", "entry_point", "constants"}``;
        ``layout="auto"`` builds the bind group layouts from the shader."""
        return GPUComputePipeline(label, self, layout, compute)

    def create_compute_pipeline_async(self, *, label: str = "", layout: Any,
                                      compute: dict) -> GPUPromise:
        """:meth:`create_compute_pipeline` as a promise (settled at once)."""
        return GPUPromise.of("create_compute_pipeline", lambda: self.create_compute_pipeline(
            label=label, layout=layout, compute=compute))

    def create_render_pipeline(self, **kwargs: Any) -> Any:
        """Refused: asyncshader.webgpu runs compute pipelines only."""
        raise NotImplementedError(
            "asyncshader.webgpu runs compute only: a render pipeline needs vertex processing "
            "and rasterization, which asyncshader does not have. Run fragment shaders with "
            "ash.run_fragments, or this program on a GPU")

    def create_render_pipeline_async(self, **kwargs: Any) -> Any:
        return self.create_render_pipeline(**kwargs)

    def create_command_encoder(self, *, label: str = "") -> GPUCommandEncoder:
        return GPUCommandEncoder(label, self)

    def create_texture(self, **kwargs: Any) -> Any:
        """Refused: textures do not run on asyncshader.webgpu yet."""
        raise NotImplementedError("asyncshader.webgpu does not run textures yet (buffers "
                                  "only)")

    create_sampler = create_texture

    def destroy(self) -> None:
        """Accepted (a CPU device holds nothing to free)."""
