"""Command encoders, compute passes and command buffers. Commands are recorded with WebGPU's
checks; a broken rule is kept and raised by ``finish()`` (where wgpu-native raises it), and a
submit runs the commands in order, each dispatch on asyncshader's runtime."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import numpy as np

from .base import GPUObjectBase
from .buffer import GPUBuffer
from .dispatch import run_dispatch
from .enums import BufferUsage
from .errors import GPUValidationError, invalid
from .pipeline import GPUBindGroup, GPUComputePipeline
from .textures import GPUTexture, TextureUsage, texel_copy

_FINISH = "wgpuCommandEncoderFinish"


class GPUCommandBuffer(GPUObjectBase):
    """Recorded commands, run by ``queue.submit`` (once)."""

    def __init__(self, label: str, device: Any, commands: list, encoder: str) -> None:
        super().__init__(label, device)
        self._commands, self._encoder, self._submitted = commands, encoder, False


class _Recorder(GPUObjectBase):
    """What encoders and passes share: the first broken rule is kept for ``finish()``."""

    def _fail(self, error: GPUValidationError) -> None:
        owner = getattr(self, "_encoder", self)
        if owner._error is None:
            owner._error = error

    def push_debug_group(self, group_label: str) -> None:
        """Accepted (debug groups name nothing here)."""

    def pop_debug_group(self) -> None:
        """Accepted."""

    def insert_debug_marker(self, marker_label: str) -> None:
        """Accepted."""


class GPUCommandEncoder(_Recorder):
    """Records buffer copies, clears and compute passes for one command buffer."""

    def __init__(self, label: str, device: Any) -> None:
        super().__init__(label, device)
        self._commands: list = []
        self._error: GPUValidationError | None = None
        self._open: GPUComputePassEncoder | None = None
        self._passes = 0

    def _locked(self) -> bool:
        if self._open is not None:
            self._fail(invalid(_FINISH, "Encoder is locked by a previously created "
                               "render/compute pass. Before recording any new commands, the "
                               "pass must be ended."))
            return True
        return False

    def begin_compute_pass(self, *, label: str = "",
                           timestamp_writes: Any = None) -> GPUComputePassEncoder:
        """Starts a compute pass (end it before recording anything else)."""
        self._locked()
        self._passes += 1
        self._open = GPUComputePassEncoder(label, self._device, self, self._passes - 1)
        return self._open

    def begin_render_pass(self, **kwargs: Any) -> Any:
        """Refused: render passes do not run on asyncshader.webgpu."""
        raise NotImplementedError("asyncshader.webgpu runs compute only: render passes need "
                                  "rasterization, which it does not have (run fragment "
                                  "shaders with ash.run_fragments)")

    def copy_buffer_to_buffer(self, source: GPUBuffer, source_offset: int,
                              destination: GPUBuffer, destination_offset: int,
                              size: int | None = None) -> None:
        """Copies ``size`` bytes (default: the rest of the source) between buffers."""
        if source_offset % 4:
            raise ValueError("source_offset must be a multiple of 4")
        if destination_offset % 4:
            raise ValueError("destination_offset must be a multiple of 4")
        if size is None:
            size = source.size - source_offset
        elif size % 4:
            raise ValueError("size must be a multiple of 4")
        if not isinstance(source, GPUBuffer) or not isinstance(destination, GPUBuffer):
            raise TypeError("copy_buffer_to_buffer() source and destination must be "
                            "GPUBuffers.")
        if self._locked():
            return
        try:
            source._require(BufferUsage.COPY_SRC, _FINISH)
            destination._require(BufferUsage.COPY_DST, _FINISH)
            if source is destination:
                raise invalid(_FINISH, "Source and destination cannot be the same buffer")
            for buf, off, what in ((source, source_offset, "Source"),
                                   (destination, destination_offset, "Destination")):
                if off + size > buf.size:
                    raise invalid(_FINISH, f"Copy at offset {off} for {size} bytes would end "
                                  f"up overrunning the bounds of the {what} buffer of size "
                                  f"{buf.size}")
        except GPUValidationError as exc:
            return self._fail(exc)
        self._commands.append(("copy", source, source_offset, destination,
                               destination_offset, size))

    def copy_buffer_to_texture(self, source: dict, destination: dict, copy_size: Any) -> None:
        """Copies texels from ``source`` (``buffer``, ``offset``, ``bytes_per_row``, a
        multiple of 256, ``rows_per_image``) into ``destination`` (``texture``,
        ``mip_level``, ``origin``)."""
        self._texel_copy(destination, source, copy_size, True)

    def copy_texture_to_buffer(self, source: dict, destination: dict, copy_size: Any) -> None:
        """Copies the texels of ``source`` (``texture``, ``mip_level``, ``origin``) into
        ``destination`` (``buffer``, ``offset``, ``bytes_per_row``: a multiple of 256,
        ``rows_per_image``)."""
        self._texel_copy(source, destination, copy_size, False)

    def copy_texture_to_texture(self, source: dict, destination: dict, copy_size: Any) -> None:
        """Refused: copy through a buffer (``copy_texture_to_buffer`` then
        ``copy_buffer_to_texture``)."""
        raise NotImplementedError("asyncshader.webgpu does not copy texture to texture: copy "
                                  "through a buffer (copy_texture_to_buffer, then "
                                  "copy_buffer_to_texture)")

    def _texel_copy(self, texture: dict, buffer: dict, size: Any, into: bool) -> None:
        bytes_per_row = int(buffer["bytes_per_row"])
        if bytes_per_row % 256:  # (wgpu-py checks WebGPU's row alignment in the call)
            raise ValueError(f"bytes_per_row ({bytes_per_row}) must be a multiple of 256")
        if not isinstance(texture.get("texture"), GPUTexture):
            raise ValueError("copy texture must be a texture, not a view")
        if self._locked():
            return
        try:
            buffer["buffer"]._require(BufferUsage.COPY_SRC if into else BufferUsage.COPY_DST,
                                      _FINISH)
            copy = texel_copy(texture, buffer, size, TextureUsage.COPY_DST if into
                              else TextureUsage.COPY_SRC, _FINISH, buffer["buffer"].size)
        except GPUValidationError as exc:
            return self._fail(exc)
        self._commands.append(("to_texture" if into else "to_buffer", buffer["buffer"], copy))

    def clear_buffer(self, buffer: GPUBuffer, offset: int = 0, size: int | None = None) -> None:
        """Sets ``size`` bytes (default: the rest) from ``offset`` to zero."""
        if offset % 4:
            raise ValueError("offset must be a multiple of 4")
        if size is not None:
            if size <= 0:
                raise ValueError("size must be > 0")
            if size % 4:
                raise ValueError("size must be a multiple of 4")
            if offset + size > buffer.size:
                raise ValueError("buffer size out of range")
        elif offset > buffer.size:
            raise ValueError("offset is too large")
        if self._locked():
            return
        try:
            buffer._require(BufferUsage.COPY_DST, _FINISH)
        except GPUValidationError as exc:
            return self._fail(exc)
        self._commands.append(("clear", buffer, offset,
                               buffer.size - offset if size is None else size))

    def finish(self, *, label: str = "") -> GPUCommandBuffer:
        """The recorded commands as a command buffer; raises the first broken rule."""
        self._locked()
        if self._error is not None:
            raise self._error
        return GPUCommandBuffer(label, self._device, self._commands, self._label)


class GPUComputePassEncoder(_Recorder):
    """Records dispatches: ``set_pipeline``, ``set_bind_group``, ``dispatch_workgroups``."""

    def __init__(self, label: str, device: Any, encoder: GPUCommandEncoder, index: int) -> None:
        super().__init__(label, device)
        self._encoder, self._index = encoder, index
        self._pipeline: GPUComputePipeline | None = None
        self._groups: dict[int, tuple[GPUBindGroup, tuple[int, ...]]] = {}
        self._dispatches = 0
        self._ended = False

    def _closed(self, call: str = "DispatchWorkgroups") -> bool:
        """A command recorded into a pass after its ``end()`` raises at once (as wgpu-native
        raises it, in the call)."""
        if self._ended:
            raise invalid(f"wgpuComputePassEncoder{call}", "Encoding must not have ended (a "
                          "command was recorded into a compute pass after its end())")
        return False

    def set_pipeline(self, pipeline: GPUComputePipeline) -> None:
        """The pipeline the next dispatches run."""
        if not self._closed("SetPipeline"):
            self._pipeline = pipeline

    def set_bind_group(self, index: int, bind_group: GPUBindGroup,
                       dynamic_offsets_data: Any = (), dynamic_offsets_data_start: Any = None,
                       dynamic_offsets_data_length: Any = None) -> None:
        """Binds ``bind_group`` at group ``index``, with one offset per dynamic binding (in
        binding order)."""
        self._closed("SetBindGroup")
        offsets = list(dynamic_offsets_data)
        if dynamic_offsets_data_start is not None:
            offsets = offsets[dynamic_offsets_data_start:]
        if dynamic_offsets_data_length is not None:
            offsets = offsets[:dynamic_offsets_data_length]
        limit = self._device.limits["max-bind-groups"]
        if index >= limit:
            return self._fail(invalid(_FINISH, f"In a set_bind_group command\n      Bind group "
                                      f"index {index} is greater than the device's configured "
                                      f"`max_bind_groups` limit {limit}"))
        dynamic = bind_group._layout._dynamic
        if len(offsets) != len(dynamic):
            return self._fail(invalid(_FINISH, f"In a set_bind_group command\n      "
                                      f"{bind_group._name()} {index} expects {len(dynamic)} "
                                      f"dynamic offset. However {len(offsets)} dynamic offset "
                                      "were provided."))
        for binding, offset in zip(dynamic, offsets):
            buffer, base, size = bind_group._ranges[binding]
            space = ("uniform" if bind_group._layout._entries[binding]["buffer"]["type"] ==
                     "uniform" else "storage")
            align = self._device.limits[f"min-{space}-buffer-offset-alignment"]
            if offset % align or base + offset + size > buffer.size:
                return self._fail(invalid(_FINISH, f"In a set_bind_group command\n      "
                                          f"Dynamic offset {offset} of binding {binding} is "
                                          f"not a multiple of {align} or takes the binding "
                                          f"past the end of {buffer._name()}"))
        self._groups[index] = (bind_group, tuple(offsets))

    def dispatch_workgroups(self, workgroup_count_x: int, workgroup_count_y: int = 1,
                            workgroup_count_z: int = 1) -> None:
        """Records a dispatch of the current pipeline over (x, y, z) workgroups."""
        counts = (int(workgroup_count_x), int(workgroup_count_y), int(workgroup_count_z))
        ranges = None if self._closed() else self._bound(False)
        if ranges is None:
            return
        limit = self._device.limits["max-compute-workgroups-per-dimension"]
        if any(c > limit for c in counts):
            return self._fail(invalid(_FINISH, f"In a dispatch command, indirect:false\n      "
                                      f"Each current dispatch group size dimension "
                                      f"({list(counts)}) must be less or equal to {limit}"))
        self._record(ranges, counts)

    def dispatch_workgroups_indirect(self, indirect_buffer: GPUBuffer,
                                     indirect_offset: int) -> None:
        """Records a dispatch whose counts are three u32 in ``indirect_buffer`` at
        ``indirect_offset``, read when the dispatch runs."""
        ranges = None if self._closed("DispatchWorkgroupsIndirect") else self._bound(True)
        if ranges is None:
            return
        try:
            indirect_buffer._require(BufferUsage.INDIRECT, _FINISH)
            if indirect_offset % 4 or indirect_offset + 12 > indirect_buffer.size:
                raise invalid(_FINISH, f"In a dispatch command, indirect:true\n      Indirect "
                              f"offset {indirect_offset} is not a multiple of 4 or the 12 "
                              f"bytes from it overrun {indirect_buffer._name()} of size "
                              f"{indirect_buffer.size}")
        except GPUValidationError as exc:
            return self._fail(exc)
        self._record(ranges, (indirect_buffer, int(indirect_offset)))

    def _record(self, ranges: dict, counts: Any) -> None:
        pipeline = self._pipeline
        name = (f"dispatch {self._dispatches} of pass {self._index}"
                f"{f' {self._label!r}' if self._label else ''}: entry point "
                f"{pipeline._entry!r} of {pipeline._module.name}"
                f"{f' (pipeline {pipeline.label!r})' if pipeline.label else ''}")
        self._dispatches += 1
        self._encoder._commands.append(("dispatch", pipeline, ranges, counts, name,
                                        self._handles))

    def _bound(self, indirect: bool) -> dict | None:
        """The buffer ranges the current pipeline's resources are bound to, by (group,
        binding), or None after recording why the dispatch is invalid."""
        head = f"In a dispatch command, indirect:{str(indirect).lower()}\n      "
        pipeline = self._pipeline
        if pipeline is None:
            self._fail(invalid(_FINISH, head + "Compute pipeline must be set"))
            return None
        for index, layout in enumerate(pipeline._layout._layouts):
            bound = self._groups.get(index)
            if bound is None or not bound[0]._layout._compatible(layout):
                what = "expects a BindGroup to be set" if bound is None else \
                    "expects a BindGroup compatible with its layout"
                self._fail(invalid(_FINISH, head + f"The current set {pipeline._name()} "
                                   f"{what} at index {index}"))
                return None
        ranges: dict[tuple[int, int], tuple[GPUBuffer, int, int]] = {}
        self._handles: dict[tuple[int, int], Any] = {}
        for r in pipeline._resources:
            group, offsets = self._groups[r.group]
            if r.binding in group._handles:
                self._handles[r.group, r.binding] = group._handles[r.binding]
                continue
            dynamic = group._layout._dynamic
            buffer, offset, size = group._ranges[r.binding]
            if r.binding in dynamic:
                offset += offsets[dynamic.index(r.binding)]
            if r.min_size and size < r.min_size:
                self._fail(invalid(_FINISH, head + f"Buffer is bound with size {size} where "
                                   f"the shader expects {r.min_size} in group[{r.group}] "
                                   f"compact index {r.binding} ({r.name})"))
                return None
            ranges[r.group, r.binding] = (buffer, offset, size, r.access == "read_write")
        conflict = _conflicting(ranges.values())
        if conflict is not None:
            self._fail(invalid(_FINISH, head + f"Attempted to use {conflict._name()} with "
                               "conflicting usages: it is bound as a read_write storage "
                               "buffer and as another binding of the same dispatch"))
            return None
        return {k: v[:3] for k, v in ranges.items()}

    def end(self) -> None:
        """Ends the pass; the encoder records again."""
        if self._encoder._open is self:
            self._encoder._open = None
        self._ended = True


def _conflicting(ranges: Any) -> GPUBuffer | None:
    """A buffer bound writable and also otherwise in one dispatch (WebGPU's usage scope
    rule: a writable storage binding excludes every other use of the buffer)."""
    uses: dict[int, list[bool]] = {}
    buffers = {}
    for buffer, _, _, writable in ranges:
        uses.setdefault(id(buffer), []).append(writable)
        buffers[id(buffer)] = buffer
    for key, writes in uses.items():
        if len(writes) > 1 and any(writes) and not all(writes):
            return buffers[key]
    return None


def buffers_of(buffer: GPUCommandBuffer) -> Iterator[GPUBuffer]:
    """Every buffer the commands of ``buffer`` use."""
    for command in buffer._commands:
        if command[0] == "dispatch":
            yield from (b for b, _, _ in command[2].values())
            if isinstance(command[3][0], GPUBuffer):
                yield command[3][0]
        else:
            yield from (x for x in command[1:] if isinstance(x, GPUBuffer))


def execute(device: Any, buffer: GPUCommandBuffer, submit: str) -> None:
    """Runs one command buffer's commands in order (``submit`` names it in reports)."""
    for command in buffer._commands:
        kind = command[0]
        if kind == "copy":
            _, src, so, dst, do, size = command
            dst._data[do:do + size] = src._data[so:so + size]
        elif kind == "clear":
            _, buf, off, size = command
            buf._data[off:off + size] = 0
        elif kind == "to_texture":
            command[2].into_texture(command[1]._data)
        elif kind == "to_buffer":
            command[2].out_of_texture(command[1]._data)
        else:
            _, pipeline, ranges, counts, name, handles = command
            if isinstance(counts[0], GPUBuffer):
                words = counts[0]._data[counts[1]:counts[1] + 12].view(np.uint32)
                counts = tuple(int(w) for w in words)
                if any(c > device.limits["max-compute-workgroups-per-dimension"]
                       for c in counts):
                    continue  # (WebGPU skips an indirect dispatch over the limit)
            if 0 in counts:
                continue
            views = {k: b._data[o:o + s] for k, (b, o, s) in ranges.items()}
            views.update(handles)
            run_dispatch(device.asyncshader, pipeline, views, counts,
                         f"{submit}, {name}, workgroups {counts}")
