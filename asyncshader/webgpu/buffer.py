"""GPUBuffer: bytes in a numpy ``uint8`` array, WebGPU's usage flags and mapping states with
wgpu-py's checks (its ``RuntimeError``/``ValueError`` for the mapping calls' misuse, as it
raises them before reaching the device; :class:`GPUValidationError` for WebGPU's rules)."""

from __future__ import annotations

from typing import Any

import numpy as np

from .base import GPUObjectBase, as_bytes
from .enums import BufferMapState, BufferUsage, MapMode, flag_value
from .errors import invalid
from .promise import GPUPromise


class GPUBuffer(GPUObjectBase):
    """WebGPU's GPUBuffer: ``size`` bytes with ``usage`` flags. Its contents live in a numpy
    ``uint8`` array that the shaders of a dispatch read and write in place."""

    def __init__(self, label: str, device: Any, size: int, usage: int,
                 mapped_at_creation: bool) -> None:
        super().__init__(label, device)
        self._size, self._usage = size, usage
        self._data = np.zeros(size, np.uint8)
        self._destroyed = False
        #: the mapped range and mode: (start, end, mode), mode 0 when unmapped
        self._mapped = (0, size, MapMode.WRITE) if mapped_at_creation else (0, 0, 0)
        self._views: list[memoryview] = []  # (read_mapped(copy=False)'s: released at unmap)

    @property
    def size(self) -> int:
        """The buffer's size in bytes."""
        return self._size

    @property
    def usage(self) -> int:
        """Its ``BufferUsage`` flags."""
        return self._usage

    @property
    def map_state(self) -> str:
        """``"unmapped"`` or ``"mapped"`` (a map here completes at once: never ``"pending"``)."""
        return BufferMapState.mapped if self._mapped[2] else BufferMapState.unmapped

    def _check_range(self, offset: int | None, size: int | None) -> tuple[int, int]:
        start, end, mode = self._mapped
        offset = (start if mode else 0) if offset is None else int(offset)
        if size is None:
            size = (end if mode else self._size) - offset
        size = int(size)
        if offset < 0:
            raise ValueError("Mapped offset must not be smaller than zero.")
        if offset % 8:
            raise ValueError("Mapped offset must be a multiple of 8.")
        if size < 1:
            raise ValueError("Mapped size must be larger than zero.")
        if size % 4:
            raise ValueError("Mapped size must be a multiple of 4.")
        if offset + size > self._size:
            raise ValueError("Mapped range must not extend beyond total buffer size.")
        return offset, size

    def map_sync(self, mode: int | str, offset: int = 0, size: int | None = None) -> None:
        """WebGPU's ``mapAsync``, waited for: maps ``[offset, offset + size)`` for reading
        (``MapMode.READ``, needs ``MAP_READ``) or writing (``MapMode.WRITE``, ``MAP_WRITE``).
        Every submitted command has already run, so the bytes are current."""
        mode = flag_value(MapMode, mode)
        offset, size = self._check_range(offset, size)
        if self._mapped[2]:
            raise RuntimeError(f"Can only map a buffer if its currently unmapped, not "
                               f"{self.map_state!r}")
        need = BufferUsage.MAP_READ if mode == MapMode.READ else BufferUsage.MAP_WRITE
        if mode not in (MapMode.READ, MapMode.WRITE):
            raise invalid("wgpuBufferMapAsync", f"Map mode {mode} is neither READ nor WRITE")
        self._require(need, "wgpuBufferMapAsync")
        self._mapped = (offset, offset + size, mode)

    def map_async(self, mode: int | str, offset: int = 0,
                  size: int | None = None) -> GPUPromise:
        """:meth:`map_sync` as a promise (settled at once); a buffer not unmapped rejects
        it, as wgpu-py's does."""
        offset, size = self._check_range(offset, size)
        return GPUPromise.of("buffer.map", lambda: self.map_sync(mode, offset, size))

    def unmap(self) -> None:
        """Ends the mapping; the buffer can be used by commands again."""
        if not self._mapped[2]:
            raise RuntimeError("Can only unmap a buffer if its currently mapped.")
        self._mapped = (0, 0, 0)
        for view in self._views:  # (the mapped memory is gone, as on a GPU)
            try:
                view.release()
            except BufferError:  # (a view derived from it holds it)
                pass
        self._views = []

    def _mapped_range(self, offset: int | None, size: int | None, verb: str,
                      mode: int) -> tuple[int, int]:
        if not self._mapped[2]:
            raise RuntimeError(f"Can only {verb} a buffer if its mapped.")
        if not self._mapped[2] & mode:
            word = "read" if mode == MapMode.READ else "write"
            raise RuntimeError(f"Can only {word} from a buffer if its mapped in {word} mode.")
        offset, size = self._check_range(offset, size)
        if offset < self._mapped[0] or offset + size > self._mapped[1]:
            raise ValueError(f"The range for buffer {'reading' if mode == 1 else 'writing'} "
                             "is not contained in the currently mapped range.")
        return offset, size

    def read_mapped(self, buffer_offset: int | None = None, size: int | None = None, *,
                    copy: bool = True) -> memoryview:
        """The mapped bytes (a copy, or with ``copy=False`` a read-only view, released when
        the buffer is unmapped)."""
        offset, size = self._mapped_range(buffer_offset, size, "read from", MapMode.READ)
        view = self._data[offset:offset + size]
        if copy:
            return memoryview(bytearray(view.tobytes()))
        self._views.append(memoryview(view).toreadonly())
        return self._views[-1]

    def write_mapped(self, data: Any, buffer_offset: int | None = None) -> None:
        """Writes ``data`` (bytes, a numpy array, ...) into the mapped range."""
        raw = as_bytes(data)
        offset, _ = self._mapped_range(buffer_offset, (raw.nbytes + 3) & ~3, "write to",
                                       MapMode.WRITE)
        self._data[offset:offset + raw.nbytes] = np.frombuffer(raw, np.uint8)

    def destroy(self) -> None:
        """Frees the buffer: commands that use it afterwards are validation errors."""
        self._destroyed = True
        self._mapped = (0, 0, 0)

    def _require(self, flags: int, where: str) -> None:
        """A validation error unless the buffer is alive and has every usage in ``flags``."""
        if self._destroyed:
            raise invalid(where, f"{self._name()} has been destroyed")
        if self._usage & flags != flags:
            raise invalid(where, f"Usage flags {usage_names(self._usage)} of {self._name()} "
                          f"do not contain required usage flags {usage_names(flags)}")


def usage_names(usage: int) -> str:
    """``BufferUsages(COPY_SRC | STORAGE)``: flags as wgpu-native writes them."""
    names = [n for n, v in BufferUsage.__members__.items() if usage & v]
    return f"BufferUsages({' | '.join(names) or hex(usage)})"


def check_usage(usage: int, size: int, mapped_at_creation: bool, limits: dict) -> None:
    """WebGPU's createBuffer rules."""
    where = "wgpuDeviceCreateBuffer"
    if usage == 0 or usage >= BufferUsage.QUERY_RESOLVE * 2:
        raise invalid(where, f"Invalid usage flags BufferUsages({usage:#x})")
    maps = usage & (BufferUsage.MAP_READ | BufferUsage.MAP_WRITE)
    if maps == BufferUsage.MAP_READ | BufferUsage.MAP_WRITE or (
            maps == BufferUsage.MAP_READ and usage & ~(maps | BufferUsage.COPY_DST)) or (
            maps == BufferUsage.MAP_WRITE and usage & ~(maps | BufferUsage.COPY_SRC)):
        raise invalid(where, f"`MAP` usage can only be combined with the opposite `COPY`, "
                      f"requested {usage_names(usage)}")
    if size > limits["max-buffer-size"]:
        raise invalid(where, f"Buffer size {size} is greater than the maximum buffer size "
                      f"({limits['max-buffer-size']})")
    if mapped_at_creation and size % 4:
        raise invalid(where, "Buffers that are mapped at creation have to be aligned to "
                      "`COPY_BUFFER_ALIGNMENT`")
